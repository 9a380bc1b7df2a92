import { hmacSha256 } from "./crypto";
import { base32, ID_PREFIX, type IdKind } from "./ids";

// Apart from ids.ts, which the npm scripts import under Node's type stripping (no relative imports there).

/**
 * The id of a resource created under an Idempotency-Key: the same (tenant, operation, key) always names the same
 * resource, so a retry after a crash that lost the first answer finds what the first attempt created instead of
 * creating a second one (#22). Keyed by a server secret: an id says nothing about the key, and nobody can compute
 * another tenant's ids. Same shape as `newId`.
 */
export async function idFor(kind: IdKind, secret: string, scope: { tenantId: string; operation: string; key: string }): Promise<string> {
  const mac = await hmacSha256(secret, `svc.id.v1\n${kind}\n${scope.tenantId}\n${scope.operation}\n${scope.key}`);
  return `${ID_PREFIX[kind]}_${base32(mac).slice(0, 16)}`;
}
