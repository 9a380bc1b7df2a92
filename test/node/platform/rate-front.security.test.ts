import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FRONT_KEYS, FrontLedger } from "../../../src/durable-objects/rate-front";
import { FRONT } from "../../../src/platform/rate-lease";
import {
  address,
  defer,
  G,
  isolate,
  LIMIT,
  makeIsolates,
  neighbour,
  pending,
  type RateLease,
  shards,
  memoryStore as store,
} from "./rate-front-harness";

/*
 * #19, the anonymous rate front (platform/rate-lease.ts FRONT): a RateLimiter shard grants an isolate admissions of
 * distinct buckets, never of a bucket it lists as full, at most FRONT.grantsPerObject grants out. An earlier front
 * (commits 9838310-6add65a, reverted by c27e10e) was broken five ways by a review; each has its test here, over
 * several isolates (fresh copies of the module) against shards that run the object's own bookkeeping (FrontLedger)
 * and leaky bucket, with the object's take/settle rules. Per address the bound is: the limit plus
 * FRONT.grantsPerObject in a burst, the limit a minute after that, plus at most FRONT.grantsPerObject a minute that
 * grants whose settle never arrives leave uncharged.
 */

describe("#19 anonymous rate front: the bound over isolates", () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: new Date("2026-11-28T12:00:00Z") });
    pending.length = 0;
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("one isolate alone admits exactly the limit (its unsettled unit rides with the bucket's next take), bursts too", async () => {
    const { namespace } = shards();
    const lease = await isolate();
    const name = address();
    await lease.spendRate(namespace, neighbour(name), LIMIT, 1, defer); // the shard's grant is now held
    let allowed = 0;
    for (let i = 0; i < 40; i++) if ((await lease.spendRate(namespace, name, LIMIT, 1, defer)).allowed) allowed++;
    expect(allowed).toBe(LIMIT);
    const other = neighbour(name);
    // Concurrent calls of one bucket wait (on a 2 ms timer) for the call in flight: time moves in 2 ms steps.
    let done = false;
    const all = Promise.all(Array.from({ length: 40 }, () => lease.spendRate(namespace, other, LIMIT, 1, defer))).finally(() => {
      done = true;
    });
    while (!done) await vi.advanceTimersByTimeAsync(2);
    const burst = await all;
    expect(burst.filter((a) => a.allowed)).toHaveLength(LIMIT);
  });

  it("review finding: many isolates each admitting an address once — at most the limit plus grantsPerObject in a burst", async () => {
    const { namespace, calls } = shards();
    const name = address();
    const isolates: RateLease[] = [];
    for (let i = 0; i < 40; i++) {
      const lease = await isolate();
      await lease.spendRate(namespace, neighbour(name), LIMIT, 1, defer); // asks its shard for a grant
      isolates.push(lease);
    }
    expect(calls.grants, "the shard gave at most its grants").toBeLessThanOrEqual(G);
    let allowed = 0;
    for (let round = 0; round < 3; round++)
      for (const lease of isolates) if ((await lease.spendRate(namespace, name, LIMIT, 1, defer)).allowed) allowed++;
    expect(allowed).toBeGreaterThanOrEqual(LIMIT);
    expect(allowed).toBeLessThanOrEqual(LIMIT + G);
  });

  it("over simulated minutes from 30 isolates, an address is admitted at most limit + grantsPerObject + limit a minute", async () => {
    const { namespace } = shards();
    const name = address();
    const isolates = await makeIsolates(30);
    let allowed = 0;
    const minutes = 4;
    for (let second = 0; second < minutes * 60; second++) {
      for (let k = 0; k < 5; k++) {
        const lease = isolates[(second * 7 + k * 13) % isolates.length]!;
        await lease.spendRate(namespace, neighbour(name), LIMIT, 1, defer); // other traffic keeps grants in use
        if ((await lease.spendRate(namespace, name, LIMIT, 1, defer)).allowed) allowed++;
      }
      await vi.advanceTimersByTimeAsync(1_000);
    }
    expect(allowed).toBeLessThanOrEqual(LIMIT + G + LIMIT * minutes);
    expect(allowed).toBeGreaterThanOrEqual(LIMIT * minutes); // the front does not starve an address either
  });

  it("review finding: a flood of more addresses than the isolate remembers never reopens a full address", async () => {
    const { namespace, calls } = shards();
    const lease = await isolate();
    const name = address();
    let allowed = 0;
    for (let i = 0; i < 15; i++) if ((await lease.spendRate(namespace, name, LIMIT, 1, defer)).allowed) allowed++;
    expect(allowed).toBe(LIMIT);
    // 1,500 other addresses: past the isolate's refusal cache (1,000), through many grants of every shard.
    const takes = calls.take;
    for (let i = 0; i < 1_500; i++) await lease.spendRate(namespace, address(), LIMIT, 1, defer);
    expect(calls.take - takes, "the grants admitted most of them").toBeLessThan(300);
    for (let i = 0; i < 30; i++) if ((await lease.spendRate(namespace, name, LIMIT, 1, defer)).allowed) allowed++;
    expect(allowed).toBe(LIMIT);
  });

  it("review finding: settles that never arrive — the shard stops granting, uncharged units stay within grantsPerObject a minute", async () => {
    const { namespace, calls } = shards({ settle: "hang" });
    const name = address();
    const isolates = await makeIsolates(20);
    let allowed = 0;
    const minutes = 3;
    for (let second = 0; second < minutes * 60; second++) {
      for (const lease of isolates.slice(0, 4)) {
        await lease.spendRate(namespace, neighbour(name), LIMIT, 1, defer);
        if ((await lease.spendRate(namespace, name, LIMIT, 1, defer)).allowed) allowed++;
      }
      await vi.advanceTimersByTimeAsync(1_000);
    }
    // One batch of G grants, then a pause of a minute after each lapse: never more than G per (ttl + grace + pause).
    const window = FRONT.grantTtlMs + FRONT.settleGraceMs + FRONT.lostGrantPauseMs;
    expect(calls.grants).toBeLessThanOrEqual(G * Math.ceil((minutes * 60_000) / window));
    expect(allowed).toBeLessThanOrEqual(LIMIT + G + LIMIT * minutes + G * minutes);
  });

  it("review finding: while a shard fails, each grant's settle is sent once — nothing is re-sent, nothing grows", async () => {
    const { namespace, calls } = shards({ settle: "fail" });
    const leases = await makeIsolates(5);
    for (let second = 0; second < 120; second++) {
      for (const lease of leases) for (let k = 0; k < 10; k++) await lease.spendRate(namespace, address(), LIMIT, 1, defer);
      await vi.advanceTimersByTimeAsync(1_000);
    }
    expect(calls.settle).toBeGreaterThan(0);
    expect(new Set(calls.settledIds).size, "no grant settled twice").toBe(calls.settledIds.length);
    expect(calls.settle).toBeLessThanOrEqual(calls.grants);
  });

  it("review finding: a slow shard — requests the grant admits never wait on a settle", async () => {
    const { namespace, calls } = shards({ settle: "hang" });
    const lease = await isolate();
    const name = address();
    await lease.spendRate(namespace, name, LIMIT, 1, defer); // takes the grant of name's shard
    const takes = calls.take;
    // The grant's units: each answered without a timer running (a waiter would need one), none waiting on a settle.
    const answers = [];
    for (let i = 0; i < FRONT.grantUnits; i++) answers.push(await lease.spendRate(namespace, neighbour(name), LIMIT, 1, defer));
    expect(answers.every((a) => a.allowed)).toBe(true);
    expect(calls.take, "none asked the shard").toBe(takes);
  });
});

describe("#19 anonymous rate front: the object's ledger", () => {
  it("gives at most grantsPerObject grants out, each listing the full buckets, and the list survives a restart", () => {
    const s = store();
    const ledger = new FrontLedger(s);
    const now = 1_000_000;
    ledger.noteFull("verify_public:full", { level: LIMIT, updatedAt: now }, now, LIMIT, 60_000);
    const given = Array.from({ length: G + 2 }, () => ledger.grant(now));
    expect(given.filter(Boolean)).toHaveLength(G);
    expect(given[0]!.full.map((f) => f.name)).toEqual(["verify_public:full"]);
    const restarted = new FrontLedger(store());
    const read = (prefix: string) =>
      [...s.kept].filter(([k]) => k.startsWith(prefix)).map(([k, v]) => [k.slice(prefix.length), v] as [string, number]);
    restarted.load({ full: read(FRONT_KEYS.full), grants: read(FRONT_KEYS.grant), grantsFrom: s.kept.get(FRONT_KEYS.grantsFrom) }, now + 1);
    expect(restarted.grant(now + 1), "its grants are still out").toBeUndefined();
    expect(restarted.full.has("verify_public:full")).toBe(true);
  });

  it("a grant that lapses unsettled keeps its slot for lostGrantPauseMs from its lapse (the others keep granting); a settled one frees its place at once", () => {
    const ledger = new FrontLedger(store());
    const now = 1_000_000;
    const a = ledger.grant(now)!;
    ledger.grant(now); // its settle is lost
    ledger.settled(a.id);
    expect(ledger.grants.size).toBe(1);
    const lapse = now + FRONT.grantTtlMs + FRONT.settleGraceMs;
    // The lapsed grant's slot is quarantined; the other G - 1 slots still grant.
    const during = Array.from({ length: G }, () => ledger.grant(lapse));
    expect(during.filter(Boolean)).toHaveLength(G - 1);
    for (const g of during) if (g) ledger.settled(g.id);
    expect(Array.from({ length: G }, () => ledger.grant(lapse + FRONT.lostGrantPauseMs - 1)).filter(Boolean)).toHaveLength(G - 1);
    // These G - 1 settle; at lapse + pause the quarantined slot is free too.
    for (const id of [...ledger.grants.keys()]) if (ledger.grants.get(id)! > lapse) ledger.settled(id);
    expect(Array.from({ length: G + 1 }, () => ledger.grant(lapse + FRONT.lostGrantPauseMs)).filter(Boolean)).toHaveLength(G);
  });

  it("more than fullMax full buckets (a flood over the limit) stop the grants until they drain", () => {
    const ledger = new FrontLedger(store());
    const now = 1_000_000;
    for (let i = 0; i <= FRONT.fullMax; i++) ledger.noteFull(`verify_public:f${i}`, { level: LIMIT, updatedAt: now }, now, LIMIT, 60_000);
    expect(ledger.grant(now)).toBeUndefined();
    expect(ledger.grant(now + 60_000)).toBeDefined(); // one unit fits every one of them again
  });

  it("keyed buckets and buckets with a lease are never listed (they are not the front's)", () => {
    const ledger = new FrontLedger(store());
    ledger.noteFull("api_key:k", { level: 10, updatedAt: 0 }, 0, 10, 60_000);
    ledger.noteFull("verify_public_unattributed_pool", { level: 100, updatedAt: 0 }, 0, 100, 60_000);
    expect(ledger.full.size).toBe(0);
  });
});
