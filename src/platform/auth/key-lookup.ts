import type { Database } from "../../db/client";

/**
 * What authentication needs to know about the key a presented secret hashes to, with its per-key controls already
 * read from their stored JSON. Authentication decides from this alone; the key's area owns how it is stored.
 * Invariant: `secretHash` is the stored hash the lookup matched on, and `tenantStatus` is the key's tenant's status
 * at the time of the lookup. A stored control that cannot be read never throws: the credential says
 * `controls: "unreadable"` (with the stored columns at fault) and carries no controls, so authentication can still
 * refuse a revoked or expired key as such, and must fail closed for a usable one.
 */
export type KeyCredential = KeyState & (KeyControls | { controls: "unreadable"; unreadable: string[] });

/** The key's identity and state, readable whatever its stored controls hold. */
interface KeyState {
  id: string;
  tenantId: string;
  secretHash: string;
  status: string;
  /** Epoch ms, or null: never expires. */
  expiresAt: number | null;
  /** Epoch ms the overlap of a rotation ends, or null: not being rotated. */
  rotationDeadline: number | null;
  /** Epoch ms of the last recorded use (kept to the minute), or null. */
  lastUsedAt: number | null;
  /** JSON of the key's signing profile, passed on to the principal untouched, or null. */
  signingProfile: string | null;
  tenantStatus: string;
  /** The console user whose session created the key (or whose key did), or null. */
  creatorUserId: string | null;
  /** Status of the console user whose session created the key (`active`, `deactivated`, `deleted`), or null: created by a key or a script. */
  creatorUserStatus: string | null;
}

/** The key's controls, read from their stored JSON. */
interface KeyControls {
  controls: "read";
  /** Scope names as stored; authentication keeps the ones it knows. */
  scopes: string[];
  /** CIDR ranges the key may be used from; empty: any address. */
  ipAllowlist: string[];
  /** Requests per minute for this key, or null for no key-level limit. */
  rateLimitPerMinute: number | null;
  /** Days the outputs of jobs this key admits are kept (null: until deleted). */
  outputRetentionDays: number | null;
}

/**
 * The port authentication reads keys through (implemented by the api-keys repo, passed in by app.ts), so platform
 * never imports an area.
 * Invariant: `findByHash` returns the one key stored with exactly this secret hash, or null; `touchLastUsed` only ever
 * moves `lastUsedAt` forward and writes at most once a minute per key.
 */
export interface KeyLookup {
  findByHash(db: Database, secretHash: string): Promise<KeyCredential | null>;
  touchLastUsed(db: Database, keyId: string, now: number): Promise<void>;
}
