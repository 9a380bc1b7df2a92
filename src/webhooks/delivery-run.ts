import type { GateConfig } from "../durable-objects/webhook-endpoint-gate";
import type { Bindings } from "../env";
import {
  attempt,
  attemptRecord,
  type DeliveryDeps,
  deliverOnce,
  GATE_WAIT_MS,
  GrantLapsed,
  LEASE_MS,
  prepareSender,
  REGRANT_WAIT_MS,
} from "./delivery";
import { gateOf, releaseLeases } from "./gate-calls";
import { deliveryIdsOf, sendDeliverDelayed } from "./queue";
import { claimRound, type EngineDeliveryRow, loadDeliveries, postponeDeliveries, recordAttempts } from "./repo/attempts";
import { SharedBatch } from "./repo/shared-batch";
import { retrySchedule } from "./retry-policy";

/*
 * A queue batch of deliveries, attempted in runs per endpoint: one read of all the batch's deliveries and their
 * events' bodies, then for each endpoint, round after round, one gate call for as many leases as it allows
 * (acquireMany, which also frees the previous round's), one D1 batch that claims that many deliveries and reads
 * the endpoint, the secrets opened (once per isolate for the same sealed secrets) and the destination checked
 * once, the POSTs in parallel, and the outcomes recorded in one D1 batch.
 * The guarantees are deliverOnce's, per delivery: a lease per request (concurrency and rate exact), a POST only
 * after its own row was claimed (two consumers claiming the same ids split them), an outcome recorded only by
 * the claim that made it. A delivery that is not plainly pending and due goes through deliverOnce.
 */

/** A queue batch's deliver messages: each message is done when all the deliveries it names are (else retried). */
export async function deliverMessages(env: Bindings, bodies: readonly Record<string, unknown>[]): Promise<(unknown | null)[]> {
  const named = bodies.map(deliveryIdsOf);
  const outcomes = await deliverBatch(env, named.flat());
  const errorOf = new Map<string, unknown>();
  named.flat().forEach((id, i) => {
    if (outcomes[i] !== null) errorOf.set(id, outcomes[i]);
  });
  return named.map((ids) => ids.map((id) => errorOf.get(id)).find((e) => e !== undefined) ?? null);
}

/**
 * Attempts the deliveries named by a batch's messages. Returns, for each id in order, null when its message may
 * be acknowledged (attempted and recorded, or handed on with its own message) or the error that should retry it.
 * Invariant: a run's deliveries are recorded before any of its messages is acknowledged; a Worker that dies
 * mid-run leaves only that run's claimed rows unfinished, and their redelivered messages wait for the claim to lapse.
 */
export async function deliverBatch(
  env: Bindings,
  deliveryIds: readonly string[],
  deps: DeliveryDeps = { fetcher: fetch, random: Math.random },
): Promise<(unknown | null)[]> {
  const errors = new Map<string, unknown>();
  const unique = [...new Set(deliveryIds)];
  let rows: Map<string, EngineDeliveryRow>;
  let bodies: Map<string, string>;
  try {
    ({ rows, bodies } = await loadDeliveries(env.DB, unique));
  } catch (error) {
    return deliveryIds.map(() => error);
  }
  const now = Date.now();
  const maxAttempts = retrySchedule(env).length + 1;
  const runs = new Map<string, EngineDeliveryRow[]>();
  const single: string[] = [];
  for (const id of unique) {
    const row = rows.get(id);
    if (!row) continue; // deleted (retention): nothing to do
    if (row.status !== "pending" && row.status !== "delivering") continue; // finished
    const plain =
      row.status === "pending" &&
      row.endpoint_state === "active" &&
      (row.next_attempt_at ?? 0) <= now &&
      row.attempt_count - row.attempt_base < maxAttempts;
    if (!plain) single.push(id);
    else if (runs.has(row.endpoint_id)) runs.get(row.endpoint_id)!.push(row);
    else runs.set(row.endpoint_id, [row]);
  }
  const fail = (ids: readonly string[]) => (error: unknown) => {
    for (const id of ids) errors.set(id, error);
  };
  // The runs' claims and records share D1 round trips (#19): one batch for what they submit at about the same time.
  const shared = new SharedBatch(env.DB);
  await Promise.all([
    ...single.map((id) => deliverOnce(env, id, deps).catch(fail([id]))),
    ...[...runs.values()].map((run) => deliverRun(env, shared, run, bodies, maxAttempts, deps).catch(fail(run.map((r) => r.id)))),
  ]);
  return deliveryIds.map((id) => errors.get(id) ?? null);
}

/**
 * One endpoint's pending, due deliveries, in rounds of as many leases as its gate grants at once. `bodies`: the
 * batch's event bodies, shared by its runs (a body missing there is read with the claim and added).
 */
async function deliverRun(
  env: Bindings,
  d1: SharedBatch,
  run: EngineDeliveryRow[],
  bodies: Map<string, string>,
  maxAttempts: number,
  deps: DeliveryDeps,
): Promise<void> {
  const first = run[0]!;
  const gate = gateOf(env, first.endpoint_id);
  const config: GateConfig = { maxConcurrency: first.max_concurrency, ratePerMinute: first.rate_limit_per_minute, leaseMs: LEASE_MS };
  const queue = run.slice();
  // The previous round's leases: freed by the next round's acquire (one round trip), or at the end.
  let held: { leaseIds: string[]; unsent: string[] } | undefined;
  // The previous round's record, not awaited before the next round's gate call and claim, so that record and
  // claim share a D1 batch (#19). Submitted first, so it commits first (an auto-disable it makes fences the claim).
  let recording: Promise<void> | undefined;
  // The run's own submissions: a claim made after a record that failed is not sent (no attempt spent unsent).
  const lane = d1.lane();
  const leave = d1.join();
  // The previous round had a failed attempt: its record may auto-disable the endpoint, so it commits before the
  // next gate call frees that round's leases (another consumer's claim must find the endpoint disabled).
  let mayDisable = false;
  try {
    while (queue.length > 0) {
      if (mayDisable) {
        await recording;
        recording = undefined;
      }
      const gateStarted = Date.now();
      const release = held;
      held = undefined;
      let grant: Awaited<ReturnType<typeof gate.acquireMany>>;
      try {
        grant = await gate.acquireMany(config, queue.length, GATE_WAIT_MS, release);
      } catch (error) {
        // The call may not have reached the gate (a restarted object breaks this stub): the finally below frees
        // the previous round's leases, on a fresh stub if need be (a second release of them is harmless).
        held = release;
        throw error;
      }
      if (!grant.granted) {
        // As deliverOnce: the due time moves with the message, so the sweep leaves rows whose message is alive.
        const ids = queue.map((r) => r.id);
        await recording;
        await postponeDeliveries(env.DB, ids, Date.now() + grant.retryAfterMs, Date.now());
        await sendDeliverDelayed(
          env,
          ids.map((id) => ({ id, delayMs: grant.retryAfterMs })),
        );
        return;
      }
      const gateMs = Date.now() - gateStarted;
      const unsent = new Set(grant.leases.map((l) => l.leaseId));
      held = { leaseIds: [...unsent], unsent: [] };
      const round = queue.splice(0, grant.leases.length);
      const now = Date.now();
      const claiming = claimRound(lane, {
        deliveryIds: round.map((r) => r.id),
        endpointId: first.endpoint_id,
        now,
        leaseUntil: now + LEASE_MS,
        maxAttempts,
        eventIds: [...new Set(round.map((r) => r.event_id).filter((id) => !bodies.has(id)))],
      });
      // Handled here too: when the record fails first, the claim fails with it and is never awaited below.
      claiming.catch(() => undefined);
      // The record went before the claim (same batch or an earlier one): its failure is this run's failure.
      await recording;
      recording = undefined;
      const { claimed, target, bodies: read } = await claiming;
      for (const [id, body] of read) bodies.set(id, body);
      // Disabled or deleted since the claim: its fence already ended these deliveries; nothing is sent or recorded.
      if (!target && claimed.length > 0) return;
      if (!target) continue;
      const startedAt = Date.now();
      const sender = claimed.length > 0 ? await prepareSender(env, first.endpoint_id, target) : null;
      const byId = new Map(round.map((r) => [r.id, r]));
      const records = await Promise.all(
        claimed.map(async (c, i) => {
          const row = byId.get(c.id)!;
          const lease = grant.leases[i]!;
          unsent.delete(lease.leaseId);
          // The gate's margin covers a request started within SEND_WITHIN_MS of its grant; a later one takes a fresh grant.
          const send = deps.fetcher; // called unbound: workerd's fetch refuses another `this`
          const fetcher: typeof fetch = async (input, init) => {
            if (Date.now() > lease.sendBy && !(await gate.regrant(lease.leaseId, config, REGRANT_WAIT_MS)).granted)
              throw new GrantLapsed("no fresh gate grant");
            return send(input, init);
          };
          const body = bodies.get(row.event_id);
          const result =
            body === undefined
              ? ({ kind: "error", error: "internal_error" } as const)
              : await attempt(row, body, c.attempt_count, sender!, fetcher);
          return attemptRecord(
            env,
            row,
            {
              attemptNumber: c.attempt_count,
              sinceReplay: c.attempt_count - c.attempt_base,
              gateMs,
              startedAt,
              secretCount: sender!.secretCount,
            },
            result,
            deps.random,
          );
        }),
      );
      // Leases of deliveries another consumer claimed were never sent on: their grants leave the rate log.
      held.unsent = [...unsent];
      const recorded = recordAttempts(lane, records).then(() => {
        const retries = records.filter((r) => r.status === "pending" && r.nextAttemptAt !== null);
        return sendDeliverDelayed(
          env,
          retries.map((r) => ({ id: r.deliveryId, delayMs: r.nextAttemptAt! - Date.now() })),
        );
      });
      // Not left unhandled while the next gate call is made; awaited (and thrown) before the next claim or the end.
      recorded.catch(() => undefined);
      recording = recorded;
      mayDisable = records.some((r) => r.failed);
      if (queue.length === 0) {
        // The requests are done: the leases are freed while the outcomes are recorded, or after them when they
        // may auto-disable the endpoint (as between rounds).
        if (mayDisable) await recorded; // a failure leaves the leases to the release below (finally)
        const last = held;
        held = undefined;
        await Promise.all([recorded, releaseLeases(env, first.endpoint_id, gate, last.leaseIds, last.unsent)]);
        recording = undefined;
      }
    }
  } finally {
    leave();
    try {
      if (held) await releaseLeases(env, first.endpoint_id, gate, held.leaseIds, held.unsent);
    } finally {
      // The last record: a failure here fails the run's messages (a thrown error in try wins over it).
      if (recording) await recording;
    }
  }
}
