import { afterEach, describe, expect, it, vi } from "vitest";
import { DEFAULT_ANCHOR_ORIGIN } from "../../../src/anchoring/log";
import { type Config, type ConfigSource, type ConfigVariable, configOf, parseConfig } from "../../../src/platform/config";
import { DEFAULT_RETRY_SCHEDULE } from "../../../src/webhooks/retry-policy";

/*
 * Issue #14: the environment parsed with zod once. Each variable must mean exactly what it meant when it was read
 * where used; the `before` functions below are those read sites' expressions as they were, and every value
 * (absent, valid, malformed, edge) must give the same result through the Config.
 */

const dev = { SVC_ENVIRONMENT: "development" } as const;

function parsed(source: ConfigSource) {
  const reports: ConfigVariable[] = [];
  const config = parseConfig(source, (variable) => reports.push(variable));
  return { config, reports };
}

interface Row {
  variable: ConfigVariable;
  /** Values to try; `undefined` is absence. */
  values: (string | undefined)[];
  /** Values that are malformed (reported once). */
  malformed: (string | undefined)[];
  /** Extra variables (e.g. the environment) for the source. */
  with?: ConfigSource;
  before: (value: string | undefined) => unknown;
  after: (config: Config) => unknown;
}

const ROWS: Row[] = [
  {
    variable: "SVC_ENVIRONMENT",
    values: [undefined, "development", "production", "", "Development", "dev", " development"],
    malformed: ["", "Development", "dev", " development"],
    before: (v) => (v === "development" ? "development" : "production"),
    after: (c) => c.environment,
  },
  {
    variable: "SVC_PUBLIC_BASE_URL",
    values: [undefined, "https://api.example", "https://api.example/", "https://api.example///", ""],
    malformed: [],
    before: (v) => (v ?? "https://req.example").replace(/\/+$/, ""),
    after: (c) => c.publicBaseUrl ?? "https://req.example",
  },
  {
    variable: "SVC_MANIFEST_HOSTS",
    values: [undefined, "", "a.example", " A.Example , b.example,,", ","],
    malformed: [],
    before: (v) =>
      (v ?? "")
        .split(",")
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean),
    after: (c) => c.manifestHosts,
  },
  {
    variable: "SVC_VERIFY_TENANT_RATE_PER_MINUTE",
    values: [undefined, "120", " 30 ", "abc", "", "0", "1.5", "-5", "1e3"],
    malformed: ["abc", "", "0"],
    before: (v) => Number(v ?? "600") || 600,
    after: (c) => c.verifyTenantRatePerMinute,
  },
  {
    variable: "SVC_WEBHOOKS_ALLOW_LOOPBACK",
    values: [undefined, "1", "true", "0", ""],
    malformed: [],
    with: dev,
    before: (v) => v === "1",
    after: (c) => c.webhooksAllowLoopback,
  },
  {
    variable: "SVC_WEBHOOKS_ALLOW_LOOPBACK",
    values: [undefined, "1"],
    malformed: [],
    with: { SVC_ENVIRONMENT: "production" },
    before: () => false,
    after: (c) => c.webhooksAllowLoopback,
  },
  {
    variable: "SVC_WEBHOOK_RETRY_SCHEDULE",
    values: [undefined, "", "1,2,3", " 5 , 60", "1,,2", " ", "1,x", "-1", "Infinity", "5;6"],
    malformed: ["1,x", "-1", "Infinity", "5;6"],
    before: (raw) => {
      if (!raw) return DEFAULT_RETRY_SCHEDULE;
      const parsed = raw.split(",").map((s) => Number(s.trim()));
      return parsed.every((n) => Number.isFinite(n) && n >= 0) && parsed.length > 0 ? parsed : DEFAULT_RETRY_SCHEDULE;
    },
    after: (c) => c.webhookRetrySchedule ?? DEFAULT_RETRY_SCHEDULE,
  },
  {
    variable: "SVC_TRUST_CF_CONNECTING_IP",
    values: [undefined, "true", "false", "TRUE", "1", ""],
    malformed: [],
    before: (v) => v === "true",
    after: (c) => c.trustCfConnectingIp,
  },
  {
    variable: "SVC_C2PA_TRUST_LIST",
    values: [undefined, "off", "on", "OFF", ""],
    malformed: [],
    before: (v) => v !== "off",
    after: (c) => c.c2paTrustList,
  },
  {
    variable: "SVC_ANCHOR_ORIGIN",
    values: [undefined, "provenance.example/manifest-log", ""],
    malformed: [],
    before: (v) => v ?? DEFAULT_ANCHOR_ORIGIN,
    after: (c) => c.anchorOrigin ?? DEFAULT_ANCHOR_ORIGIN,
  },
  {
    variable: "SVC_SOURCE_REVISION",
    values: [undefined, "abc123", ""],
    malformed: [],
    before: (v) => v ?? "unknown",
    after: (c) => c.sourceRevision,
  },
  {
    variable: "SVC_TSA_URL",
    values: [undefined, "internal", " internal ", "https://tsa.example", ""],
    malformed: [],
    before: (v) => v?.trim() === "internal",
    after: (c) => c.tsaUrl?.trim() === "internal",
  },
];

/** The development resolver's answer for `host` as it was: the parsed map's array, else DNS ("doh"). */
function dnsBefore(raw: string | undefined, development: boolean, host: string): unknown {
  let hosts: Record<string, string[]> = {};
  if (development && raw) {
    try {
      hosts = JSON.parse(raw) as Record<string, string[]>;
    } catch {}
  }
  return Array.isArray(hosts[host]) ? hosts[host] : "doh";
}

describe("configOf (#14: the environment parsed once)", () => {
  afterEach(() => vi.restoreAllMocks());

  for (const row of ROWS) {
    it(`${row.variable}${row.with ? ` (${row.with.SVC_ENVIRONMENT})` : ""}: absent, valid and malformed values mean what they meant`, () => {
      for (const value of row.values) {
        const source: ConfigSource = { ...row.with, [row.variable]: value };
        const { config, reports } = parsed(source);
        expect(row.after(config), JSON.stringify(value)).toEqual(row.before(value));
        expect(reports, JSON.stringify(value)).toEqual(row.malformed.includes(value) ? [row.variable] : []);
      }
    });
  }

  it("SVC_DEV_DNS_HOSTS: development only; arrays are addresses, anything else falls through to DNS", () => {
    const map = JSON.stringify({ "a.example": ["10.0.0.1"], "b.example": "10.0.0.2", constructor: 5 });
    const values = [undefined, "", map, "{}", "not json", "[1]", '"x"', "5"];
    const hosts = ["a.example", "b.example", "c.example", "constructor", "toString", "__proto__"];
    for (const environment of ["development", "production"]) {
      for (const value of values) {
        const config = configOf({ SVC_ENVIRONMENT: environment, SVC_DEV_DNS_HOSTS: value });
        for (const host of hosts) {
          // A JSON array used to answer Array.prototype (an empty array) for "__proto__": not a behaviour to keep.
          if (value === "[1]" && host === "__proto__") continue;
          expect(config.devDnsHosts[host] ?? "doh", `${environment} ${value} ${host}`).toEqual(
            dnsBefore(value, environment === "development", host),
          );
        }
      }
    }
    expect(parsed({ ...dev, SVC_DEV_DNS_HOSTS: "not json" }).reports).toEqual(["SVC_DEV_DNS_HOSTS"]);
    expect(parsed({ ...dev, SVC_DEV_DNS_HOSTS: "[1]" }).reports).toEqual(["SVC_DEV_DNS_HOSTS"]);
    expect(parsed({ ...dev, SVC_DEV_DNS_HOSTS: map }).reports).toEqual([]);
    // Production never looked at it: nothing to report.
    expect(parsed({ SVC_DEV_DNS_HOSTS: "not json" }).reports).toEqual([]);
    // "null" used to parse and then throw a TypeError on every lookup; it is now malformed and ignored.
    expect(configOf({ ...dev, SVC_DEV_DNS_HOSTS: "null" }).devDnsHosts["a.example"]).toBeUndefined();
  });

  it("a variable that is not a string counts as absent and does not fail the parse", () => {
    const { config, reports } = parsed({
      SVC_MANIFEST_HOSTS: 5 as unknown as string,
      SVC_VERIFY_TENANT_RATE_PER_MINUTE: 60 as unknown as string,
    });
    expect(config.manifestHosts).toEqual([]);
    expect(config.verifyTenantRatePerMinute).toBe(60); // Number(60), as before
    expect(reports).toEqual(["SVC_MANIFEST_HOSTS"]);
  });

  it("parses once per env object and answers a frozen config", () => {
    let reads = 0;
    const env = {
      get SVC_MANIFEST_HOSTS() {
        reads++;
        return "a.example";
      },
    };
    const first = configOf(env);
    expect(configOf(env)).toBe(first);
    expect(reads).toBe(1);
    expect(configOf({ SVC_MANIFEST_HOSTS: "a.example" })).not.toBe(first); // another env object: its own parse
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first.manifestHosts)).toBe(true);
    expect(Object.isFrozen(configOf({ ...dev, SVC_DEV_DNS_HOSTS: '{"a":["1.2.3.4"]}' }).devDnsHosts.a)).toBe(true);
  });

  it("carries no secrets, and reports a malformed variable once per isolate by name, never its value", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const secrets = {
      SVC_KEY_PEPPER: "pepper-secret-value",
      SVC_CURSOR_SECRET: "cursor-secret-value",
      SVC_C2PA_SIGNER_KEY_PEM: "-----BEGIN PRIVATE KEY-----secret",
      SVC_R2_SECRET_ACCESS_KEY: "r2-secret-value",
    };
    const config = configOf({ ...secrets, SVC_WEBHOOK_RETRY_SCHEDULE: "1,oops-value" } as ConfigSource);
    const text = JSON.stringify(config);
    for (const secret of Object.values(secrets)) expect(text).not.toContain(secret);
    configOf({ SVC_WEBHOOK_RETRY_SCHEDULE: "2,oops-value" }); // another env, same problem: not reported again
    const lines = warn.mock.calls.map((call) => String(call[0])).filter((line) => line.includes("SVC_WEBHOOK_RETRY_SCHEDULE"));
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      level: "warn",
      event: "configuration variable malformed",
      variable: "SVC_WEBHOOK_RETRY_SCHEDULE",
    });
    expect(lines[0]).not.toContain("oops-value");
  });
});
