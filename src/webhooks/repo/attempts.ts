import type { TerminalReason } from "../schemas";
import { fenceDeliveriesStatement } from "./endpoints";
import type { D1Batcher } from "./shared-batch";

/*
 * The delivery engine's D1 statements: read a delivery with its endpoint's controls, claim it, fence it, push it
 * back, and record an attempt's outcome. Typed raw SQL: each is a conditional UPDATE (some with RETURNING) whose
 * WHERE makes concurrent copies of a message harmless, and the record is one batch.
 */

/** A delivery joined with its endpoint's state and controls. Invariant: read before the claim, so re-checked in each write. */
export interface EngineDeliveryRow {
  id: string;
  tenant_id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  status: string;
  attempt_count: number;
  attempt_base: number;
  next_attempt_at: number | null;
  lease_until: number | null;
  endpoint_state: "active" | "disabled" | "deleted";
  max_concurrency: number;
  rate_limit_per_minute: number;
}

/** What an attempt sends, read again after the claim so a changed URL or a retired secret is never used. */
export interface AttemptTarget {
  url: string;
  secret_ciphertext: string;
  previous_secret_ciphertext: string | null;
  body: string;
}

export async function loadDelivery(d1: D1Database, deliveryId: string): Promise<EngineDeliveryRow | null> {
  return d1
    .prepare(
      `SELECT d.id, d.tenant_id, d.endpoint_id, d.event_id, d.event_type, d.status, d.attempt_count, d.attempt_base, d.next_attempt_at, d.lease_until,
              e.state AS endpoint_state, e.max_concurrency, e.rate_limit_per_minute
         FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
        WHERE d.id = ?`,
    )
    .bind(deliveryId)
    .first<EngineDeliveryRow>();
}

/** D1 binds at most 100 parameters per statement: id lists are read and claimed in chunks of this size. */
const ID_CHUNK = 90;

function chunks<T>(xs: readonly T[], size = ID_CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += size) out.push(xs.slice(i, i + size));
  return out;
}

const marks = (n: number) => Array.from({ length: n }, () => "?").join(", ");

/** Ids per JSON list parameter (a delivery id is ≈ 25 bytes): a batch's ids go in one or a few statements. */
const JSON_IDS = 500;

/**
 * `loadDelivery` for many, in one D1 round trip (#19: a queue batch names up to thousands; chunk after chunk cost
 * a round trip each before any delivery could start). The ids go as one JSON list parameter per 500 (#19: bound
 * one by one, D1's 100-parameter limit made two statements and 180 parameters per 90 ids). Ids without a row are
 * absent from `rows`. In the same round trip, the bodies of the events of those still unfinished (#19: each
 * endpoint's run read them again, 20 runs the same bodies; an event's body never changes, so reading it before
 * the claim sends what a read after it would).
 */
export async function loadDeliveries(
  d1: D1Database,
  deliveryIds: readonly string[],
): Promise<{ rows: Map<string, EngineDeliveryRow>; bodies: Map<string, string> }> {
  const rows = new Map<string, EngineDeliveryRow>();
  const bodies = new Map<string, string>();
  if (deliveryIds.length === 0) return { rows, bodies };
  const results = await d1.batch(
    chunks(deliveryIds, JSON_IDS).flatMap((ids) => {
      const list = JSON.stringify(ids);
      return [
        d1
          .prepare(
            `SELECT d.id, d.tenant_id, d.endpoint_id, d.event_id, d.event_type, d.status, d.attempt_count, d.attempt_base, d.next_attempt_at, d.lease_until,
                    e.state AS endpoint_state, e.max_concurrency, e.rate_limit_per_minute
               FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
              WHERE d.id IN (SELECT value FROM json_each(?))`,
          )
          .bind(list),
        d1
          .prepare(
            `SELECT id, body FROM webhook_events WHERE id IN (
               SELECT event_id FROM webhook_deliveries WHERE id IN (SELECT value FROM json_each(?)) AND +status IN ('pending', 'delivering'))`,
          )
          .bind(list),
      ];
    }),
  );
  results.forEach(({ results: found }, i) => {
    if (i % 2 === 0) for (const row of found as EngineDeliveryRow[]) rows.set(row.id, row);
    else for (const event of found as { id: string; body: string }[]) bodies.set(event.id, event.body);
  });
  return { rows, bodies };
}

/** Ends an unfinished delivery that can no longer be attempted (not one whose claim is live), if `still` holds when it runs. */
export async function fenceDelivery(
  d1: D1Database,
  deliveryId: string,
  reason: TerminalReason,
  now: number,
  still: { sql: string; binds: unknown[] },
): Promise<void> {
  await d1
    .prepare(
      `UPDATE webhook_deliveries SET status = 'dead', terminal_reason = ?, next_attempt_at = NULL, lease_until = NULL, updated_at = ?
        WHERE id = ? AND status IN ('pending', 'delivering') AND (status = 'pending' OR lease_until <= ?) AND ${still.sql}`,
    )
    .bind(reason, now, deliveryId, now, ...still.binds)
    .run();
}

/**
 * Moves a delivery's due time to `due` with its message (the gate said wait): never earlier than a backoff another
 * copy already scheduled; a lapsed claim is pushed likewise.
 */
export async function postponeDelivery(d1: D1Database, deliveryId: string, due: number, now: number): Promise<void> {
  await d1
    .prepare(
      `UPDATE webhook_deliveries SET
           next_attempt_at = CASE WHEN status = 'pending' THEN MAX(COALESCE(next_attempt_at, 0), ?) ELSE next_attempt_at END,
           lease_until = CASE WHEN status = 'delivering' AND lease_until <= ? THEN ? ELSE lease_until END
         WHERE id = ? AND status IN ('pending', 'delivering')`,
    )
    .bind(due, now, due, deliveryId)
    .run();
}

/**
 * Claims a delivery for one attempt (pending and due, or delivering with a lapsed claim; attempts left; endpoint
 * active) until `leaseUntil`. Null when another copy claimed it or it is no longer attemptable.
 */
export async function claimDelivery(
  d1: D1Database,
  c: { deliveryId: string; endpointId: string; now: number; leaseUntil: number; maxAttempts: number },
): Promise<{ attempt_count: number; attempt_base: number } | null> {
  return d1
    .prepare(
      `UPDATE webhook_deliveries SET status = 'delivering', attempt_count = attempt_count + 1, lease_until = ?, updated_at = ?
          WHERE id = ? AND ((status = 'pending' AND COALESCE(next_attempt_at, 0) <= ?) OR (status = 'delivering' AND lease_until <= ?))
            AND attempt_count - attempt_base < ?
            AND EXISTS (SELECT 1 FROM webhook_endpoints WHERE id = ? AND state = 'active')
        RETURNING attempt_count, attempt_base`,
    )
    .bind(c.leaseUntil, c.now, c.deliveryId, c.now, c.now, c.maxAttempts, c.endpointId)
    .first<{ attempt_count: number; attempt_base: number }>();
}

/**
 * `claimDelivery` for a round of one endpoint's deliveries (at most 90: a round is at most max_concurrency), in
 * one statement whose conditions are claimDelivery's, so of two consumers claiming the same ids each row goes to
 * exactly one; in the same batch (one transaction, after the claim) the endpoint's URL and secrets as they are
 * now (null when no longer active) and the bodies of `eventIds` (those the batch's load did not read; usually none).
 */
export async function claimRound(
  d1: D1Batcher,
  c: {
    deliveryIds: readonly string[];
    endpointId: string;
    now: number;
    leaseUntil: number;
    maxAttempts: number;
    eventIds: readonly string[];
  },
): Promise<{
  claimed: { id: string; attempt_count: number; attempt_base: number }[];
  target: RunTarget | null;
  bodies: Map<string, string>;
}> {
  if (c.deliveryIds.length > ID_CHUNK || c.eventIds.length > ID_CHUNK) throw new Error("a claim round names at most 90 deliveries");
  // The ids as one JSON list parameter (#19: one parameter each before). `+endpoint_id`, `+status` (here and
  // below): the rows are found by their ids (the primary key); on an index of
  // endpoint or status SQLite walked every delivery of the endpoint, or every one in that status (#19: most of a
  // claim's and a record's cost as the tables grew).
  const statements = [
    d1
      .prepare(
        `UPDATE webhook_deliveries SET status = 'delivering', attempt_count = attempt_count + 1, lease_until = ?, updated_at = ?
            WHERE id IN (SELECT value FROM json_each(?)) AND +endpoint_id = ?
              AND ((+status = 'pending' AND COALESCE(next_attempt_at, 0) <= ?) OR (+status = 'delivering' AND lease_until <= ?))
              AND attempt_count - attempt_base < ?
              AND EXISTS (SELECT 1 FROM webhook_endpoints WHERE id = ? AND state = 'active')
          RETURNING id, attempt_count, attempt_base`,
      )
      .bind(c.leaseUntil, c.now, JSON.stringify(c.deliveryIds), c.endpointId, c.now, c.now, c.maxAttempts, c.endpointId),
    d1
      .prepare("SELECT url, secret_ciphertext, previous_secret_ciphertext FROM webhook_endpoints WHERE id = ? AND state = 'active'")
      .bind(c.endpointId),
  ];
  if (c.eventIds.length > 0)
    statements.push(
      d1.prepare("SELECT id, body FROM webhook_events WHERE id IN (SELECT value FROM json_each(?))").bind(JSON.stringify(c.eventIds)),
    );
  const [claim, endpoint, events] = await d1.batch(statements);
  return {
    claimed: claim!.results as { id: string; attempt_count: number; attempt_base: number }[],
    target: (endpoint!.results[0] as RunTarget | undefined) ?? null,
    bodies: new Map(((events?.results ?? []) as { id: string; body: string }[]).map((r) => [r.id, r.body])),
  };
}

/** `postponeDelivery` for many, in one batch. */
export async function postponeDeliveries(d1: D1Database, deliveryIds: readonly string[], due: number, now: number): Promise<void> {
  if (deliveryIds.length === 0) return;
  await d1.batch(
    chunks(deliveryIds).map((ids) =>
      d1
        .prepare(
          `UPDATE webhook_deliveries SET
               next_attempt_at = CASE WHEN status = 'pending' THEN MAX(COALESCE(next_attempt_at, 0), ?) ELSE next_attempt_at END,
               lease_until = CASE WHEN status = 'delivering' AND lease_until <= ? THEN ? ELSE lease_until END
             WHERE id IN (${marks(ids.length)}) AND +status IN ('pending', 'delivering')`,
        )
        .bind(due, now, due, ...ids),
    ),
  );
}

/** What a round of attempts to one endpoint sends to: its URL and secrets, read with the claim. */
export interface RunTarget {
  url: string;
  secret_ciphertext: string;
  previous_secret_ciphertext: string | null;
}

/** The URL, secrets and body of an attempt, or null when the endpoint is no longer active. */
export async function attemptTarget(d1: D1Database, eventId: string, endpointId: string): Promise<AttemptTarget | null> {
  return d1
    .prepare(
      `SELECT e.url, e.secret_ciphertext, e.previous_secret_ciphertext, ev.body
         FROM webhook_endpoints e JOIN webhook_events ev ON ev.id = ? WHERE e.id = ? AND e.state = 'active'`,
    )
    .bind(eventId, endpointId)
    .first<AttemptTarget>();
}

/** One attempt's outcome, as `recordAttempt` writes it. */
export interface AttemptRecord {
  deliveryId: string;
  tenantId: string;
  endpointId: string;
  attemptNumber: number;
  startedAt: number;
  finishedAt: number;
  responseCode: number | null;
  responseBodySha256: string | null;
  outcome: "acknowledged" | "retry_scheduled" | "ended";
  error: string | null;
  retryAfterSeconds: number | null;
  signatureCount: number;
  gateMs: number;
  status: "delivered" | "pending" | "failed" | "dead";
  nextAttemptAt: number | null;
  terminalReason: TerminalReason | null;
  failed: boolean;
}

/**
 * Records an attempt in one batch: the attempt row, the delivery's new state (only by the claim that made it),
 * the endpoint's failure streak (only if that state was recorded), and the auto-disable with its fence when the
 * streak reaches the endpoint's threshold.
 */
export async function recordAttempt(d1: D1Database, r: AttemptRecord): Promise<void> {
  await recordAttempts(d1, [r]);
}

/**
 * Records a run's attempts in one batch (one transaction), in order, each exactly as `recordAttempt` would: the
 * endpoint's streak moves attempt by attempt, so an auto-disable lands where it would have one by one.
 */
export async function recordAttempts(d1: D1Batcher, records: readonly AttemptRecord[]): Promise<void> {
  if (records.length === 0) return;
  // In order: each run of consecutive acknowledged attempts as a few set-wise statements (#19: 5 statements for
  // a round of 20 instead of 60), each other attempt as its own statements, so a streak and an auto-disable still
  // land where they would one by one.
  const statements: D1PreparedStatement[] = [];
  let acknowledged: AttemptRecord[] = [];
  for (const r of records) {
    if (!r.failed && (acknowledged.length === 0 || acknowledged[0]!.endpointId === r.endpointId)) {
      acknowledged.push(r);
      continue;
    }
    if (!r.failed) {
      statements.push(...acknowledgedStatements(d1, acknowledged));
      acknowledged = [r];
      continue;
    }
    statements.push(...acknowledgedStatements(d1, acknowledged), ...attemptStatements(d1, r));
    acknowledged = [];
  }
  statements.push(...acknowledgedStatements(d1, acknowledged));
  await d1.batch(statements);
}

/**
 * Acknowledged attempts per statement. The rows go as one JSON parameter (#19: bound one value at a time they were
 * 16 parameters per delivery, each converted by the Worker's D1 client and validated by D1, and D1's 100-parameter
 * limit split a round of 20 into 5 statements; as JSON, a round is 3 statements of one or two parameters each).
 * Bounded so one parameter stays a few KB.
 */
const JSON_ROWS = 100;

function inRows<T>(xs: readonly T[], n: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += n) out.push(xs.slice(i, i + n));
  return out;
}

/** Each delivery's own claim (its id and the attempt_count it was claimed with), as the JSON rows `[id, attempt]`. */
const CLAIMED_BY_JSON = `id IN (SELECT j.value ->> 0 FROM json_each(?) AS j)
  AND (id, attempt_count) IN (SELECT j.value ->> 0, j.value ->> 1 FROM json_each(?) AS j)`;
const claimsJson = (rows: readonly AttemptRecord[]) => JSON.stringify(rows.map((r) => [r.deliveryId, r.attemptNumber]));

/**
 * Consecutive acknowledged attempts, recorded exactly as `attemptStatements` would one by one: their attempt
 * rows; each delivery's state, only where its own claim still holds it (id and attempt_count); and the endpoint's
 * streak reset once if any of them was recorded (resets in a row without a failure between are one reset).
 * `updated_at` is the segment's last finish time for all of them, which is how the streak statement tells its own
 * records from another claim's.
 */
function acknowledgedStatements(d1: D1Batcher, records: readonly AttemptRecord[]): D1PreparedStatement[] {
  if (records.length === 0) return [];
  const recordedAt = Math.max(...records.map((r) => r.finishedAt));
  const endpointId = records[0]!.endpointId;
  const statements: D1PreparedStatement[] = [];
  for (const rows of inRows(records, JSON_ROWS)) statements.push(attemptRowsStatement(d1, rows));
  // Grouped by what the row receives: a receiver that answers alike makes one group.
  const byAnswer = new Map<string, AttemptRecord[]>();
  for (const r of records) {
    const key = `${r.responseCode}|${r.responseBodySha256}`;
    byAnswer.set(key, [...(byAnswer.get(key) ?? []), r]);
  }
  for (const group of byAnswer.values())
    for (const rows of inRows(group, JSON_ROWS)) {
      const claims = claimsJson(rows);
      statements.push(
        d1
          .prepare(
            `UPDATE webhook_deliveries SET status = 'delivered', next_attempt_at = NULL, lease_until = NULL, response_code = ?, response_body_sha256 = ?, terminal_reason = NULL, updated_at = ?
              WHERE +status = 'delivering' AND ${CLAIMED_BY_JSON}`,
          )
          .bind(rows[0]!.responseCode, rows[0]!.responseBodySha256, recordedAt, claims, claims),
      );
    }
  // `+updated_at`: the rows are found by their ids (with the JSON list SQLite otherwise picked the updated_at index).
  for (const rows of inRows(records, JSON_ROWS)) {
    const claims = claimsJson(rows);
    statements.push(
      d1
        .prepare(
          `UPDATE webhook_endpoints SET consecutive_failures = 0 WHERE id = ? AND state = 'active' AND EXISTS (
             SELECT 1 FROM webhook_deliveries WHERE ${CLAIMED_BY_JSON} AND +updated_at = ? AND lease_until IS NULL)`,
        )
        .bind(endpointId, claims, claims, recordedAt),
    );
  }
  return statements;
}

/**
 * The attempt rows of `records` (at most JSON_ROWS), as one JSON parameter: one form for a round's acknowledged
 * attempts and for a single other attempt (#19: bound one value at a time they were 12 parameters per attempt,
 * each converted by the Worker's D1 client and validated by D1). A row already recorded is left as it is.
 */
function attemptRowsStatement(d1: D1Batcher, records: readonly AttemptRecord[]): D1PreparedStatement {
  return d1
    .prepare(
      // `WHERE true`: SQLite's upsert clause after a SELECT needs a WHERE to parse unambiguously.
      `INSERT INTO webhook_attempts (delivery_id, attempt_number, tenant_id, started_at, duration_ms, response_code, response_body_sha256, outcome, error, retry_after_seconds, signature_count, gate_ms)
       SELECT j.value ->> 0, j.value ->> 1, j.value ->> 2, j.value ->> 3, j.value ->> 4, j.value ->> 5, j.value ->> 6, j.value ->> 7, j.value ->> 8, j.value ->> 9, j.value ->> 10, j.value ->> 11
         FROM json_each(?) AS j WHERE true
       ON CONFLICT DO NOTHING`,
    )
    .bind(
      JSON.stringify(
        records.map((r) => [
          r.deliveryId,
          r.attemptNumber,
          r.tenantId,
          r.startedAt,
          r.finishedAt - r.startedAt,
          r.responseCode,
          r.responseBodySha256,
          r.outcome,
          r.error,
          r.retryAfterSeconds,
          r.signatureCount,
          r.gateMs,
        ]),
      ),
    );
}

function attemptStatements(d1: D1Batcher, r: AttemptRecord): D1PreparedStatement[] {
  // The endpoint's streak moves only if this claim's outcome was recorded (not if its claim lapsed meanwhile).
  const recorded = {
    sql: "EXISTS (SELECT 1 FROM webhook_deliveries WHERE id = ? AND attempt_count = ? AND updated_at = ? AND lease_until IS NULL)",
    binds: [r.deliveryId, r.attemptNumber, r.finishedAt],
  };
  const statements = [
    attemptRowsStatement(d1, [r]),
    d1
      .prepare(
        `UPDATE webhook_deliveries SET status = ?, next_attempt_at = ?, lease_until = NULL, response_code = ?, response_body_sha256 = ?, terminal_reason = ?, updated_at = ?
          WHERE id = ? AND status = 'delivering' AND attempt_count = ?`,
      )
      .bind(r.status, r.nextAttemptAt, r.responseCode, r.responseBodySha256, r.terminalReason, r.finishedAt, r.deliveryId, r.attemptNumber),
    d1
      .prepare(
        `UPDATE webhook_endpoints SET consecutive_failures = ${r.failed ? "consecutive_failures + 1" : "0"} WHERE id = ? AND state = 'active' AND ${recorded.sql}`,
      )
      .bind(r.endpointId, ...recorded.binds),
  ];
  // An acknowledged attempt resets the streak (to 0, below every threshold): the rest could never apply.
  if (!r.failed) return statements;
  statements.push(
    // Auto-disable, and fence what is unfinished, when the failure streak reaches the endpoint's threshold.
    d1
      .prepare(
        `UPDATE webhook_endpoints SET state = 'disabled', disabled_reason = 'consecutive_failures', updated_at = ?
          WHERE id = ? AND state = 'active' AND consecutive_failures >= auto_disable_after_failures AND ${recorded.sql}`,
      )
      .bind(r.finishedAt, r.endpointId, ...recorded.binds),
    fenceDeliveriesStatement(d1, r.endpointId, "endpoint_auto_disabled", r.finishedAt, {
      sql: "EXISTS (SELECT 1 FROM webhook_endpoints WHERE id = ? AND state = 'disabled' AND disabled_reason = 'consecutive_failures' AND updated_at = ?)",
      binds: [r.endpointId, r.finishedAt],
    }),
    // The attempt that tipped the endpoint over ended its delivery rather than scheduling a retry.
    d1
      .prepare(
        `UPDATE webhook_attempts SET outcome = 'ended' WHERE delivery_id = ? AND attempt_number = ?
            AND EXISTS (SELECT 1 FROM webhook_deliveries WHERE id = ? AND status = 'dead' AND terminal_reason = 'endpoint_auto_disabled')`,
      )
      .bind(r.deliveryId, r.attemptNumber, r.deliveryId),
  );
  return statements;
}
