import type { Database } from "../db/client";
import { base64url, utf8 } from "../platform/bytes";
import { sha256Hex, timingSafeEqual } from "../platform/crypto";
import { newId } from "../platform/ids";
import { iso } from "../platform/openapi";
import { closeShare, findVerification, insertShare, type ShareRow, shareByTokenHash } from "./repo";
import { reportDocument, sharedProjection } from "./report-render";

/*
 * Share capabilities of a verification. Issuing one returns a random token once (32 bytes from the CSPRNG,
 * base64url); only its SHA-256 is stored, so neither the database nor an idempotent replay can give it back.
 * Whoever holds the token reads a minimal projection of the outcome (no ids, no codes, no evidence) until the
 * share expires or is closed. Every unusable token (malformed, unknown, expired, closed, its verification or
 * tenant gone) is one and the same outcome.
 */

export const SHARE_DEFAULT_SECONDS = 7 * 24 * 3600;
export const SHARE_MIN_SECONDS = 60;
export const SHARE_MAX_SECONDS = 30 * 24 * 3600;
/** 32 bytes in canonical base64url: 43 chars, the last one's 2 unused bits zero (no other spelling of the bytes). */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]$/;

/** A share's metadata as answered; `state` as of `now`. */
export function shareView(row: ShareRow, now = Date.now()) {
  return {
    share_id: row.id,
    verification_id: row.verificationId,
    label: row.label,
    state: row.closedAt !== null ? ("closed" as const) : row.expiresAt <= now ? ("expired" as const) : ("active" as const),
    created_at: iso(row.createdAt),
    expires_at: iso(row.expiresAt),
    closed_at: iso(row.closedAt),
  };
}

/** What is stored for a token: SHA-256 (hex) of its ASCII. 256 random bits need no pepper to resist guessing. */
export function shareTokenHash(token: string): Promise<string> {
  return sha256Hex(token);
}

/** Issuing a share: the stored share and its token (never stored, shown once), or no such verification. */
export type IssueShareResult = { kind: "issued"; share: ShareRow; token: string } | { kind: "verification_not_found" };

export async function issueShare(
  db: Database,
  tenantId: string,
  verificationId: string,
  request: { expiresInSeconds: number; label: string | null },
): Promise<IssueShareResult> {
  if (!(await findVerification(db, tenantId, verificationId))) return { kind: "verification_not_found" };
  const token = base64url(crypto.getRandomValues(new Uint8Array(32)));
  const now = Date.now();
  const share = await insertShare(db, {
    id: newId("verificationShare"),
    tenantId,
    verificationId,
    tokenHash: await shareTokenHash(token),
    label: request.label,
    expiresAt: now + request.expiresInSeconds * 1000,
    closedAt: null,
    createdAt: now,
  });
  return { kind: "issued", share, token };
}

/** Closing a share: the share as it now stands (closed, at its first close), or the tenant has no such share. */
export type CloseShareResult = { kind: "closed"; share: ShareRow } | { kind: "not_found" };

export async function closeVerificationShare(db: Database, tenantId: string, shareId: string): Promise<CloseShareResult> {
  // Only the first close sets closed_at; later ones (and concurrent ones) leave it as it is.
  const share = await closeShare(db, tenantId, shareId, Date.now());
  return share ? { kind: "closed", share } : { kind: "not_found" };
}

/** Reading by token: the shared projection, or `unusable` for every token that grants nothing (one outcome). */
export type SharedReadResult = { kind: "shared"; projection: ReturnType<typeof sharedProjection> } | { kind: "unusable" };

export async function readSharedVerification(db: Database, presented: string): Promise<SharedReadResult> {
  const wellFormed = TOKEN_PATTERN.test(presented);
  // Hash and look up even a malformed token, so the time taken does not tell malformed from unknown.
  const hash = await shareTokenHash(wellFormed ? presented : "malformed");
  const found = await shareByTokenHash(db, hash);
  const share = found?.share;
  if (!wellFormed || !share || !timingSafeEqual(utf8(share.tokenHash), utf8(hash))) return { kind: "unusable" };
  if (share.closedAt !== null || share.expiresAt <= Date.now() || found.tenantStatus !== "active") return { kind: "unusable" };
  const verification = await findVerification(db, share.tenantId, share.verificationId);
  if (!verification) return { kind: "unusable" };
  return { kind: "shared", projection: sharedProjection(reportDocument(verification)) };
}
