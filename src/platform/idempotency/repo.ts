import { and, eq, lt, type Placeholder } from "drizzle-orm";
import type { Database } from "../../db/client";
import { idempotencyRecords } from "../../db/schema";
import { rowOf, shape } from "../../db/statements";

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

function scopeWhere(scope: { [K in keyof IdempotencyScope]: string | Placeholder }) {
  return and(
    eq(idempotencyRecords.tenantId, scope.tenantId),
    eq(idempotencyRecords.operation, scope.operation),
    eq(idempotencyRecords.idempotencyKey, scope.key),
  );
}

/*
 * The statements every keyed write runs (the claim's insert, the completion, the release, and the read on a
 * conflict) are built once per shape and bound per call (db/statements.ts): drizzle's query building costs more CPU
 * than D1 running them.
 */
type ScopeValues = { tenantId: string; operation: string; key: string };
const scopeOf = (p: (name: keyof ScopeValues) => Placeholder) => ({ tenantId: p("tenantId"), operation: p("operation"), key: p("key") });
const scopeValues = (scope: IdempotencyScope): ScopeValues => ({ tenantId: scope.tenantId, operation: scope.operation, key: scope.key });

const claimShape = shape<ScopeValues & { requestSha256: string; lockedUntil: number; createdAt: number; expiresAt: number }>((db, p) =>
  db
    .insert(idempotencyRecords)
    .values({
      tenantId: p("tenantId") as never,
      operation: p("operation") as never,
      idempotencyKey: p("key") as never,
      requestSha256: p("requestSha256") as never,
      state: "in_flight",
      lockedUntil: p("lockedUntil") as never,
      createdAt: p("createdAt") as never,
      expiresAt: p("expiresAt") as never,
    })
    .onConflictDoNothing()
    .returning({ key: idempotencyRecords.idempotencyKey }),
);

const readShape = shape<ScopeValues>((db, p) =>
  db
    .select()
    .from(idempotencyRecords)
    .where(scopeWhere(scopeOf(p)))
    .limit(1),
);

type HeldValues = ScopeValues & { lease: number };
const heldWhereOf = (p: (name: keyof HeldValues) => Placeholder) =>
  and(scopeWhere(scopeOf(p)), eq(idempotencyRecords.state, "in_flight"), eq(idempotencyRecords.lockedUntil, p("lease")));

const completeShape = shape<
  HeldValues & { responseStatus: number; responseContentType: string | null; responseBody: string | null; secretWithheld: boolean }
>((db, p) =>
  db
    .update(idempotencyRecords)
    .set({
      state: "completed",
      responseStatus: p("responseStatus") as never,
      responseContentType: p("responseContentType") as never,
      responseBody: p("responseBody") as never,
      // A bare placeholder in `.set()` is encoded by its column (the boolean stored as 0/1), as drizzle encodes the value.
      secretWithheld: p("secretWithheld") as never,
    })
    .where(heldWhereOf(p)),
);

const releaseShape = shape<HeldValues>((db, p) => db.delete(idempotencyRecords).where(heldWhereOf(p)));

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
    const inserted = await claimShape(db, {
      ...scopeValues(scope),
      requestSha256,
      lockedUntil: now + IDEMPOTENCY_LEASE_MS,
      createdAt: now,
      expiresAt: now + IDEMPOTENCY_TTL_MS,
    }).all();
    if (inserted.results.length === 1) return { status: "claimed", lease: now + IDEMPOTENCY_LEASE_MS };

    const where = scopeWhere(scope);
    const [raw] = (await readShape(db, scopeValues(scope)).all()).results as Record<string, unknown>[];
    const row = raw ? rowOf(idempotencyRecords, raw) : null;
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

/* The holder's own row (heldWhereOf): a request whose lease lapsed and was taken over must not touch the new holder's row. */

/** Stores the outcome of a claimed request for replay (`withhold`: a one-time secret was in it; store none). */
export async function completeIdempotencyKey(
  db: Database,
  scope: IdempotencyScope,
  lease: number,
  response: { status: number; contentType: string | null; body: string; withhold: boolean },
) {
  await completeShape(db, {
    ...scopeValues(scope),
    lease,
    responseStatus: response.status,
    responseContentType: response.contentType,
    responseBody: response.withhold ? null : response.body,
    secretWithheld: response.withhold,
  }).run();
}

/** Frees a claimed key (the request failed with a 5xx, a retryable refusal, or threw), so a retry runs the operation again. */
export async function releaseIdempotencyKey(db: Database, scope: IdempotencyScope, lease: number) {
  await releaseShape(db, { ...scopeValues(scope), lease }).run();
}

/** Deletes records whose replay window has passed (run by the cron sweep). */
export async function sweepIdempotencyRecords(db: Database, now: number): Promise<void> {
  await db.delete(idempotencyRecords).where(lt(idempotencyRecords.expiresAt, now));
}

/**
 * A SQL expression and its binds (`?` placeholders, in order): an answer's body computed inside the operation's own
 * batch, or a condition on it.
 */
export interface SqlPart {
  sql: string;
  binds: readonly unknown[];
}

/**
 * The completion as one raw statement for the operation's own D1 batch (#19: one round trip fewer, and no gap
 * between the write and its completion for a crash to fall into). It completes only the holder's own claim
 * (heldWhereOf, as completeShape) and only when `onlyIf` holds, and answers what it stored (RETURNING), so the
 * middleware can compare it with the answer the route then gives.
 */
export function completeInBatchStatement(
  d1: D1Database,
  scope: IdempotencyScope,
  lease: number,
  answer: { status: number; contentType: string; body: SqlPart; onlyIf: SqlPart },
): D1PreparedStatement {
  return d1
    .prepare(
      `UPDATE idempotency_records SET state = 'completed', response_status = ?, response_content_type = ?, response_body = (${answer.body.sql}), secret_withheld = 0
        WHERE tenant_id = ? AND operation = ? AND idempotency_key = ? AND state = 'in_flight' AND locked_until = ? AND (${answer.onlyIf.sql})
        RETURNING response_status, response_content_type, response_body`,
    )
    .bind(
      answer.status,
      answer.contentType,
      ...answer.body.binds,
      scope.tenantId,
      scope.operation,
      scope.key,
      lease,
      ...answer.onlyIf.binds,
    );
}

/**
 * What a failed claim guard (claimHeldGuardStatement) says: SQLite has no RAISE outside triggers, and a bad JSON path
 * is an error whose message carries the path, so the failure is told apart from any other ("bad JSON path: '…'").
 */
const CLAIM_LOST = "idempotency claim lost";

/**
 * First in a batch that completes the key (completionInBatch): fails the whole batch (one transaction, so nothing in
 * it is written) unless this request still holds its claim. A request whose lease lapsed and was taken over by a
 * retry must not make the change the holder is making (#19 review: a replay queued twice, the holder answering
 * `delivery_count: 0`).
 */
export function claimHeldGuardStatement(d1: D1Database, scope: IdempotencyScope, lease: number): D1PreparedStatement {
  return d1
    .prepare(
      `SELECT CASE WHEN EXISTS (SELECT 1 FROM idempotency_records WHERE tenant_id = ? AND operation = ? AND idempotency_key = ? AND state = 'in_flight' AND locked_until = ?)
        THEN 1 ELSE json_extract('{}', '${CLAIM_LOST}') END AS held`,
    )
    .bind(scope.tenantId, scope.operation, scope.key, lease);
}

/** Whether `error` (or one of its causes) is a batch failed by claimHeldGuardStatement: the claim was taken over. */
export function isClaimLost(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && typeof current === "object" && current !== null; depth++) {
    if (String((current as { message?: unknown }).message ?? "").includes(`'${CLAIM_LOST}'`)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** True inside a batch once the holder's completion in it applied (the holder's own row, completed). */
export function completedByHolder(scope: IdempotencyScope, lease: number): SqlPart {
  return {
    sql: "EXISTS (SELECT 1 FROM idempotency_records WHERE tenant_id = ? AND operation = ? AND idempotency_key = ? AND state = 'completed' AND locked_until = ?)",
    binds: [scope.tenantId, scope.operation, scope.key, lease],
  };
}

const rewriteShape = shape<HeldValues & { responseStatus: number; responseContentType: string | null; responseBody: string }>((db, p) =>
  db
    .update(idempotencyRecords)
    .set({
      responseStatus: p("responseStatus") as never,
      responseContentType: p("responseContentType") as never,
      responseBody: p("responseBody") as never,
    })
    .where(and(scopeWhere(scopeOf(p)), eq(idempotencyRecords.state, "completed"), eq(idempotencyRecords.lockedUntil, p("lease")))),
);

/** Replaces the answer a completion in the operation's batch stored (only this holder's) with the one given. */
export async function rewriteCompletedAnswer(
  db: Database,
  scope: IdempotencyScope,
  lease: number,
  response: { status: number; contentType: string | null; body: string },
) {
  await rewriteShape(db, {
    ...scopeValues(scope),
    lease,
    responseStatus: response.status,
    responseContentType: response.contentType,
    responseBody: response.body,
  }).run();
}

/** What a failed claim-taken guard (claimInBatchStatements) says, told apart from CLAIM_LOST and any other failure. */
const CLAIM_NOT_TAKEN = "idempotency claim not taken";

/**
 * The claim itself as the first statements of the operation's own batch (#19: the claim's D1 round trip folded
 * into the write's), for a request that did not claim before running (completionInBatch, claimKeyInBatch). It takes
 * the key exactly where claimIdempotencyKey would take it at once: no row, an expired row (any request), or this
 * request's fingerprint left in flight by a lease that lapsed; expired rows start afresh, a lapsed one keeps its
 * times. The guard after it reads SQLite's changes() of that very statement (the batch runs its statements in
 * order on one connection, in one transaction), so it proves that this batch took the key, whatever lease value
 * another request chose in the same millisecond; otherwise the whole batch is rolled back, and the caller claims
 * as claimIdempotencyKey does to learn the answer (isClaimNotTaken).
 */
export function claimInBatchStatements(
  d1: D1Database,
  scope: IdempotencyScope,
  requestSha256: string,
  now: number,
): { lease: number; statements: D1PreparedStatement[] } {
  const lease = now + IDEMPOTENCY_LEASE_MS;
  return {
    lease,
    statements: [
      d1
        .prepare(
          `INSERT INTO idempotency_records (tenant_id, operation, idempotency_key, request_sha256, state, locked_until, secret_withheld, created_at, expires_at)
           VALUES (?1, ?2, ?3, ?4, 'in_flight', ?5, 0, ?6, ?7)
           ON CONFLICT (tenant_id, operation, idempotency_key) DO UPDATE SET
             request_sha256 = excluded.request_sha256, state = 'in_flight', locked_until = excluded.locked_until,
             response_status = NULL, response_content_type = NULL, response_body = NULL, secret_withheld = 0,
             created_at = CASE WHEN idempotency_records.expires_at <= ?6 THEN excluded.created_at ELSE idempotency_records.created_at END,
             expires_at = CASE WHEN idempotency_records.expires_at <= ?6 THEN excluded.expires_at ELSE idempotency_records.expires_at END
           WHERE idempotency_records.expires_at <= ?6
              OR (idempotency_records.state = 'in_flight' AND idempotency_records.locked_until <= ?6 AND idempotency_records.request_sha256 = ?4)`,
        )
        .bind(scope.tenantId, scope.operation, scope.key, requestSha256, lease, now, now + IDEMPOTENCY_TTL_MS),
      d1.prepare(`SELECT CASE WHEN changes() = 1 THEN 1 ELSE json_extract('{}', '${CLAIM_NOT_TAKEN}') END AS taken`),
    ],
  };
}

/** Whether `error` (or one of its causes) is a batch failed by claimInBatchStatements' guard: the key was not free. */
export function isClaimNotTaken(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && typeof current === "object" && current !== null; depth++) {
    if (String((current as { message?: unknown }).message ?? "").includes(`'${CLAIM_NOT_TAKEN}'`)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
