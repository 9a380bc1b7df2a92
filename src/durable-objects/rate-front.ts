import { FRONT, type FrontGrant, frontServes } from "../platform/rate-lease";
import { type BucketState, leakyBucket } from "./leaky-bucket";

/** Where the ledger keeps what must survive a restart (the RateLimiter's storage; not awaited: the output gate). */
export interface FrontStore {
  put(key: string, value: number): void;
  delete(key: string): void;
}

/** Storage keys: a full bucket (name → until), a grant out (id → when it lapses), the pause (until when). */
export const FRONT_KEYS = { full: "f:", grant: "g:", grantsFrom: "grants_from" } as const;

/**
 * A RateLimiter object's side of the anonymous front (platform/rate-lease.ts FRONT, where the bound is stated): the
 * grants it has out and the front buckets it knows are full. Pure bookkeeping, so the bound's rules are tested as
 * the object runs them (test/node/platform/rate-front.security.test.ts).
 */
export class FrontLedger {
  /** Front buckets one more unit does not fit, until when (epoch ms). */
  readonly full = new Map<string, number>();
  /** Grants out: id → when it lapses here (ttl + settle grace). */
  readonly grants = new Map<string, number>();
  /** No grant before then: the pause after a grant lapsed unsettled. */
  grantsFrom = 0;

  constructor(
    private readonly store: FrontStore,
    private readonly newId: () => string = () => crypto.randomUUID(),
  ) {}

  /** What a restarted object read back from storage. */
  load(stored: { full: Iterable<[string, number]>; grants: Iterable<[string, number]>; grantsFrom?: number }, now: number): void {
    for (const [name, until] of stored.full) if (until > now) this.full.set(name, until);
    for (const [id, lapses] of stored.grants) this.grants.set(id, lapses);
    this.grantsFrom = stored.grantsFrom ?? 0;
  }

  /**
   * A grant, or none: while FRONT.grantsPerObject are out, while more than FRONT.fullMax buckets are full, and for
   * FRONT.lostGrantPauseMs after a grant lapsed unsettled (its units are never charged: the pause bounds how many).
   */
  grant(now: number): FrontGrant | undefined {
    for (const [id, lapses] of this.grants)
      if (lapses <= now) {
        this.grants.delete(id);
        this.store.delete(FRONT_KEYS.grant + id);
        this.grantsFrom = Math.max(this.grantsFrom, now + FRONT.lostGrantPauseMs);
        this.store.put(FRONT_KEYS.grantsFrom, this.grantsFrom);
      }
    for (const [name, until] of this.full)
      if (until <= now) {
        this.full.delete(name);
        this.store.delete(FRONT_KEYS.full + name);
      }
    if (now < this.grantsFrom || this.grants.size >= FRONT.grantsPerObject || this.full.size > FRONT.fullMax) return undefined;
    const id = this.newId();
    const lapses = now + FRONT.grantTtlMs + FRONT.settleGraceMs;
    this.grants.set(id, lapses);
    this.store.put(FRONT_KEYS.grant + id, lapses);
    return {
      id,
      ttlMs: FRONT.grantTtlMs,
      units: FRONT.grantUnits,
      full: [...this.full].map(([name, until]) => ({ name, inMs: until - now })),
    };
  }

  /** A grant settled (known or not: a lapsed grant's units are charged all the same by the caller). */
  settled(id: string): void {
    if (this.grants.delete(id)) this.store.delete(FRONT_KEYS.grant + id);
  }

  /** Lists a front bucket as full while one more unit does not fit `state` (else unlists it), and stores the change. */
  noteFull(name: string, state: BucketState, now: number, limit: number, periodMs: number): void {
    const until = this.fullUntil(name, state, now, limit, periodMs);
    if (until !== undefined) this.store.put(FRONT_KEYS.full + name, until);
  }

  /** As noteFull, but a new `until` is answered for the caller to store with its own writes. */
  fullUntil(name: string, state: BucketState, now: number, limit: number, periodMs: number): number | undefined {
    if (!frontServes(name, limit)) return undefined;
    const probe = leakyBucket(state, now, limit, periodMs, 1);
    const listed = this.full.get(name);
    if (probe.allowed) {
      if (listed !== undefined) {
        this.full.delete(name);
        this.store.delete(FRONT_KEYS.full + name);
      }
      return undefined;
    }
    const until = now + probe.retryAfterMs;
    if (listed === until) return undefined;
    this.full.set(name, until);
    return until;
  }
}
