import { and, eq, lt } from "drizzle-orm";
import type { Database } from "../../db/client";
import { idempotencyRecords } from "../../db/schema";

/** How long a completed response is replayable. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** How long an in-flight request holds its key before another attempt may take it over (a crashed isolate). */
export const IDEMPOTENCY_LEASE_MS = 60 * 1000;

export type IdempotencyRow = typeof idempotencyRecords.$inferSelect;

/** One idempotency key as stored. Invariant: a key is unique per (tenant, operation): two operations never share one. */
export interface IdempotencyScope {
  tenantId: string;
  operation: string;
  key: string;
}

function scopeWhere(scope: IdempotencyScope) {
  return and(
    eq(idempotencyRecords.tenantId, scope.tenantId),
    eq(idempotencyRecords.operation, scope.operation),
    eq(idempotencyRecords.idempotencyKey, scope.key),
  );
}

export type Claim =
  /** `lease`: the claim's locked_until, which identifies it: only its holder may complete or release the key. */
  | { status: "claimed"; lease: number }
  | { status: "replay"; row: IdempotencyRow }
  | { status: "conflict"; reason: "key_reused" | "in_progress"; retryAfterSeconds?: number };

/**
 * Claims (tenant, operation, key) for one request fingerprint. A claim is an `in_flight` row with a lease;
 * only the request holding it runs the operation. Expired completed rows and lapsed leases are taken over.
 */
export async function claimIdempotencyKey(db: Database, scope: IdempotencyScope, requestSha256: string, now: number): Promise<Claim> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const inserted = await db
      .insert(idempotencyRecords)
      .values({
        tenantId: scope.tenantId,
        operation: scope.operation,
        idempotencyKey: scope.key,
        requestSha256,
        state: "in_flight",
        lockedUntil: now + IDEMPOTENCY_LEASE_MS,
        createdAt: now,
        expiresAt: now + IDEMPOTENCY_TTL_MS,
      })
      .onConflictDoNothing()
      .returning({ key: idempotencyRecords.idempotencyKey });
    if (inserted.length === 1) return { status: "claimed", lease: now + IDEMPOTENCY_LEASE_MS };

    const where = scopeWhere(scope);
    const [row] = await db.select().from(idempotencyRecords).where(where).limit(1);
    if (!row) continue; // deleted between our insert and select: try again
    if (row.expiresAt <= now) {
      await db.delete(idempotencyRecords).where(and(where, eq(idempotencyRecords.expiresAt, row.expiresAt)));
      continue;
    }
    if (row.requestSha256 !== requestSha256) return { status: "conflict", reason: "key_reused" };
    if (row.state === "completed") return { status: "replay", row };
    if (row.lockedUntil > now) {
      return { status: "conflict", reason: "in_progress", retryAfterSeconds: Math.max(1, Math.ceil((row.lockedUntil - now) / 1000)) };
    }
    // The holder's lease lapsed (its isolate died): take the key over, if nobody else did first.
    const taken = await db
      .update(idempotencyRecords)
      .set({ lockedUntil: now + IDEMPOTENCY_LEASE_MS })
      .where(and(where, eq(idempotencyRecords.state, "in_flight"), eq(idempotencyRecords.lockedUntil, row.lockedUntil)))
      .returning({ key: idempotencyRecords.idempotencyKey });
    if (taken.length === 1) return { status: "claimed", lease: now + IDEMPOTENCY_LEASE_MS };
  }
  return { status: "conflict", reason: "in_progress", retryAfterSeconds: 1 };
}

/** The holder's own row: a request whose lease lapsed and was taken over must not touch the new holder's row. */
function heldWhere(scope: IdempotencyScope, lease: number) {
  return and(scopeWhere(scope), eq(idempotencyRecords.state, "in_flight"), eq(idempotencyRecords.lockedUntil, lease));
}

/** Stores the outcome of a claimed request for replay (`withhold`: a one-time secret was in it; store none). */
export async function completeIdempotencyKey(
  db: Database,
  scope: IdempotencyScope,
  lease: number,
  response: { status: number; contentType: string | null; body: string; withhold: boolean },
) {
  await db
    .update(idempotencyRecords)
    .set({
      state: "completed",
      responseStatus: response.status,
      responseContentType: response.contentType,
      responseBody: response.withhold ? null : response.body,
      secretWithheld: response.withhold,
    })
    .where(heldWhere(scope, lease));
}

/** Frees a claimed key (the request failed with a 5xx, a retryable refusal, or threw), so a retry runs the operation again. */
export async function releaseIdempotencyKey(db: Database, scope: IdempotencyScope, lease: number) {
  await db.delete(idempotencyRecords).where(heldWhere(scope, lease));
}

/** Deletes records whose replay window has passed (run by the cron sweep). */
export async function sweepIdempotencyRecords(db: Database, now: number): Promise<void> {
  await db.delete(idempotencyRecords).where(lt(idempotencyRecords.expiresAt, now));
}
