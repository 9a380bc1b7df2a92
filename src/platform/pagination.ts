import { z } from "@hono/zod-openapi";
import { base64url, fromBase64url, utf8 } from "./bytes";
import { hmacSha256, timingSafeEqual } from "./crypto";
import { ApiError } from "./errors";

/*
 * Opaque, signed, snapshot-pinned cursors.
 * A cursor is base64url(JSON payload) followed by a 22-char base64url MAC (128 bits of HMAC-SHA256 over the
 * tenant and the payload). The payload names the traversal (random, minted with its first page), a tag of the
 * collection binding (collection name plus the list's filters), the snapshot time the traversal started at and
 * the last row served. A cursor replayed by another tenant fails its MAC; one replayed on another collection or
 * with other filters fails the tag check: both exactly like a tampered one. Pages never shift while a client
 * walks them, and DELETE /v1/history/snapshots can verify a cursor (tenant and MAC) without knowing its list.
 */

const MAC_LENGTH = 22;
export const CURSOR_MAX_LENGTH = 256;
export const CURSOR_TTL_MS = 24 * 60 * 60 * 1000;
const VERSION = 2;
/** 72 random bits name a traversal; 72 bits of SHA-256 tell collections apart (the MAC makes them unforgeable). */
const TRAVERSAL_BYTES = 9;
const TAG_BYTES = 9;

export interface CursorPosition {
  /** The traversal this cursor belongs to: every cursor of one walk through a list carries the same one. */
  traversal: string;
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

function macInput(tenantId: string, payload: string): string {
  return `svc.cursor.v${VERSION}\n${tenantId}\n${payload}`;
}

async function collectionTag(collection: string): Promise<string> {
  return base64url(new Uint8Array(await crypto.subtle.digest("SHA-256", utf8(collection))).slice(0, TAG_BYTES));
}

function newTraversal(): string {
  return base64url(crypto.getRandomValues(new Uint8Array(TRAVERSAL_BYTES)));
}

export async function encodeCursor(secret: string, binding: CursorBinding, position: CursorPosition, now = Date.now()): Promise<string> {
  const tag = await collectionTag(binding.collection);
  const payload = base64url(
    utf8(
      JSON.stringify([
        VERSION,
        position.traversal,
        tag,
        position.snapshot,
        now + CURSOR_TTL_MS,
        position.after.createdAt,
        position.after.id,
      ]),
    ),
  );
  const mac = base64url((await hmacSha256(secret, macInput(binding.tenantId, payload))).slice(0, 16));
  return payload + mac;
}

/** The one answer for every unusable cursor, whatever was wrong with it. */
export function invalidCursor(): ApiError {
  return new ApiError("svc.cursor.invalid", "The cursor is not valid for this list. Start again without a cursor.", {
    fieldDetails: [{ location: "query", field: "cursor", code: "invalid_cursor", message: "Unusable cursor." }],
  });
}

/**
 * Checks a cursor's MAC for the tenant and reads its payload, whatever list it belongs to; throws `invalidCursor`
 * for anything unusable. Both parts must be canonical base64url: a second spelling of the same MAC would be a
 * second cursor for one position.
 */
async function readCursor(secret: string, tenantId: string, cursor: string, now: number): Promise<CursorPosition & { tag: string }> {
  if (cursor.length <= MAC_LENGTH || cursor.length > CURSOR_MAX_LENGTH) throw invalidCursor();
  const payload = cursor.slice(0, -MAC_LENGTH);
  const presented = fromBase64url(cursor.slice(-MAC_LENGTH));
  const expected = (await hmacSha256(secret, macInput(tenantId, payload))).slice(0, 16);
  if (!presented || !timingSafeEqual(presented, expected)) throw invalidCursor();
  const bytes = fromBase64url(payload);
  if (!bytes) throw invalidCursor();
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw invalidCursor();
  }
  if (!Array.isArray(parsed) || parsed.length !== 7) throw invalidCursor();
  const [version, traversal, tag, snapshot, expiresAt, createdAt, id] = parsed as unknown[];
  if (
    version !== VERSION ||
    typeof traversal !== "string" ||
    typeof tag !== "string" ||
    typeof snapshot !== "number" ||
    typeof expiresAt !== "number" ||
    typeof createdAt !== "number" ||
    typeof id !== "string" ||
    expiresAt <= now
  ) {
    throw invalidCursor();
  }
  return { traversal, tag, snapshot, after: { createdAt, id } };
}

export async function decodeCursor(secret: string, binding: CursorBinding, cursor: string, now = Date.now()): Promise<CursorPosition> {
  const { tag, ...position } = await readCursor(secret, binding.tenantId, cursor, now);
  if (tag !== (await collectionTag(binding.collection))) throw invalidCursor();
  return position;
}

/**
 * The traversal a cursor of this tenant belongs to, on whatever list (what DELETE /v1/history/snapshots ends).
 * Another tenant's, tampered, non-canonical or expired cursors throw `invalidCursor`.
 */
export async function traversalOf(secret: string | undefined, tenantId: string, cursor: string, now = Date.now()): Promise<string> {
  if (!secret) throw new ApiError("svc.dependency.unavailable", "Cursor verification is unavailable: no cursor secret is configured.");
  return (await readCursor(secret, tenantId, cursor, now)).traversal;
}

/** Page request after decoding: which traversal and snapshot to read, and where to start. */
export interface PageRequest {
  traversal: string;
  snapshot: number;
  after: CursorPosition["after"] | null;
  limit: number;
}

/** Has the tenant released this traversal (DELETE /v1/history/snapshots)? See history/snapshots `releasedCheck`. */
export type ReleaseCheck = (traversal: string) => Promise<boolean>;

/**
 * Decodes a list's query into a page request. `isReleased` is required, so no list can forget to honour a release;
 * it must answer for the binding's tenant.
 */
export async function pageRequest(
  secret: string | undefined,
  binding: CursorBinding,
  query: { cursor?: string | undefined; limit: number },
  now: number,
  isReleased: ReleaseCheck,
): Promise<PageRequest> {
  if (!query.cursor) return { traversal: newTraversal(), snapshot: now, after: null, limit: query.limit };
  if (!secret) throw new ApiError("svc.dependency.unavailable", "Cursor verification is unavailable: no cursor secret is configured.");
  const position = await decodeCursor(secret, binding, query.cursor, now);
  if (await isReleased(position.traversal)) throw invalidCursor();
  return { ...position, limit: query.limit };
}

/**
 * Turns `limit + 1` fetched rows into one page and the cursor of the next, if any.
 * Invariant: the next cursor carries the same traversal and snapshot as the page request.
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
  const nextCursor = await encodeCursor(secret, binding, {
    traversal: request.traversal,
    snapshot: request.snapshot,
    after: { createdAt: last.createdAt, id: last.id },
  });
  return { rows: page, nextCursor };
}

/** Query parameters shared by list operations; `max` and `fallback` per SPEC "Limits". */
export function pageQuerySchema(max: number, fallback: number) {
  return {
    // Shape rules are checked by decodeCursor, so every unusable cursor gets the same 422 body.
    cursor: z.string().optional().openapi({
      description:
        "Opaque cursor from the previous page's `next_cursor` (`^[A-Za-z0-9_-]+$`, at most 256 chars). Bound to this tenant, list and filters; valid for 24 hours, or until its traversal is released with DELETE /v1/history/snapshots.",
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

export const NextCursorSchema = z.string().nullable().openapi({
  description:
    "Cursor of the next page, or null on the last page. Pages are snapshot-consistent: rows created after the first page are not included.",
});
