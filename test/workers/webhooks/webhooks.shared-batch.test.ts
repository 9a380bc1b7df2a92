import { describe, expect, it } from "vitest";
import { newId } from "../../../src/platform/ids";
import { replayEvent } from "../../../src/webhooks/deliveries";
import { deliverBatch } from "../../../src/webhooks/delivery-run";
import { fanOutEvent } from "../../../src/webhooks/fan-out";
import { SharedBatch } from "../../../src/webhooks/repo/shared-batch";
import { createTenant, testEnv } from "../support/helpers";
import { activeEndpoints, createEndpoint, hookedEnv, pendingDeliveries, sleep, unfannedEvent } from "../support/webhooks.helpers";

/*
 * #19: the endpoint runs of a queue batch share their D1 round trips (src/webhooks/repo/shared-batch.ts), and a
 * run's record of one round goes with its claim of the next. Sharing must change only the number of round trips:
 * each caller's statements still run in order, all or none, and every per-endpoint guarantee holds.
 */

/** testEnv with a D1 that counts its round trips (a batch is one; so is a lone statement's run/first/all). */
function countingEnv() {
  const count = { roundTrips: 0 };
  return { env: hookedEnv({ roundTrip: () => count.roundTrips++ }), count };
}

const recordsAttempt = (sqls: string[]) => sqls.some((q) => q.includes("INSERT INTO webhook_attempts"));

/** testEnv whose D1 fails the first batch that records an attempt (a D1 failure at the worst moment). */
function failingRecordEnv() {
  const state = { failed: false, batches: [] as string[][] };
  const env = hookedEnv({
    batch: async (sqls, send) => {
      state.batches.push(sqls);
      if (!state.failed && recordsAttempt(sqls)) {
        state.failed = true;
        throw new Error("D1_ERROR: simulated failure of the record");
      }
      return send();
    },
  });
  return { env, state };
}

/** testEnv whose D1 holds each batch that records an attempt for `delayMs` (calling `onRecord` as it starts). */
function slowRecordEnv(delayMs: number, onRecord: () => void) {
  return hookedEnv({
    batch: async (sqls, send) => {
      if (recordsAttempt(sqls)) {
        onRecord();
        await sleep(delayMs);
      }
      return send();
    },
  });
}

describe("#19 fewer D1 round trips per delivery: shared batches in the consumer, one round trip per event replay", () => {
  it("statements submitted together go in one batch, each caller getting its own results in order", async () => {
    const { env, count } = countingEnv();
    const shared = new SharedBatch(env.DB, 50);
    const leaves = [shared.join(), shared.join(), shared.join()];
    const [a, b, c] = await Promise.all([
      shared.batch([shared.prepare("SELECT 1 AS v"), shared.prepare("SELECT 2 AS v")]),
      shared.batch([shared.prepare("SELECT 3 AS v")]),
      shared.batch([shared.prepare("SELECT 4 AS v"), shared.prepare("SELECT 5 AS v")]),
    ]);
    for (const leave of leaves) leave();
    expect(count.roundTrips).toBe(1);
    expect(shared.stats).toEqual({ roundTrips: 1, statements: 5 });
    expect(a!.map((r) => r.results[0])).toEqual([{ v: 1 }, { v: 2 }]);
    expect(b!.map((r) => r.results[0])).toEqual([{ v: 3 }]);
    expect(c!.map((r) => r.results[0])).toEqual([{ v: 4 }, { v: 5 }]);
  });

  it("a statement that fails fails every caller of its batch, and writes none of it; the next batch is unaffected", async () => {
    const shared = new SharedBatch(testEnv.DB, 50);
    await testEnv.DB.prepare("CREATE TABLE IF NOT EXISTS shared_batch_probe (v INTEGER)").run();
    const leaves = [shared.join(), shared.join()];
    const results = await Promise.allSettled([
      shared.batch([shared.prepare("INSERT INTO shared_batch_probe (v) VALUES (1)")]),
      shared.batch([shared.prepare("INSERT INTO no_such_table (v) VALUES (2)")]),
    ]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    for (const leave of leaves) leave();
    expect((await testEnv.DB.prepare("SELECT COUNT(*) AS n FROM shared_batch_probe").first<{ n: number }>())!.n).toBe(0);
    await shared.batch([shared.prepare("INSERT INTO shared_batch_probe (v) VALUES (3)")]);
    expect((await testEnv.DB.prepare("SELECT COUNT(*) AS n FROM shared_batch_probe").first<{ n: number }>())!.n).toBe(1);
  });

  it("what is submitted while a batch is out goes in the next, after it (one batch in flight at a time)", async () => {
    // A D1 whose batches take 40 ms, so that what follows the first is surely submitted while it is out.
    const flight = { now: 0, most: 0, batches: 0 };
    const { DB } = hookedEnv({
      batch: async (_sqls, send) => {
        flight.batches++;
        flight.most = Math.max(flight.most, ++flight.now);
        try {
          await sleep(40);
          return await send();
        } finally {
          flight.now--;
        }
      },
    });
    const shared = new SharedBatch(DB, 1);
    await testEnv.DB.prepare("CREATE TABLE IF NOT EXISTS shared_batch_order (at INTEGER PRIMARY KEY AUTOINCREMENT, v TEXT)").run();
    const insert = (v: string) => shared.prepare("INSERT INTO shared_batch_order (v) VALUES (?)").bind(v);
    const first = shared.batch([insert("a")]);
    await sleep(5); // the first batch has left
    const second = shared.batch([insert("b")]);
    const third = shared.batch([insert("c")]);
    await Promise.all([first, second, third]);
    expect(flight.most).toBe(1);
    expect(flight.batches).toBe(2); // b and c waited for a together
    const order = await testEnv.DB.prepare("SELECT v FROM shared_batch_order ORDER BY at").all<{ v: string }>();
    expect(order.results.map((r) => r.v)).toEqual(["a", "b", "c"]);
  });

  it("a batch of deliveries to 5 endpoints claims and records them in a few round trips, not two per endpoint, each sent once within its endpoint's concurrency", async () => {
    const { key, tenantId } = await createTenant();
    const endpoints = [];
    for (let i = 0; i < 5; i++) endpoints.push(await createEndpoint(key, { max_concurrency: 4, rate_limit_per_minute: 600 }));
    const ids = (await Promise.all(endpoints.map((e) => pendingDeliveries(tenantId, e.id, 4)))).flat();
    const inFlight = new Map<string, number>();
    const most = new Map<string, number>();
    const sent: string[] = [];
    const fetcher: typeof fetch = async (_input, init) => {
      const headers = new Headers(init?.headers);
      const endpoint = headers.get("svc-endpoint-id")!;
      inFlight.set(endpoint, (inFlight.get(endpoint) ?? 0) + 1);
      most.set(endpoint, Math.max(most.get(endpoint) ?? 0, inFlight.get(endpoint)!));
      sent.push(headers.get("svc-delivery-id")!);
      await sleep(2);
      inFlight.set(endpoint, inFlight.get(endpoint)! - 1);
      return new Response("ok", { status: 200, headers: { "content-length": "2" } });
    };
    const { env, count } = countingEnv();
    const outcomes = await deliverBatch(env, ids, { fetcher, random: () => 0.5 });
    expect(outcomes.every((e) => e === null)).toBe(true);
    expect([...sent].sort()).toEqual([...ids].sort());
    for (const e of endpoints) expect(most.get(e.id)).toBeLessThanOrEqual(4);
    // One read, then the claims and the records shared: one endpoint at a time made 1 + 5 × 2 = 11.
    expect(count.roundTrips).toBeLessThanOrEqual(5);
    const delivered = await testEnv.DB.prepare(
      `SELECT COUNT(*) AS n FROM webhook_deliveries WHERE id IN (${ids.map(() => "?").join(", ")}) AND status = 'delivered' AND attempt_count = 1`,
    )
      .bind(...ids)
      .first<{ n: number }>();
    expect(delivered!.n).toBe(20);
  });

  it("an endpoint auto-disabled by one round's record gets nothing more from the run (the next claim follows that record)", async () => {
    const { key, tenantId } = await createTenant();
    const failing = await createEndpoint(key, { max_concurrency: 2, rate_limit_per_minute: 600, auto_disable_after_failures: 2 });
    const healthy = await createEndpoint(key, { max_concurrency: 2, rate_limit_per_minute: 600 });
    const failingIds = await pendingDeliveries(tenantId, failing.id, 6);
    const healthyIds = await pendingDeliveries(tenantId, healthy.id, 6);
    const sent = new Map<string, number>();
    const fetcher: typeof fetch = async (_input, init) => {
      const endpoint = new Headers(init?.headers).get("svc-endpoint-id")!;
      sent.set(endpoint, (sent.get(endpoint) ?? 0) + 1);
      await sleep(1);
      return new Response("no", { status: endpoint === failing.id ? 500 : 200, headers: { "content-length": "2" } });
    };
    const outcomes = await deliverBatch(testEnv, [...failingIds, ...healthyIds], { fetcher, random: () => 0.5 });
    expect(outcomes.every((e) => e === null)).toBe(true);
    // Two failures in the first round reach the threshold: the second round's claim finds the endpoint disabled.
    expect(sent.get(failing.id)).toBe(2);
    expect(sent.get(healthy.id)).toBe(6);
    const endpoint = await testEnv.DB.prepare("SELECT state, disabled_reason FROM webhook_endpoints WHERE id = ?").bind(failing.id).first();
    expect(endpoint).toMatchObject({ state: "disabled", disabled_reason: "consecutive_failures" });
    const states = await testEnv.DB.prepare(
      `SELECT status, terminal_reason, COUNT(*) AS n FROM webhook_deliveries WHERE endpoint_id = ? GROUP BY 1, 2 ORDER BY 1, 2`,
    )
      .bind(failing.id)
      .all();
    expect(states.results).toEqual([{ status: "dead", terminal_reason: "endpoint_auto_disabled", n: 6 }]);
  });

  it("an event replay reads, upserts and marks in one round trip, exactly as before: recipients only, finished ones restarted, pending ones left", async () => {
    const { key, tenantId } = await createTenant();
    const a = await createEndpoint(key, { events: ["asset.signed"] });
    const b = await createEndpoint(key, { events: ["asset.signed"] });
    await createEndpoint(key, { events: ["asset.watermarked"] }); // not subscribed
    const disabled = await createEndpoint(key, { events: ["asset.signed"] });
    await testEnv.DB.prepare("UPDATE webhook_endpoints SET state = 'disabled', disabled_reason = 'manual' WHERE id = ?")
      .bind(disabled.id)
      .run();
    const eventId = await unfannedEvent(tenantId);
    // Another tenant's replay finds nothing and writes nothing (the fanned-out mark is the tenant's too).
    const other = await createTenant();
    expect(await replayEvent(testEnv, other.tenantId, eventId)).toEqual({ status: "not_found" });
    const unmarked = await testEnv.DB.prepare("SELECT fanned_out_at FROM webhook_events WHERE id = ?").bind(eventId).first();
    expect(unmarked).toEqual({ fanned_out_at: null });

    const { env, count } = countingEnv();
    expect(await replayEvent(env, tenantId, eventId)).toEqual({ status: "replayed", eventId, deliveryCount: 2 });
    expect(count.roundTrips).toBe(1);
    const rows = async () =>
      (
        await testEnv.DB.prepare(
          "SELECT endpoint_id, status, replay_count, attempt_base FROM webhook_deliveries WHERE event_id = ? ORDER BY endpoint_id",
        )
          .bind(eventId)
          .all()
      ).results;
    expect(await rows()).toEqual(
      [a.id, b.id].sort().map((endpoint_id) => ({ endpoint_id, status: "pending", replay_count: 0, attempt_base: 0 })),
    );
    await testEnv.DB.prepare("UPDATE webhook_deliveries SET status = 'delivered', attempt_count = 1 WHERE event_id = ? AND endpoint_id = ?")
      .bind(eventId, a.id)
      .run();
    expect(await replayEvent(testEnv, tenantId, eventId)).toEqual({ status: "replayed", eventId, deliveryCount: 1 });
    expect(await rows()).toEqual(
      [
        { endpoint_id: a.id, status: "pending", replay_count: 1, attempt_base: 1 },
        { endpoint_id: b.id, status: "pending", replay_count: 0, attempt_base: 0 },
      ].sort((x, y) => (x.endpoint_id < y.endpoint_id ? -1 : 1)),
    );
    const marked = await testEnv.DB.prepare("SELECT fanned_out_at FROM webhook_events WHERE id = ?")
      .bind(eventId)
      .first<{ fanned_out_at: number }>();
    expect(marked!.fanned_out_at).toBeGreaterThan(0);
  });

  it("an event with more recipients than a tenant may have endpoints (54 > 50) still gets one delivery each", async () => {
    const { tenantId } = await createTenant();
    const now = Date.now();
    const endpoints = await activeEndpoints(tenantId, 54);
    const eventId = await unfannedEvent(tenantId, now);
    expect(await replayEvent(testEnv, tenantId, eventId)).toEqual({ status: "replayed", eventId, deliveryCount: 54 });
    const deliveries = await testEnv.DB.prepare(
      "SELECT endpoint_id, COUNT(*) AS n FROM webhook_deliveries WHERE event_id = ? AND status = 'pending' GROUP BY 1 ORDER BY 1",
    )
      .bind(eventId)
      .all<{ endpoint_id: string; n: number }>();
    expect(deliveries.results).toEqual([...endpoints].sort().map((endpoint_id) => ({ endpoint_id, n: 1 })));
  });

  it("a fan-out reads the event with its recipients, then inserts, marks and reads what is due, in two round trips (were four); a second fan-out creates nothing", async () => {
    const { key, tenantId } = await createTenant();
    const a = await createEndpoint(key, { events: ["asset.signed"] });
    const b = await createEndpoint(key, { events: ["asset.signed", "asset.watermarked"] });
    await createEndpoint(key, { events: ["asset.watermarked"] }); // not subscribed
    const disabled = await createEndpoint(key, { events: ["asset.signed"] });
    await testEnv.DB.prepare("UPDATE webhook_endpoints SET state = 'disabled', disabled_reason = 'manual' WHERE id = ?")
      .bind(disabled.id)
      .run();
    const other = await createTenant();
    await createEndpoint(other.key, { events: ["asset.signed"] }); // another tenant's
    const eventId = await unfannedEvent(tenantId);
    const deliveries = async () =>
      (
        await testEnv.DB.prepare("SELECT id, endpoint_id, status FROM webhook_deliveries WHERE event_id = ? ORDER BY endpoint_id")
          .bind(eventId)
          .all<{ id: string; endpoint_id: string; status: string }>()
      ).results;
    const first = countingEnv();
    await fanOutEvent(first.env, eventId);
    expect(first.count.roundTrips).toBe(2);
    const created = await deliveries();
    expect(created.map((d) => [d.endpoint_id, d.status])).toEqual([a.id, b.id].sort().map((id) => [id, "pending"]));
    const event = await testEnv.DB.prepare("SELECT fanned_out_at FROM webhook_events WHERE id = ?")
      .bind(eventId)
      .first<{ fanned_out_at: number }>();
    expect(event!.fanned_out_at).toBeGreaterThan(0);
    const again = countingEnv();
    await fanOutEvent(again.env, eventId);
    expect(again.count.roundTrips).toBe(2);
    expect(await deliveries()).toEqual(created);
    // An unknown event: one read, nothing else.
    const unknown = countingEnv();
    await fanOutEvent(unknown.env, newId("webhookEvent"));
    expect(unknown.count.roundTrips).toBe(1);
  });
  it("a caller's lane: once one of its submissions fails, its later ones are not sent (another caller's are)", async () => {
    const { env, count } = countingEnv();
    const shared = new SharedBatch(env.DB, 1);
    await testEnv.DB.prepare("CREATE TABLE IF NOT EXISTS shared_batch_lane (v TEXT)").run();
    const lane = shared.lane();
    const other = shared.lane();
    const failing = lane.batch([lane.prepare("INSERT INTO no_such_table (v) VALUES ('x')")]);
    failing.catch(() => undefined);
    await sleep(3); // the failing batch has left; what follows is queued behind it or after it
    const after = lane.batch([lane.prepare("INSERT INTO shared_batch_lane (v) VALUES ('after')")]);
    const others = other.batch([other.prepare("INSERT INTO shared_batch_lane (v) VALUES ('other')")]);
    const settled = await Promise.allSettled([failing, after, others]);
    expect(settled.map((r) => r.status)).toEqual(["rejected", "rejected", "fulfilled"]);
    // And a submission made after the failure is known is refused without a round trip.
    const trips = count.roundTrips;
    await expect(lane.batch([lane.prepare("INSERT INTO shared_batch_lane (v) VALUES ('late')")])).rejects.toThrow();
    expect(count.roundTrips).toBe(trips);
    const rows = await testEnv.DB.prepare("SELECT v FROM shared_batch_lane ORDER BY v").all<{ v: string }>();
    expect(rows.results).toEqual([{ v: "other" }]);
  });

  it("a run whose record fails claims nothing more: the next round's claim, submitted before that failure was known, is not sent", async () => {
    const { key, tenantId } = await createTenant();
    const endpoint = await createEndpoint(key, { max_concurrency: 1, rate_limit_per_minute: 600 });
    const ids = await pendingDeliveries(tenantId, endpoint.id, 3);
    const sent: string[] = [];
    const fetcher: typeof fetch = async (_input, init) => {
      sent.push(new Headers(init?.headers).get("svc-delivery-id")!);
      return new Response("ok", { status: 200, headers: { "content-length": "2" } });
    };
    const { env, state } = failingRecordEnv();
    const outcomes = await deliverBatch(env, ids, { fetcher, random: () => 0.5 });
    expect(state.failed).toBe(true);
    // The run failed: every message of it is retried.
    expect(outcomes.every((e) => e !== null)).toBe(true);
    expect(sent).toHaveLength(1);
    // Only the sent delivery holds a claim (its record was lost: its lease lapses and it is sent again, at least
    // once); the others were never claimed, so no attempt of theirs was spent without a request.
    const rows = await testEnv.DB.prepare(
      `SELECT id, status, attempt_count FROM webhook_deliveries WHERE id IN (${ids.map(() => "?").join(", ")})`,
    )
      .bind(...ids)
      .all<{ id: string; status: string; attempt_count: number }>();
    const byId = new Map(rows.results.map((r) => [r.id, r]));
    expect(byId.get(sent[0]!)).toMatchObject({ status: "delivering", attempt_count: 1 });
    for (const id of ids.filter((id) => id !== sent[0])) expect(byId.get(id)).toMatchObject({ status: "pending", attempt_count: 0 });
  });
  it.each([
    ["between rounds (a run of 3)", 3],
    ["at the end of the run (a run of 2)", 2],
  ])("a round's failures that auto-disable the endpoint are recorded before its leases go to another consumer: %s", async (_, n) => {
    const { key, tenantId } = await createTenant();
    const endpoint = await createEndpoint(key, { max_concurrency: 2, rate_limit_per_minute: 600, auto_disable_after_failures: 2 });
    const mine = await pendingDeliveries(tenantId, endpoint.id, n);
    const [theirs] = await pendingDeliveries(tenantId, endpoint.id, 1);
    const sent: string[] = [];
    const fetcher: typeof fetch = async (_input, init) => {
      sent.push(new Headers(init?.headers).get("svc-delivery-id")!);
      return new Response("no", { status: 500, headers: { "content-length": "2" } });
    };
    // Another consumer's batch for the same endpoint starts while this run's first record (2 failures: the
    // threshold) is on its way to D1.
    let other: Promise<unknown> | undefined;
    const env = slowRecordEnv(400, () => {
      other ??= sleep(100).then(() => deliverBatch(testEnv, [theirs!], { fetcher, random: () => 0.5 }));
    });
    await deliverBatch(env, mine, { fetcher, random: () => 0.5 });
    await other;
    // Two requests reached the threshold; none after it, from this run or the other consumer.
    expect(sent).toHaveLength(2);
    expect(sent).not.toContain(theirs);
    const state = await testEnv.DB.prepare("SELECT status, terminal_reason FROM webhook_deliveries WHERE id = ?").bind(theirs!).first();
    expect(state).toEqual({ status: "dead", terminal_reason: "endpoint_auto_disabled" });
  });
  it("two replays of an event at once restart a finished delivery once and create no duplicate; two fan-outs at once create one delivery per endpoint", async () => {
    const { key, tenantId } = await createTenant();
    const a = await createEndpoint(key, { events: ["asset.signed"] });
    const b = await createEndpoint(key, { events: ["asset.signed"] });
    const event = async () => {
      const id = await unfannedEvent(tenantId);
      return id;
    };
    const rows = async (eventId: string) =>
      (
        await testEnv.DB.prepare("SELECT endpoint_id, status, replay_count FROM webhook_deliveries WHERE event_id = ? ORDER BY endpoint_id")
          .bind(eventId)
          .all()
      ).results;
    const fanned = await event();
    await Promise.all([fanOutEvent(testEnv, fanned), fanOutEvent(testEnv, fanned), fanOutEvent(testEnv, fanned)]);
    expect(await rows(fanned)).toEqual([a.id, b.id].sort().map((endpoint_id) => ({ endpoint_id, status: "pending", replay_count: 0 })));

    const replayed = await event();
    const first = await Promise.all([replayEvent(testEnv, tenantId, replayed), replayEvent(testEnv, tenantId, replayed)]);
    expect(first.map((r) => (r.status === "replayed" ? r.deliveryCount : -1)).sort()).toEqual([0, 2]);
    await testEnv.DB.prepare("UPDATE webhook_deliveries SET status = 'delivered', attempt_count = 1 WHERE event_id = ?")
      .bind(replayed)
      .run();
    const again = await Promise.all([replayEvent(testEnv, tenantId, replayed), replayEvent(testEnv, tenantId, replayed)]);
    expect(again.map((r) => (r.status === "replayed" ? r.deliveryCount : -1)).sort()).toEqual([0, 2]);
    expect(await rows(replayed)).toEqual([a.id, b.id].sort().map((endpoint_id) => ({ endpoint_id, status: "pending", replay_count: 1 })));
    const ids = await testEnv.DB.prepare("SELECT id FROM webhook_deliveries WHERE event_id = ?").bind(replayed).all<{ id: string }>();
    for (const { id } of ids.results) expect(id).toMatch(/^whd_[a-z2-7]{16}$/);
  });
});
