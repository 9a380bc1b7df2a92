import { and, asc, eq, inArray, isNull, lt, notInArray, or, type Placeholder, sql } from "drizzle-orm";
import { meteringStateOf, meteringStateQueries } from "../../billing/repo/accounts";
import {
  type ReservationRow,
  releaseCanceledStatement,
  releaseReservationStatement,
  reserveStatement,
} from "../../billing/repo/reservations";
import type { Database } from "../../db/client";
import { keysetPage } from "../../db/keyset";
import { assets, jobSteps, jobs, objects, wallets } from "../../db/schema";
import { insertStatement, rowsOf, shape, statementOf } from "../../db/statements";
import type { FirstBatchClaim } from "../../platform/idempotency";
import { jobEndedEventStatement } from "../../webhooks/repo/events";
import type { JobErrorCode } from "../job-errors";
import { TERMINAL_STATES } from "../schemas";

/*
 * The jobs repository: every D1 statement of the jobs area except the publication transaction (./publication.ts).
 * Each state move is a conditional update on the state it expects, so a redelivered message, the cron sweep and a
 * concurrent runner never move a job twice.
 */

export type JobRow = typeof jobs.$inferSelect;
export type JobStepRow = typeof jobSteps.$inferSelect;
export type ObjectRow = typeof objects.$inferSelect;
export type AssetRow = typeof assets.$inferSelect;

/** How long a run holds its job without news (policy.ts JOB_LEASE_MS), passed in so the repo holds no policy. */
type LeaseMs = number;

/*
 * The statements of a run (the take, each step's records) and of admission are the same few shapes every time: they
 * are built by drizzle once per shape and bound per call (../../db/statements.ts, where the rules for the values are).
 * (A placeholder in `.set()` is wrapped in `sql` for drizzle's types: bound as given, so only text and numbers.)
 */

export async function getJob(db: Database, tenantId: string, jobId: string) {
  const [row] = await db
    .select()
    .from(jobs)
    .where(and(eq(jobs.tenantId, tenantId), eq(jobs.id, jobId)))
    .limit(1);
  return row ?? null;
}

export async function stepsOf(db: Database, jobIds: string[]) {
  if (jobIds.length === 0) return new Map<string, JobStepRow[]>();
  const rows = await db.select().from(jobSteps).where(inArray(jobSteps.jobId, jobIds)).orderBy(asc(jobSteps.position));
  const byJob = new Map<string, JobStepRow[]>();
  for (const row of rows) byJob.set(row.jobId, [...(byJob.get(row.jobId) ?? []), row]);
  return byJob;
}

export async function listJobs(
  db: Database,
  tenantId: string,
  filters: { kind?: string | undefined; state?: string | undefined },
  page: { snapshot: number; after: { createdAt: number; id: string } | null; limit: number },
) {
  const where = and(
    eq(jobs.tenantId, tenantId),
    filters.kind ? eq(jobs.kind, filters.kind as JobRow["kind"]) : undefined,
    filters.state ? eq(jobs.state, filters.state as JobRow["state"]) : undefined,
  );
  return keysetPage(db, jobs, where, page);
}

/**
 * The asset a sign request names and its source object's inspection facts (admission bounds decoded steps by them),
 * and the tenant's metering state (billing meterJob), in one D1 batch; null when the asset is not the tenant's.
 * `source` is null when the source object is gone.
 */
export async function assetForAdmission(db: Database, tenantId: string, assetId: string, claim?: FirstBatchClaim) {
  const ids = { tenantId, assetId };
  const reads = () => [
    assetStatement(db, ids),
    inspectionStatement(db, ids),
    accountStatement(db, { tenantId }),
    walletStatement(db, { tenantId }),
  ];
  let results: D1Result[];
  // A keyed request's Idempotency-Key claim rides first in this read (#19: its own round trip before): a key not
  // free fails the batch, and `recover` claims as a claim before running would (or throws that claim's answer).
  for (let pending = claim; ; pending = undefined) {
    const first = pending?.statements(db.$client) ?? [];
    try {
      results = (await db.$client.batch([...first, ...reads()])).slice(first.length);
    } catch (error) {
      if (pending && (await pending.recover(error))) continue;
      throw error;
    }
    pending?.settle();
    break;
  }
  const [asset, source, account, wallet] = results;
  const [assetRow] = rowsOf(assets, asset);
  if (!assetRow) return null;
  const [sourceRow] = (source?.results ?? []) as { id: string; media_type: string; inspection: string | null }[];
  const accountRows = ((account?.results ?? []) as { plan_revision: number }[]).map((r) => ({ planRevision: r.plan_revision }));
  return {
    asset: assetRow,
    source: sourceRow ? { id: sourceRow.id, mediaType: sourceRow.media_type, inspection: sourceRow.inspection } : null,
    metering: meteringStateOf(accountRows, rowsOf(wallets, wallet)),
  };
}

/** The asset's source object, within the tenant (both placeholders): the condition of the two source reads below. */
const sourceObjectOfAsset = (db: Database, p: (name: "tenantId" | "assetId") => Placeholder) =>
  and(
    eq(objects.tenantId, p("tenantId")),
    eq(
      objects.id,
      db
        .select({ id: assets.sourceObjectId })
        .from(assets)
        .where(and(eq(assets.tenantId, p("tenantId")), eq(assets.id, p("assetId")))),
    ),
  );

const inspectionStatement = shape<{ tenantId: string; assetId: string }>((db, p) =>
  db
    .select({ id: objects.id, media_type: objects.mediaType, inspection: objects.inspection })
    .from(objects)
    .where(sourceObjectOfAsset(db, p))
    .limit(1),
);

/** billing's meteringStateQueries (the account's plan revision, the wallet), as shapes for this raw batch. */
const accountStatement = shape<{ tenantId: string }>((db, p) => meteringStateQueries(db, p("tenantId") as never)[0]);
const walletStatement = shape<{ tenantId: string }>((db, p) => meteringStateQueries(db, p("tenantId") as never)[1]);

/** Admission's claim: only one request can move the asset to processing. Returns whether this call did. */
export async function claimAssetForJob(db: Database, tenantId: string, assetId: string, now: number): Promise<boolean> {
  const claimed = await claimShape(db, { tenantId, assetId, now }).all();
  return claimed.results.length === 1;
}

const claimShape = shape<{ tenantId: string; assetId: string; now: number }>((db, p) =>
  db
    .update(assets)
    .set({ status: "processing", updatedAt: sql`${p("now")}` })
    .where(and(eq(assets.tenantId, p("tenantId")), eq(assets.id, p("assetId")), inArray(assets.status, ["uploaded", "failed"])))
    .returning({ id: assets.id }),
);

/**
 * Writes an admitted job and its steps in one batch (one D1 transaction) that also claims the asset: the claim moves
 * the asset from `uploaded`/`failed` to `processing`, and the guard after it aborts the whole batch when the claim
 * moved nothing (another job holds the asset), so no claim ever lands without its job, nor a job without its claim.
 * A busy asset throws an error `isAssetBusy` recognises; a wallet that cannot cover `reservation`, one
 * `walletRefusal` recognises; a job id already taken (a retry under the same Idempotency-Key), D1's constraint error.
 * `take` (express mode, whose run starts in the same request): the batch also takes the job for that run, as
 * takeJobAndLoad would right after (the same statements, after the inserts in the same transaction): one round trip
 * fewer. Returns that take's result (null without `take`).
 */
export async function insertJob(
  db: Database,
  job: JobRow,
  steps: JobStepRow[],
  reservation: ReservationRow | null = null,
  take: { started: number; leaseMs: LeaseMs; first?: { instant: StepRecord[]; next: string } } | null = null,
): Promise<TakeAndLoad | null> {
  const [takeStatement, ...reads] = take ? takeAndLoadStatements(db, job, take.started, take.leaseMs) : [];
  // The run's first move (advanceStep's records, as the taken run would make them first): after the take, before the reads.
  const move = { finished: null, ...take?.first, next: take?.first?.next ?? null };
  const first = take?.first ? moveStatements(db, job.id, job.attempts + 1, move, take.started, take.leaseMs) : [];
  // The claim and its guard first: a busy asset aborts the batch before anything else is tried. Then the reservation:
  // when the wallet cannot cover it, its trigger aborts the batch before the job exists.
  const results = await db.$client.batch([
    claimInBatchShape(db, { tenantId: job.tenantId, assetId: job.assetId, now: job.createdAt }),
    db.$client.prepare(CLAIM_GUARD).bind(),
    ...(reservation ? [statementOf(db, reserveStatement(db, reservation))] : []),
    insertStatement(db, jobs, [job]),
    insertStatement(db, jobSteps, steps),
    ...(takeStatement ? [takeStatement, ...first, ...reads] : []),
  ]);
  if (!take) return null;
  const taken = takenAndLoaded([results[results.length - 4 - first.length]!, ...results.slice(-3)]);
  return taken.taken && take.first ? { ...taken, begun: take.first.next } : taken;
}

/** The claim as a batch statement: no RETURNING, so the guard after it reads its effect with changes(). */
const claimInBatchShape = shape<{ tenantId: string; assetId: string; now: number }>((db, p) =>
  db
    .update(assets)
    .set({ status: "processing", updatedAt: sql`${p("now")}` })
    .where(and(eq(assets.tenantId, p("tenantId")), eq(assets.id, p("assetId")), inArray(assets.status, ["uploaded", "failed"]))),
);

/*
 * changes() is the rows the previous statement of the batch changed (D1 runs a batch's statements in order, in one
 * transaction, on one connection: test/workers/jobs/admission-claim.test.ts checks it). SQLite has no RAISE outside
 * triggers: json() of a non-JSON text raises ("malformed JSON"), rolling the whole batch back. Nothing else in the
 * admission batch calls json(), so that message means this guard.
 */
const CLAIM_GUARD = "SELECT CASE WHEN changes() = 1 THEN 1 ELSE json('svc: asset busy') END AS claimed";

/** Whether insertJob failed because another job holds the asset (its claim guard aborted the batch). */
export function isAssetBusy(error: unknown): boolean {
  return String((error as Error)?.message ?? error).includes("malformed JSON");
}

/** The statements writing a job and its steps, for a caller's own batch (a capture admission writes its decision with them). */
export function jobInsertStatements(db: Database, job: JobRow, steps: JobStepRow[]) {
  return [db.insert(jobs).values(job), db.insert(jobSteps).values(steps)] as const;
}

/** Gives an asset claimed for `job` back to `previousStatus` (the job was not written). */
export async function releaseAssetClaim(db: Database, job: JobRow, previousStatus: typeof assets.$inferSelect.status) {
  await db
    .update(assets)
    .set({ status: previousStatus, updatedAt: job.createdAt })
    .where(and(eq(assets.tenantId, job.tenantId), eq(assets.id, job.assetId), eq(assets.status, "processing")));
}

/** `accepted` → `queued` once its message is sent. Returns whether this call moved it. */
export async function markQueued(db: Database, jobId: string, now: number): Promise<boolean> {
  const moved = await db
    .update(jobs)
    .set({ state: "queued", updatedAt: now })
    .where(and(eq(jobs.id, jobId), eq(jobs.state, "accepted")))
    .returning({ id: jobs.id });
  return moved.length === 1;
}

/**
 * Takes the job for a run: only one runner holds a live lease. Succeeds from `accepted`/`queued`, or from a
 * `running` job whose lease lapsed (before `started`), and only at the attempt count read. In the same D1 batch (one
 * round trip where there were four) it reads what the run needs next: the steps, the asset and its source object. The
 * reads run after the take inside the same transaction, so they see every step a previous (lapsed) runner finished
 * before the take.
 */
export async function takeJobAndLoad(db: Database, job: JobRow, started: number, leaseMs: LeaseMs): Promise<TakeAndLoad> {
  return takenAndLoaded(await db.$client.batch(takeAndLoadStatements(db, job, started, leaseMs)));
}

/** What a take read: whether it took the job, and then the job's steps, its asset and source (null when either is gone). */
export type TakeAndLoad =
  | { taken: false }
  | {
      taken: true;
      steps: JobStepRow[];
      found: { asset: AssetRow; source: ObjectRow } | null;
      /** The step the take's batch also began (insertJob's first move): the run starts it without a begin of its own. */
      begun?: string;
    };

/** The take and its reads, four statements for a batch (takenAndLoaded reads their results). */
function takeAndLoadStatements(db: Database, job: JobRow, started: number, leaseMs: LeaseMs) {
  const ids = { jobId: job.id, tenantId: job.tenantId, assetId: job.assetId };
  return [
    takeStatement(db, { ...ids, attempts: job.attempts, next: job.attempts + 1, lease: started + leaseMs, started }),
    stepsStatement(db, ids),
    assetStatement(db, ids),
    sourceStatement(db, ids),
  ];
}

function takenAndLoaded([taken, steps, asset, source]: D1Result[]): TakeAndLoad {
  if (taken!.results.length !== 1) return { taken: false as const };
  const [assetRow] = rowsOf(assets, asset);
  const [sourceRow] = rowsOf(objects, source);
  return {
    taken: true as const,
    steps: rowsOf(jobSteps, steps),
    found: assetRow && sourceRow ? { asset: assetRow, source: sourceRow } : null,
  };
}

const takeStatement = shape<{ jobId: string; attempts: number; next: number; lease: number; started: number }>((db, p) =>
  db
    .update(jobs)
    .set({ state: "running", attempts: sql`${p("next")}`, leaseExpiresAt: sql`${p("lease")}`, updatedAt: sql`${p("started")}` })
    .where(
      and(
        eq(jobs.id, p("jobId")),
        eq(jobs.attempts, p("attempts")),
        or(
          inArray(jobs.state, ["accepted", "queued"]),
          and(eq(jobs.state, "running"), or(isNull(jobs.leaseExpiresAt), lt(jobs.leaseExpiresAt, p("started")))),
        ),
      ),
    )
    .returning({ id: jobs.id }),
);

const stepsStatement = shape<{ jobId: string }>((db, p) =>
  db
    .select()
    .from(jobSteps)
    .where(eq(jobSteps.jobId, p("jobId")))
    .orderBy(asc(jobSteps.position)),
);

const assetStatement = shape<{ tenantId: string; assetId: string }>((db, p) =>
  db
    .select()
    .from(assets)
    .where(and(eq(assets.tenantId, p("tenantId")), eq(assets.id, p("assetId"))))
    .limit(1),
);

const sourceStatement = shape<{ tenantId: string; assetId: string }>((db, p) =>
  db.select().from(objects).where(sourceObjectOfAsset(db, p)).limit(1),
);

/**
 * Gives a running job's lease back (after a transient failure), so the queue's retry may take it at once. Only the
 * runner of `attempt` (the take's attempt count) may: a stale runner must not give away another runner's live lease.
 */
export async function releaseLease(db: Database, jobId: string, attempt: number, now: number) {
  await db
    .update(jobs)
    .set({ leaseExpiresAt: now })
    .where(and(eq(jobs.id, jobId), eq(jobs.state, "running"), eq(jobs.attempts, attempt)));
}

/**
 * Undoes admission's take of an express job whose run never started (the media services failed to load): the job
 * reads as admitted and untaken again (its state and attempts as admission wrote them, no lease, the step the take
 * began back to pending; recorded inspect steps stay, they are true), so a cancellation ends it at once and the
 * queue's safety net takes it as a fresh job. Only while the take's attempt still holds the job. A cancellation
 * requested meanwhile (the job then reads `cancel_requested`) is finished here, as cancelJob would have done.
 */
export async function giveTakeBack(db: Database, admitted: JobRow, attempt: number, now: number) {
  const held = and(eq(jobs.id, admitted.id), eq(jobs.attempts, attempt), inArray(jobs.state, ["running", "cancel_requested"]));
  const [, , after] = await db.batch([
    // the steps first: their guard reads the job as the take left it
    db
      .update(jobSteps)
      .set({ state: "pending", startedAt: null })
      .where(and(eq(jobSteps.jobId, admitted.id), eq(jobSteps.state, "running"), sql`EXISTS (SELECT 1 FROM ${jobs} WHERE ${held})`)),
    db.update(jobs).set({ state: admitted.state, attempts: admitted.attempts, leaseExpiresAt: null, updatedAt: now }).where(held),
    db.select().from(jobs).where(eq(jobs.id, admitted.id)).limit(1),
  ]);
  const job = after[0];
  if (job && job.cancelRequestedAt !== null && !TERMINAL_STATES.includes(job.state as never)) await finishCanceled(db, job);
}

/**
 * Records a finished step (with its output, renewing the lease) and starts the next one, in one D1 batch: one round
 * trip where there were two. `instant` steps (their output known without work: the inspect step; or worked out
 * in memory with no side effect before this batch: the fingerprints of pixels in hand, with the times they took)
 * are started and recorded in the same batch, both only while no cancellation was requested, as their own begin
 * would have checked.
 * Any part may be absent (the first step has nothing to record; after the last there is nothing to start). Returns
 * the job as it is after the batch, so the caller sees a cancellation that landed before the next step's work
 * starts (and then neither that step nor the instant ones were marked).
 */
export async function advanceStep(
  db: Database,
  tenantId: string,
  jobId: string,
  move: { finished: StepRecord | null; instant?: StepRecord[]; next: string | null },
  attempt: number,
  leaseMs: LeaseMs,
): Promise<JobRow | null> {
  const statements = [...moveStatements(db, jobId, attempt, move, Date.now(), leaseMs), jobStatement(db, { tenantId, jobId })];
  const results = await db.$client.batch(statements);
  return rowsOf(jobs, results[results.length - 1])[0] ?? null;
}

/** advanceStep's records, for its batch (and insertJob's, where an express run's first move rides with its take). */
function moveStatements(
  db: Database,
  jobId: string,
  attempt: number,
  move: { finished: StepRecord | null; instant?: StepRecord[]; next: string | null },
  now: number,
  leaseMs: LeaseMs,
) {
  return [
    ...(move.finished
      ? completeStatements(db, jobId, attempt, move.finished.step, move.finished.output, now, leaseMs, move.finished.completedAt ?? now)
      : []),
    ...(move.instant ?? []).map((s) =>
      recordInstant(db, {
        jobId,
        attempt,
        step: s.step,
        startedAt: s.startedAt ?? now,
        completedAt: s.completedAt ?? now,
        output: jsonOrNull(s.output),
      }),
    ),
    ...(move.next ? [beginStatement(db, jobId, attempt, move.next, now)] : []),
  ];
}

/**
 * A step output as stored: its JSON, or null when it has none (`JSON.stringify` gives undefined for undefined, a
 * function or a symbol, and D1 refuses to bind undefined: the whole step batch would fail).
 */
const jsonOrNull = (output: unknown): string | null => JSON.stringify(output) ?? null;

/** A step's record: its name and its output (stored as JSON). */
export interface StepRecord {
  step: string;
  output: unknown;
  /** For an instant step that was worked out before its record: when that work started (else the batch's time). */
  startedAt?: number;
  /**
   * When the step's work ended (else the batch's time). A finished step whose record waits for work done after it
   * (the fingerprints folded into the next begin) must carry it, or its span would hold that work as well.
   */
  completedAt?: number;
}

/**
 * The job's id while the runner of `attempt` still holds it (no later take: a stale runner whose lease lapsed and
 * was taken over records nothing), a guard for step statements.
 */
const heldBy = (db: Database, jobId: string | Placeholder, attempt: number | Placeholder) =>
  db
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(eq(jobs.id, jobId), eq(jobs.attempts, attempt)));

/** The job's id while the runner of `attempt` holds it and no cancellation was requested (a guard for step statements). */
const notCancelled = (db: Database, jobId: string | Placeholder, attempt: number | Placeholder) =>
  db
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(eq(jobs.id, jobId), eq(jobs.attempts, attempt), isNull(jobs.cancelRequestedAt)));

/** Marks a step running, unless a cancellation was requested or another runner took the job (then nothing changes). */
function beginStatement(db: Database, jobId: string, attempt: number, step: string, now: number) {
  return beginShape(db, { jobId, attempt, step, now });
}

const beginShape = shape<{ jobId: string; attempt: number; step: string; now: number }>((db, p) =>
  db
    .update(jobSteps)
    .set({ state: "running", startedAt: sql`${p("now")}` })
    .where(
      and(
        eq(jobSteps.jobId, p("jobId")),
        eq(jobSteps.step, p("step")),
        inArray(jobSteps.jobId, notCancelled(db, p("jobId"), p("attempt"))),
      ),
    ),
);

/**
 * An instant step's record, its begin and its end in one statement (they were two, under the same guard, with nothing
 * between them): only while the job is held and not cancelled, as its begin checked.
 */
const recordInstant = shape<{
  jobId: string;
  attempt: number;
  step: string;
  startedAt: number;
  completedAt: number;
  output: string | null;
}>((db, p) =>
  db
    .update(jobSteps)
    .set({ state: "completed", startedAt: sql`${p("startedAt")}`, completedAt: sql`${p("completedAt")}`, output: sql`${p("output")}` })
    .where(
      and(
        eq(jobSteps.jobId, p("jobId")),
        eq(jobSteps.step, p("step")),
        inArray(jobSteps.jobId, notCancelled(db, p("jobId"), p("attempt"))),
      ),
    ),
);

/** A finished step and its output; a finished step is news, so the lease is renewed with it (only by its holder). */
function completeStatements(
  db: Database,
  jobId: string,
  attempt: number,
  step: string,
  output: unknown,
  now: number,
  leaseMs: LeaseMs,
  completedAt = now,
) {
  return [
    completeShape(db, { jobId, attempt, step, now: completedAt, output: jsonOrNull(output) }),
    renewShape(db, { jobId, attempt, now, lease: now + leaseMs }),
  ];
}

const completeShape = shape<{ jobId: string; attempt: number; step: string; now: number; output: string | null }>((db, p) =>
  db
    .update(jobSteps)
    .set({ state: "completed", completedAt: sql`${p("now")}`, output: sql`${p("output")}` })
    .where(
      and(eq(jobSteps.jobId, p("jobId")), eq(jobSteps.step, p("step")), inArray(jobSteps.jobId, heldBy(db, p("jobId"), p("attempt")))),
    ),
);

const renewShape = shape<{ jobId: string; attempt: number; now: number; lease: number }>((db, p) =>
  db
    .update(jobs)
    .set({ updatedAt: sql`${p("now")}`, leaseExpiresAt: sql`${p("lease")}` })
    .where(and(eq(jobs.id, p("jobId")), eq(jobs.state, "running"), eq(jobs.attempts, p("attempt")))),
);

const jobStatement = shape<{ tenantId: string; jobId: string }>((db, p) =>
  db
    .select()
    .from(jobs)
    .where(and(eq(jobs.tenantId, p("tenantId")), eq(jobs.id, p("jobId"))))
    .limit(1),
);

/** Marks a cancellation request on a job that has not ended (the first request's time is kept). */
export async function requestCancel(db: Database, job: JobRow, reason: string | null, now: number) {
  await db
    .update(jobs)
    .set({ state: "cancel_requested", cancelRequestedAt: job.cancelRequestedAt ?? now, cancelReason: reason, updatedAt: now })
    .where(and(eq(jobs.id, job.id), inArray(jobs.state, ["accepted", "queued", "running", "cancel_requested"])));
}

/** Ends a job as `canceled`: its unfinished steps are skipped and its asset is ready to sign again. */
export async function finishCanceled(db: Database, job: JobRow) {
  const now = Date.now();
  await db.batch([
    db
      .update(jobs)
      .set({ state: "canceled", terminalAt: now, updatedAt: now, leaseExpiresAt: null })
      .where(and(eq(jobs.id, job.id), notInArray(jobs.state, [...TERMINAL_STATES]))),
    db
      .update(jobSteps)
      .set({ state: "skipped" })
      .where(and(eq(jobSteps.jobId, job.id), inArray(jobSteps.state, ["pending", "running"]))),
    db
      .update(assets)
      .set({ status: "uploaded", updatedAt: now })
      .where(and(eq(assets.id, job.assetId), eq(assets.status, "processing"))),
    // A cancelled job publishes nothing: its quote goes back to the wallet, in the same transaction.
    releaseCanceledStatement(db, job.id, now),
  ]);
}

/** The outcome of endJob: the job.failed event written with it, and how to learn whether this batch ended the job. */
export interface EndedJob {
  eventId: string;
  /** True when this batch made the job's terminal move (and so its event exists). */
  committed(): Promise<boolean>;
}

/**
 * Ends a job without a publication (`failed`, `rejected` or `expired`) in one D1 batch: the job row moves only
 * from a non-terminal state, and everything else in the batch (the step, the asset, the job.failed event in the
 * webhook outbox) takes effect only if this batch made that move, so a job ends once and announces it once.
 */
export async function endJob(
  d1: D1Database,
  job: JobRow,
  step: Pick<JobStepRow, "step"> | null,
  state: "failed" | "rejected" | "expired",
  code: JobErrorCode,
  message: string,
  attempt?: number,
): Promise<EndedJob> {
  const now = Date.now();
  const ended = "EXISTS (SELECT 1 FROM jobs WHERE id = ? AND state = ? AND terminal_at = ? AND error_code = ?)";
  const guard = [job.id, state, now, code];
  const terminal = TERMINAL_STATES.map(() => "?").join(", ");
  const event = jobEndedEventStatement(
    d1,
    { tenantId: job.tenantId, at: now, data: { asset_id: job.assetId, job_id: job.id, recipe_id: job.recipeId, state, error_code: code } },
    { sql: ended, binds: guard },
  );
  await d1.batch([
    d1
      .prepare(
        `UPDATE jobs SET state = ?, error_code = ?, error_message = ?, terminal_at = ?, updated_at = ?, lease_expires_at = NULL WHERE id = ? AND state NOT IN (${terminal})${attempt === undefined ? "" : " AND attempts = ?"}`,
      )
      // `attempt`: a run ends the job only while it holds it (a runner whose lease lapsed and was taken over does not).
      .bind(state, code, message, now, now, job.id, ...TERMINAL_STATES, ...(attempt === undefined ? [] : [attempt])),
    event.statement,
    ...(step
      ? [
          d1
            .prepare(`UPDATE job_steps SET state = 'failed', completed_at = ?, error_code = ? WHERE job_id = ? AND step = ? AND ${ended}`)
            .bind(now, code, job.id, step.step, ...guard),
        ]
      : []),
    ...(state === "expired"
      ? [
          d1
            .prepare(`UPDATE job_steps SET state = 'skipped' WHERE job_id = ? AND state IN ('pending', 'running') AND ${ended}`)
            .bind(job.id, ...guard),
        ]
      : [
          // A step still `running` (begun by a run that died: attempts exhausted, or a resumed run that cannot go on)
          // ended with the job: never left running under a terminal job.
          d1
            .prepare(
              `UPDATE job_steps SET state = 'failed', completed_at = ?, error_code = ? WHERE job_id = ? AND state = 'running' AND ${ended}`,
            )
            .bind(now, code, job.id, ...guard),
        ]),
    // No publication: the job's quote (if metered) goes back to the wallet.
    releaseReservationStatement(d1, job.id, now, { sql: ended, binds: guard }),
    // An expired job never ran: its asset is ready to sign again, as after a cancellation.
    d1
      .prepare(`UPDATE assets SET status = ?, updated_at = ? WHERE id = ? AND status = 'processing' AND ${ended}`)
      .bind(state === "expired" ? "uploaded" : "failed", now, job.assetId, ...guard),
  ]);
  return {
    eventId: event.eventId,
    committed: async () =>
      Boolean(
        await d1
          .prepare(`SELECT 1 AS ok WHERE ${ended}`)
          .bind(...guard)
          .first(),
      ),
  };
}

/**
 * What an express answer shows, in one D1 batch: the job, its steps, its asset and the asset's published objects
 * (output and sidecar manifest, read by the ids the asset row holds inside the same transaction).
 */
export async function jobWithPublication(db: Database, tenantId: string, jobId: string): Promise<JobPublicationView | null> {
  const assetOfJob = db
    .select({ id: jobs.assetId })
    .from(jobs)
    .where(and(eq(jobs.tenantId, tenantId), eq(jobs.id, jobId)));
  const [[job], steps, [asset], published] = await db.batch([
    db
      .select()
      .from(jobs)
      .where(and(eq(jobs.tenantId, tenantId), eq(jobs.id, jobId)))
      .limit(1),
    db.select().from(jobSteps).where(eq(jobSteps.jobId, jobId)).orderBy(asc(jobSteps.position)),
    db
      .select()
      .from(assets)
      .where(and(eq(assets.tenantId, tenantId), eq(assets.id, assetOfJob)))
      .limit(1),
    db
      .select()
      .from(objects)
      .where(
        and(
          eq(objects.tenantId, tenantId),
          or(
            eq(
              objects.id,
              db
                .select({ id: assets.publishedObjectId })
                .from(assets)
                .where(and(eq(assets.tenantId, tenantId), eq(assets.id, assetOfJob))),
            ),
            eq(
              objects.id,
              db
                .select({ id: assets.sidecarObjectId })
                .from(assets)
                .where(and(eq(assets.tenantId, tenantId), eq(assets.id, assetOfJob))),
            ),
          ),
        ),
      ),
  ]);
  if (!job) return null;
  const objectById = new Map(published.map((o) => [o.id, o]));
  const output = asset?.publishedObjectId ? (objectById.get(asset.publishedObjectId) ?? null) : null;
  const sidecar = asset?.sidecarObjectId ? (objectById.get(asset.sidecarObjectId) ?? null) : null;
  return { job, steps, asset: asset ?? null, output, sidecar };
}

/** What an express answer shows: the job, its steps, its asset and the asset's published output and sidecar. */
export interface JobPublicationView {
  job: JobRow;
  steps: JobStepRow[];
  asset: AssetRow | null;
  output: ObjectRow | null;
  sidecar: ObjectRow | null;
}

/** Sweep: accepted or queued jobs untouched since `before` (their message may be lost). */
export async function unstartedJobs(db: Database, before: number) {
  return db
    .select()
    .from(jobs)
    .where(and(inArray(jobs.state, ["accepted", "queued"]), lt(jobs.updatedAt, before)))
    .limit(100);
}

/** Sweep: the job was sent again; queued now, and touched so the next sweep waits a full period. */
export async function touchQueued(db: Database, jobId: string, now: number) {
  await db
    .update(jobs)
    .set({ state: "queued", updatedAt: now })
    .where(and(eq(jobs.id, jobId), inArray(jobs.state, ["accepted", "queued"])));
}

const leaseLapsed = (now: number, leaseMs: LeaseMs) =>
  or(lt(jobs.leaseExpiresAt, now), and(isNull(jobs.leaseExpiresAt), lt(jobs.updatedAt, now - leaseMs)));

/** Sweep: running (or cancel-requested) jobs whose lease lapsed: their runner died or the queue gave up. */
export async function lapsedJobs(db: Database, now: number, leaseMs: LeaseMs) {
  return db
    .select()
    .from(jobs)
    .where(and(inArray(jobs.state, ["running", "cancel_requested"]), leaseLapsed(now, leaseMs)))
    .limit(100);
}

/** Sweep: a lapsed running job back to `queued`, only while its lease is still lapsed. Returns whether this call did it. */
export async function requeueLapsed(db: Database, jobId: string, now: number, leaseMs: LeaseMs): Promise<boolean> {
  const taken = await db
    .update(jobs)
    .set({ state: "queued", leaseExpiresAt: null, updatedAt: now })
    .where(and(eq(jobs.id, jobId), eq(jobs.state, "running"), leaseLapsed(now, leaseMs)))
    .returning({ id: jobs.id });
  return taken.length === 1;
}

/**
 * Sweep: assets an admission claimed (`processing`) before `before` but no open job holds: the admission died
 * between its claim and its job's insert (or its release of the claim failed too), and nothing else would ever free
 * the asset. Back to `uploaded`, signable again. One conditional statement: an asset whose job exists and is open
 * is never touched. Returns how many were freed (at most `limit`).
 */
export async function releaseStrandedClaims(db: Database, before: number, now: number, limit = 100): Promise<number> {
  const open = notInArray(jobs.state, [...TERMINAL_STATES]);
  const stranded = and(
    eq(assets.status, "processing"),
    lt(assets.updatedAt, before),
    sql`NOT EXISTS (SELECT 1 FROM ${jobs} WHERE ${jobs.assetId} = ${assets.id} AND ${jobs.tenantId} = ${assets.tenantId} AND ${open})`,
  );
  // The limit picks among stranded claims only: old claims whose jobs are legitimately open never fill it.
  const freed = await db
    .update(assets)
    .set({ status: "uploaded", updatedAt: now })
    .where(and(stranded, inArray(assets.id, db.select({ id: assets.id }).from(assets).where(stranded).limit(limit))))
    .returning({ id: assets.id });
  return freed.length;
}
