import { z } from "zod";
import type { Bindings } from "../env";
import { log } from "./logger";

/*
 * The Worker's non-secret string variables, parsed once per env object into a typed, frozen Config. Usable with or
 * without a request (queue consumers, cron, Durable Objects): `configOf(env)`; handlers read `c.var.config`.
 *
 * Each variable keeps the meaning it had when it was read where used: a malformed value is ignored or defaulted
 * exactly as before, and now also reported once per isolate (the variable's name and the problem, never its
 * value). Secrets (PEMs, the pepper, the cursor and capability secrets, R2 credentials) are not read here: they
 * stay on env where they are used, so a Config can be logged or passed around without carrying key material.
 */

/** The variables configOf reads. */
export const CONFIG_VARIABLES = [
  "SVC_ENVIRONMENT",
  "SVC_PUBLIC_BASE_URL",
  "SVC_MANIFEST_HOSTS",
  "SVC_VERIFY_TENANT_RATE_PER_MINUTE",
  "SVC_WEBHOOKS_ALLOW_LOOPBACK",
  "SVC_DEV_DNS_HOSTS",
  "SVC_WEBHOOK_RETRY_SCHEDULE",
  "SVC_TRUST_CF_CONNECTING_IP",
  "SVC_C2PA_TRUST_LIST",
  "SVC_ANCHOR_ORIGIN",
  "SVC_SOURCE_REVISION",
  "SVC_TSA_URL",
] as const satisfies readonly (keyof Bindings)[];

export type ConfigVariable = (typeof CONFIG_VARIABLES)[number];

/** What configOf reads: any object with some of the variables (the Worker's env, or a test's plain object). */
export type ConfigSource = { readonly [K in ConfigVariable]?: string };

/** Per-tenant limit of keyed POST /v1/verify (and by-content) calls per minute when none is configured. */
export const DEFAULT_VERIFY_TENANT_RATE_PER_MINUTE = 600;

/**
 * The deployment's settings. Invariant: derived only from the variables in CONFIG_VARIABLES (never a secret),
 * frozen, and the development-only settings are off (`webhooksAllowLoopback` false, `devDnsHosts` empty) unless
 * `environment` is "development".
 */
export interface Config {
  /** "development" only for exactly SVC_ENVIRONMENT="development"; anything else, absent or misspelt, is production. */
  readonly environment: "development" | "production";
  /** Public origin for absolute links without trailing slashes; undefined: the request's origin. */
  readonly publicBaseUrl: string | undefined;
  /** Host names (trimmed, lower case) `manifest_uri` may point at; empty: verify-by-URI is refused. */
  readonly manifestHosts: readonly string[];
  /** Keyed verify calls per tenant per minute: Number(value), or 600 when absent, not a number or 0. */
  readonly verifyTenantRatePerMinute: number;
  /** SVC_WEBHOOKS_ALLOW_LOOPBACK="1" in development: webhook endpoints may use http to loopback. */
  readonly webhooksAllowLoopback: boolean;
  /** Development only: host name → addresses consulted before DNS over HTTPS (entries whose value is an array). */
  readonly devDnsHosts: Readonly<Record<string, readonly string[]>>;
  /** Delays (s) before attempts 2, 3, … of a webhook delivery; undefined: the webhooks area's default schedule. */
  readonly webhookRetrySchedule: readonly number[] | undefined;
  /** CF-Connecting-IP is the caller's address (SVC_TRUST_CF_CONNECTING_IP="true"). */
  readonly trustCfConnectingIp: boolean;
  /** The bundled official C2PA trust list joins verification's anchors (SVC_C2PA_TRUST_LIST is not "off"). */
  readonly c2paTrustList: boolean;
  /** The transparency log's origin line; undefined: the anchoring area's default. */
  readonly anchorOrigin: string | undefined;
  /** The deployed source revision ("unknown" when absent). */
  readonly sourceRevision: string;
  /** RFC 3161 TSA URL as configured ("internal": the in-process dev TSA); undefined: none. */
  readonly tsaUrl: string | undefined;
}

/** Told about each malformed variable: its name and what was done instead (never its value). */
export type ConfigReport = (variable: ConfigVariable, problem: string) => void;

const EMPTY_HOSTS: Readonly<Record<string, readonly string[]>> = Object.freeze(Object.create(null));

/** A development-only JSON map of host → addresses; not a JSON object: malformed. */
const devDnsHostsSchema = z.string().transform((raw, ctx) => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    parsed = undefined;
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    ctx.addIssue({ code: "custom", message: "not a JSON object" });
    return z.NEVER;
  }
  // Only arrays were ever used as addresses (anything else fell through to DNS); a null prototype so no
  // inherited name ("constructor") is mistaken for an entry.
  const hosts: Record<string, readonly string[]> = Object.create(null);
  for (const [host, addresses] of Object.entries(parsed)) {
    if (Array.isArray(addresses)) hosts[host] = Object.freeze([...addresses]) as readonly string[];
  }
  return Object.freeze(hosts);
});

/** The schema of the variables, reporting each malformed one to `report` as it falls back. */
function variablesSchema(report: ConfigReport) {
  // A variable that is not a string (wrangler.toml can declare a number or boolean) counts as absent: one odd
  // variable must not fail the whole parse, which every request needs.
  const text = (name: ConfigVariable) =>
    z
      .string()
      .optional()
      .catch(() => {
        report(name, "not a string: ignored");
        return undefined;
      });
  return z.object({
    SVC_ENVIRONMENT: z.enum(["development", "production"]).catch((ctx) => {
      if (ctx.input !== undefined) report("SVC_ENVIRONMENT", 'neither "development" nor "production": production');
      return "production" as const;
    }),
    SVC_PUBLIC_BASE_URL: text("SVC_PUBLIC_BASE_URL").transform((raw) => raw?.replace(/\/+$/, "")),
    SVC_MANIFEST_HOSTS: text("SVC_MANIFEST_HOSTS").transform((raw) =>
      (raw ?? "")
        .split(",")
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean),
    ),
    SVC_VERIFY_TENANT_RATE_PER_MINUTE: z
      .unknown()
      .transform((raw, ctx) => {
        // As it was always read: Number(value) || 600 (a negative or fractional value is used as given).
        const perMinute = Number(raw ?? DEFAULT_VERIFY_TENANT_RATE_PER_MINUTE);
        if (perMinute) return perMinute;
        ctx.addIssue({ code: "custom", message: "not a number" });
        return z.NEVER;
      })
      .catch(() => {
        report("SVC_VERIFY_TENANT_RATE_PER_MINUTE", `not a non-zero number: ${DEFAULT_VERIFY_TENANT_RATE_PER_MINUTE} used`);
        return DEFAULT_VERIFY_TENANT_RATE_PER_MINUTE;
      }),
    SVC_WEBHOOKS_ALLOW_LOOPBACK: text("SVC_WEBHOOKS_ALLOW_LOOPBACK").transform((raw) => raw === "1"),
    // Parsed below, in development only (production never looked at it).
    SVC_DEV_DNS_HOSTS: text("SVC_DEV_DNS_HOSTS"),
    SVC_WEBHOOK_RETRY_SCHEDULE: text("SVC_WEBHOOK_RETRY_SCHEDULE")
      .transform((raw, ctx) => {
        if (!raw) return undefined;
        const delays = raw.split(",").map((s) => Number(s.trim()));
        if (delays.every((n) => Number.isFinite(n) && n >= 0)) return Object.freeze(delays) as readonly number[];
        ctx.addIssue({ code: "custom", message: "not a list of delays" });
        return z.NEVER;
      })
      .catch(() => {
        report("SVC_WEBHOOK_RETRY_SCHEDULE", "not comma-separated non-negative seconds: the default schedule used");
        return undefined;
      }),
    SVC_TRUST_CF_CONNECTING_IP: text("SVC_TRUST_CF_CONNECTING_IP").transform((raw) => raw === "true"),
    SVC_C2PA_TRUST_LIST: text("SVC_C2PA_TRUST_LIST").transform((raw) => raw !== "off"),
    SVC_ANCHOR_ORIGIN: text("SVC_ANCHOR_ORIGIN"),
    SVC_SOURCE_REVISION: text("SVC_SOURCE_REVISION").transform((raw) => raw ?? "unknown"),
    SVC_TSA_URL: text("SVC_TSA_URL"),
  });
}

/** Parses the variables of `source` into a Config, telling `report` about each malformed one. */
export function parseConfig(source: ConfigSource, report: ConfigReport): Config {
  // Only the listed variables reach the schema: the bindings and secrets of env are never read here.
  const picked = Object.fromEntries(CONFIG_VARIABLES.map((name) => [name, source[name]]));
  const v = variablesSchema(report).parse(picked);
  const development = v.SVC_ENVIRONMENT === "development";
  let devDnsHosts = EMPTY_HOSTS;
  if (development && v.SVC_DEV_DNS_HOSTS) {
    const hosts = devDnsHostsSchema.safeParse(v.SVC_DEV_DNS_HOSTS);
    if (hosts.success) devDnsHosts = hosts.data;
    else report("SVC_DEV_DNS_HOSTS", "not a JSON object: ignored");
  }
  return Object.freeze({
    environment: v.SVC_ENVIRONMENT,
    publicBaseUrl: v.SVC_PUBLIC_BASE_URL,
    manifestHosts: Object.freeze(v.SVC_MANIFEST_HOSTS),
    verifyTenantRatePerMinute: v.SVC_VERIFY_TENANT_RATE_PER_MINUTE,
    webhooksAllowLoopback: development && v.SVC_WEBHOOKS_ALLOW_LOOPBACK,
    devDnsHosts,
    webhookRetrySchedule: v.SVC_WEBHOOK_RETRY_SCHEDULE,
    trustCfConnectingIp: v.SVC_TRUST_CF_CONNECTING_IP,
    c2paTrustList: v.SVC_C2PA_TRUST_LIST,
    anchorOrigin: v.SVC_ANCHOR_ORIGIN,
    sourceRevision: v.SVC_SOURCE_REVISION,
    tsaUrl: v.SVC_TSA_URL,
  });
}

/** Variables already reported in this isolate: a misconfiguration is logged once, not on every request. */
const reported = new Set<ConfigVariable>();

function warnOnce(variable: ConfigVariable, problem: string): void {
  if (reported.has(variable)) return;
  reported.add(variable);
  log.warn("configuration variable malformed", { variable, problem });
}

const parsed = new WeakMap<object, Config>();

/** The Config of `env`, parsed on first use and remembered for that env object. */
export function configOf(env: ConfigSource): Config {
  let config = parsed.get(env);
  if (!config) {
    config = parseConfig(env, warnOnce);
    parsed.set(env, config);
  }
  return config;
}
