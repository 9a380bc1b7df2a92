import { and, eq, gt, isNull, lt, or, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { newestFirst, pageWindow } from "../../db/keyset";
import { apiKeys, tenants, users } from "../../db/schema";
import { shape } from "../../db/statements";
import { forgetCachedKeys, forgetUnknownKeyHash } from "../../platform/auth/key-cache";
import type { KeyCredential, KeyLookup } from "../../platform/auth/key-lookup";
import { type KeyRestrictions, type KeyRetention, NO_RESTRICTIONS, NO_RETENTION } from "../controls";

export type ApiKeyRow = typeof apiKeys.$inferSelect;

/** The key with this hash together with its tenant's status; used only by authentication. */
export async function findKeyByHash(db: Database, secretHash: string) {
  const rows = await db
    .select({ key: apiKeys, tenantStatus: tenants.status, creatorStatus: users.status })
    .from(apiKeys)
    .innerJoin(tenants, eq(tenants.id, apiKeys.tenantId))
    // The console user whose session created the key (#18): a deactivated or deleted user's keys stop working.
    .leftJoin(users, eq(users.id, apiKeys.createdByUserId))
    .where(eq(apiKeys.secretHash, secretHash))
    .limit(1);
  return rows[0] ?? null;
}

/** Records use at most once a minute per key, so authentication does not write on every request. */
export async function touchLastUsed(db: Database, keyId: string, now: number) {
  await touchShape(db, { keyId, now, minuteAgo: now - 60_000 }).run();
}

/** Built once and bound per call (db/statements.ts): every key's first request of a minute runs it. */
const touchShape = shape<{ keyId: string; now: number; minuteAgo: number }>((db, p) =>
  db
    .update(apiKeys)
    .set({ lastUsedAt: p("now") as never })
    .where(and(eq(apiKeys.id, p("keyId")), or(sql`${apiKeys.lastUsedAt} IS NULL`, lt(apiKeys.lastUsedAt, p("minuteAgo"))))),
);

/** The api-keys side of authentication's key port: the stored row and its controls, as platform/auth reads them. */
export const apiKeyLookup: KeyLookup = {
  async findByHash(db, secretHash) {
    const found = await findKeyByHash(db, secretHash);
    return found && credentialOf(found.key, found.tenantStatus, found.creatorStatus);
  },
  touchLastUsed,
};

function credentialOf(key: ApiKeyRow, tenantStatus: string, creatorStatus: string | null): KeyCredential {
  const state = {
    id: key.id,
    tenantId: key.tenantId,
    secretHash: key.secretHash,
    status: key.status,
    expiresAt: key.expiresAt,
    rotationDeadline: key.rotationDeadline,
    lastUsedAt: key.lastUsedAt,
    signingProfile: key.signingProfile,
    tenantStatus,
    creatorUserId: key.createdByUserId,
    // A key a session created whose user row is gone reads as deleted: fail closed.
    creatorUserStatus: key.createdByUserId === null ? null : (creatorStatus ?? "deleted"),
  };
  // Stored JSON is read without trusting it: a value that does not parse, or parses to the wrong shape, makes the
  // credential unreadable (authentication then fails closed) instead of throwing into a 500.
  const scopes = readJson(key.scopes, (v): v is string[] => Array.isArray(v) && v.every((s) => typeof s === "string"));
  const restrictions = !key.restrictions ? NO_RESTRICTIONS : readJson(key.restrictions, isRestrictions);
  const retention = !key.retention ? NO_RETENTION : readJson(key.retention, isRetention);
  if (scopes === undefined || restrictions === undefined || retention === undefined) {
    const unreadable = [
      scopes === undefined && "scopes",
      restrictions === undefined && "restrictions",
      retention === undefined && "retention",
    ];
    return { ...state, controls: "unreadable", unreadable: unreadable.filter((c): c is string => c !== false) };
  }
  return {
    ...state,
    controls: "read",
    scopes,
    ipAllowlist: restrictions.ip_allowlist,
    rateLimitPerMinute: restrictions.rate_limit_per_minute,
    outputRetentionDays: retention.output_retention_days,
  };
}

/** The parsed value when `json` parses and passes `shape`, else undefined. */
function readJson<T>(json: string, shape: (value: unknown) => value is T): T | undefined {
  try {
    const value: unknown = JSON.parse(json);
    return shape(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

const isNumberOrNull = (v: unknown) => v === null || (typeof v === "number" && Number.isFinite(v));

function isRestrictions(v: unknown): v is KeyRestrictions {
  const r = v as Partial<KeyRestrictions> | null;
  return (
    typeof r === "object" &&
    r !== null &&
    Array.isArray(r.ip_allowlist) &&
    r.ip_allowlist.every((c) => typeof c === "string") &&
    isNumberOrNull(r.rate_limit_per_minute)
  );
}

function isRetention(v: unknown): v is KeyRetention {
  const r = v as Partial<KeyRetention> | null;
  return typeof r === "object" && r !== null && isNumberOrNull(r.output_retention_days);
}

export async function getKey(db: Database, tenantId: string, keyId: string) {
  const rows = await db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.tenantId, tenantId), eq(apiKeys.id, keyId)))
    .limit(1);
  return rows[0] ?? null;
}

/** Newest first, keyset-paginated, bounded by the snapshot time the traversal started at. */
export async function listKeys(
  db: Database,
  tenantId: string,
  page: { snapshot: number; after: { createdAt: number; id: string } | null; limit: number },
) {
  return db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.tenantId, tenantId), pageWindow(apiKeys.createdAt, apiKeys.id, page)))
    .orderBy(...newestFirst(apiKeys.createdAt, apiKeys.id))
    .limit(page.limit + 1);
}

/*
 * Every write below that changes what authentication reads forgets the isolate's cached record after it lands
 * (platform/auth/key-cache.ts), so the change holds from this isolate's next request; other isolates see it
 * within the cache's bound.
 */

export async function insertKey(db: Database, row: typeof apiKeys.$inferInsert) {
  await db.insert(apiKeys).values(row);
  forgetUnknownKeyHash(row.secretHash);
}

/**
 * Gives a key that nobody ever used a new secret, only while it still has `previousHash` and was never used: the
 * key of a create whose answer (and so whose secret) was lost to a crash, re-issued to the retry (#22).
 */
export async function reissueUnusedKey(
  db: Database,
  tenantId: string,
  keyId: string,
  previousHash: string,
  next: { secretHash: string; displayPrefix: string },
) {
  const rows = await db
    .update(apiKeys)
    .set(next)
    .where(
      and(
        eq(apiKeys.tenantId, tenantId),
        eq(apiKeys.id, keyId),
        eq(apiKeys.secretHash, previousHash),
        eq(apiKeys.status, "active"),
        isNull(apiKeys.lastUsedAt),
      ),
    )
    .returning();
  if (rows[0]) forgetUnknownKeyHash(next.secretHash);
  return rows[0] ?? null;
}

/**
 * Revokes an active key, recording `revokedBy` (the revoking principal's id); returns the row, or null when the key
 * does not exist for this tenant.
 */
export async function revokeKey(db: Database, tenantId: string, keyId: string, now: number, revokedBy: string) {
  const rows = await db
    .update(apiKeys)
    .set({ status: "revoked", revokedAt: now, revokedBy })
    .where(
      and(
        eq(apiKeys.tenantId, tenantId),
        eq(apiKeys.id, keyId),
        eq(apiKeys.status, "active"),
        // Not while a rotation overlaps (see revokeApiKey); a lapsed one may be revoked.
        sql`NOT (coalesce(${apiKeys.rotationState}, '') = 'overlapping' AND ${apiKeys.rotationDeadline} > ${now})`,
      ),
    )
    .returning();
  forgetCachedKeys({ keyId });
  return rows[0] ?? null;
}

/** Writes one JSON control column if its stored version is still `expectedVersion` (optimistic update). */
export async function updateControl(
  db: Database,
  tenantId: string,
  keyId: string,
  column: "restrictions" | "signingProfile" | "retention",
  expectedJson: string | null,
  json: string,
) {
  const current = { restrictions: apiKeys.restrictions, signingProfile: apiKeys.signingProfile, retention: apiKeys.retention }[column];
  const rows = await db
    .update(apiKeys)
    .set({ [column]: json })
    .where(
      and(
        eq(apiKeys.tenantId, tenantId),
        eq(apiKeys.id, keyId),
        expectedJson === null ? sql`${current} IS NULL` : eq(current, expectedJson),
      ),
    )
    .returning({ id: apiKeys.id });
  forgetCachedKeys({ keyId });
  return rows.length === 1;
}

/** SQL twin of `keyStatus(row) === "active"` (what the auth middleware accepts, tenant status aside), over the `api_keys` row named `alias`. */
export function liveKeySql(alias: string, now: number) {
  const a = sql.raw(alias);
  return sql`${a}.status = 'active' AND (${a}.expires_at IS NULL OR ${a}.expires_at > ${now}) AND NOT (coalesce(${a}.rotation_state, '') = 'overlapping' AND ${a}.rotation_deadline <= ${now})`;
}

/**
 * Inserts `successor` and moves `key` to `overlapping` in one batch; true when this call won. Only one rotation can
 * move the predecessor (a conditional statement); a loser deletes the successor it inserted, whose secret was never
 * shown to anyone.
 */
export async function beginRotation(db: Database, key: ApiKeyRow, successor: ApiKeyRow, deadline: number, now: number) {
  const [, updated] = await db.batch([
    db.insert(apiKeys).values(successor),
    db
      .update(apiKeys)
      .set({ successorKeyId: successor.id, rotationDeadline: deadline, rotationState: "overlapping" })
      .where(
        and(
          eq(apiKeys.id, key.id),
          eq(apiKeys.tenantId, key.tenantId),
          eq(apiKeys.status, "active"),
          or(isNull(apiKeys.rotationState), eq(apiKeys.rotationState, "canceled")),
          or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, now)),
          // The successor copies `key` as read (and as the caller's authority was checked against): if its grant
          // changed since, nothing moves and the caller retries.
          eq(apiKeys.scopes, key.scopes),
          key.restrictions === null ? isNull(apiKeys.restrictions) : eq(apiKeys.restrictions, key.restrictions),
          key.signingProfile === null ? isNull(apiKeys.signingProfile) : eq(apiKeys.signingProfile, key.signingProfile),
          key.retention === null ? isNull(apiKeys.retention) : eq(apiKeys.retention, key.retention),
          // A canceled rotation's successor must be revoked before another begins.
          sql`NOT EXISTS (SELECT 1 FROM api_keys s WHERE s.id = api_keys.successor_key_id AND s.status = 'active')`,
        ),
      )
      .returning({ id: apiKeys.id }),
  ]);
  forgetUnknownKeyHash(successor.secretHash);
  forgetCachedKeys({ keyId: key.id });
  if (updated.length === 1) return true;
  await db.delete(apiKeys).where(eq(apiKeys.id, successor.id));
  forgetCachedKeys({ keyId: successor.id });
  return false;
}

/** `key` still overlapping towards `successorId`, before its deadline: the condition both ends of a rotation need. */
function stillOverlapping(key: ApiKeyRow, successorId: string, now: number) {
  return and(
    eq(apiKeys.id, key.id),
    eq(apiKeys.tenantId, key.tenantId),
    eq(apiKeys.status, "active"),
    eq(apiKeys.rotationState, "overlapping"),
    eq(apiKeys.successorKeyId, successorId),
    gt(apiKeys.rotationDeadline, now),
  );
}

/** overlapping → completed, retiring `key`, only while its successor still authenticates; true when this call won. */
export async function completeRotation(db: Database, key: ApiKeyRow, successorId: string, now: number) {
  const successorLive = sql`EXISTS (SELECT 1 FROM api_keys s WHERE s.id = ${successorId} AND ${liveKeySql("s", now)})`;
  const won = await db
    .update(apiKeys)
    .set({ status: "revoked", revokedAt: now, rotationState: "completed" })
    .where(and(stillOverlapping(key, successorId, now), successorLive))
    .returning({ id: apiKeys.id });
  forgetCachedKeys({ keyId: key.id });
  forgetCachedKeys({ keyId: successorId });
  return won.length === 1;
}

/** overlapping → canceled, revoking the undeployed successor in the same batch; true when this call won. */
export async function cancelRotation(db: Database, key: ApiKeyRow, successorId: string, now: number) {
  const [moved] = await db.batch([
    db
      .update(apiKeys)
      .set({ rotationState: "canceled", rotationDeadline: null })
      .where(stillOverlapping(key, successorId, now))
      .returning({ id: apiKeys.id }),
    // Revokes the successor only if this request moved the predecessor to canceled just now.
    db
      .update(apiKeys)
      .set({ status: "revoked", revokedAt: now })
      .where(
        and(
          eq(apiKeys.id, successorId),
          eq(apiKeys.tenantId, key.tenantId),
          eq(apiKeys.status, "active"),
          sql`EXISTS (SELECT 1 FROM api_keys p WHERE p.id = ${key.id} AND p.rotation_state = 'canceled' AND p.successor_key_id = ${successorId} AND p.rotation_deadline IS NULL)`,
        ),
      ),
  ]);
  forgetCachedKeys({ keyId: key.id });
  forgetCachedKeys({ keyId: successorId });
  return moved.length === 1;
}
