import type { Database } from "../db/client";
import { auditHoldsSucceeded } from "../platform/audit";
import { displayPrefixOf, generateApiKeySecret, hashApiKeySecret } from "../platform/auth/keys";
import { ALL_SCOPES, type Scope } from "../platform/auth/scopes";
import { IDEMPOTENCY_TTL_MS } from "../platform/idempotency/repo";
import { newId } from "../platform/ids";
import { iso } from "../platform/openapi";
import type { AuthenticatedPrincipal } from "../platform/principal";
import { type CoverDecision, covers, grantOf, type KeyGrant } from "./authority";
import { restrictionsOf } from "./controls";
import { type ApiKeyRow, beginRotation, cancelRotation, completeRotation, getKey, insertKey, reissueUnusedKey, revokeKey } from "./repo";

/** Domain logic of API keys: no HTTP here; results are discriminated unions. */

/** A key's status as a caller sees it: the stored status, plus expiry and a lapsed rotation overlap read at `now`. */
export function keyStatus(row: ApiKeyRow, now = Date.now()): "active" | "expired" | "revoked" {
  if (row.status === "revoked") return "revoked";
  if (row.expiresAt !== null && row.expiresAt <= now) return "expired";
  if (rotationStateOf(row, now) === "lapsed") return "expired";
  return "active";
}

export type RotationState = "overlapping" | "completed" | "canceled" | "lapsed";

/** The state of the rotation this key began (null: none). An overlapping rotation past its deadline has lapsed. */
export function rotationStateOf(row: ApiKeyRow, now = Date.now()): RotationState | null {
  if (row.rotationState === null) return null;
  if (row.rotationState === "overlapping" && row.rotationDeadline !== null && row.rotationDeadline <= now) return "lapsed";
  return row.rotationState;
}

export function apiKeyView(row: ApiKeyRow, now = Date.now()) {
  const rotation = rotationStateOf(row, now);
  return {
    api_key_id: row.id,
    name: row.name,
    display_prefix: row.displayPrefix,
    scopes: JSON.parse(row.scopes) as Scope[],
    status: keyStatus(row, now),
    created_at: iso(row.createdAt),
    expires_at: iso(row.expiresAt),
    revoked_at: iso(row.revokedAt),
    last_used_at: iso(row.lastUsedAt),
    rotation:
      rotation && row.successorKeyId
        ? { state: rotation, successor_key_id: row.successorKeyId, overlap_ends_at: iso(row.rotationDeadline) }
        : null,
    predecessor_key_id: row.predecessorKeyId,
  };
}

/**
 * The grant a console session acts with: the account's owner, who covers every key (every scope, no expiry, no
 * restrictions, no signing profile, outputs kept until deleted), so a key it creates inherits no ceiling.
 */
const OWNER = {
  scopes: JSON.stringify(ALL_SCOPES),
  expiresAt: null,
  restrictions: null,
  signingProfile: null,
  retention: null,
} as const satisfies Pick<ApiKeyRow, "scopes" | "expiresAt" | "restrictions" | "signingProfile" | "retention">;

export type CreateKeyResult =
  | { status: "created"; row: ApiKeyRow; secret: string }
  | { status: "scope_not_grantable"; scopes: Scope[] }
  | { status: "invalid_expiry" }
  | { status: "outranks_caller"; detail: string };

/**
 * Issues a key the caller covers (see authority.ts): scopes it holds; its IP allowlist and rate limit copied from
 * the caller; its expiry the caller's unless an earlier one is asked for (`expiresAt` undefined: inherit; null: none,
 * which only a key without expiry may grant).
 */
export async function createApiKey(
  db: Database,
  pepper: string,
  principal: AuthenticatedPrincipal,
  input: { name: string; scopes: Scope[]; expiresAt: number | null | undefined },
  now = Date.now(),
  id?: string,
): Promise<CreateKeyResult> {
  const notHeld = input.scopes.filter((s) => !principal.scopes.has(s));
  if (notHeld.length > 0) return { status: "scope_not_grantable", scopes: notHeld };
  if (input.expiresAt !== undefined && input.expiresAt !== null && input.expiresAt <= now) return { status: "invalid_expiry" };
  // The caller's row is read again, not taken from authentication: a key revoked or expired moments ago may still
  // be cached by another isolate (the 15 s key-cache bound), and must not mint keys that would outlive it.
  const actor = principal.kind === "session" ? OWNER : await getKey(db, principal.tenantId, principal.apiKeyId);
  if (!actor) return { status: "outranks_caller", detail: "the calling key no longer exists" };
  if (principal.kind !== "session" && keyStatus(actor as ApiKeyRow, now) !== "active")
    return { status: "outranks_caller", detail: "the calling key is no longer active" };
  const actorRestrictions = restrictionsOf(actor.restrictions);
  const inherited =
    actorRestrictions.ip_allowlist.length > 0 || actorRestrictions.rate_limit_per_minute !== null
      ? { ...actorRestrictions, version: 1, updated_at: new Date(now).toISOString() }
      : null;
  const expiresAt = input.expiresAt === undefined ? actor.expiresAt : input.expiresAt;
  // The signing profile's allowed sets and the output retention are ceilings too: the child starts with the caller's.
  const stamp = { version: 1, updated_at: new Date(now).toISOString() };
  const signingProfile = actor.signingProfile ? JSON.stringify({ ...JSON.parse(actor.signingProfile), ...stamp }) : null;
  const retention = actor.retention ? JSON.stringify({ ...JSON.parse(actor.retention), ...stamp }) : null;
  const child = {
    scopes: JSON.stringify(input.scopes),
    expiresAt,
    restrictions: inherited ? JSON.stringify(inherited) : null,
    signingProfile,
    retention,
  };
  const decision = covers(grantOf(actor), grantOf(child));
  if (!decision.covered) return { status: "outranks_caller", detail: decision.detail };
  const secret = generateApiKeySecret();
  // Under an Idempotency-Key the id is the key's (`idFor`): a retry after a crash that lost the answer finds the key
  // the first attempt created. Its secret was never shown to anyone, so that key, never used, gets a new one.
  const earlier = id ? await getKey(db, principal.tenantId, id) : null;
  if (earlier) {
    // Only inside the key's replay window (after it, the same Idempotency-Key is a new request) and only for the
    // same creator: never another caller's key, never a secret somebody may hold.
    const same =
      earlier.createdAt > now - IDEMPOTENCY_TTL_MS &&
      earlier.createdByUserId === (principal.kind === "session" ? principal.userId : (actor as ApiKeyRow).createdByUserId) &&
      earlier.name === input.name &&
      earlier.scopes === JSON.stringify(input.scopes) &&
      earlier.expiresAt === expiresAt &&
      earlier.createdByKeyId === (principal.kind === "api_key" ? principal.apiKeyId : null);
    const reissued = same
      ? await reissueUnusedKey(db, principal.tenantId, earlier.id, earlier.secretHash, {
          secretHash: await hashApiKeySecret(pepper, secret),
          displayPrefix: displayPrefixOf(secret),
        })
      : null;
    if (reissued) return { status: "created", row: reissued, secret };
    id = undefined; // another request's key under a key reused after its record expired, or one in use: a new key
  }
  const row: ApiKeyRow = {
    id: id ?? newId("apiKey"),
    tenantId: principal.tenantId,
    name: input.name,
    secretHash: await hashApiKeySecret(pepper, secret),
    displayPrefix: displayPrefixOf(secret),
    scopes: JSON.stringify(input.scopes),
    status: "active",
    createdAt: now,
    expiresAt,
    revokedAt: null,
    revokedBy: null,
    lastUsedAt: null,
    createdByKeyId: principal.kind === "api_key" ? principal.apiKeyId : null,
    // Recorded so the key stops working (403) once its creating user is deactivated or deleted at the provider. A key
    // made by a key inherits that key's user: otherwise a deactivated user would keep access through a grandchild.
    createdByUserId: principal.kind === "session" ? principal.userId : (actor as ApiKeyRow).createdByUserId,
    restrictions: child.restrictions,
    signingProfile,
    successorKeyId: null,
    rotationDeadline: null,
    predecessorKeyId: null,
    retention,
    rotationState: null,
  };
  await insertKey(db, row);
  return { status: "created", row, secret };
}

/**
 * Whether the calling key covers every target grant (the key hierarchy rule of authority.ts). Loads the caller's
 * own row, so restrictions changed since authentication count.
 */
export async function authorityOver(db: Database, principal: AuthenticatedPrincipal, targets: KeyGrant[]): Promise<CoverDecision> {
  const actor = principal.kind === "session" ? OWNER : await getKey(db, principal.tenantId, principal.apiKeyId);
  if (!actor) return { covered: false, reason: "scopes", detail: "the calling key no longer exists" };
  // As in createApiKey: a revoked or expired caller (possibly still cached elsewhere) acts on no key.
  if (principal.kind !== "session" && keyStatus(actor as ApiKeyRow) !== "active")
    return { covered: false, reason: "scopes", detail: "the calling key is no longer active" };
  const grant = grantOf(actor);
  for (const target of targets) {
    const decision = covers(grant, target);
    if (!decision.covered) return decision;
  }
  return { covered: true };
}

export type RevokeKeyResult =
  | { status: "revoked"; row: ApiKeyRow }
  | { status: "not_found" }
  | { status: "already_revoked" }
  | { status: "rotating" };

/** The audit action of a plain revoke (its operation key): the entry that says the revoke was answered. */
const REVOKE_ACTION = "DELETE /v1/api-keys/{api_key_id}";

/**
 * Revokes a key at once. Refused while the key's rotation overlaps: revoking would leave the undeployed successor
 * alive unseen (a leaked key may have rotated itself) or cut off a deployed one; complete or cancel says which.
 */
export async function revokeApiKey(
  db: Database,
  tenantId: string,
  keyId: string,
  revoker: string,
  now = Date.now(),
): Promise<RevokeKeyResult> {
  const revoked = await revokeKey(db, tenantId, keyId, now, revoker);
  if (revoked) return { status: "revoked", row: revoked };
  const existing = await getKey(db, tenantId, keyId);
  if (!existing) return { status: "not_found" };
  if (existing.status === "active" && rotationStateOf(existing, now) === "overlapping") return { status: "rotating" };
  // A plain revoke that landed but was never answered (the isolate died after the write, so neither the answer nor
  // its audit entry happened): the retry is answered as that revoke, and its audit entry is written now (#22). Only
  // a revoke this caller made: a key an account deletion (or a restore) revoked is already revoked, never
  // credited to the next DELETE (review L4), and neither is one revoked before the revoker was recorded, nor one
  // another key or user of the tenant revoked (its DELETE may still be appending its audit entry, or that append
  // failed: the revoke is theirs, not this caller's).
  const plainRevoke =
    existing.status === "revoked" &&
    existing.revokedBy === revoker &&
    !existing.successorKeyId &&
    !existing.predecessorKeyId &&
    !existing.rotationState;
  if (plainRevoke && !(await auditHoldsSucceeded(db, tenantId, REVOKE_ACTION, keyId))) return { status: "revoked", row: existing };
  return { status: "already_revoked" };
}

/** Marks a key revoked because its secret was withheld (its issue could not be audited, platform/audit). */
export const WITHHELD_SECRET_REVOKER = "secret_withheld";

/**
 * Undoes the issue of a key whose one-time secret was withheld (never shown: its audit entry could not be
 * appended). Nobody holds that secret, so the key is revoked rather than left live; a DELETE of it later is 409.
 */
export async function withdrawIssuedKey(db: Database, tenantId: string, keyId: string, now = Date.now()): Promise<void> {
  await revokeKey(db, tenantId, keyId, now, WITHHELD_SECRET_REVOKER);
}

/**
 * Undoes a rotation whose successor's secret was withheld: the rotation is canceled (its successor revoked, the
 * outgoing key works as before), so the retry rotates afresh and its caller holds the successor it is shown.
 * Only this rotation: nothing moves if it already ended.
 */
export async function withdrawRotation(db: Database, predecessor: ApiKeyRow, successorId: string, now = Date.now()): Promise<void> {
  await cancelRotation(db, predecessor, successorId, now);
}

export const DEFAULT_ROTATION_OVERLAP_S = 24 * 60 * 60;

export type RotateKeyResult =
  | { status: "rotated"; predecessor: ApiKeyRow; successor: ApiKeyRow; secret: string }
  | { status: "not_found" }
  | { status: "revoked" }
  | { status: "in_progress" }
  | { status: "changed" }
  | { status: "ended"; state: RotationState };

/**
 * Begins a bounded rollover (none | canceled → overlapping): a successor with exactly the same scopes, expiry and
 * controls, shown once; the old key keeps working until the overlap ends (or the rotation is completed).
 */
export async function rotateApiKey(
  db: Database,
  pepper: string,
  key: ApiKeyRow,
  overlapSeconds: number,
  now = Date.now(),
): Promise<RotateKeyResult> {
  const tenantId = key.tenantId;
  const state = rotationStateOf(key, now);
  if (state === "overlapping") return { status: "in_progress" };
  if (state === "completed" || state === "lapsed") return { status: "ended", state };
  if (keyStatus(key, now) !== "active") return { status: "revoked" };
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
    rotationState: null,
    predecessorKeyId: key.id,
  };
  const deadline = now + overlapSeconds * 1000;
  if (!(await beginRotation(db, key, successor, deadline, now))) {
    const again = await getKey(db, tenantId, key.id);
    return again && rotationStateOf(again, now) === "overlapping" ? { status: "in_progress" } : { status: "changed" };
  }
  return {
    status: "rotated",
    predecessor: { ...key, successorKeyId: successor.id, rotationDeadline: deadline, rotationState: "overlapping" },
    successor,
    secret,
  };
}

export type FinishRotationResult =
  | { status: "done"; key: ApiKeyRow; successor: ApiKeyRow }
  | { status: "not_found" }
  | { status: "no_rotation" }
  | { status: "ended"; state: RotationState | "successor_revoked" }
  | { status: "revoked" };

/**
 * overlapping → completed (retires the outgoing key) or → canceled (revokes the undeployed successor; the outgoing
 * key works as before). Every other move is refused, and each transition is one conditional statement, so a
 * complete racing a cancel, or either racing the deadline, has exactly one winner.
 */
export async function finishRotation(
  db: Database,
  tenantId: string,
  keyId: string,
  how: "complete" | "cancel",
  now = Date.now(),
): Promise<FinishRotationResult> {
  const key = await getKey(db, tenantId, keyId);
  if (!key) return { status: "not_found" };
  const refusal = await finishRefusal(db, key, how, now);
  if (refusal) return refusal;
  const successorId = key.successorKeyId!;
  const won = how === "complete" ? await completeRotation(db, key, successorId, now) : await cancelRotation(db, key, successorId, now);
  if (!won) {
    const again = await getKey(db, tenantId, keyId);
    return (again && (await finishRefusal(db, again, how, now))) ?? { status: "ended", state: "completed" };
  }
  return { status: "done", key: (await getKey(db, tenantId, key.id))!, successor: (await getKey(db, tenantId, successorId))! };
}

/** Why a complete/cancel cannot move this key's rotation, or null when it can. */
async function finishRefusal(
  db: Database,
  key: ApiKeyRow,
  how: "complete" | "cancel",
  now: number,
): Promise<Exclude<FinishRotationResult, { status: "done" }> | null> {
  const state = rotationStateOf(key, now);
  if (state === null || !key.successorKeyId) return { status: "no_rotation" };
  if (state !== "overlapping") return { status: "ended", state };
  if (key.status !== "active") return { status: "revoked" };
  if (how === "complete") {
    const successor = await getKey(db, key.tenantId, key.successorKeyId);
    if (!successor || keyStatus(successor, now) !== "active") return { status: "ended", state: "successor_revoked" };
  }
  return null;
}
