import { base64url } from "./bytes";
import { configOf } from "./config";
import { hmacSha256 } from "./crypto";
import { parseIp } from "./net/cidr";
import type { Principal } from "./principal";
import { type Defer, type LeasingNamespace, spendRate } from "./rate-lease";

/*
 * The caller's network address, for key IP allowlists and the rate limits of anonymous public operations.
 *
 * Trust: the address is CF-Connecting-IP, and only when SVC_TRUST_CF_CONNECTING_IP is "true". wrangler.toml sets
 * it at the top level (production behind Cloudflare: the edge sets the header and replaces any value a client
 * sent) and in [env.dev] (wrangler dev sets the header to the TCP peer's address, 127.0.0.1 locally, unless the
 * caller sent one, so a local caller can try an allowlist). Anywhere else, e.g. a Worker reachable other than
 * through Cloudflare, leave it unset or "false": the header is then whatever the caller wrote, so no address is
 * known. Unknown is never a shared "unknown" address: an allowlisted key is refused, and anonymous callers are
 * charged as described at anonymousRateBuckets.
 */

/** The settings this module reads (a subset of the Worker's bindings). */
export interface ClientAddressSettings {
  SVC_TRUST_CF_CONNECTING_IP?: string;
  SVC_CAPABILITY_SECRET?: string;
  SVC_KEY_PEPPER?: string;
}

/** The caller's address as this deployment knows it, or why it does not. */
export type ClientAddress =
  | { known: true; address: string; bytes: Uint8Array }
  | { known: false; reason: "untrusted" | "absent" | "malformed" };

export function clientAddress(headers: Headers, env: ClientAddressSettings): ClientAddress {
  if (!configOf(env).trustCfConnectingIp) return { known: false, reason: "untrusted" };
  const header = headers.get("cf-connecting-ip")?.trim();
  if (!header) return { known: false, reason: "absent" };
  const bytes = parseIp(header);
  return bytes ? { known: true, address: header, bytes } : { known: false, reason: "malformed" };
}

/** The address for an IP allowlist check: null when unknown (a key with an allowlist is then refused). */
export function knownClientAddress(headers: Headers, env: ClientAddressSettings): string | null {
  const found = clientAddress(headers, env);
  return found.known ? found.address : null;
}

/** Cloudflare's documented source address of Workers subrequests (2a06:98c0:3600::103). */
const WORKERS_EGRESS = parseIp("2a06:98c0:3600::103")!;

function isWorkersEgress(bytes: Uint8Array): boolean {
  return bytes.length === WORKERS_EGRESS.length && bytes.every((b, i) => b === WORKERS_EGRESS[i]);
}

/** One RateLimiter bucket: its Durable Object name and its limit per minute. */
export interface RateBucket {
  name: string;
  perMinute: number;
}

/** The shared pool of callers without a known address allows this many times the per-caller limit. */
export const UNATTRIBUTED_POOL_FACTOR = 10;

/**
 * The buckets an anonymous call is charged to, narrowest first. Bucket names carry a keyed hash, never an address.
 *
 * - Known address: one bucket per address; an IPv6 caller per /64 (what one subscriber is given), since a
 *   bucket per IPv6 address would let one party spread over 2^64 buckets.
 * - Unknown address: no shared "unknown" bucket that one party could drain for everyone. The call is charged to a
 *   bucket per request fingerprint (User-Agent and Accept-Language) at the per-caller limit, so one client alone
 *   hits its own limit long before the shared pool, and then to the unattributed pool at
 *   UNATTRIBUTED_POOL_FACTOR times the limit, so rotating fingerprints buys no unlimited use either. Only a party
 *   that forges fingerprints and sends ten callers' worth can fill the pool; callers with a known address never
 *   share it. Behind Cloudflare every request has an address, so the pool serves misconfigured or internal callers.
 */
export async function anonymousRateBuckets(
  headers: Headers,
  env: ClientAddressSettings,
  family: string,
  perMinute: number,
): Promise<RateBucket[]> {
  const secret = env.SVC_CAPABILITY_SECRET ?? env.SVC_KEY_PEPPER ?? "svc-rate-buckets";
  const keyed = async (data: string | Uint8Array) => base64url((await hmacSha256(secret, data)).slice(0, 16));
  const found = clientAddress(headers, env);
  // Every Cloudflare Worker's subrequest arrives from one address: charged to it, one hostile Worker would use up
  // the public limit of every integrator calling from Workers. Such calls are unattributed instead.
  if (found.known && !isWorkersEgress(found.bytes)) {
    const prefix = found.bytes.length === 16 ? found.bytes.slice(0, 8) : found.bytes;
    return [{ name: `${family}:${await keyed(prefix)}`, perMinute }];
  }
  const fingerprint = JSON.stringify([headers.get("user-agent") ?? "", headers.get("accept-language") ?? ""]);
  return [
    { name: `${family}_unattributed:${await keyed(fingerprint)}`, perMinute },
    { name: `${family}_unattributed_pool`, perMinute: perMinute * UNATTRIBUTED_POOL_FACTOR },
  ];
}

/** A RateLimiter decision (src/durable-objects/rate-limiter.ts), as much of it as callers read. */
export interface BucketDecision {
  allowed: boolean;
  retryAfterMs: number;
}

/**
 * Charges `cost` to each bucket in order (per minute) and stops at the first refusal, which spends nothing there;
 * narrowest first, so a caller already over its own limit never drains a shared pool. Answers the deciding
 * bucket's decision and limit (the last bucket's when all allow). `defer`: the request's waitUntil, for the anonymous
 * front's settle calls (rate-lease.ts FRONT).
 */
export async function chargeRateBuckets(
  namespace: LeasingNamespace,
  buckets: RateBucket[],
  cost = 1,
  defer?: Defer,
): Promise<{ decision: BucketDecision; perMinute: number }> {
  let last: { decision: BucketDecision; perMinute: number } = { decision: { allowed: true, retryAfterMs: 0 }, perMinute: 0 };
  for (const bucket of buckets) {
    const decision = await spendRate(namespace, bucket.name, bucket.perMinute, cost, defer); // rate-lease.ts: mostly no call
    last = { decision, perMinute: bucket.perMinute };
    if (!decision.allowed) break;
  }
  return last;
}

/**
 * The buckets of a public-or-keyed operation of `family`: with a key, one per tenant at
 * SVC_VERIFY_TENANT_RATE_PER_MINUTE (default 600); without, the caller's (anonymousRateBuckets) at `publicPerMinute`.
 */
export async function callerRateBuckets(
  principal: Principal,
  headers: Headers,
  env: ClientAddressSettings & { SVC_VERIFY_TENANT_RATE_PER_MINUTE?: string },
  family: string,
  publicPerMinute: number,
): Promise<RateBucket[]> {
  if (principal.kind !== "anonymous") {
    return [{ name: `${family}_tenant:${principal.tenantId}`, perMinute: configOf(env).verifyTenantRatePerMinute }];
  }
  return anonymousRateBuckets(headers, env, `${family}_public`, publicPerMinute);
}
