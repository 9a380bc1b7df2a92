import type { Database } from "../../db/client";
import { TtlCache } from "../ttl-cache";
import type { KeyCredential, KeyLookup } from "./key-lookup";

/**
 * How long an isolate may keep acting on a key record it read: a revocation, rotation, restriction, signing-profile
 * or retention change, a closed account or a deactivated creating user takes effect everywhere within this bound,
 * and at once in the isolate that made the change (its writes forget the record). Expiry and a rotation's overlap
 * deadline are read from the record on every request, so they are exact. Stated in the contract (the auth section and the key-changing operations).
 */
export const KEY_CACHE_TTL_MS = 15_000;
/** Whole seconds, for the documentation. */
export const KEY_CACHE_BOUND_S = KEY_CACHE_TTL_MS / 1000;
/** At most this many verified key records per isolate (least recently used go first). */
export const KEY_CACHE_MAX_ENTRIES = 1_000;
/**
 * Hashes no key has: remembered briefly and apart from the known ones, so a repeated made-up key costs one HMAC
 * (distinct made-up keys still cost a D1 read each) and never evicts a real key's record. A key created in this
 * isolate forgets its hash here first.
 */
export const UNKNOWN_KEY_TTL_MS = 5_000;
const UNKNOWN_KEY_MAX_ENTRIES = 1_000;

/**
 * The isolate's memory of verified key records, keyed by the secret's HMAC hash (never the secret).
 * Invariant: a record is answered at most KEY_CACHE_TTL_MS after it was read from D1, never after a write of this
 * isolate forgot it (a read in flight across that write is not stored), and the map stays within its bound.
 */
export class KeyCache {
  readonly known: TtlCache<KeyCredential>;
  readonly unknown: TtlCache<true>;

  constructor(now: () => number = Date.now, ttlMs = KEY_CACHE_TTL_MS, maxEntries = KEY_CACHE_MAX_ENTRIES) {
    this.known = new TtlCache(ttlMs, maxEntries, now);
    this.unknown = new TtlCache(Math.min(ttlMs, UNKNOWN_KEY_TTL_MS), UNKNOWN_KEY_MAX_ENTRIES, now);
  }

  /** The record stored with this hash, from memory when fresh, else through `keys` (and remembered). */
  async find(keys: KeyLookup, db: Database, secretHash: string): Promise<KeyCredential | null> {
    const hit = this.known.get(secretHash);
    if (hit) return hit.value;
    if (this.unknown.get(secretHash)) return null;
    const knownEpoch = this.known.epoch;
    const unknownEpoch = this.unknown.epoch;
    const readAt = this.known.clock();
    const found = await keys.findByHash(db, secretHash);
    if (found) this.known.set(secretHash, found, knownEpoch, readAt);
    else this.unknown.set(secretHash, true, unknownEpoch, readAt);
    return found;
  }

  /** Forgets the records matching: after any write to a key, its tenant's status, or a creating user's status. */
  forget(match: { keyId?: string; tenantId?: string; creatorUserId?: string }): void {
    this.known.forgetWhere(
      (k) =>
        (match.keyId !== undefined && k.id === match.keyId) ||
        (match.tenantId !== undefined && k.tenantId === match.tenantId) ||
        (match.creatorUserId !== undefined && k.creatorUserId === match.creatorUserId),
    );
  }

  /** A key was stored with this hash: an earlier "no such key" answer for it must not stand. */
  forgetUnknown(secretHash: string): void {
    this.unknown.forget(secretHash);
  }

  clear(): void {
    this.known.clear();
    this.unknown.clear();
  }
}

/** The isolate's one key cache (module state lives as long as the isolate). */
export const keyCache = new KeyCache();

/** For the key's area after each write to api_keys (and for account closure and user lifecycle changes). */
export function forgetCachedKeys(match: { keyId?: string; tenantId?: string; creatorUserId?: string }): void {
  keyCache.forget(match);
}

/** For the key's area when it stores a new key (created, or a rotation's successor). */
export function forgetUnknownKeyHash(secretHash: string): void {
  keyCache.forgetUnknown(secretHash);
}
