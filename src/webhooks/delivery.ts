import type { GateConfig } from "../durable-objects/webhook-endpoint-gate";
import type { Bindings } from "../env";
import { hex } from "../platform/bytes";
import { log } from "../platform/logger";
import { type DestinationCheck, readBodyPrefix } from "../platform/net/outbound";
import { checkWebhookDestination } from "./destination";
import { gateOf, releaseLeases } from "./gate-calls";
import { sendDeliver } from "./queue";
import {
  type AttemptRecord,
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
import { openSecret, type WebhookSigner, webhookSigner } from "./signing";

/*
 * One delivery attempt: gate lease (per-endpoint Durable Object) → claim → sign → POST → record. Every step is
 * idempotent, so a redelivered or duplicated message is harmless; the cron sweep (sweep.ts) re-sends any message a
 * dead Worker never sent.
 */

/** Standard Webhooks recommends 15–30 s for receivers to answer. */
export const ATTEMPT_TIMEOUT_MS = 15_000;
/** A claim (and its gate lease) outlives the attempt's timeout; after that the Worker is presumed dead. */
export const LEASE_MS = ATTEMPT_TIMEOUT_MS + 10_000;
/** How long a consumer waits at the gate for a slot before handing the message back to the queue. */
export const GATE_WAIT_MS = 20_000;
/** How long a sender that missed its grant's send-by time waits for a fresh grant (see durable-objects/gate-window.ts). */
export const REGRANT_WAIT_MS = 5_000;

/** The gate refused a fresh grant to a late sender: nothing is sent, and the attempt is recorded as ours (internal_error). */
export class GrantLapsed extends Error {}
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

  const gate = gateOf(env, row.endpoint_id);
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
    await releaseLeases(env, row.endpoint_id, gate, [lease.leaseId]);
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
  const sender = await prepareSender(env, row.endpoint_id, target);
  const result = await attempt(row, target.body, attemptNumber, sender, deps.fetcher);
  const record = attemptRecord(
    env,
    row,
    { attemptNumber, sinceReplay, gateMs, startedAt, secretCount: sender.secretCount },
    result,
    deps.random,
  );
  await recordAttempt(d1, record);
  if (record.status === "pending" && record.nextAttemptAt !== null) await sendDeliver(env, row.id, record.nextAttemptAt - Date.now());
}

/**
 * What every attempt to one endpoint at one moment shares: its secrets opened into a signer, and its destination
 * checked. Prepared once per attempt, or once per run of attempts (delivery-run.ts). `failure`: our side could not
 * prepare (configuration, a sealed secret that does not open); each attempt is then recorded as internal_error.
 */
export type Sender =
  | { secretCount: number; sign: WebhookSigner; check: DestinationCheck; failure?: undefined }
  | { secretCount: 0; failure: AttemptResult };

export async function prepareSender(
  env: Bindings,
  endpointId: string,
  target: { url: string; secret_ciphertext: string; previous_secret_ciphertext: string | null },
): Promise<Sender> {
  try {
    const pepper = env.SVC_KEY_PEPPER;
    if (!pepper) throw new Error("SVC_KEY_PEPPER is not configured: webhook secrets cannot be opened");
    const { secretCount, sign } = await openedSigner(pepper, endpointId, target.secret_ciphertext, target.previous_secret_ciphertext);
    // The destination is checked every time (a name can be re-pointed); only the opened secrets are kept.
    const check = await checkWebhookDestination(env, target.url);
    return { secretCount, sign, check };
  } catch (error) {
    // Our side failed (configuration, storage): recorded like any failed attempt, so the schedule still ends it.
    log.error("webhook attempt could not be made", { endpoint_id: endpointId, error: String(error) });
    return { secretCount: 0, failure: { kind: "error", error: "internal_error" } };
  }
}

/** Opened signers kept per isolate: more than a tenant's endpoints, far fewer than would matter in memory. */
const SIGNERS_KEPT = 256;
const signers = new Map<string, { secretCount: number; sign: WebhookSigner }>();

/**
 * The signer of an endpoint's sealed secrets (new first, then the outgoing one during a rotation overlap), opened
 * and imported once per isolate (#19: every round of every run decrypted and imported them again). Keyed by the
 * exact sealed texts, the endpoint (their associated data) and the pepper: a rotation, an overlap's end or another
 * pepper is another key, so a retired secret never signs. Only opened signers are kept (no promise is shared
 * across requests; two first uses at once both open); a failure is not kept.
 */
export async function openedSigner(
  pepper: string,
  endpointId: string,
  sealed: string,
  previousSealed: string | null,
): Promise<{ secretCount: number; sign: WebhookSigner }> {
  const key = JSON.stringify([pepper, endpointId, sealed, previousSealed]);
  const kept = signers.get(key);
  if (kept) return kept;
  const secrets = [await openSecret(pepper, endpointId, sealed)];
  if (previousSealed) secrets.push(await openSecret(pepper, endpointId, previousSealed));
  const opened = { secretCount: secrets.length, sign: await webhookSigner(secrets) };
  if (signers.size >= SIGNERS_KEPT && !signers.has(key)) signers.delete(signers.keys().next().value!);
  signers.set(key, opened);
  return opened;
}

/** The record of one attempt's result: the delivery's next state under the retry schedule, and the attempt row. */
export function attemptRecord(
  env: Bindings,
  row: DeliveryRow,
  a: { attemptNumber: number; sinceReplay: number; gateMs: number; startedAt: number; secretCount: number },
  result: AttemptResult,
  random: () => number,
): AttemptRecord {
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
    const delay = nextAttemptDelayMs(retrySchedule(env), a.sinceReplay, retryAfterSeconds, random);
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
  return {
    deliveryId: row.id,
    tenantId: row.tenant_id,
    endpointId: row.endpoint_id,
    attemptNumber: a.attemptNumber,
    startedAt: a.startedAt,
    finishedAt,
    responseCode: answered?.status ?? null,
    responseBodySha256: answered?.bodySha256 ?? null,
    outcome: status === "pending" ? "retry_scheduled" : verdict.outcome === "acknowledged" ? "acknowledged" : "ended",
    error,
    retryAfterSeconds,
    signatureCount: a.secretCount,
    gateMs: a.gateMs,
    status,
    nextAttemptAt,
    terminalReason,
    failed: verdict.outcome !== "acknowledged",
  };
}

/** One POST: destination checked (by the sender), signed, no redirects followed, bounded in time and in what is read back. */
export async function attempt(
  row: DeliveryRow,
  body: string,
  attemptNumber: number,
  sender: Sender,
  fetcher: typeof fetch,
): Promise<AttemptResult> {
  if (sender.failure) return sender.failure;
  const check = sender.check;
  if (check.status === "refused") return { kind: "refused", transient: check.transient === true };
  let headers: Record<string, string>;
  try {
    const signed = await sender.sign({ id: row.event_id, timestampSeconds: Math.floor(Date.now() / 1000), body });
    headers = {
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
  } catch (error) {
    log.error("webhook attempt could not be signed", { delivery_id: row.id, error: String(error) });
    return { kind: "error", error: "internal_error" };
  }
  try {
    const res = await fetcher(check.url.toString(), {
      method: "POST",
      headers,
      body,
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
    // A lapsed grant is our side: nothing was sent (recorded as internal_error, like any failure of ours).
    if (error instanceof GrantLapsed) return { kind: "error", error: "internal_error" };
    return { kind: "error", error: (error as Error)?.name === "TimeoutError" ? "timeout" : "network_error" };
  }
}

async function hashPrefix(res: Response, limit: number): Promise<string> {
  // A body whose declared length is within the limit is read in one call (#19: the usual short acknowledgement);
  // the framing holds it to that length. Otherwise it is read chunk by chunk up to the limit. An encoded answer's
  // length is that of the compressed body, which fetch hands back decompressed (a small gzip can be megabytes).
  const declared = Number(res.headers.get("content-length") ?? Number.NaN);
  const encoding = res.headers.get("content-encoding")?.trim().toLowerCase();
  const plain = encoding === undefined || encoding === "" || encoding === "identity";
  const bytes =
    plain && Number.isSafeInteger(declared) && declared >= 0 && declared <= limit
      ? await res.arrayBuffer()
      : await readChunkedPrefix(res, limit);
  return hex(await crypto.subtle.digest("SHA-256", bytes));
}

/** A chunked answer up to this size (the usual acknowledgement) is read into a buffer of this size + 1. */
const SHORT_ANSWER_BYTES = 2048;

/**
 * The first `limit` bytes of an answer without a usable length (chunked, the usual short acknowledgement of many
 * frameworks): one runtime read of up to SHORT_ANSWER_BYTES + 1, which returns once the body ended or passed that
 * (#19: the chunk-by-chunk read took a JS round per chunk and one more for the end); a longer answer takes one
 * more read of up to `limit` + 1 in all. A buffer of the whole limit for every answer would be 64 KiB of garbage
 * per delivery. A body that is not a byte stream (a fetcher's own stream) is read chunk by chunk as before. Past
 * the limit, the rest is discarded unread.
 */
async function readChunkedPrefix(res: Response, limit: number): Promise<Uint8Array> {
  let reader: ReadableStreamBYOBReader | undefined;
  try {
    reader = res.body?.getReader({ mode: "byob" });
  } catch {
    return (await readBodyPrefix(res, limit)).bytes; // not a byte stream: nothing was locked or read
  }
  if (!reader) return new Uint8Array(0);
  const short = Math.min(SHORT_ANSWER_BYTES, limit);
  const first = (await reader.readAtLeast(short + 1, new Uint8Array(short + 1))).value ?? new Uint8Array(0);
  if (first.byteLength <= short) return first; // fewer than asked for: the body ended
  const all = new Uint8Array(limit + 1);
  all.set(first);
  const rest = await reader.readAtLeast(limit + 1 - first.byteLength, all.subarray(first.byteLength));
  // The read took over `all`'s buffer: the bytes are in `rest.value`'s buffer, after the first read's.
  const got = first.byteLength + (rest.value?.byteLength ?? 0);
  const bytes = rest.value ? new Uint8Array(rest.value.buffer, 0, Math.min(got, limit)) : first.subarray(0, limit);
  if (got > limit) await reader.cancel().catch(() => undefined);
  return bytes;
}
