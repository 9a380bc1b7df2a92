import { FRONT, type FrontGrant, frontServes } from "../platform/rate-lease";
import { type BucketState, leakyBucket } from "./leaky-bucket";

/** Where the ledger keeps what must survive a restart (the RateLimiter's storage; not awaited: the output gate). */
export interface FrontStore {
  put(key: string, value: number): void;
  delete(key: string): void;
}

/**
 * Storage keys: a full bucket (name → until), a grant out (id → when it lapses), and `grantsFrom` (no grant before
 * then: set while more than FRONT.fullMax buckets are full).
 */
export const FRONT_KEYS = { full: "f:", grant: "g:", grantsFrom: "grants_from" } as const;

/**
 * A RateLimiter object's side of the anonymous front (platform/rate-lease.ts FRONT, where the bound is stated): the
 * grants it has out and the front buckets it knows are full. Pure bookkeeping, so the bound's rules are tested as
 * the object runs them (test/node/platform/rate-front.security.test.ts).
 */
export class FrontLedger {
  /** Front buckets one more unit does not fit, until when (epoch ms); at most FRONT.fullMax (see `grantsFrom`). */
  readonly full = new Map<string, number>();
  /**
   * Grants out: id → when it lapses here (ttl + settle grace). A grant holds its slot until settled; one that lapses
   * unsettled holds it until lapse + FRONT.lostGrantPauseMs (its units may never be charged: the quarantine bounds
   * how many), while the other slots keep granting.
   */
  readonly grants = new Map<string, number>();
  /**
   * No grant before then: past FRONT.fullMax full buckets the names are dropped and only the latest `until` among them
   * is kept here, so a grant never misses a full bucket and memory stays bounded whatever the flood.
   */
  grantsFrom = 0;

  constructor(
    private readonly store: FrontStore,
    private readonly newId: () => string = () => crypto.randomUUID(),
  ) {}

  /** What a restarted object read back from storage. */
  load(stored: { full: Iterable<[string, number]>; grants: Iterable<[string, number]>; grantsFrom?: number }, now: number): void {
    this.grantsFrom = stored.grantsFrom ?? 0;
    // A store holds at most FRONT.fullMax live names (the rest were dropped for `grantsFrom`), unless it predates that.
    for (const [name, until] of stored.full) if (until <= now || !this.list(name, until, now)) this.store.delete(FRONT_KEYS.full + name);
    for (const [id, lapses] of stored.grants) {
      if (lapses + FRONT.lostGrantPauseMs > now) this.grants.set(id, lapses);
      else this.store.delete(FRONT_KEYS.grant + id);
    }
  }

  /**
   * A grant, or none: while FRONT.grantsPerObject slots are taken (by grants out, or quarantined after lapsing
   * unsettled) and while `grantsFrom` is ahead (more than FRONT.fullMax buckets were full).
   */
  grant(now: number): FrontGrant | undefined {
    for (const [id, lapses] of this.grants)
      if (lapses + FRONT.lostGrantPauseMs <= now) {
        this.grants.delete(id);
        this.store.delete(FRONT_KEYS.grant + id);
      }
    if (now < this.grantsFrom || this.grants.size >= FRONT.grantsPerObject) return undefined;
    // At most FRONT.fullMax entries: walking them costs what listing them in the grant costs anyway.
    const full: { name: string; inMs: number }[] = [];
    for (const [name, until] of this.full) {
      if (until > now) full.push({ name, inMs: until - now });
      else {
        this.full.delete(name);
        this.store.delete(FRONT_KEYS.full + name);
      }
    }
    const id = this.newId();
    const lapses = now + FRONT.grantTtlMs + FRONT.settleGraceMs;
    this.grants.set(id, lapses);
    this.store.put(FRONT_KEYS.grant + id, lapses);
    return { id, ttlMs: FRONT.grantTtlMs, units: FRONT.grantUnits, full };
  }

  /**
   * A grant settled (known or not: a lapsed grant's units are charged all the same by the caller, and its quarantined
   * slot is freed, nothing of it being uncharged any more).
   */
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
    return this.list(name, until, now) ? until : undefined;
  }

  /**
   * Lists `name` as full until `until`, or, while overflowed (grants stopped) or past FRONT.fullMax, moves `grantsFrom`
   * to cover it instead (and drops every entry, all covered): answers whether it was listed (for the caller to store).
   */
  private list(name: string, until: number, now: number): boolean {
    if (now < this.grantsFrom) {
      // Overflowed: no grant before grantsFrom, so only a later `until` matters.
      this.full.delete(name);
      if (until > this.grantsFrom) this.stopGrantsUntil(until);
      return false;
    }
    if (!this.full.has(name) && this.full.size >= FRONT.fullMax) {
      for (const [other, at] of this.full)
        if (at <= now) {
          this.full.delete(other);
          this.store.delete(FRONT_KEYS.full + other);
        }
      if (this.full.size >= FRONT.fullMax) {
        let latest = until;
        for (const [other, at] of this.full) {
          latest = Math.max(latest, at);
          this.store.delete(FRONT_KEYS.full + other);
        }
        this.full.clear();
        this.stopGrantsUntil(latest);
        return false;
      }
    }
    this.full.set(name, until);
    return true;
  }

  private stopGrantsUntil(until: number): void {
    this.grantsFrom = Math.max(this.grantsFrom, until);
    this.store.put(FRONT_KEYS.grantsFrom, this.grantsFrom);
  }
}
