import type { GateConfig } from "../durable-objects/webhook-endpoint-gate";
import type { Bindings } from "../env";
import { hex } from "../platform/bytes";
import { newId } from "../platform/ids";
import { readBodyPrefix } from "../platform/net/outbound";
import { checkWebhookDestination } from "./destination";
import type { TerminalReason } from "./schemas";
import { openSecret, signWebhook } from "./signing";

/*
 * The delivery engine. Messages on the webhooks queue carry ids only; D1 is the truth:
 *   webhook.fanout {event_id}     → one delivery row per subscribed active endpoint, then a deliver message each
 *   webhook.deliver {delivery_id} → one attempt: gate lease (per-endpoint Durable Object) → claim → sign → POST
 * Every step is idempotent, so a redelivered or duplicated message is harmless, and the cron sweep re-sends any
 * message a dead Worker never sent (events not fanned out, deliveries overdue or with a lapsed claim).
 */

export const FANOUT_MESSAGE = "webhook.fanout";
export const DELIVER_MESSAGE = "webhook.deliver";

/** Standard Webhooks recommends 15–30 s for receivers to answer. */
export const ATTEMPT_TIMEOUT_MS = 15_000;
/** A claim (and its gate lease) outlives the attempt's timeout; after that the Worker is presumed dead. */
const LEASE_MS = ATTEMPT_TIMEOUT_MS + 10_000;
/** How long a consumer waits at the gate for a slot before handing the message back to the queue. */
const GATE_WAIT_MS = 20_000;
/** How long a sender that missed its grant's send-by time waits for a fresh grant (see durable-objects/gate-window.ts). */
const REGRANT_WAIT_MS = 5_000;

/** The gate refused a fresh grant to a late sender: nothing is sent, and the attempt is recorded as ours (internal_error). */
class GrantLapsed extends Error {}
/** The answer's body is hashed up to this many bytes, then the rest is discarded unread. */
const RESPONSE_HASH_LIMIT = 64 * 1024;
/** Cloudflare Queues delays a message at most 12 hours; longer waits are re-sent on arrival. */
const MAX_QUEUE_DELAY_SECONDS = 43_200;
/** Delays (s) before attempts 2, 3, …: Standard Webhooks' example schedule, 10 attempts over about 3 days. */
export const DEFAULT_RETRY_SCHEDULE = [5, 300, 1_800, 7_200, 18_000, 36_000, 50_400, 72_000, 86_400] as const;
/** A Retry-After above this is capped (a receiver cannot park a delivery for longer than a day per attempt). */
const MAX_RETRY_AFTER_SECONDS = 86_400;

export function retrySchedule(env: Bindings): readonly number[] {
  const raw = env.SVC_WEBHOOK_RETRY_SCHEDULE;
  if (!raw) return DEFAULT_RETRY_SCHEDULE;
  const parsed = raw.split(",").map((s) => Number(s.trim()));
  return parsed.every((n) => Number.isFinite(n) && n >= 0) && parsed.length > 0 ? parsed : DEFAULT_RETRY_SCHEDULE;
}

/** What one attempt produced, before any bookkeeping. */
export type AttemptResult =
  | { kind: "answer"; status: number; bodySha256: string; retryAfterSeconds: number | null }
  | { kind: "error"; error: "timeout" | "network_error" | "internal_error" }
  | { kind: "refused"; transient: boolean };

export type AttemptVerdict = { outcome: "acknowledged" } | { outcome: "retry" } | { outcome: "ended"; reason: TerminalReason };

/** SPEC "Events", retries: 2xx acknowledges; 408, 425, 429, 5xx and network errors retry; anything else ends. */
export function judgeAttempt(result: AttemptResult): AttemptVerdict {
  if (result.kind === "error") return { outcome: "retry" };
  if (result.kind === "refused") return result.transient ? { outcome: "retry" } : { outcome: "ended", reason: "destination_refused" };
  const s = result.status;
  if (s >= 200 && s < 300) return { outcome: "acknowledged" };
  if (s >= 300 && s < 400) return { outcome: "ended", reason: "redirect_not_followed" };
  if (s === 408 || s === 425 || s === 429 || s >= 500) return { outcome: "retry" };
  return { outcome: "ended", reason: "receiver_rejected" };
}

/** Retry-After as whole seconds (delta-seconds or an HTTP date), capped; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Math.min(Number(trimmed), MAX_RETRY_AFTER_SECONDS);
  // An HTTP-date names its day and month (RFC 9110 §5.6.7); anything else (e.g. "-5") is unreadable.
  if (!/^[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(trimmed)) return null;
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return null;
  return Math.min(Math.max(0, Math.ceil((at - now) / 1000)), MAX_RETRY_AFTER_SECONDS);
}

/**
 * Milliseconds until the next attempt after `attemptsMade` attempts, or null when the schedule is spent.
 * Jitter ±10% spreads retries; a Retry-After is a floor (the next attempt is never sooner).
 */
export function nextAttemptDelayMs(
  schedule: readonly number[],
  attemptsMade: number,
  retryAfterSeconds: number | null,
  random = Math.random,
): number | null {
  const base = schedule[attemptsMade - 1];
  if (base === undefined) return null;
  const jittered = base * 1000 * (0.9 + 0.2 * random());
  return Math.ceil(Math.max(jittered, (retryAfterSeconds ?? 0) * 1000));
}

export async function sendDeliver(env: Bindings, deliveryId: string, delayMs = 0): Promise<void> {
  const delaySeconds = Math.min(MAX_QUEUE_DELAY_SECONDS, Math.max(0, Math.ceil(delayMs / 1000)));
  await env.WEBHOOKS_QUEUE.send({ type: DELIVER_MESSAGE, delivery_id: deliveryId }, delaySeconds > 0 ? { delaySeconds } : undefined);
}

export async function sendDeliverMany(env: Bindings, deliveryIds: readonly string[]): Promise<void> {
  for (let i = 0; i < deliveryIds.length; i += 100) {
    await env.WEBHOOKS_QUEUE.sendBatch(deliveryIds.slice(i, i + 100).map((id) => ({ body: { type: DELIVER_MESSAGE, delivery_id: id } })));
  }
}

/** Queues take at most 100 messages per sendBatch. */
export async function sendFanout(env: Bindings, eventIds: readonly string[]): Promise<void> {
  for (let i = 0; i < eventIds.length; i += 100) {
    await env.WEBHOOKS_QUEUE.sendBatch(eventIds.slice(i, i + 100).map((id) => ({ body: { type: FANOUT_MESSAGE, event_id: id } })));
  }
}

/** Statement that ends an endpoint's unfinished deliveries (disable, delete, auto-disable), under `guard`. */
export function fenceDeliveriesStatement(
  d1: D1Database,
  endpointId: string,
  reason: TerminalReason,
  now: number,
  guard: { sql: string; binds: unknown[] },
): D1PreparedStatement {
  return d1
    .prepare(
      `UPDATE webhook_deliveries SET status = 'dead', terminal_reason = ?, next_attempt_at = NULL, lease_until = NULL, updated_at = ?
        WHERE endpoint_id = ? AND status IN ('pending', 'delivering') AND ${guard.sql}`,
    )
    .bind(reason, now, endpointId, ...guard.binds);
}

/**
 * Creates the deliveries of one event: one per active endpoint subscribed to its type (or its one target, for
 * a test event), each due now. Idempotent: a delivery exists at most once per (endpoint, event).
 */
export async function fanOutEvent(env: Bindings, eventId: string): Promise<void> {
  const d1 = env.DB;
  const event = await d1
    .prepare("SELECT id, tenant_id, type, target_endpoint_id, fanned_out_at FROM webhook_events WHERE id = ?")
    .bind(eventId)
    .first<{ id: string; tenant_id: string; type: string; target_endpoint_id: string | null; fanned_out_at: number | null }>();
  if (!event) return;
  if (event.fanned_out_at === null) {
    const endpoints = event.target_endpoint_id
      ? await d1
          .prepare("SELECT id FROM webhook_endpoints WHERE id = ? AND tenant_id = ? AND state = 'active'")
          .bind(event.target_endpoint_id, event.tenant_id)
          .all<{ id: string }>()
      : await d1
          .prepare(
            "SELECT id FROM webhook_endpoints WHERE tenant_id = ? AND state = 'active' AND EXISTS (SELECT 1 FROM json_each(webhook_endpoints.events) WHERE value = ?)",
          )
          .bind(event.tenant_id, event.type)
          .all<{ id: string }>();
    const now = Date.now();
    await d1.batch([
      // Each insert re-checks its endpoint: one disabled or deleted since the read above gets no delivery.
      ...endpoints.results.map((e) =>
        d1
          .prepare(
            `INSERT INTO webhook_deliveries (id, tenant_id, endpoint_id, event_id, event_type, status, attempt_count, replay_count, next_attempt_at, created_at, updated_at)
             SELECT ?, ?, ?, ?, ?, 'pending', 0, 0, ?, ?, ? WHERE EXISTS (SELECT 1 FROM webhook_endpoints WHERE id = ? AND state = 'active')
             ON CONFLICT (endpoint_id, event_id) DO NOTHING`,
          )
          .bind(newId("webhookDelivery"), event.tenant_id, e.id, event.id, event.type, now, now, now, e.id),
      ),
      d1.prepare("UPDATE webhook_events SET fanned_out_at = ? WHERE id = ? AND fanned_out_at IS NULL").bind(now, event.id),
    ]);
  }
  const due = await d1
    .prepare("SELECT id FROM webhook_deliveries WHERE event_id = ? AND status = 'pending' AND attempt_count = 0")
    .bind(eventId)
    .all<{ id: string }>();
  await sendDeliverMany(
    env,
    due.results.map((d) => d.id),
  );
}

interface DeliveryRow {
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
interface AttemptTarget {
  url: string;
  secret_ciphertext: string;
  previous_secret_ciphertext: string | null;
  body: string;
}

export interface DeliveryDeps {
  fetcher: typeof fetch;
  random: () => number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Makes at most one attempt of a delivery and schedules what follows. Invariants: an attempt holds a lease of
 * its endpoint's gate for its whole duration (so `max_concurrency` and `rate_limit_per_minute` hold across all
 * Workers); it runs only after claiming the row (pending and due, or delivering with a lapsed claim), so two
 * copies of a message never send twice at once; its outcome is recorded only by the claim that made it; and a
 * delivery never makes more attempts than the schedule allows since its last replay, whatever fails.
 */
export async function deliverOnce(
  env: Bindings,
  deliveryId: string,
  deps: DeliveryDeps = { fetcher: fetch, random: Math.random },
): Promise<void> {
  const d1 = env.DB;
  const row = await d1
    .prepare(
      `SELECT d.id, d.tenant_id, d.endpoint_id, d.event_id, d.event_type, d.status, d.attempt_count, d.attempt_base, d.next_attempt_at, d.lease_until,
              e.state AS endpoint_state, e.max_concurrency, e.rate_limit_per_minute
         FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
        WHERE d.id = ?`,
    )
    .bind(deliveryId)
    .first<DeliveryRow>();
  if (!row || (row.status !== "pending" && row.status !== "delivering")) return;
  let now = Date.now();
  // Created or replayed just as its endpoint was disabled or deleted: fence it like the others, visibly.
  if (row.endpoint_state !== "active") {
    // Re-checked in the statement: an enable committed since the read leaves the delivery alone.
    await fence(d1, row, row.endpoint_state === "deleted" ? "endpoint_deleted" : "endpoint_disabled", now, {
      sql: "NOT EXISTS (SELECT 1 FROM webhook_endpoints WHERE id = ? AND state = 'active')",
      binds: [row.endpoint_id],
    });
    return;
  }
  const maxAttempts = retrySchedule(env).length + 1;
  if (row.attempt_count - row.attempt_base >= maxAttempts && (row.status === "pending" || (row.lease_until ?? 0) <= now)) {
    // Re-checked in the statement: a replay committed since the read (attempt_base reset) leaves it alone.
    await fence(d1, row, "retries_exhausted", now, { sql: "attempt_count - attempt_base >= ?", binds: [maxAttempts] });
    return;
  }
  // Another Worker holds the claim: come back when it lapses (its own completion schedules what follows).
  if (row.status === "delivering" && (row.lease_until ?? 0) > now) return sendDeliver(env, deliveryId, row.lease_until! - now + 1000);
  if (row.status === "pending" && (row.next_attempt_at ?? 0) > now) {
    const wait = row.next_attempt_at! - now;
    if (wait > 1000) return sendDeliver(env, deliveryId, wait);
    await sleep(wait);
  }

  const gate = env.WEBHOOK_GATE.get(env.WEBHOOK_GATE.idFromName(row.endpoint_id));
  const config: GateConfig = { maxConcurrency: row.max_concurrency, ratePerMinute: row.rate_limit_per_minute, leaseMs: LEASE_MS };
  const gateStarted = Date.now();
  const lease = await gate.acquire(config, GATE_WAIT_MS);
  if (!lease.granted) {
    // Moving next_attempt_at with the message keeps the sweep off rows whose message is alive (no duplicates).
    // Never earlier than a backoff another copy already scheduled; a lapsed claim is pushed likewise.
    const due = Date.now() + lease.retryAfterMs;
    await d1
      .prepare(
        `UPDATE webhook_deliveries SET
           next_attempt_at = CASE WHEN status = 'pending' THEN MAX(COALESCE(next_attempt_at, 0), ?) ELSE next_attempt_at END,
           lease_until = CASE WHEN status = 'delivering' AND lease_until <= ? THEN ? ELSE lease_until END
         WHERE id = ? AND status IN ('pending', 'delivering')`,
      )
      .bind(due, Date.now(), due, deliveryId)
      .run();
    return sendDeliver(env, deliveryId, lease.retryAfterMs);
  }
  const gateMs = Date.now() - gateStarted;
  try {
    now = Date.now();
    const claim = await d1
      .prepare(
        `UPDATE webhook_deliveries SET status = 'delivering', attempt_count = attempt_count + 1, lease_until = ?, updated_at = ?
          WHERE id = ? AND ((status = 'pending' AND COALESCE(next_attempt_at, 0) <= ?) OR (status = 'delivering' AND lease_until <= ?))
            AND attempt_count - attempt_base < ?
            AND EXISTS (SELECT 1 FROM webhook_endpoints WHERE id = ? AND state = 'active')
        RETURNING attempt_count, attempt_base`,
      )
      .bind(now + LEASE_MS, now, deliveryId, now, now, maxAttempts, row.endpoint_id)
      .first<{ attempt_count: number; attempt_base: number }>();
    if (!claim) return;
    // The gate's margin covers a request started within SEND_WITHIN_MS of its grant; a later one takes a fresh grant.
    const send = deps.fetcher; // called unbound: workerd's fetch refuses another `this`
    const fetcher: typeof fetch = async (input, init) => {
      if (Date.now() > lease.sendBy && !(await gate.regrant(lease.leaseId, config, REGRANT_WAIT_MS)).granted)
        throw new GrantLapsed("no fresh gate grant");
      return send(input, init);
    };
    await attemptAndRecord(env, row, claim.attempt_count, claim.attempt_count - claim.attempt_base, gateMs, { ...deps, fetcher });
  } finally {
    await gate.release(lease.leaseId);
  }
}

/** Ends an unfinished delivery that can no longer be attempted, if `still` (the reason) holds when it runs. */
async function fence(
  d1: D1Database,
  row: DeliveryRow,
  reason: TerminalReason,
  now: number,
  still: { sql: string; binds: unknown[] },
): Promise<void> {
  await d1
    .prepare(
      `UPDATE webhook_deliveries SET status = 'dead', terminal_reason = ?, next_attempt_at = NULL, lease_until = NULL, updated_at = ?
        WHERE id = ? AND status IN ('pending', 'delivering') AND (status = 'pending' OR lease_until <= ?) AND ${still.sql}`,
    )
    .bind(reason, now, row.id, now, ...still.binds)
    .run();
}

async function attemptAndRecord(
  env: Bindings,
  row: DeliveryRow,
  attemptNumber: number,
  sinceReplay: number,
  gateMs: number,
  deps: DeliveryDeps,
): Promise<void> {
  const d1 = env.DB;
  const target = await d1
    .prepare(
      `SELECT e.url, e.secret_ciphertext, e.previous_secret_ciphertext, ev.body
         FROM webhook_endpoints e JOIN webhook_events ev ON ev.id = ? WHERE e.id = ? AND e.state = 'active'`,
    )
    .bind(row.event_id, row.endpoint_id)
    .first<AttemptTarget>();
  // Disabled or deleted since the claim: its fence already ended this delivery; nothing is sent or recorded.
  if (!target) return;
  const startedAt = Date.now();
  let result: AttemptResult;
  let secretCount = 0;
  try {
    const pepper = env.SVC_KEY_PEPPER;
    if (!pepper) throw new Error("SVC_KEY_PEPPER is not configured: webhook secrets cannot be opened");
    // New secret first, then the outgoing one during a rotation overlap.
    const secrets = [await openSecret(pepper, row.endpoint_id, target.secret_ciphertext)];
    if (target.previous_secret_ciphertext) secrets.push(await openSecret(pepper, row.endpoint_id, target.previous_secret_ciphertext));
    secretCount = secrets.length;
    result = await attempt(env, row, target, attemptNumber, secrets, deps.fetcher);
  } catch (error) {
    // Our side failed (configuration, storage): recorded like any failed attempt, so the schedule still ends it.
    console.error(
      JSON.stringify({ level: "error", problem: "webhook attempt could not be made", delivery_id: row.id, error: String(error) }),
    );
    result = { kind: "error", error: "internal_error" };
  }
  const finishedAt = Date.now();
  const verdict = judgeAttempt(result);
  const retryAfterSeconds = result.kind === "answer" ? result.retryAfterSeconds : null;
  let status: "delivered" | "pending" | "failed" | "dead";
  let terminalReason: TerminalReason | null = null;
  let nextAttemptAt: number | null = null;
  if (verdict.outcome === "acknowledged") status = "delivered";
  else if (verdict.outcome === "ended") {
    status = "failed";
    terminalReason = verdict.reason;
  } else {
    const delay = nextAttemptDelayMs(retrySchedule(env), sinceReplay, retryAfterSeconds, deps.random);
    if (delay === null) {
      status = "dead";
      terminalReason = "retries_exhausted";
    } else {
      status = "pending";
      nextAttemptAt = finishedAt + delay;
    }
  }
  const answered = result.kind === "answer" ? result : null;
  const error =
    result.kind === "error"
      ? result.error
      : result.kind === "refused"
        ? "destination_refused"
        : answered && answered.status >= 300 && answered.status < 400
          ? "redirect_not_followed"
          : null;
  const failed = verdict.outcome !== "acknowledged";
  // The endpoint's streak moves only if this claim's outcome was recorded (not if its claim lapsed meanwhile).
  const recorded = {
    sql: "EXISTS (SELECT 1 FROM webhook_deliveries WHERE id = ? AND attempt_count = ? AND updated_at = ? AND lease_until IS NULL)",
    binds: [row.id, attemptNumber, finishedAt],
  };
  await d1.batch([
    d1
      .prepare(
        `INSERT INTO webhook_attempts (delivery_id, attempt_number, tenant_id, started_at, duration_ms, response_code, response_body_sha256, outcome, error, retry_after_seconds, signature_count, gate_ms)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
      )
      .bind(
        row.id,
        attemptNumber,
        row.tenant_id,
        startedAt,
        finishedAt - startedAt,
        answered?.status ?? null,
        answered?.bodySha256 ?? null,
        status === "pending" ? "retry_scheduled" : verdict.outcome === "acknowledged" ? "acknowledged" : "ended",
        error,
        retryAfterSeconds,
        secretCount,
        gateMs,
      ),
    d1
      .prepare(
        `UPDATE webhook_deliveries SET status = ?, next_attempt_at = ?, lease_until = NULL, response_code = ?, response_body_sha256 = ?, terminal_reason = ?, updated_at = ?
          WHERE id = ? AND status = 'delivering' AND attempt_count = ?`,
      )
      .bind(
        status,
        nextAttemptAt,
        answered?.status ?? null,
        answered?.bodySha256 ?? null,
        terminalReason,
        finishedAt,
        row.id,
        attemptNumber,
      ),
    d1
      .prepare(
        `UPDATE webhook_endpoints SET consecutive_failures = ${failed ? "consecutive_failures + 1" : "0"} WHERE id = ? AND state = 'active' AND ${recorded.sql}`,
      )
      .bind(row.endpoint_id, ...recorded.binds),
    // Auto-disable, and fence what is unfinished, when the failure streak reaches the endpoint's threshold.
    d1
      .prepare(
        `UPDATE webhook_endpoints SET state = 'disabled', disabled_reason = 'consecutive_failures', updated_at = ?
          WHERE id = ? AND state = 'active' AND consecutive_failures >= auto_disable_after_failures AND ${recorded.sql}`,
      )
      .bind(finishedAt, row.endpoint_id, ...recorded.binds),
    fenceDeliveriesStatement(d1, row.endpoint_id, "endpoint_auto_disabled", finishedAt, {
      sql: "EXISTS (SELECT 1 FROM webhook_endpoints WHERE id = ? AND state = 'disabled' AND disabled_reason = 'consecutive_failures' AND updated_at = ?)",
      binds: [row.endpoint_id, finishedAt],
    }),
    // The attempt that tipped the endpoint over ended its delivery rather than scheduling a retry.
    d1
      .prepare(
        `UPDATE webhook_attempts SET outcome = 'ended' WHERE delivery_id = ? AND attempt_number = ?
            AND EXISTS (SELECT 1 FROM webhook_deliveries WHERE id = ? AND status = 'dead' AND terminal_reason = 'endpoint_auto_disabled')`,
      )
      .bind(row.id, attemptNumber, row.id),
  ]);
  if (status === "pending" && nextAttemptAt !== null) await sendDeliver(env, row.id, nextAttemptAt - Date.now());
}

/** One POST: destination re-checked, signed, no redirects followed, bounded in time and in what is read back. */
async function attempt(
  env: Bindings,
  row: DeliveryRow,
  target: AttemptTarget,
  attemptNumber: number,
  secrets: string[],
  fetcher: typeof fetch,
): Promise<AttemptResult> {
  const check = await checkWebhookDestination(env, target.url);
  if (check.status === "refused") return { kind: "refused", transient: check.transient === true };
  const signed = await signWebhook({ id: row.event_id, timestampSeconds: Math.floor(Date.now() / 1000), body: target.body }, secrets);
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "user-agent": "svc-webhooks/1",
    ...signed,
    "idempotency-key": row.event_id,
    "svc-webhook-id": signed["webhook-id"],
    "svc-webhook-timestamp": signed["webhook-timestamp"],
    "svc-webhook-signature": signed["webhook-signature"],
    "svc-event-type": row.event_type,
    "svc-delivery-id": row.id,
    "svc-endpoint-id": row.endpoint_id,
    "svc-attempt": String(attemptNumber),
  };
  try {
    const res = await fetcher(check.url.toString(), {
      method: "POST",
      headers,
      body: target.body,
      redirect: "manual",
      signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
    });
    const bodySha256 = await hashPrefix(res, RESPONSE_HASH_LIMIT);
    return {
      kind: "answer",
      status: res.status,
      bodySha256,
      retryAfterSeconds: parseRetryAfter(res.headers.get("retry-after"), Date.now()),
    };
  } catch (error) {
    if (error instanceof GrantLapsed) throw error;
    return { kind: "error", error: (error as Error)?.name === "TimeoutError" ? "timeout" : "network_error" };
  }
}

async function hashPrefix(res: Response, limit: number): Promise<string> {
  return hex(await crypto.subtle.digest("SHA-256", (await readBodyPrefix(res, limit)).bytes));
}

/** Delivery records (events, deliveries, attempts) are kept this long; deleted endpoints until their retain_until. */
export const DELIVERY_RETENTION_MS = 30 * 86_400_000;
const SWEEP_BATCH = 500;

/**
 * Cron: re-sends what a dead Worker never sent, and forgets what is past retention. Events not fanned out a
 * minute after they were written, pending deliveries a minute overdue (a live message keeps moving
 * next_attempt_at forward, so those are the lost ones), and deliveries whose claim lapsed a minute ago get their
 * message again. Each part is bounded and runs even if another fails.
 */
export async function sweepWebhooks(env: Bindings, now = Date.now()): Promise<{ events: number; deliveries: number; purged: number }> {
  const d1 = env.DB;
  const stale = now - 60_000;
  const out = { events: 0, deliveries: 0, purged: 0 };
  const parts: Promise<void>[] = [
    (async () => {
      const events = await d1
        .prepare("SELECT id FROM webhook_events WHERE fanned_out_at IS NULL AND created_at < ? ORDER BY fanned_out_at, created_at LIMIT ?")
        .bind(stale, SWEEP_BATCH)
        .all<{ id: string }>();
      await sendFanout(
        env,
        events.results.map((e) => e.id),
      );
      out.events = events.results.length;
    })(),
    (async () => {
      // Two indexed scans (status, next_attempt_at) and (status, lease_until), each bounded, rather than one OR.
      const [pending, lapsed] = await d1.batch<{ id: string }>([
        d1
          .prepare(
            "SELECT id FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at < ? ORDER BY status, next_attempt_at LIMIT ?",
          )
          .bind(stale, SWEEP_BATCH),
        d1
          .prepare("SELECT id FROM webhook_deliveries WHERE status = 'delivering' AND lease_until < ? ORDER BY status, lease_until LIMIT ?")
          .bind(stale, SWEEP_BATCH),
      ]);
      const ids = [...pending!.results, ...lapsed!.results].map((d) => d.id);
      await sendDeliverMany(env, ids);
      out.deliveries = ids.length;
    })(),
    (async () => {
      const before = now - DELIVERY_RETENTION_MS;
      const results = await d1.batch([
        d1
          .prepare("DELETE FROM webhook_attempts WHERE rowid IN (SELECT rowid FROM webhook_attempts WHERE started_at < ? LIMIT ?)")
          .bind(before, SWEEP_BATCH * 4),
        // By last change, so a delivery replayed recently is kept with its attempts.
        d1
          .prepare(
            "DELETE FROM webhook_deliveries WHERE id IN (SELECT id FROM webhook_deliveries WHERE updated_at < ? AND status IN ('delivered', 'failed', 'dead') LIMIT ?)",
          )
          .bind(before, SWEEP_BATCH),
        d1
          .prepare(
            `DELETE FROM webhook_events WHERE id IN (SELECT id FROM webhook_events e WHERE e.created_at < ? AND e.fanned_out_at IS NOT NULL
               AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id) LIMIT ?)`,
          )
          .bind(before, SWEEP_BATCH),
        d1
          .prepare(
            "DELETE FROM webhook_endpoints WHERE state = 'deleted' AND retain_until < ? AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.endpoint_id = webhook_endpoints.id)",
          )
          .bind(now),
      ]);
      out.purged = results.reduce((n, r) => n + (r.meta.changes ?? 0), 0);
    })(),
  ];
  const settled = await Promise.allSettled(parts);
  for (const r of settled)
    if (r.status === "rejected")
      console.error(JSON.stringify({ level: "error", problem: "webhook sweep part failed", error: String(r.reason) }));
  return out;
}
