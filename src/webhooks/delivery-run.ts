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
import { sendDeliverDelayed } from "./queue";
import { claimDeliveries, type EngineDeliveryRow, loadDeliveries, postponeDeliveries, recordAttempts, runTarget } from "./repo/attempts";
import { retrySchedule } from "./retry-policy";

/*
 * A queue batch of deliveries, attempted in runs per endpoint: one read of all the batch's deliveries, then for
 * each endpoint, round after round, one gate call for as many leases as it allows (acquireMany), one claim of
 * that many deliveries, the endpoint and the event bodies read once, the secrets opened and the destination
 * checked once, the POSTs in parallel, the outcomes recorded in one D1 batch and the leases freed in one call.
 * The guarantees are deliverOnce's, per delivery: a lease per request (concurrency and rate exact), a POST only
 * after its own row was claimed (two consumers claiming the same ids split them), an outcome recorded only by
 * the claim that made it. A delivery that is not plainly pending and due goes through deliverOnce.
 */

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
  try {
    rows = await loadDeliveries(env.DB, unique);
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
    if (plain) runs.set(row.endpoint_id, [...(runs.get(row.endpoint_id) ?? []), row]);
    else single.push(id);
  }
  const fail = (ids: readonly string[]) => (error: unknown) => {
    for (const id of ids) errors.set(id, error);
  };
  await Promise.all([
    ...single.map((id) => deliverOnce(env, id, deps).catch(fail([id]))),
    ...[...runs.values()].map((run) => deliverRun(env, run, maxAttempts, deps).catch(fail(run.map((r) => r.id)))),
  ]);
  return deliveryIds.map((id) => errors.get(id) ?? null);
}

/** One endpoint's pending, due deliveries, in rounds of as many leases as its gate grants at once. */
async function deliverRun(env: Bindings, run: EngineDeliveryRow[], maxAttempts: number, deps: DeliveryDeps): Promise<void> {
  const d1 = env.DB;
  const first = run[0]!;
  const gate = env.WEBHOOK_GATE.get(env.WEBHOOK_GATE.idFromName(first.endpoint_id));
  const config: GateConfig = { maxConcurrency: first.max_concurrency, ratePerMinute: first.rate_limit_per_minute, leaseMs: LEASE_MS };
  const queue = run.slice();
  while (queue.length > 0) {
    const gateStarted = Date.now();
    const grant = await gate.acquireMany(config, queue.length, GATE_WAIT_MS);
    if (!grant.granted) {
      // As deliverOnce: the due time moves with the message, so the sweep leaves rows whose message is alive.
      const ids = queue.map((r) => r.id);
      await postponeDeliveries(d1, ids, Date.now() + grant.retryAfterMs, Date.now());
      await sendDeliverDelayed(
        env,
        ids.map((id) => ({ id, delayMs: grant.retryAfterMs })),
      );
      return;
    }
    const gateMs = Date.now() - gateStarted;
    const round = queue.splice(0, grant.leases.length);
    const unsent = new Set(grant.leases.map((l) => l.leaseId));
    try {
      const now = Date.now();
      const claimed = await claimDeliveries(d1, {
        deliveryIds: round.map((r) => r.id),
        endpointId: first.endpoint_id,
        now,
        leaseUntil: now + LEASE_MS,
        maxAttempts,
      });
      if (claimed.length === 0) continue;
      const byId = new Map(round.map((r) => [r.id, r]));
      const target = await runTarget(
        d1,
        first.endpoint_id,
        claimed.map((c) => byId.get(c.id)!.event_id),
      );
      // Disabled or deleted since the claim: its fence already ended these deliveries; nothing is sent or recorded.
      if (!target) return;
      const startedAt = Date.now();
      const sender = await prepareSender(env, first.endpoint_id, target);
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
          const body = target.bodies.get(row.event_id);
          const result =
            body === undefined
              ? ({ kind: "error", error: "internal_error" } as const)
              : await attempt(row, body, c.attempt_count, sender, fetcher);
          return attemptRecord(
            env,
            row,
            {
              attemptNumber: c.attempt_count,
              sinceReplay: c.attempt_count - c.attempt_base,
              gateMs,
              startedAt,
              secretCount: sender.secretCount,
            },
            result,
            deps.random,
          );
        }),
      );
      await recordAttempts(d1, records);
      const retries = records.filter((r) => r.status === "pending" && r.nextAttemptAt !== null);
      await sendDeliverDelayed(
        env,
        retries.map((r) => ({ id: r.deliveryId, delayMs: r.nextAttemptAt! - Date.now() })),
      );
    } finally {
      const ids = grant.leases.map((l) => l.leaseId);
      await gate.releaseMany(ids, [...unsent]);
    }
  }
}
