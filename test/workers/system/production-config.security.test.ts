/// <reference types="vite/client" />
import { createExecutionContext, createMessageBatch, getQueueResult, waitOnExecutionContext } from "cloudflare:test";
import { env as rawEnv } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp } from "../../../src/app";
import type { Bindings } from "../../../src/env";
import worker from "../../../src/index";
import wranglerToml from "../../../wrangler.toml?raw";
import { createTenant } from "../support/helpers";

/*
 * Issue #13.17: production is the safe default. The top level of wrangler.toml is production (a plain
 * `wrangler deploy` ships it) and local development is the explicit [env.dev]. A production Worker mounts no
 * development route, uses no development material, and while a required secret is missing answers 503 (readiness
 * and every API request, with the error envelope) instead of falling back.
 *
 * The workerd tests run with [env.dev]'s bindings; production is the same bindings with the top level's vars,
 * handed to the Worker's own fetch handler (src/index.ts), which picks its app by SVC_ENVIRONMENT.
 */

const devEnv = rawEnv as unknown as Bindings;

/** The [vars] of a wrangler.toml section ("" = the top level), read from the file as deployed. */
function varsOf(section: string): Record<string, string> {
  const heading = section ? `[env.${section}.vars]` : "[vars]";
  const start = wranglerToml.split("\n").findIndex((line) => line.trim() === heading);
  if (start < 0) return {};
  const vars: Record<string, string> = {};
  for (const line of wranglerToml.split("\n").slice(start + 1)) {
    if (line.trim().startsWith("[")) break;
    const m = /^\s*([A-Z0-9_]+)\s*=\s*"([^"]*)"/.exec(line);
    if (m) vars[m[1]!] = m[2]!;
  }
  return vars;
}

/** The production configuration: the top level's vars, and real (not development) TSA settings. */
function productionEnv(overrides: Partial<Record<keyof Bindings, string | undefined>> = {}): Bindings {
  const r2 = {
    SVC_R2_S3_ENDPOINT: "https://accountid.r2.cloudflarestorage.com",
    SVC_R2_ACCESS_KEY_ID: "id",
    SVC_R2_SECRET_ACCESS_KEY: "secret",
    SVC_R2_BUCKET: "svc-objects",
  };
  // The test bindings carry the dev session issuer's private key (development material production refuses).
  const noDevIssuer = { SVC_DEV_SESSION_KEY_PEM: undefined };
  return { ...devEnv, ...varsOf(""), ...r2, ...noDevIssuer, SVC_TSA_URL: "https://tsa.example.test/rfc3161", ...overrides } as Bindings;
}

async function fetchWith(env: Bindings, path: string, init: RequestInit = {}): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await worker.fetch!(new Request(`http://svc.test${path}`, init) as Request<unknown, IncomingRequestCfProperties>, env, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

/** Every development route (src/system/dev-*), as the development app mounts them. */
const DEV_ROUTES = [
  ...new Set(
    createApp({ development: true })
      .routes.filter((r) => r.path.startsWith("/dev/") && r.method !== "ALL")
      .map((r) => `${r.method} ${r.path}`),
  ),
];

describe("#13.17 production is the safe default", () => {
  it("#13.17 wrangler.toml's top level is production; development is the explicit [env.dev] environment", () => {
    expect(varsOf("").SVC_ENVIRONMENT).toBe("production");
    expect(varsOf("dev").SVC_ENVIRONMENT).toBe("development");
    // These tests themselves run in the development environment.
    expect(devEnv.SVC_ENVIRONMENT).toBe("development");
  });

  it("#13.17 no development route answers in production configuration, and none is documented there", async () => {
    expect(DEV_ROUTES).toEqual(expect.arrayContaining(["POST /dev/tsa", "POST /dev/ocsp", "POST /dev/ocsp/revocations"]));
    const prod = productionEnv();
    for (const route of DEV_ROUTES) {
      const [method, path] = route.split(" ") as [string, string];
      for (const contentType of ["application/timestamp-query", "application/ocsp-request", "application/json"]) {
        const body =
          contentType === "application/json" ? JSON.stringify({ serial_number: "01" }) : new Uint8Array([0x30, 0x03, 0x02, 0x01, 0x01]);
        const res = await fetchWith(prod, path, {
          method,
          headers: { "content-type": contentType },
          body: method === "GET" ? undefined : body,
        });
        expect(res.status, `${route} (${contentType})`).toBe(404);
        expect(((await res.json()) as { code: string }).code).toBe("svc.route.not_found");
      }
    }
    const doc = (await (await fetchWith(prod, "/openapi.json")).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths).length).toBeGreaterThan(10);
    expect(Object.keys(doc.paths).filter((p) => p.startsWith("/dev/"))).toEqual([]);
    // The development app still serves them.
    expect(
      (
        await fetchWith(devEnv, "/dev/tsa", {
          method: "POST",
          headers: { "content-type": "application/timestamp-query" },
          body: new Uint8Array([1]),
        })
      ).status,
    ).not.toBe(404);
  });

  it("#13.17 a completely configured production Worker is ready and serves", async () => {
    const prod = productionEnv();
    const { key } = await createTenant();
    expect((await fetchWith(prod, "/readyz")).status).toBe(200);
    const caps = await fetchWith(prod, "/v1/capabilities", { headers: { authorization: `Bearer ${key}` } });
    expect(caps.status, await caps.clone().text()).toBe(200);
  });

  for (const missing of [
    "SVC_KEY_PEPPER",
    "SVC_CURSOR_SECRET",
    "SVC_CAPABILITY_SECRET",
    "SVC_C2PA_SIGNER_CHAIN_PEM",
    "SVC_C2PA_SIGNER_KEY_PEM",
    "SVC_R2_ACCESS_KEY_ID",
  ] as const) {
    it(`#13.17 a production Worker without ${missing} refuses to serve: readiness 503, API 503 with the envelope`, async () => {
      const { key } = await createTenant();
      const prod = productionEnv({ [missing]: undefined });
      const ready = await fetchWith(prod, "/readyz");
      expect(ready.status).toBe(503);
      expect(await ready.json()).toEqual({ status: "unavailable" });
      // Liveness still answers: the Worker runs, it just is not ready.
      expect((await fetchWith(prod, "/healthz")).status).toBe(200);
      for (const [path, init] of [
        ["/v1/capabilities", { headers: { authorization: `Bearer ${key}` } }],
        [
          "/v1/verify",
          {
            method: "POST",
            headers: { "content-type": "application/json", "cf-connecting-ip": "192.0.2.77" },
            body: JSON.stringify({ manifest_uri: "https://example.com/m.c2pa" }),
          },
        ],
        ["/docs", {}],
      ] as [string, RequestInit][]) {
        const res = await fetchWith(prod, path, init);
        expect(res.status, path).toBe(503);
        const body = (await res.json()) as Record<string, unknown>;
        expect(body, path).toMatchObject({ code: "svc.deployment.not_configured", retryable: true });
        expect(body.request_id).toMatch(/^req_/);
        // The public answer names nothing about the configuration.
        expect(JSON.stringify(body)).not.toContain(missing);
      }
    });
  }

  it("#13.17 a production Worker configured with the development TSA is not ready and does not sign with it", async () => {
    const { key } = await createTenant();
    const prod = productionEnv({ SVC_TSA_URL: "internal" });
    expect((await fetchWith(prod, "/readyz")).status).toBe(503);
    const res = await fetchWith(prod, "/v1/capabilities", { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(503);
    // The same bindings in development are ready: the check is production's.
    expect((await fetchWith({ ...prod, SVC_ENVIRONMENT: "development" } as Bindings, "/readyz")).status).toBe(200);
  });

  it("#18 a production Worker holding the development session issuer's private key is not ready", async () => {
    const prod = productionEnv({ SVC_DEV_SESSION_KEY_PEM: devEnv.SVC_DEV_SESSION_KEY_PEM });
    expect((await fetchWith(prod, "/readyz")).status).toBe(503);
    expect((await fetchWith(productionEnv(), "/readyz")).status).toBe(200);
  });

  it("#13.17 a missing or misspelt SVC_ENVIRONMENT is production, not development", async () => {
    for (const value of [undefined, "dev", "Development"]) {
      const env = productionEnv({ SVC_ENVIRONMENT: value });
      const res = await fetchWith(env, "/dev/tsa", {
        method: "POST",
        headers: { "content-type": "application/timestamp-query" },
        body: new Uint8Array([1]),
      });
      expect(res.status, String(value)).toBe(404);
    }
  });

  it("#13.17 an unconfigured production Worker does no background work: queue messages wait, the cron sweeps nothing", async () => {
    const unconfigured = productionEnv({ SVC_TSA_URL: "internal" });
    const batch = createMessageBatch("svc-jobs", [{ id: "m1", timestamp: new Date(), attempts: 1, body: { type: "unregistered" } }]);
    const ctx = createExecutionContext();
    await worker.queue(batch as MessageBatch<unknown>, unconfigured);
    const result = await getQueueResult(batch, ctx);
    expect(result.retryBatch.retry).toBe(true);
    expect(result.explicitAcks).toEqual([]);
    // The configured production Worker consumes the same message.
    const batch2 = createMessageBatch("svc-jobs", [{ id: "m2", timestamp: new Date(), attempts: 1, body: { type: "unregistered" } }]);
    const ctx2 = createExecutionContext();
    await worker.queue(batch2 as MessageBatch<unknown>, productionEnv());
    expect((await getQueueResult(batch2, ctx2)).explicitAcks).toEqual(["m2"]);
  });
});
