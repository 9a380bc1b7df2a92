import { cidrContains, parseCidr } from "../platform/net/cidr";
import { restrictionsOf } from "./controls";
import type { ApiKeyRow } from "./queries";

/**
 * The key hierarchy rule. A key may create, rotate, finish the rotation of, revoke, or change the controls of a key
 * only when that key's grant is covered by its own: every scope held, an expiry no later, an IP allowlist inside its
 * own, a rate limit no higher. Scopes alone are not enough when one key acts on another: a narrow key with
 * `api_keys:write` must not be able to rotate a broad key and receive its secret.
 * Pure: no I/O, so every rule is unit-testable and the routes only gather the two rows.
 */
export interface KeyGrant {
  scopes: readonly string[];
  /** Epoch ms, or null for no expiry. */
  expiresAt: number | null;
  /** CIDR ranges; empty means any address. */
  ipAllowlist: readonly string[];
  /** Requests per minute, or null for no key-level limit. */
  ratePerMinute: number | null;
}

export type CoverDecision =
  | { covered: true }
  | { covered: false; reason: "scopes" | "expiry" | "ip_allowlist" | "rate_limit"; detail: string };

export function grantOf(row: Pick<ApiKeyRow, "scopes" | "expiresAt" | "restrictions">): KeyGrant {
  const restrictions = restrictionsOf(row.restrictions);
  return {
    scopes: JSON.parse(row.scopes) as string[],
    expiresAt: row.expiresAt,
    ipAllowlist: restrictions.ip_allowlist,
    ratePerMinute: restrictions.rate_limit_per_minute,
  };
}

/** Whether `inner` (a CIDR range) lies wholly inside `outer`. Malformed ranges are never inside anything. */
export function rangeWithin(inner: string, outer: string): boolean {
  const a = parseCidr(inner);
  const b = parseCidr(outer);
  if (!a || !b || a.bytes.length !== b.bytes.length) return false;
  return a.prefix >= b.prefix && cidrContains(b, a.bytes);
}

/** Whether the actor's grant covers the target's (see the module comment). */
export function covers(actor: KeyGrant, target: KeyGrant): CoverDecision {
  const held = new Set(actor.scopes);
  const missing = target.scopes.filter((s) => !held.has(s));
  if (missing.length > 0) return { covered: false, reason: "scopes", detail: `the target key holds scopes the calling key lacks: ${missing.join(", ")}` };
  if (actor.expiresAt !== null && (target.expiresAt === null || target.expiresAt > actor.expiresAt)) {
    return { covered: false, reason: "expiry", detail: "the target key would outlive the calling key (its expiry must be no later)" };
  }
  if (actor.ipAllowlist.length > 0) {
    const outside = target.ipAllowlist.length === 0 ? ["any address"] : target.ipAllowlist.filter((r) => !actor.ipAllowlist.some((o) => rangeWithin(r, o)));
    if (outside.length > 0) return { covered: false, reason: "ip_allowlist", detail: `the target key may be used from networks the calling key may not: ${outside.join(", ")}` };
  }
  if (actor.ratePerMinute !== null && (target.ratePerMinute === null || target.ratePerMinute > actor.ratePerMinute)) {
    return { covered: false, reason: "rate_limit", detail: `the target key's rate limit must be at most the calling key's ${actor.ratePerMinute} per minute` };
  }
  return { covered: true };
}
