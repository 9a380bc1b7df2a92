import type { Database } from "../db/client";
import { displayPrefixOf, generateApiKeySecret, hashApiKeySecret } from "../platform/auth/keys";
import type { Scope } from "../platform/auth/scopes";
import { newId } from "../platform/ids";
import { iso } from "../platform/openapi";
import type { AuthenticatedPrincipal } from "../platform/principal";
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
