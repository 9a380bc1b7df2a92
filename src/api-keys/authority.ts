import { cidrContains, parseCidr } from "../platform/net/cidr";
import { restrictionsOf, retentionOf, signingProfileOf } from "./controls";
import type { ApiKeyRow } from "./repo";

/**
 * The key hierarchy rule. A key may create, rotate, finish the rotation of, revoke, or change the controls of a key
 * only when that key's grant is covered by its own: every scope held, an expiry no later, an IP allowlist inside its
 * own, a rate limit no higher, each allowed set of its signing profile inside its own, an output retention no longer. Scopes alone are not enough when one key acts on another: a narrow key with
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
  /** The signing profile's `allowed_*` sets (recipes, watermark algorithms, ...); null or absent: any. */
  allowedSets: Record<string, readonly string[] | null>;
  /** Days outputs are kept; null: until deleted (the most). */
  retentionDays: number | null;
}

export type CoverDecision =
  | { covered: true }
  | { covered: false; reason: "scopes" | "expiry" | "ip_allowlist" | "rate_limit" | "signing_profile" | "retention"; detail: string };

export function grantOf(row: Pick<ApiKeyRow, "scopes" | "expiresAt" | "restrictions" | "signingProfile" | "retention">): KeyGrant {
  const restrictions = restrictionsOf(row.restrictions);
  const profile = signingProfileOf(row.signingProfile) as unknown as Record<string, unknown>;
  const allowedSets: Record<string, readonly string[] | null> = {};
  for (const [name, value] of Object.entries(profile)) {
    if (name.startsWith("allowed_")) allowedSets[name] = Array.isArray(value) ? (value as string[]) : null;
  }
  return {
    scopes: JSON.parse(row.scopes) as string[],
    expiresAt: row.expiresAt,
    ipAllowlist: restrictions.ip_allowlist ?? [],
    // A stored limit that is absent reads as none: fail towards "not covered" for anyone who has a limit.
    ratePerMinute: restrictions.rate_limit_per_minute ?? null,
    allowedSets,
    retentionDays: retentionOf(row.retention).output_retention_days ?? null,
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
  if (missing.length > 0)
    return { covered: false, reason: "scopes", detail: `the target key holds scopes the calling key lacks: ${missing.join(", ")}` };
  if (actor.expiresAt !== null && (target.expiresAt === null || target.expiresAt > actor.expiresAt)) {
    return { covered: false, reason: "expiry", detail: "the target key would outlive the calling key (its expiry must be no later)" };
  }
  if (actor.ipAllowlist.length > 0) {
    const outside =
      target.ipAllowlist.length === 0
        ? ["any address"]
        : target.ipAllowlist.filter((r) => !actor.ipAllowlist.some((o) => rangeWithin(r, o)));
    if (outside.length > 0)
      return {
        covered: false,
        reason: "ip_allowlist",
        detail: `the target key may be used from networks the calling key may not: ${outside.join(", ")}`,
      };
  }
  if (actor.ratePerMinute !== null && (target.ratePerMinute === null || target.ratePerMinute > actor.ratePerMinute)) {
    return {
      covered: false,
      reason: "rate_limit",
      detail: `the target key's rate limit must be at most the calling key's ${actor.ratePerMinute} per minute`,
    };
  }
  for (const [name, allowed] of Object.entries(actor.allowedSets)) {
    if (allowed === null) continue;
    const target_ = target.allowedSets[name] ?? null;
    const outside = target_ === null ? ["any"] : target_.filter((v) => !allowed.includes(v));
    if (outside.length > 0)
      return {
        covered: false,
        reason: "signing_profile",
        detail: `the target key's signing profile allows more than the calling key's (${name}: ${outside.join(", ")})`,
      };
  }
  if (actor.retentionDays !== null && (target.retentionDays === null || target.retentionDays > actor.retentionDays)) {
    return {
      covered: false,
      reason: "retention",
      detail: `the target key's output retention must be at most the calling key's ${actor.retentionDays} days`,
    };
  }
  return { covered: true };
}
