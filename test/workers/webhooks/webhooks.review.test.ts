import { describe, expect, it } from "vitest";
import { replayEvent } from "../../../src/webhooks/deliveries";
import { claimRound, postponeDeliveries } from "../../../src/webhooks/repo/attempts";
import { createTenant, testEnv } from "../support/helpers";
import { activeEndpoints, insertDelivery, unfannedEvent } from "../support/webhooks.helpers";

/*
 * #19 review: the set-wise statements written `+endpoint_id`, `+status` (so SQLite finds rows by id) must still
 * filter by endpoint and status exactly; a replay whose overflow path runs (more active endpoints than ids) must
 * restart each finished delivery once and leave the others alone.
 */

type Row = { id: string; status: string; next_attempt_at: number | null; lease_until: number | null; attempt_count: number };

async function rows(ids: string[]): Promise<Map<string, Row>> {
  const found = await testEnv.DB.prepare(
    `SELECT id, status, next_attempt_at, lease_until, attempt_count FROM webhook_deliveries WHERE id IN (${ids.map(() => "?").join(", ")})`,
  )
    .bind(...ids)
    .all<Row>();
  return new Map(found.results.map((r) => [r.id, r]));
}

describe("#19 review: set-wise claim and postpone still filter by endpoint and status", () => {
  it("a claim round claims only its endpoint's pending-and-due or lapsed deliveries with attempts left", async () => {
    const { tenantId } = await createTenant();
    const other = await createTenant();
    const [endpointId, sibling] = await activeEndpoints(tenantId, 2);
    const [foreign] = await activeEndpoints(other.tenantId, 1);
    const now = Date.now();
    const due = await insertDelivery(tenantId, endpointId!, { status: "pending", next: now - 1, lease: null });
    const lapsed = await insertDelivery(tenantId, endpointId!, { status: "delivering", next: null, lease: now - 1, attempts: 1 });
    const notDue = await insertDelivery(tenantId, endpointId!, { status: "pending", next: now + 60_000, lease: null });
    const live = await insertDelivery(tenantId, endpointId!, { status: "delivering", next: null, lease: now + 60_000, attempts: 1 });
    const delivered = await insertDelivery(tenantId, endpointId!, { status: "delivered", next: null, lease: null, attempts: 1 });
    const dead = await insertDelivery(tenantId, endpointId!, { status: "dead", next: 0, lease: 0, attempts: 1 });
    const exhausted = await insertDelivery(tenantId, endpointId!, { status: "pending", next: now - 1, lease: null, attempts: 9 });
    const siblings = await insertDelivery(tenantId, sibling!, { status: "pending", next: now - 1, lease: null });
    const foreigners = await insertDelivery(other.tenantId, foreign!, { status: "pending", next: now - 1, lease: null });
    const all = [due, lapsed, notDue, live, delivered, dead, exhausted, siblings, foreigners];
    const before = await rows(all);

    const { claimed, target } = await claimRound(testEnv.DB, {
      deliveryIds: all,
      endpointId: endpointId!,
      now,
      leaseUntil: now + 25_000,
      maxAttempts: 9,
      eventIds: [],
    });
    expect(target).not.toBeNull();
    expect(claimed.map((c) => c.id).sort()).toEqual([due, lapsed].sort());
    const after = await rows(all);
    for (const id of [due, lapsed]) expect(after.get(id)).toMatchObject({ status: "delivering", lease_until: now + 25_000 });
    for (const id of [notDue, live, delivered, dead, exhausted, siblings, foreigners]) expect(after.get(id)).toEqual(before.get(id));
  });

  it("a postpone moves only unfinished deliveries (a pending one's due time, a lapsed claim's lease)", async () => {
    const { tenantId } = await createTenant();
    const [endpointId] = await activeEndpoints(tenantId, 1);
    const now = Date.now();
    const pending = await insertDelivery(tenantId, endpointId!, { status: "pending", next: now - 1, lease: null });
    const lapsed = await insertDelivery(tenantId, endpointId!, { status: "delivering", next: null, lease: now - 1, attempts: 1 });
    const live = await insertDelivery(tenantId, endpointId!, { status: "delivering", next: null, lease: now + 60_000, attempts: 1 });
    const delivered = await insertDelivery(tenantId, endpointId!, { status: "delivered", next: 5, lease: 5, attempts: 1 });
    const failed = await insertDelivery(tenantId, endpointId!, { status: "failed", next: 5, lease: 5, attempts: 1 });
    const all = [pending, lapsed, live, delivered, failed];
    const before = await rows(all);
    await postponeDeliveries(testEnv.DB, all, now + 30_000, now);
    const after = await rows(all);
    expect(after.get(pending)!.next_attempt_at).toBe(now + 30_000);
    expect(after.get(lapsed)!.lease_until).toBe(now + 30_000);
    for (const id of [live, delivered, failed]) expect(after.get(id)).toEqual(before.get(id));
  });
});

describe("#19 review: a replay through the overflow path", () => {
  it("restarts each finished delivery exactly once, below and beyond the ids' ranks, and leaves unfinished ones alone", async () => {
    const { tenantId } = await createTenant();
    const endpoints = (await activeEndpoints(tenantId, 57)).sort();
    const eventId = await unfannedEvent(tenantId);
    expect(await replayEvent(testEnv, tenantId, eventId)).toEqual({ status: "replayed", eventId, deliveryCount: 57 });
    // Finished: two ranked below the 50 ids, two beyond; in flight: one below, one beyond.
    const finished = [endpoints[0]!, endpoints[49]!, endpoints[50]!, endpoints[56]!];
    const inFlight = [endpoints[10]!, endpoints[53]!];
    await testEnv.DB.prepare(
      `UPDATE webhook_deliveries SET status = 'delivered', attempt_count = 1 WHERE event_id = ? AND endpoint_id IN (${finished.map(() => "?").join(", ")})`,
    )
      .bind(eventId, ...finished)
      .run();
    await testEnv.DB.prepare(
      `UPDATE webhook_deliveries SET status = 'delivering', attempt_count = 1, lease_until = ? WHERE event_id = ? AND endpoint_id IN (?, ?)`,
    )
      .bind(Date.now() + 60_000, eventId, ...inFlight)
      .run();
    const before = await testEnv.DB.prepare("SELECT id, endpoint_id FROM webhook_deliveries WHERE event_id = ?")
      .bind(eventId)
      .all<{ id: string; endpoint_id: string }>();

    expect(await replayEvent(testEnv, tenantId, eventId)).toEqual({ status: "replayed", eventId, deliveryCount: 4 });
    const after = await testEnv.DB.prepare(
      "SELECT id, endpoint_id, status, replay_count, attempt_base FROM webhook_deliveries WHERE event_id = ? ORDER BY endpoint_id",
    )
      .bind(eventId)
      .all<{ id: string; endpoint_id: string; status: string; replay_count: number; attempt_base: number }>();
    expect(after.results).toHaveLength(57);
    // Same rows (no new ids), each finished one restarted once, the in-flight ones untouched.
    expect(new Map(after.results.map((r) => [r.endpoint_id, r.id]))).toEqual(new Map(before.results.map((r) => [r.endpoint_id, r.id])));
    for (const r of after.results) {
      if (finished.includes(r.endpoint_id)) expect(r).toMatchObject({ status: "pending", replay_count: 1, attempt_base: 1 });
      else if (inFlight.includes(r.endpoint_id)) expect(r).toMatchObject({ status: "delivering", replay_count: 0 });
      else expect(r).toMatchObject({ status: "pending", replay_count: 0 });
    }
  });

  it("with more active endpoints than ids but few recipients, queues each recipient once", async () => {
    const { tenantId } = await createTenant();
    const endpoints = await activeEndpoints(tenantId, 55);
    // Only three subscribe to the event's type.
    const recipients = endpoints.slice(0, 3);
    await testEnv.DB.prepare(`UPDATE webhook_endpoints SET events = '["asset.watermarked"]' WHERE tenant_id = ? AND id NOT IN (?, ?, ?)`)
      .bind(tenantId, ...recipients)
      .run();
    const eventId = await unfannedEvent(tenantId);
    expect(await replayEvent(testEnv, tenantId, eventId)).toEqual({ status: "replayed", eventId, deliveryCount: 3 });
    const found = await testEnv.DB.prepare("SELECT endpoint_id FROM webhook_deliveries WHERE event_id = ? ORDER BY endpoint_id")
      .bind(eventId)
      .all<{ endpoint_id: string }>();
    expect(found.results.map((r) => r.endpoint_id)).toEqual([...recipients].sort());
  });
});
