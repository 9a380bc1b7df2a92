import type { GateConfig } from "../durable-objects/webhook-endpoint-gate";
import type { Bindings } from "../env";
import { hex } from "../platform/bytes";
import { log } from "../platform/logger";
import { readBodyPrefix } from "../platform/net/outbound";
import { checkWebhookDestination } from "./destination";
import { sendDeliver } from "./queue";
import {
  type AttemptTarget,
  attemptTarget,
  claimDelivery,
  type EngineDeliveryRow as DeliveryRow,
  fenceDelivery,
  loadDelivery,
  postponeDelivery,
  recordAttempt,
} from "./repo/attempts";
import { type AttemptResult, judgeAttempt, nextAttemptDelayMs, parseRetryAfter, retrySchedule } from "./retry-policy";
import type { TerminalReason } from "./schemas";
import { openSecret, signWebhook } from "./signing";

/*
 * One delivery attempt: gate lease (per-endpoint Durable Object) → claim → sign → POST → record. Every step is
 * idempotent, so a redelivered or duplicated message is harmless; the cron sweep (sweep.ts) re-sends any message a
 * dead Worker never sent.
 */

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
  const row = await loadDelivery(d1, deliveryId);
  if (!row || (row.status !== "pending" && row.status !== "delivering")) return;
  let now = Date.now();
  // Created or replayed just as its endpoint was disabled or deleted: fence it like the others, visibly.
  if (row.endpoint_state !== "active") {
    // Re-checked in the statement: an enable committed since the read leaves the delivery alone.
    await fenceDelivery(d1, row.id, row.endpoint_state === "deleted" ? "endpoint_deleted" : "endpoint_disabled", now, {
      sql: "NOT EXISTS (SELECT 1 FROM webhook_endpoints WHERE id = ? AND state = 'active')",
      binds: [row.endpoint_id],
    });
    return;
  }
  const maxAttempts = retrySchedule(env).length + 1;
  if (row.attempt_count - row.attempt_base >= maxAttempts && (row.status === "pending" || (row.lease_until ?? 0) <= now)) {
    // Re-checked in the statement: a replay committed since the read (attempt_base reset) leaves it alone.
    await fenceDelivery(d1, row.id, "retries_exhausted", now, { sql: "attempt_count - attempt_base >= ?", binds: [maxAttempts] });
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
    await postponeDelivery(d1, deliveryId, due, Date.now());
    return sendDeliver(env, deliveryId, lease.retryAfterMs);
  }
  const gateMs = Date.now() - gateStarted;
  try {
    now = Date.now();
    const claim = await claimDelivery(d1, { deliveryId, endpointId: row.endpoint_id, now, leaseUntil: now + LEASE_MS, maxAttempts });
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

async function attemptAndRecord(
  env: Bindings,
  row: DeliveryRow,
  attemptNumber: number,
  sinceReplay: number,
  gateMs: number,
  deps: DeliveryDeps,
): Promise<void> {
  const d1 = env.DB;
  const target = await attemptTarget(d1, row.event_id, row.endpoint_id);
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
    log.error("webhook attempt could not be made", { delivery_id: row.id, error: String(error) });
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
  await recordAttempt(d1, {
    deliveryId: row.id,
    tenantId: row.tenant_id,
    endpointId: row.endpoint_id,
    attemptNumber,
    startedAt,
    finishedAt,
    responseCode: answered?.status ?? null,
    responseBodySha256: answered?.bodySha256 ?? null,
    outcome: status === "pending" ? "retry_scheduled" : verdict.outcome === "acknowledged" ? "acknowledged" : "ended",
    error,
    retryAfterSeconds,
    signatureCount: secretCount,
    gateMs,
    status,
    nextAttemptAt,
    terminalReason,
    failed: verdict.outcome !== "acknowledged",
  });
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
