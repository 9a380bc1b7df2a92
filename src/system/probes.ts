import { type PaymentsEnv, paymentsConfig } from "../billing/payments/config";
import { captureCapability } from "../capture/trust";
import { database } from "../db/client";
import { reconcilerHealth } from "../derived-index/service";
import type { Bindings } from "../env";
import { selectOne } from "./repo";

/** Runs `SELECT 1` against D1, bounded to `timeoutMs`. */
export async function databaseAnswers(env: Bindings, timeoutMs = 2000): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([selectOne(env.DB), timeout]);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}

/** Where a Stripe reachability probe goes, and how (tests hand a stand-in fetch). */
type FetchFn = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** A Stripe probe's answer is reused this long per isolate: an anonymous probe must not become a way to hammer Stripe. */
const COMMERCIAL_PROBE_TTL_MS = 60_000;
const COMMERCIAL_PROBE_TIMEOUT_MS = 3_000;
const commercialProbes = new Map<string, { at: number; ok: Promise<boolean> }>();

/**
 * Stripe answers an authenticated read (GET /v1/balance, no side effect) with 2xx: the key is accepted and the API
 * is reachable. Any other answer, a timeout or a network error is false. Never throws, never logs the key.
 */
async function stripeAnswers(secretKey: string, apiBase: URL | null, fetchFn: FetchFn): Promise<boolean> {
  const url = new URL("/v1/balance", apiBase ?? "https://api.stripe.com");
  try {
    const res = await fetchFn(url, {
      headers: { authorization: `Bearer ${secretKey}` },
      signal: AbortSignal.timeout(COMMERCIAL_PROBE_TIMEOUT_MS),
    });
    await res.body?.cancel();
    return res.ok;
  } catch {
    return false;
  }
}

/**
 * The commercial authority: the payments adapter the configuration composes (src/billing/payments/config.ts) and,
 * for Stripe (sandbox or provider), Stripe reachable with its key. The inert simulation counts (development only:
 * the configuration refuses it elsewhere). No adapter composed: false.
 */
export async function commercialAuthority(env: PaymentsEnv, now = Date.now(), fetchFn: FetchFn = (i, init) => fetch(i, init)) {
  const config = paymentsConfig(env);
  if (config.mode === "simulation") return true;
  if (config.mode === null || config.stripe === null) return false;
  const { secretKey, apiBase } = config.stripe;
  const cacheKey = `${config.mode}\n${apiBase?.href ?? ""}\n${secretKey.slice(-8)}`;
  const cached = commercialProbes.get(cacheKey);
  if (cached && now - cached.at < COMMERCIAL_PROBE_TTL_MS) return cached.ok;
  const ok = stripeAnswers(secretKey, apiBase, fetchFn);
  if (commercialProbes.size > 8) commercialProbes.clear();
  commercialProbes.set(cacheKey, { at: now, ok });
  return ok;
}

/** The four fields of GET /readyz/governance. Invariant: `ready` exactly when all three authorities are true. */
export interface GovernanceAuthorities {
  capture_authority: boolean;
  commercial_authority: boolean;
  derived_index_reconciler: boolean;
  ready: boolean;
}

/**
 * Governance authorities, each from a real check and never claimed without one:
 * - capture: the capture trust (SVC_CAPTURE_TRUST) parses and trusts at least one attestation kind;
 * - commercial: see commercialAuthority;
 * - reconciler: the derived-index reconciler succeeded within RECONCILER_FRESHNESS_MS (src/derived-index).
 */
export async function governanceAuthorities(env: Bindings, now = Date.now(), fetchFn?: FetchFn): Promise<GovernanceAuthorities> {
  const [commercial, reconciler] = await Promise.all([commercialAuthority(env, now, fetchFn), reconcilerHealth(database(env.DB), now)]);
  const authorities = {
    capture_authority: captureCapability(env).available,
    commercial_authority: commercial,
    derived_index_reconciler: reconciler.ready,
  };
  return { ...authorities, ready: Object.values(authorities).every(Boolean) };
}
