import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { GATE_WINDOW_MS } from "../../../src/durable-objects/gate-window";

describe("RateLimiter Durable Object", () => {
  it("is exact under concurrency: 200 concurrent requests at 60/min → exactly 60 allowed", async () => {
    const stub = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName("key_concurrency"));
    const decisions = await Promise.all(Array.from({ length: 200 }, () => stub.limit(60, 60)));
    const allowed = decisions.filter((d) => d.allowed);
    expect(allowed).toHaveLength(60);
    for (const refused of decisions.filter((d) => !d.allowed)) {
      // One request per second refills: the next slot opens within a second.
      expect(refused.retryAfterMs).toBeGreaterThan(0);
      expect(refused.retryAfterMs).toBeLessThanOrEqual(1000);
    }
  });

  it("a refused request uses no capacity, and a changed limit applies from the next request", async () => {
    const stub = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName("key_change"));
    expect((await stub.limit(2, 60)).allowed).toBe(true);
    expect((await stub.limit(2, 60)).allowed).toBe(true);
    const refused = await stub.limit(2, 60);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterMs).toBeGreaterThan(29_000);
    expect(refused.retryAfterMs).toBeLessThanOrEqual(30_000);
    // Raising the limit takes effect at once, with the two requests already used carried over.
    const raised = await stub.limit(5, 60);
    expect(raised.allowed).toBe(true);
    expect(raised.remaining).toBe(2);
  });

  it("buckets are independent", async () => {
    const a = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName("bucket_a"));
    const b = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName("bucket_b"));
    expect((await a.limit(1, 60)).allowed).toBe(true);
    expect((await a.limit(1, 60)).allowed).toBe(false);
    expect((await b.limit(1, 60)).allowed).toBe(true);
  });
});

describe("WebhookEndpointGate Durable Object", () => {
  it("never grants more than max_concurrency leases at once; release frees a slot", async () => {
    const gate = env.WEBHOOK_GATE.get(env.WEBHOOK_GATE.idFromName("whe_concurrency"));
    const config = { maxConcurrency: 2, ratePerMinute: 600, leaseMs: 30_000 };
    const decisions = await Promise.all(Array.from({ length: 10 }, () => gate.acquire(config)));
    const granted = decisions.filter((d) => d.granted);
    expect(granted).toHaveLength(2);
    expect(decisions.filter((d) => !d.granted).every((d) => !d.granted && d.reason === "concurrency")).toBe(true);
    expect(await gate.inFlight()).toBe(2);
    const first = granted[0]!;
    if (!first.granted) throw new Error("unreachable");
    await gate.release(first.leaseId);
    expect((await gate.acquire(config)).granted).toBe(true);
  });

  it("limits grants per minute", async () => {
    const gate = env.WEBHOOK_GATE.get(env.WEBHOOK_GATE.idFromName("whe_rate"));
    const config = { maxConcurrency: 20, ratePerMinute: 3, leaseMs: 30_000 };
    const decisions = [];
    for (let i = 0; i < 5; i++) {
      const d = await gate.acquire(config);
      decisions.push(d);
      if (d.granted) await gate.release(d.leaseId);
    }
    expect(decisions.filter((d) => d.granted)).toHaveLength(3);
    const refused = decisions.at(-1)!;
    expect(refused.granted === false && refused.reason).toBe("rate");
  });

  it("an expired lease (its worker died) frees its slot", async () => {
    const gate = env.WEBHOOK_GATE.get(env.WEBHOOK_GATE.idFromName("whe_expiry"));
    const config = { maxConcurrency: 1, ratePerMinute: 600, leaseMs: 50 };
    expect((await gate.acquire(config)).granted).toBe(true);
    expect((await gate.acquire(config)).granted).toBe(false);
    await new Promise((r) => setTimeout(r, 80));
    expect((await gate.acquire(config)).granted).toBe(true);
  });

  it("a waiting acquire is granted as soon as a lease is released, in arrival order", async () => {
    const gate = env.WEBHOOK_GATE.get(env.WEBHOOK_GATE.idFromName("whe_wait"));
    const config = { maxConcurrency: 1, ratePerMinute: 600, leaseMs: 30_000 };
    const first = await gate.acquire(config);
    if (!first.granted) throw new Error("first acquire refused");
    const waiting = gate.acquire(config, 5_000);
    await new Promise((r) => setTimeout(r, 100));
    expect(await gate.inFlight()).toBe(1);
    const released = Date.now();
    await gate.release(first.leaseId);
    const second = await waiting;
    expect(second.granted).toBe(true);
    expect(Date.now() - released).toBeLessThan(1_000);
    // A bounded wait that cannot be met answers at once with when to come back.
    const refused = await gate.acquire(config, 10);
    expect(refused.granted).toBe(false);
  });

  it("the rate is a sliding window of 60 s plus the send margin: a refusal says when the oldest grant leaves it", async () => {
    const gate = env.WEBHOOK_GATE.get(env.WEBHOOK_GATE.idFromName("whe_window"));
    const config = { maxConcurrency: 20, ratePerMinute: 2, leaseMs: 30_000 };
    const a = await gate.acquire(config);
    const b = await gate.acquire(config);
    expect(a.granted && b.granted).toBe(true);
    const c = await gate.acquire(config);
    expect(c.granted).toBe(false);
    if (c.granted) throw new Error("unreachable");
    expect(c.reason).toBe("rate");
    expect(c.retryAfterMs).toBeGreaterThan(GATE_WINDOW_MS - 2_000);
    expect(c.retryAfterMs).toBeLessThanOrEqual(GATE_WINDOW_MS);
  });

  it("#13.16 a late sender's regrant moves its unused grant to now, never adding a second; a released lease gets none", async () => {
    const gate = env.WEBHOOK_GATE.get(env.WEBHOOK_GATE.idFromName("whe_regrant"));
    const config = { maxConcurrency: 20, ratePerMinute: 2, leaseMs: 30_000 };
    const a = await gate.acquire(config);
    const b = await gate.acquire(config);
    if (!a.granted || !b.granted) throw new Error("acquire refused");
    expect(a.sendBy).toBeGreaterThan(Date.now());
    const renewed = await gate.regrant(a.leaseId, config);
    expect(renewed).toMatchObject({ granted: true, leaseId: a.leaseId });
    // Still two grants in the window, so a third is refused.
    expect((await gate.acquire(config)).granted).toBe(false);
    await gate.release(b.leaseId);
    expect((await gate.regrant(b.leaseId, config)).granted).toBe(false);
    expect(await gate.inFlight()).toBe(1);
  });

  it("#19 acquireMany's release and grants are in storage when it answers, whether it grants at once, after a wait, or refuses", async () => {
    const gate = env.WEBHOOK_GATE.get(env.WEBHOOK_GATE.idFromName("whe_written_once"));
    const config = { maxConcurrency: 3, ratePerMinute: 600, leaseMs: 30_000 };
    type Stored = { grants: number[]; leases: Record<string, number> };
    const run = runInDurableObject as unknown as <T>(s: unknown, fn: (i: unknown, state: DurableObjectState) => Promise<T>) => Promise<T>;
    const stored = () => run(gate, async (_i, state) => (await state.storage.get<Stored>("state"))!);
    const leaseIds = (d: Awaited<ReturnType<typeof gate.acquireMany>>) => (d.granted ? d.leases.map((l) => l.leaseId) : []);

    // At once: the previous round's two leases freed, three granted, all in what is stored.
    const first = leaseIds(await gate.acquireMany(config, 2));
    expect(first).toHaveLength(2);
    const second = leaseIds(await gate.acquireMany(config, 3, 0, { leaseIds: first }));
    expect(second).toHaveLength(3);
    expect(Object.keys((await stored()).leases).sort()).toEqual([...second].sort());
    expect((await stored()).grants).toHaveLength(5);

    // Refused (another holder's lease keeps the slots full): the release it carried is stored all the same.
    const other = await gate.acquire({ ...config, maxConcurrency: 4 });
    if (!other.granted) throw new Error("acquire refused");
    const refused = await gate.acquireMany(config, 3, 0, { leaseIds: second.slice(0, 1) });
    expect(refused.granted).toBe(false);
    expect(Object.keys((await stored()).leases).sort()).toEqual([...second.slice(1), other.leaseId].sort());

    // After a wait: the release it carried is stored before it waits, and its grant when a slot frees.
    const another = await gate.acquire({ ...config, maxConcurrency: 4 });
    if (!another.granted) throw new Error("acquire refused");
    const waiting = gate.acquireMany(config, 2, 5_000, { leaseIds: second.slice(1, 2) });
    await new Promise((r) => setTimeout(r, 100));
    expect(Object.keys((await stored()).leases).sort()).toEqual([second[2]!, other.leaseId, another.leaseId].sort());
    await gate.release(other.leaseId);
    const third = leaseIds(await waiting);
    expect(third).toHaveLength(1);
    expect(Object.keys((await stored()).leases).sort()).toEqual([second[2]!, another.leaseId, ...third].sort());
  });
  it("#19 acquireMany counts leases once per call: expired ones free their slots, and its grants stop exactly at max_concurrency or the rate", async () => {
    // Concurrency: 3 held (one of them expiring), 5 wanted at max 6 → the expired slot is free: 4 granted, 6 in flight.
    const gate = env.WEBHOOK_GATE.get(env.WEBHOOK_GATE.idFromName("whe_many_counts"));
    const config = { maxConcurrency: 6, ratePerMinute: 600, leaseMs: 30_000 };
    expect((await gate.acquire({ ...config, leaseMs: 40 })).granted).toBe(true);
    const held = await gate.acquireMany(config, 2);
    expect(held.granted && held.leases).toHaveLength(2);
    await new Promise((r) => setTimeout(r, 80));
    const many = await gate.acquireMany(config, 5);
    expect(many.granted && many.leases).toHaveLength(4);
    expect(await gate.inFlight()).toBe(6);
    // Full: nothing more, and the refusal says when the soonest lease lapses.
    const full = await gate.acquireMany(config, 2);
    expect(full.granted === false && full.reason).toBe("concurrency");
    expect(full.granted === false && full.retryAfterMs).toBeLessThanOrEqual(30_000);

    // Rate: 7 wanted at 5 a minute (concurrency 20) → 5 granted, then a rate refusal.
    const rated = env.WEBHOOK_GATE.get(env.WEBHOOK_GATE.idFromName("whe_many_rate"));
    const rateConfig = { maxConcurrency: 20, ratePerMinute: 5, leaseMs: 30_000 };
    const first = await rated.acquireMany(rateConfig, 7);
    expect(first.granted && first.leases).toHaveLength(5);
    const after = await rated.acquireMany(rateConfig, 1, 0, { leaseIds: first.granted ? first.leases.map((l) => l.leaseId) : [] });
    expect(after.granted === false && after.reason).toBe("rate");
    expect(await rated.inFlight()).toBe(0);
  });
});
