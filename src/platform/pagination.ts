import { z } from "@hono/zod-openapi";
import { hmacSha256, timingSafeEqual } from "./crypto";
import { base64url, fromBase64url, utf8 } from "./encoding";
import { ApiError } from "./errors";

/*
 * Opaque, signed, snapshot-pinned cursors.
 * A cursor is base64url(JSON payload) followed by a 22-char base64url MAC (128 bits of HMAC-SHA256).
 * The MAC covers the payload together with the tenant and the collection binding (collection name plus the
 * list's filters), neither of which is in the payload: a cursor replayed by another tenant, on another
 * collection or with other filters fails exactly like a tampered one. The payload pins the snapshot time the
 * traversal started at, so pages never shift while a client walks them.
 */

const MAC_LENGTH = 22;
export const CURSOR_MAX_LENGTH = 256;
export const CURSOR_TTL_MS = 24 * 60 * 60 * 1000;
const VERSION = 1;

export interface CursorPosition {
  /** Snapshot time (ms) the traversal started at; rows created later are not part of it. */
  snapshot: number;
  /** The sort key of the last row served. */
  after: { createdAt: number; id: string };
}

export interface CursorBinding {
  tenantId: string;
  /** Collection name plus a canonical form of the filters, e.g. `api_keys?status=active`. */
  collection: string;
}

function macInput(binding: CursorBinding, payload: string): string {
  return `svc.cursor.v${VERSION}\n${binding.tenantId}\n${binding.collection}\n${payload}`;
}

export async function encodeCursor(secret: string, binding: CursorBinding, position: CursorPosition, now = Date.now()): Promise<string> {
  const payload = base64url(
    utf8(JSON.stringify([VERSION, position.snapshot, now + CURSOR_TTL_MS, position.after.createdAt, position.after.id])),
  );
  const mac = base64url((await hmacSha256(secret, macInput(binding, payload))).slice(0, 16));
  return payload + mac;
}

/** The one answer for every unusable cursor, whatever was wrong with it. */
export function invalidCursor(): ApiError {
  return new ApiError("svc.cursor.invalid", "The cursor is not valid for this list. Start again without a cursor.", {
    fieldDetails: [{ location: "query", field: "cursor", code: "invalid_cursor", message: "Unusable cursor." }],
  });
}

export async function decodeCursor(secret: string, binding: CursorBinding, cursor: string, now = Date.now()): Promise<CursorPosition> {
  if (cursor.length <= MAC_LENGTH || cursor.length > CURSOR_MAX_LENGTH) throw invalidCursor();
  const payload = cursor.slice(0, -MAC_LENGTH);
  const presented = fromBase64url(cursor.slice(-MAC_LENGTH));
  const expected = (await hmacSha256(secret, macInput(binding, payload))).slice(0, 16);
  if (!presented || !timingSafeEqual(presented, expected)) throw invalidCursor();
  const bytes = fromBase64url(payload);
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder().decode(bytes ?? new Uint8Array()));
  } catch {
    throw invalidCursor();
  }
  if (!Array.isArray(parsed) || parsed.length !== 5) throw invalidCursor();
  const [version, snapshot, expiresAt, createdAt, id] = parsed as unknown[];
  if (
    version !== VERSION ||
    typeof snapshot !== "number" ||
    typeof expiresAt !== "number" ||
    typeof createdAt !== "number" ||
    typeof id !== "string" ||
    expiresAt <= now
  ) {
    throw invalidCursor();
  }
  return { snapshot, after: { createdAt, id } };
}

/** The MAC part of a well-formed cursor (what DELETE /v1/history/snapshots records), or null. */
export function cursorMac(cursor: string): string | null {
  return cursor.length > MAC_LENGTH && cursor.length <= CURSOR_MAX_LENGTH && /^[A-Za-z0-9_-]+$/.test(cursor) ? cursor.slice(-MAC_LENGTH) : null;
}

/** Page request after decoding: where to start and which snapshot to read. */
export interface PageRequest {
  snapshot: number;
  after: CursorPosition["after"] | null;
  limit: number;
}

export async function pageRequest(
  secret: string | undefined,
  binding: CursorBinding,
  query: { cursor?: string | undefined; limit: number },
  now = Date.now(),
  isReleased?: (mac: string) => Promise<boolean>,
): Promise<PageRequest> {
  if (!query.cursor) return { snapshot: now, after: null, limit: query.limit };
  if (!secret) throw new ApiError("svc.dependency.unavailable", "Cursor verification is unavailable: no cursor secret is configured.");
  const position = await decodeCursor(secret, binding, query.cursor, now);
  if (isReleased && (await isReleased(query.cursor.slice(-MAC_LENGTH)))) throw invalidCursor();
  return { snapshot: position.snapshot, after: position.after, limit: query.limit };
}

/**
 * Turns `limit + 1` fetched rows into one page and the cursor of the next, if any.
 * Invariant: the next cursor carries the same snapshot as the page request.
 */
export async function pageOf<Row extends { createdAt: number; id: string }>(
  secret: string | undefined,
  binding: CursorBinding,
  request: PageRequest,
  rows: Row[],
): Promise<{ rows: Row[]; nextCursor: string | null }> {
  if (rows.length <= request.limit) return { rows, nextCursor: null };
  const page = rows.slice(0, request.limit);
  const last = page[page.length - 1]!;
  if (!secret) throw new ApiError("svc.dependency.unavailable", "Cursor signing is unavailable: no cursor secret is configured.");
  const nextCursor = await encodeCursor(secret, binding, { snapshot: request.snapshot, after: { createdAt: last.createdAt, id: last.id } });
  return { rows: page, nextCursor };
}

/** Query parameters shared by list operations; `max` and `fallback` per SPEC "Limits". */
export function pageQuerySchema(max: number, fallback: number) {
  return {
    // Shape rules are checked by decodeCursor, so every unusable cursor gets the same 422 body.
    cursor: z.string().optional().openapi({
      description:
        "Opaque cursor from the previous page's `next_cursor` (`^[A-Za-z0-9_-]+$`, at most 256 chars). Bound to this tenant, list and filters; valid for 24 hours.",
    }),
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(max)
      .default(fallback)
      .openapi({ description: `Page size, 1 to ${max}.`, example: fallback }),
  };
}

export const NextCursorSchema = z
  .string()
  .nullable()
  .openapi({ description: "Cursor of the next page, or null on the last page. Pages are snapshot-consistent: rows created after the first page are not included." });
