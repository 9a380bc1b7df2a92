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

/**
 * The id after `id` in an Idempotency-Key's line of ids: a key whose id names a resource from before the key's replay
 * window is a new request, and takes this id instead (then its successor, a window later), derived so that a retry of
 * that new request names the same resource again. It follows from an id (already keyed), so needs no secret.
 */
export async function successorId(id: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`svc.id.next.v1\n${id}`));
  return `${id.slice(0, id.indexOf("_"))}_${base32(new Uint8Array(digest)).slice(0, 16)}`;
}
