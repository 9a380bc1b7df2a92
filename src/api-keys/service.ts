import type { Database } from "../db/client";
import { displayPrefixOf, generateApiKeySecret, hashApiKeySecret } from "../platform/auth/keys";
import type { Scope } from "../platform/auth/scopes";
import { newId } from "../platform/ids";
import { iso } from "../platform/openapi";
import type { AuthenticatedPrincipal } from "../platform/principal";
import { and, eq, isNull } from "drizzle-orm";
import { apiKeys } from "../db/schema";
import { type ApiKeyRow, getKey, insertKey, revokeKey } from "./queries";

/** Domain logic of API keys: no HTTP here; results are discriminated unions. */

export function apiKeyView(row: ApiKeyRow) {
  return {
    api_key_id: row.id,
    name: row.name,
    display_prefix: row.displayPrefix,
    scopes: JSON.parse(row.scopes) as Scope[],
    status: row.status,
    created_at: iso(row.createdAt),
    expires_at: iso(row.expiresAt),
    revoked_at: iso(row.revokedAt),
    last_used_at: iso(row.lastUsedAt),
    rotation: row.successorKeyId && row.rotationDeadline !== null ? { successor_key_id: row.successorKeyId, overlap_ends_at: iso(row.rotationDeadline) } : null,
    predecessor_key_id: row.predecessorKeyId,
  };
}

export type CreateKeyResult =
  | { status: "created"; row: ApiKeyRow; secret: string }
  | { status: "scope_not_grantable"; scopes: Scope[] }
  | { status: "invalid_expiry" };

export async function createApiKey(
  db: Database,
  pepper: string,
  principal: AuthenticatedPrincipal,
  input: { name: string; scopes: Scope[]; expiresAt: number | null },
  now = Date.now(),
): Promise<CreateKeyResult> {
  const notHeld = input.scopes.filter((s) => !principal.scopes.has(s));
  if (notHeld.length > 0) return { status: "scope_not_grantable", scopes: notHeld };
  if (input.expiresAt !== null && input.expiresAt <= now) return { status: "invalid_expiry" };
  const secret = generateApiKeySecret();
  const row: ApiKeyRow = {
    id: newId("apiKey"),
    tenantId: principal.tenantId,
    name: input.name,
    secretHash: await hashApiKeySecret(pepper, secret),
    displayPrefix: displayPrefixOf(secret),
    scopes: JSON.stringify(input.scopes),
    status: "active",
    createdAt: now,
    expiresAt: input.expiresAt,
    revokedAt: null,
    lastUsedAt: null,
    createdByKeyId: principal.apiKeyId,
    restrictions: null,
    signingProfile: null,
    successorKeyId: null,
    rotationDeadline: null,
    predecessorKeyId: null,
    retention: null,
  };
  await insertKey(db, row);
  return { status: "created", row, secret };
}

export type RevokeKeyResult = { status: "revoked"; row: ApiKeyRow } | { status: "not_found" } | { status: "already_revoked" };

export async function revokeApiKey(db: Database, tenantId: string, keyId: string, now = Date.now()): Promise<RevokeKeyResult> {
  const revoked = await revokeKey(db, tenantId, keyId, now);
  if (revoked) return { status: "revoked", row: revoked };
  const existing = await getKey(db, tenantId, keyId);
  return existing ? { status: "already_revoked" } : { status: "not_found" };
}

export const DEFAULT_ROTATION_OVERLAP_S = 24 * 60 * 60;

export type RotateKeyResult =
  | { status: "rotated"; predecessor: ApiKeyRow; successor: ApiKeyRow; secret: string }
  | { status: "not_found" }
  | { status: "revoked" }
  | { status: "in_progress" };

/**
 * Begins a bounded rollover: a successor with the same scopes and controls, shown once; the old key keeps
 * working until the overlap ends (or the rotation is completed), then stops on its own.
 */
export async function rotateApiKey(db: Database, pepper: string, tenantId: string, keyId: string, overlapSeconds: number, now = Date.now()): Promise<RotateKeyResult> {
  const key = await getKey(db, tenantId, keyId);
  if (!key) return { status: "not_found" };
  if (key.status !== "active" || (key.rotationDeadline !== null && key.rotationDeadline <= now)) return { status: "revoked" };
  if (key.successorKeyId) return { status: "in_progress" };
  const secret = generateApiKeySecret();
  const successor: ApiKeyRow = {
    ...key,
    id: newId("apiKey"),
    secretHash: await hashApiKeySecret(pepper, secret),
    displayPrefix: displayPrefixOf(secret),
    createdAt: now,
    lastUsedAt: null,
    revokedAt: null,
    successorKeyId: null,
    rotationDeadline: null,
    predecessorKeyId: key.id,
  };
  const deadline = now + overlapSeconds * 1000;
  const [, updated] = await db.batch([
    db.insert(apiKeys).values(successor),
    db
      .update(apiKeys)
      .set({ successorKeyId: successor.id, rotationDeadline: deadline })
      .where(and(eq(apiKeys.id, key.id), eq(apiKeys.status, "active"), isNull(apiKeys.successorKeyId)))
      .returning({ id: apiKeys.id }),
  ]);
  if (updated.length !== 1) {
    await db.delete(apiKeys).where(eq(apiKeys.id, successor.id));
    return { status: "in_progress" };
  }
  return { status: "rotated", predecessor: { ...key, successorKeyId: successor.id, rotationDeadline: deadline }, successor, secret };
}

export type FinishRotationResult = { status: "done"; key: ApiKeyRow; successor: ApiKeyRow } | { status: "not_found" } | { status: "no_rotation" };

/** complete: retires the outgoing key. cancel: revokes the undeployed successor and keeps the old key as it was. */
export async function finishRotation(db: Database, tenantId: string, keyId: string, how: "complete" | "cancel", now = Date.now()): Promise<FinishRotationResult> {
  const key = await getKey(db, tenantId, keyId);
  if (!key) return { status: "not_found" };
  if (!key.successorKeyId) return { status: "no_rotation" };
  const successorId = key.successorKeyId;
  if (how === "complete") {
    await db.update(apiKeys).set({ status: "revoked", revokedAt: now, rotationDeadline: null }).where(and(eq(apiKeys.id, key.id), eq(apiKeys.tenantId, tenantId)));
  } else {
    await db.batch([
      db.update(apiKeys).set({ status: "revoked", revokedAt: now }).where(and(eq(apiKeys.id, successorId), eq(apiKeys.tenantId, tenantId))),
      db.update(apiKeys).set({ successorKeyId: null, rotationDeadline: null }).where(and(eq(apiKeys.id, key.id), eq(apiKeys.tenantId, tenantId))),
    ]);
  }
  return { status: "done", key: (await getKey(db, tenantId, key.id))!, successor: (await getKey(db, tenantId, successorId))! };
}
