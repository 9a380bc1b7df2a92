import type { TerminalReason } from "../schemas";

/*
 * D1 statements on webhook_deliveries and webhook_attempts as the API reads and replays them (the delivery
 * engine's claim and record statements are in repo/attempts.ts), in typed raw SQL (statements that share a batch
 * with others are built, not run, here): the inserts are INSERT … SELECT guarded by the endpoint's state, the replay an upsert with RETURNING,
 * and the rows are served in their column names.
 */

/** A webhook_deliveries row as served. Invariant: `next_attempt_at` is meaningful only while `pending`. */
export interface DeliveryRow {
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  status: "pending" | "delivering" | "delivered" | "failed" | "dead";
  attempt_count: number;
  replay_count: number;
  next_attempt_at: number | null;
  response_code: number | null;
  response_body_sha256: string | null;
  terminal_reason: TerminalReason | null;
  created_at: number;
}

/** A webhook_attempts row as served. Invariant: append-only, numbered from 1 per delivery. */
export interface AttemptRow {
  attempt_number: number;
  started_at: number;
  duration_ms: number;
  response_code: number | null;
  response_body_sha256: string | null;
  outcome: "acknowledged" | "retry_scheduled" | "ended";
  error: "timeout" | "network_error" | "redirect_not_followed" | "destination_refused" | "internal_error" | null;
  retry_after_seconds: number | null;
  signature_count: number;
}

export async function findDelivery(d1: D1Database, tenantId: string, deliveryId: string): Promise<DeliveryRow | null> {
  return d1.prepare("SELECT * FROM webhook_deliveries WHERE id = ? AND tenant_id = ?").bind(deliveryId, tenantId).first<DeliveryRow>();
}

/** A pending delivery due at `now`, inserted only while its endpoint is active; ignored if (endpoint, event) has one. */
export function insertDeliveryStatement(
  d1: D1Database,
  d: { id: string; tenantId: string; endpointId: string; eventId: string; eventType: string; now: number },
  onConflict: "fail" | "ignore",
): D1PreparedStatement {
  return d1
    .prepare(
      `INSERT INTO webhook_deliveries (id, tenant_id, endpoint_id, event_id, event_type, status, attempt_count, replay_count, next_attempt_at, created_at, updated_at)
       SELECT ?, ?, ?, ?, ?, 'pending', 0, 0, ?, ?, ? WHERE EXISTS (SELECT 1 FROM webhook_endpoints WHERE id = ? AND state = 'active')${
         onConflict === "ignore" ? "\n             ON CONFLICT (endpoint_id, event_id) DO NOTHING" : ""
       }`,
    )
    .bind(d.id, d.tenantId, d.endpointId, d.eventId, d.eventType, d.now, d.now, d.now, d.endpointId);
}

/** Makes a finished delivery pending again (one more replay) if its endpoint is active. */
export async function restartFinishedDelivery(
  d1: D1Database,
  tenantId: string,
  deliveryId: string,
  endpointId: string,
  now: number,
  complete?: { eventId: string; statements: CompleteInBatch },
): Promise<{ restarted: boolean; completion: D1Result[] }> {
  const restartable = `id = ? AND tenant_id = ? AND status IN ('delivered', 'failed', 'dead')
        AND EXISTS (SELECT 1 FROM webhook_endpoints WHERE id = ? AND state = 'active')`;
  // The request's idempotency completion, {event_id} as the route answers a restart, in the same round trip: before
  // the update and only when its own condition holds (one transaction: exactly when it restarts the delivery).
  const completion =
    complete?.statements({
      body: { sql: "json_object('event_id', ?)", binds: [complete.eventId] },
      onlyIf: { sql: `EXISTS (SELECT 1 FROM webhook_deliveries WHERE ${restartable})`, binds: [deliveryId, tenantId, endpointId] },
    }) ?? [];
  const update = d1
    .prepare(
      `UPDATE webhook_deliveries SET status = 'pending', replay_count = replay_count + 1, attempt_base = attempt_count, next_attempt_at = ?, terminal_reason = NULL, updated_at = ?
      WHERE ${restartable}`,
    )
    .bind(now, now, deliveryId, tenantId, endpointId);
  if (completion.length === 0) return { restarted: (await update.run()).meta.changes === 1, completion: [] };
  const results = await d1.batch([...completion, update]);
  return { restarted: results[completion.length]!.meta.changes === 1, completion: results.slice(0, completion.length) };
}

/**
 * Replays of an event to its endpoints, in one batch: for each, a new pending delivery, or the finished one started
 * again; a delivery still in progress is left alone. Returns the ids of the deliveries queued.
 */
export async function upsertReplayedDeliveries(
  d1: D1Database,
  deliveries: readonly NewDelivery[],
  after: readonly D1PreparedStatement[] = [],
): Promise<string[]> {
  // Set-wise (#19): one statement per 45 endpoints of an event instead of one per endpoint; each row is still
  // guarded by its own endpoint's state and its own delivery's status, exactly as a statement of its own.
  // `after`: statements that belong to the same change (the event marked fanned out), in the same round trip.
  const upserts = deliveryRows(deliveries).map((rows) =>
    d1
      .prepare(
        `INSERT INTO webhook_deliveries (id, tenant_id, endpoint_id, event_id, event_type, status, attempt_count, replay_count, next_attempt_at, created_at, updated_at)
           ${rowsSelect(rows.length)}
           ON CONFLICT (endpoint_id, event_id) DO UPDATE SET status = 'pending', replay_count = replay_count + 1, attempt_base = attempt_count,
             next_attempt_at = excluded.next_attempt_at, terminal_reason = NULL, updated_at = excluded.updated_at
           WHERE webhook_deliveries.status IN ('delivered', 'failed', 'dead')
           RETURNING id`,
      )
      .bind(...rowsBinds(rows)),
  );
  if (upserts.length + after.length === 0) return [];
  const results = await d1.batch<{ id: string }>([...upserts, ...after]);
  return results.slice(0, upserts.length).flatMap((r) => r.results.map((row) => row.id));
}

/**
 * `findTenantEventWithRecipients` then `upsertReplayedDeliveries` (with the event marked fanned out) in one D1
 * round trip (#19: a replay of an event made two). The recipients are read and upserted by one statement, so each
 * row is guarded by its endpoint's state and its delivery's status exactly as there; a new delivery takes its id
 * from `ids` by the recipient's rank (ids are spent only on new rows). `found` false when the tenant has no such
 * event (the batch still committed: its completion's results are there);
 * `overflow` when it may have more recipients than `ids` (it has more active endpoints: those beyond were not
 * upserted, and the caller upserts them, which leaves the ones upserted here alone).
 */
export async function replayEventInOne(
  d1: D1Database,
  r: { tenantId: string; eventId: string; now: number; ids: readonly string[] },
  complete?: CompleteInBatch,
): Promise<{ found: boolean; queued: string[]; overflow: boolean; completion: D1Result[] }> {
  const recipients = `SELECT e.id AS endpoint_id, ROW_NUMBER() OVER (ORDER BY e.id) - 1 AS rank
      FROM webhook_events ev JOIN webhook_endpoints e ON e.tenant_id = ev.tenant_id
     WHERE ev.id = ? AND ev.tenant_id = ? AND e.state = 'active'
       AND CASE WHEN ev.target_endpoint_id IS NOT NULL THEN e.id = ev.target_endpoint_id
                ELSE EXISTS (SELECT 1 FROM json_each(e.events) WHERE value = ev.type) END`;
  // #19: the id is picked from `ids` by rank (json_extract) rather than by joining json_each(ids), which read every
  // id for every recipient; `overflow` is bounded by the tenant's active endpoints (an index read) rather than by
  // counting the recipients a second time. Together these were most of a replay's SQL time.
  // The request's idempotency completion (platform/idempotency completionInBatch), before the upsert: its answer,
  // {event_id, delivery_count} as the route sends it, counts the recipients the upsert will queue — those without a
  // delivery in progress, the complement of the upsert's WHERE — in the same transaction, so the count is the
  // upsert's own. Only when the event is there and no recipient is beyond `ids` (else the route answers otherwise).
  const completion =
    complete?.({
      body: {
        sql: `json_object('event_id', ?, 'delivery_count', (SELECT COUNT(*) FROM (${recipients}) AS rc
              WHERE rc.rank < ? AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.endpoint_id = rc.endpoint_id AND d.event_id = ?
                AND d.status NOT IN ('delivered', 'failed', 'dead'))))`,
        binds: [r.eventId, r.eventId, r.tenantId, r.ids.length, r.eventId],
      },
      onlyIf: {
        sql: `EXISTS (SELECT 1 FROM webhook_events WHERE id = ? AND tenant_id = ?)
            AND (SELECT COUNT(*) FROM webhook_endpoints WHERE tenant_id = ? AND state = 'active') <= ?`,
        binds: [r.eventId, r.tenantId, r.tenantId, r.ids.length],
      },
    }) ?? [];
  const [event, count, ...rest] = await d1.batch([
    d1.prepare("SELECT id FROM webhook_events WHERE id = ? AND tenant_id = ?").bind(r.eventId, r.tenantId),
    d1.prepare("SELECT COUNT(*) AS n FROM webhook_endpoints WHERE tenant_id = ? AND state = 'active'").bind(r.tenantId),
    ...completion,
    d1
      .prepare(
        `INSERT INTO webhook_deliveries (id, tenant_id, endpoint_id, event_id, event_type, status, attempt_count, replay_count, next_attempt_at, created_at, updated_at)
         SELECT json_extract(?, '$[' || rc.rank || ']'), ev.tenant_id, rc.endpoint_id, ev.id, ev.type, 'pending', 0, 0, ?, ?, ?
           FROM (${recipients}) AS rc
           JOIN webhook_events ev ON ev.id = ? AND ev.tenant_id = ?
          WHERE rc.rank < ?
         ON CONFLICT (endpoint_id, event_id) DO UPDATE SET status = 'pending', replay_count = replay_count + 1, attempt_base = attempt_count,
           next_attempt_at = excluded.next_attempt_at, terminal_reason = NULL, updated_at = excluded.updated_at
         WHERE webhook_deliveries.status IN ('delivered', 'failed', 'dead')
         RETURNING id`,
      )
      .bind(JSON.stringify(r.ids), r.now, r.now, r.now, r.eventId, r.tenantId, r.eventId, r.tenantId, r.ids.length),
    d1
      .prepare("UPDATE webhook_events SET fanned_out_at = COALESCE(fanned_out_at, ?) WHERE id = ? AND tenant_id = ?")
      .bind(r.now, r.eventId, r.tenantId),
  ]);
  const completed = rest.slice(0, completion.length);
  const upserted = rest[completion.length];
  return {
    found: event!.results.length > 0,
    queued: (upserted!.results as { id: string }[]).map((row) => row.id),
    overflow: (count!.results[0] as { n: number }).n > r.ids.length,
    completion: completed,
  };
}

/** Builds an idempotency completion's statements for a batch from an answer computed in SQL (platform/idempotency BatchCompletion). */
export type CompleteInBatch = (answer: {
  body: { sql: string; binds: readonly unknown[] };
  onlyIf: { sql: string; binds: readonly unknown[] };
}) => D1PreparedStatement[];

export type NewDelivery = { id: string; tenantId: string; endpointId: string; eventId: string; eventType: string; now: number };

/** Endpoints per set-wise delivery insert: 2 binds each (delivery id, endpoint id) plus 6 shared, within D1's 100. */
const ROWS_PER_INSERT = 45;

/** Deliveries that share their event and time (one event's fan-out or replay), in groups of ROWS_PER_INSERT. */
function deliveryRows(deliveries: readonly NewDelivery[]): NewDelivery[][] {
  const shared = new Map<string, NewDelivery[]>();
  for (const d of deliveries) {
    const key = JSON.stringify([d.tenantId, d.eventId, d.eventType, d.now]);
    shared.set(key, [...(shared.get(key) ?? []), d]);
  }
  const out: NewDelivery[][] = [];
  for (const group of shared.values())
    for (let i = 0; i < group.length; i += ROWS_PER_INSERT) out.push(group.slice(i, i + ROWS_PER_INSERT));
  return out;
}

/** New pending deliveries, due now, one per row of VALUES, each only while its own endpoint is active. */
const rowsSelect = (n: number) =>
  `SELECT v.column1, ?, v.column2, ?, ?, 'pending', 0, 0, ?, ?, ? FROM (VALUES ${Array.from({ length: n }, () => "(?, ?)").join(", ")}) AS v
      WHERE EXISTS (SELECT 1 FROM webhook_endpoints WHERE id = v.column2 AND state = 'active')`;

const rowsBinds = (rows: readonly NewDelivery[]) => {
  const d = rows[0]!;
  return [d.tenantId, d.eventId, d.eventType, d.now, d.now, d.now, ...rows.flatMap((r) => [r.id, r.endpointId])];
};

/** `insertDeliveryStatement` (ignore) for one event's deliveries to many endpoints: one statement per 45. */
export function insertDeliveriesStatements(d1: D1Database, deliveries: readonly NewDelivery[]): D1PreparedStatement[] {
  return deliveryRows(deliveries).map((rows) =>
    d1
      .prepare(
        `INSERT INTO webhook_deliveries (id, tenant_id, endpoint_id, event_id, event_type, status, attempt_count, replay_count, next_attempt_at, created_at, updated_at)
         ${rowsSelect(rows.length)}
         ON CONFLICT (endpoint_id, event_id) DO NOTHING`,
      )
      .bind(...rowsBinds(rows)),
  );
}

/** Deliveries of an event not attempted yet (the fan-out sends their first message), read after the batch's inserts. */
export function firstAttemptsDueStatement(d1: D1Database, eventId: string): D1PreparedStatement {
  return d1.prepare("SELECT id FROM webhook_deliveries WHERE event_id = ? AND status = 'pending' AND attempt_count = 0").bind(eventId);
}

/** One page (plus one row) of an endpoint's deliveries, newest first, as of `snapshot`, optionally of one status. */
export async function listDeliveries(
  d1: D1Database,
  q: {
    tenantId: string;
    endpointId: string;
    snapshot: number;
    status: string | null;
    after: { createdAt: number; id: string } | null | undefined;
    limit: number;
  },
): Promise<DeliveryRow[]> {
  const rows = await d1
    .prepare(
      `SELECT * FROM webhook_deliveries WHERE endpoint_id = ? AND tenant_id = ? AND created_at <= ? AND (? IS NULL OR status = ?)
         AND (? IS NULL OR created_at < ? OR (created_at = ? AND id < ?))
       ORDER BY created_at DESC, id DESC LIMIT ?`,
    )
    .bind(
      q.endpointId,
      q.tenantId,
      q.snapshot,
      q.status,
      q.status,
      q.after?.createdAt ?? null,
      q.after?.createdAt ?? 0,
      q.after?.createdAt ?? 0,
      q.after?.id ?? "",
      q.limit,
    )
    .all<DeliveryRow>();
  return rows.results;
}

/** Up to `limit` attempts of a delivery after attempt number `after`, oldest first. */
export async function listAttempts(
  d1: D1Database,
  tenantId: string,
  deliveryId: string,
  after: number,
  limit: number,
): Promise<AttemptRow[]> {
  const rows = await d1
    .prepare(
      "SELECT * FROM webhook_attempts WHERE delivery_id = ? AND tenant_id = ? AND attempt_number > ? ORDER BY attempt_number LIMIT ?",
    )
    .bind(deliveryId, tenantId, after, limit)
    .all<AttemptRow>();
  return rows.results;
}
