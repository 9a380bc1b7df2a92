import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FRONT_KEYS, FrontLedger } from "../../../src/durable-objects/rate-front";
import { FRONT, frontServes } from "../../../src/platform/rate-lease";
import { address, defer, G, isolate, LIMIT, neighbour, pending, type RateLease, shards, memoryStore as store } from "./rate-front-harness";

/*
 * Hostile review of the #19 anonymous rate front (h38-tiny, d1f9bd4..h38-tiny). Each test is a finding: it fails on
 * the reviewed code and passes once the finding is fixed. The harness is the author's
 * (test/node/platform/rate-front-harness.ts: isolates are fresh copies of rate-lease.ts, shards run the real
 * FrontLedger and leaky bucket with the object's take/settle rules), with hooks for a take whose answer is lost and a
 * shard that fails.
 */

describe("#19 rate front review: the isolate", () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: new Date("2026-11-28T12:00:00Z") });
    pending.length = 0;
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("review: a grant request cancelled mid-call (its take never answers) does not switch the front off for that shard for the isolate's life", async () => {
    // One take asking for a grant never answers: the Workers runtime cancels a request's pending I/O when its client
    // disconnects, so `finally` never runs (rate-lease.ts says as much of `inflight`, which it ages out; `asking` it
    // does not). The shard's mark stays in `asking`, and this isolate never asks that shard for a grant again.
    let hangOnce = true;
    const { namespace, calls } = shards({
      hang: (_name, wantGrant) => {
        if (wantGrant && hangOnce) {
          hangOnce = false;
          return true;
        }
        return false;
      },
    });
    const lease = await isolate();
    const first = address();
    void lease.spendRate(namespace, first, LIMIT, 1, defer); // never answers
    await vi.advanceTimersByTimeAsync(5_000);
    // Minutes of ordinary traffic of that shard afterwards, from new addresses: the shard would grant (nothing is out).
    for (let second = 0; second < 120; second++) {
      await lease.spendRate(namespace, neighbour(first), LIMIT, 1, defer);
      await vi.advanceTimersByTimeAsync(1_000);
    }
    expect(calls.grants, "the isolate asked its shard for a grant again").toBeGreaterThan(0);
  });

  it("review: once a take to a shard has failed (503), the isolate stops admitting that shard's buckets on its grant (fail closed)", async () => {
    let failing = false;
    const { namespace } = shards({ failing: () => failing });
    const lease = await isolate();
    const name = address();
    await lease.spendRate(namespace, neighbour(name), LIMIT, 1, defer); // the shard's grant is now held
    expect((await lease.spendRate(namespace, name, LIMIT, 1, defer)).allowed).toBe(true); // admitted by the grant
    failing = true;
    // A bucket the grant has already admitted goes to the object: it fails, the request answers 503.
    await expect(lease.spendRate(namespace, name, LIMIT, 1, defer)).rejects.toThrow(/unavailable/);
    // The isolate now knows the shard is down, and that the grant's settle will be lost with it (its units never
    // charged). Yet new addresses of that shard are admitted for the rest of the grant (up to 63 more, ~10 s).
    const admitted: boolean[] = [];
    for (let i = 0; i < 20; i++) {
      const answer = await lease.spendRate(namespace, neighbour(name), LIMIT, 1, defer).then(
        (a) => a.allowed,
        () => false,
      );
      admitted.push(answer);
    }
    expect(admitted.filter(Boolean), "admitted while the shard answers errors").toHaveLength(0);
  });

  it("review: a grant whose answer is lost (the object gave it, the isolate never got it) does not stop every isolate's grants for a minute", async () => {
    // One request cancelled while its take asks for a grant: the object counts the grant out, nobody holds it, it lapses
    // unsettled after ttl + grace, and the shard pauses ALL grants for lostGrantPauseMs. Any client can do this by
    // disconnecting (one request per shard per 80 s keeps the front off service-wide); the bound needs only that the
    // lost grant's slot stay taken for the pause, not that the other grantsPerObject - 1 stop.
    let loseOnce = true;
    const { namespace, calls } = shards({
      loseAnswer: (_name, wantGrant) => {
        if (wantGrant && loseOnce) {
          loseOnce = false;
          return true;
        }
        return false;
      },
    });
    const attacker = await isolate();
    const name = address();
    void attacker.spendRate(namespace, name, LIMIT, 1, defer);
    await vi.advanceTimersByTimeAsync(FRONT.grantTtlMs + FRONT.settleGraceMs + 1_000);
    expect(calls.lostAnswers).toBe(1);
    const grantsBefore = calls.grants;
    // Honest isolates of that shard over the next 40 s: none gets a grant.
    const honest: RateLease[] = [];
    for (let i = 0; i < 3; i++) honest.push(await isolate());
    for (let second = 0; second < 40; second++) {
      for (const lease of honest) await lease.spendRate(namespace, neighbour(name), LIMIT, 1, defer);
      await vi.advanceTimersByTimeAsync(1_000);
    }
    expect(calls.grants - grantsBefore, "honest isolates still got grants").toBeGreaterThan(0);
  });

  it("review: a unit riding with a take is invisible to the grants-out count — a settle overtaking it frees the slot and the burst passes limit + G", async () => {
    // The bound's count is 'grants out' at the object. A unit a grant admitted leaves the grant's settle list when the
    // bucket's next take carries it (`admitted`); the grant's settle (without it) then closes the grant. If the settle
    // lands first (separate RPCs on fresh stubs: no order between them), the object frees the slot and gives a new grant
    // whose snapshot does not know the unit either.
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { namespace, calls } = shards({ delayAdmitted: () => gate });
    const target = address();
    const holders: RateLease[] = [];
    for (let i = 0; i < G; i++) holders.push(await isolate()); // one at a time: each a module copy of its own
    for (const lease of holders) await lease.spendRate(namespace, neighbour(target), LIMIT, 1, defer); // G grants out
    expect(calls.grants).toBe(G);
    const direct = await isolate(); // gets no grant (G are out): decided by the object
    let admitted = 0;
    for (let i = 0; i < 6; i++) if ((await direct.spendRate(namespace, target, LIMIT, 1, defer)).allowed) admitted++;
    for (const lease of holders) if ((await lease.spendRate(namespace, target, LIMIT, 1, defer)).allowed) admitted++; // G unknown
    // Each holder sends the target again: its take carries the admitted unit, and is slow on the wire.
    const riding = holders.map((lease) => lease.spendRate(namespace, target, LIMIT, 1, defer));
    await vi.advanceTimersByTimeAsync(0);
    // Each holder spends the rest of its grant on other addresses: the grant retires and its settle (without the
    // target's unit) lands first; the next takes get fresh grants.
    for (const lease of holders)
      for (let k = 0; k < FRONT.grantUnits + 2; k++) await lease.spendRate(namespace, neighbour(target), LIMIT, 1, defer);
    await vi.advanceTimersByTimeAsync(0);
    for (const lease of holders) if ((await lease.spendRate(namespace, target, LIMIT, 1, defer)).allowed) admitted++;
    for (let i = 0; i < 10; i++) if ((await direct.spendRate(namespace, target, LIMIT, 1, defer)).allowed) admitted++;
    release();
    for (const r of await Promise.all(riding)) if (r.allowed) admitted++;
    expect(admitted, "admitted in one burst").toBeLessThanOrEqual(LIMIT + G);
  });
});

describe("#19 rate front review: the ledger", () => {
  it("review: the lost-grant pause runs from the lapse, not from when the ledger next looks (an idle shard pauses a minute on its first ask)", () => {
    const s = store();
    const ledger = new FrontLedger(s);
    const t0 = 1_000_000;
    expect(ledger.grant(t0)).toBeDefined(); // its settle is lost
    const lapse = t0 + FRONT.grantTtlMs + FRONT.settleGraceMs;
    // Nobody asks for a grant for ten minutes (quiet traffic, or the object evicted and restarted).
    const later = lapse + 10 * 60_000;
    expect(ledger.grant(later), "the pause ended 9 minutes ago").toBeDefined();
  });

  it("review: the same, across a restart (a stored grant that lapsed while the object slept)", () => {
    const s = store();
    const t0 = 1_000_000;
    new FrontLedger(s).grant(t0);
    const read = (prefix: string) =>
      [...s.kept].filter(([k]) => k.startsWith(prefix)).map(([k, v]) => [k.slice(prefix.length), v] as [string, number]);
    const later = t0 + 60 * 60_000; // an hour later the object starts again
    const restarted = new FrontLedger(store());
    restarted.load({ full: read(FRONT_KEYS.full), grants: read(FRONT_KEYS.grant), grantsFrom: s.kept.get(FRONT_KEYS.grantsFrom) }, later);
    expect(restarted.grant(later), "the grant lapsed 59 minutes ago; its pause is long over").toBeDefined();
  });

  it("review: a flood of full buckets keeps the ledger's memory bounded (full.size stays near fullMax)", () => {
    // Past fullMax the names serve nothing (no grant is given while more are full), yet every one is kept in memory (and
    // storage) and walked on every take that asks for a grant: O(full buckets) per take, and the restart reads them all.
    const ledger = new FrontLedger(store());
    const now = 1_000_000;
    for (let i = 0; i < 20_000; i++) ledger.noteFull(`verify_public:flood${i}`, { level: LIMIT, updatedAt: now }, now, LIMIT, 60_000);
    expect(ledger.grant(now)).toBeUndefined();
    expect(ledger.full.size).toBeLessThanOrEqual(FRONT.fullMax + 1);
  });
});

describe("#19 rate front review: what holds (recorded, passing)", () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: new Date("2026-11-28T12:00:00Z") });
    pending.length = 0;
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("a bucket at the edge across grantsPerObject grants, renewed fast by a /48's spare addresses: still limit + G in a burst, the limit a minute after", async () => {
    // The attacker holds many /64s of the shard (a free /48 gives ~2,000 per shard): it burns each grant's 64 units
    // so grants settle and renew as fast as possible, and asks for its target bucket through every isolate.
    const { namespace, buckets } = shards();
    const target = address();
    const isolates: RateLease[] = [];
    for (let i = 0; i < 8; i++) isolates.push(await isolate());
    const admittedAt: number[] = [];
    const start = Date.now();
    for (let tick = 0; tick < 2 * 60 * 4; tick++) {
      for (const lease of isolates) {
        for (let k = 0; k < 10; k++) await lease.spendRate(namespace, neighbour(target), LIMIT, 1, defer);
        if ((await lease.spendRate(namespace, target, LIMIT, 1, defer)).allowed) admittedAt.push(Date.now() - start);
      }
      await vi.advanceTimersByTimeAsync(250);
    }
    // Any 60 s window: a leaky bucket of 10/min admits at most 10 + 10 (burst + drain); the front adds G.
    for (const t of admittedAt) {
      const inWindow = admittedAt.filter((u) => u >= t && u < t + 60_000).length;
      expect(inWindow).toBeLessThanOrEqual(2 * LIMIT + G);
    }
    expect(admittedAt.length).toBeLessThanOrEqual(LIMIT + G + LIMIT * 2);
    expect(buckets.get(target)).toBeDefined();
  });
  for (const skewMs of [-30_000, 30_000]) {
    it(`clock skew of ${skewMs / 1000} s between isolate and object changes nothing (every time in a grant is relative)`, async () => {
      const { namespace } = shards({ skewMs });
      const target = address();
      const isolates: RateLease[] = [];
      for (let i = 0; i < 6; i++) isolates.push(await isolate());
      let allowed = 0;
      for (let second = 0; second < 120; second++) {
        for (const lease of isolates) {
          await lease.spendRate(namespace, neighbour(target), LIMIT, 1, defer);
          if ((await lease.spendRate(namespace, target, LIMIT, 1, defer)).allowed) allowed++;
        }
        await vi.advanceTimersByTimeAsync(1_000);
      }
      expect(allowed).toBeLessThanOrEqual(LIMIT + G + LIMIT * 2);
    });
  }

  it("a grant is not spent past its ttl: after 10 s a new address goes to the object", async () => {
    const { namespace, calls } = shards();
    const lease = await isolate();
    const first = address();
    await lease.spendRate(namespace, first, LIMIT, 1, defer);
    await vi.advanceTimersByTimeAsync(FRONT.grantTtlMs);
    const takes = calls.take;
    await lease.spendRate(namespace, neighbour(first), LIMIT, 1, defer);
    expect(calls.take).toBe(takes + 1);
  });

  it("keyed buckets never take the front, whatever their limit; anonymous ones only under a lease's size", () => {
    for (const name of ["api_key:k1", "verify_tenant:t1", "sbr_content_tenant:t1", "sbr_binding_tenant:t1"])
      for (const perMinute of [1, 10, 19]) expect(frontServes(name, perMinute), name).toBe(false);
    expect(frontServes("verify_public:x", 10)).toBe(true);
    expect(frontServes("sbr_binding_public:x", 120)).toBe(false);
    expect(frontServes("verify_public_unattributed_pool", 100)).toBe(false);
  });
});
