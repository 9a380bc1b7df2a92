import { type Bindings, isDevelopment } from "../../env";
import type { PaymentsMode } from "./types";

/*
 * Payments configuration (issue #17), read from env per request. Secrets (the Stripe key, webhook secrets) are
 * read here and kept out of platform/config.ts's loggable Config.
 */

/** The development-only secret the simulation signs its callbacks with when SVC_PAYMENTS_SIMULATION_SECRET is unset. */
export const DEV_SIMULATION_SECRET = "whsec_svc_development_simulation_only";

/**
 * The composed payments settings. Invariant: `mode` is null unless a usable adapter can be built (simulation only in
 * development; sandbox/provider only with a Stripe secret key of the matching kind: `sk_test_`/`rk_test_` for
 * sandbox, `sk_live_`/`rk_live_` for provider), so live money can never be reached from a test-mode setting.
 */
export interface PaymentsConfig {
  mode: PaymentsMode | null;
  /** Why mode is null although SVC_PAYMENTS_MODE is set (for logs). */
  problem: string | null;
  stripe: { secretKey: string; apiBase: URL | null; planPrices: Readonly<Record<string, string>> } | null;
  /** Secrets a callback signature may be made with (several during rotation); empty: verification unavailable. */
  webhookSecrets: readonly string[];
  /** Origins (scheme://host[:port]) success, cancel and return URLs may point at. */
  consoleOrigins: readonly string[];
  development: boolean;
}

export type PaymentsEnv = Pick<
  Bindings,
  | "SVC_ENVIRONMENT"
  | "SVC_PAYMENTS_MODE"
  | "SVC_STRIPE_SECRET_KEY"
  | "SVC_STRIPE_WEBHOOK_SECRETS"
  | "SVC_STRIPE_API_BASE"
  | "SVC_STRIPE_PLAN_PRICES"
  | "SVC_CONSOLE_ORIGINS"
  | "SVC_PAYMENTS_SIMULATION_SECRET"
>;

const list = (value: string | undefined) =>
  (value ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s.length > 0);

function origins(value: string | undefined): string[] {
  const out: string[] = [];
  for (const entry of list(value)) {
    try {
      const url = new URL(entry);
      if (url.protocol === "https:" || url.protocol === "http:") out.push(url.origin);
    } catch {
      // a malformed entry allows nothing
    }
  }
  return out;
}

/** `plan=price_…` pairs, comma-separated. */
function planPrices(value: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of list(value)) {
    const [plan, price] = entry.split("=").map((s) => s.trim());
    if (plan && price && /^[A-Za-z0-9_]{1,200}$/.test(price)) out[plan] = price;
  }
  return out;
}

export function paymentsConfig(env: PaymentsEnv): PaymentsConfig {
  const development = isDevelopment(env);
  const requested = env.SVC_PAYMENTS_MODE?.trim() || (development ? "simulation" : "");
  const consoleOrigins = origins(env.SVC_CONSOLE_ORIGINS);
  const none = (problem: string | null): PaymentsConfig => ({
    mode: null,
    problem,
    stripe: null,
    webhookSecrets: [],
    consoleOrigins,
    development,
  });
  if (requested === "") return none(null);
  if (requested === "simulation") {
    if (!development) return none("simulation is development only");
    const secret = env.SVC_PAYMENTS_SIMULATION_SECRET?.trim() || DEV_SIMULATION_SECRET;
    return { mode: "simulation", problem: null, stripe: null, webhookSecrets: [secret], consoleOrigins, development };
  }
  if (requested !== "sandbox" && requested !== "provider") return none("SVC_PAYMENTS_MODE is not simulation, sandbox or provider");
  const key = env.SVC_STRIPE_SECRET_KEY?.trim() ?? "";
  const kind = /^(sk|rk)_(test|live)_[A-Za-z0-9_]+$/.exec(key)?.[2];
  if (!kind) return none("SVC_STRIPE_SECRET_KEY is missing or malformed");
  if ((requested === "sandbox") !== (kind === "test")) return none(`a ${kind} key does not match mode ${requested}`);
  let apiBase: URL | null = null;
  if (env.SVC_STRIPE_API_BASE) {
    try {
      apiBase = new URL(env.SVC_STRIPE_API_BASE);
    } catch {
      return none("SVC_STRIPE_API_BASE is not a URL");
    }
    // The stand-in is for tests and development; live money always talks to the provider itself.
    if (requested === "provider") return none("SVC_STRIPE_API_BASE is not allowed in provider mode");
  }
  return {
    mode: requested,
    problem: null,
    stripe: { secretKey: key, apiBase, planPrices: planPrices(env.SVC_STRIPE_PLAN_PRICES) },
    webhookSecrets: list(env.SVC_STRIPE_WEBHOOK_SECRETS),
    consoleOrigins,
    development,
  };
}
