import { exports } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "../../../src/db/client";
import { apiKeys } from "../../../src/db/schema";
import { ALL_SCOPES } from "../../../src/platform/auth/scopes";
import { api, BASE, createTenant, json, testEnv } from "../support/helpers";

/**
 * #13.18: the served /openapi.json agrees with what the service enforces, checked against the running Worker
 * (not against the policy table the document is generated from).
 */
type Op = { parameters?: { in: string; name: string; required?: boolean }[]; responses: Record<string, any>; security?: unknown[] };
type Doc = { paths: Record<string, Record<string, Op>>; components: { schemas: Record<string, any> } };

const METHODS = ["get", "post", "put", "patch", "delete"];

async function servedDocument(): Promise<Doc> {
  return json<Doc>(await api("/openapi.json"));
}

function operations(doc: Doc) {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((method) => ({ path, method, op: item[method]! })),
  );
}

const keyed = (op: Op) => JSON.stringify(op.security ?? []).includes("bearer");

/** The `$ref`s a documented response's JSON body may match. */
function refsOf(response: any): string[] {
  const schema = response?.content?.["application/json"]?.schema ?? {};
  return [schema, ...(schema.oneOf ?? []), ...(schema.anyOf ?? [])].map((s: any) => s.$ref).filter(Boolean);
}

async function setRestrictions(keyId: string, restrictions: { ip_allowlist: string[]; rate_limit_per_minute: number | null }) {
  await database(testEnv.DB)
    .update(apiKeys)
    .set({ restrictions: JSON.stringify({ version: 1, updated_at: new Date().toISOString(), ...restrictions }) })
    .where(eq(apiKeys.id, keyId));
}

describe("#13.18 the served OpenAPI document matches enforcement", () => {
  it("#13.18 Idempotency-Key is required in /openapi.json exactly where a write without it is refused", async () => {
    const { key } = await createTenant({ scopes: [...ALL_SCOPES] });
    const doc = await servedDocument();
    const mismatches: string[] = [];
    let required = 0;
    for (const { path, method, op } of operations(doc).filter((o) => o.method !== "get" && keyed(o.op))) {
      const param = (op.parameters ?? []).find((p) => p.in === "header" && p.name.toLowerCase() === "idempotency-key");
      const url = path.replace(/\{[^}]+\}/g, "zz_doesnotexist234567");
      const res = await api(url, { method: method.toUpperCase(), key, body: {} });
      const body = await res.text();
      const refused = res.status === 422 && body.includes('"svc.idempotency.key_required"');
      if (refused) required++;
      if (refused !== (param?.required === true)) {
        mismatches.push(
          `${method.toUpperCase()} ${path}: refused without the key=${refused}, documented required=${param?.required === true}`,
        );
      }
    }
    expect(mismatches).toEqual([]);
    expect(required).toBeGreaterThan(0);
  });

  it("#13.18 every keyed operation documents 429 API_KEY_RATE_LIMITED with Retry-After, and 403 with the error envelope", async () => {
    const doc = await servedDocument();
    const missing: string[] = [];
    for (const { path, method, op } of operations(doc).filter((o) => keyed(o.op))) {
      const where = `${method.toUpperCase()} ${path}`;
      const r429 = op.responses["429"];
      if (!r429) missing.push(`${where}: no 429`);
      else {
        if (!String(r429.description).includes("API_KEY_RATE_LIMITED")) missing.push(`${where}: 429 does not name API_KEY_RATE_LIMITED`);
        if (!r429.headers?.["Retry-After"]) missing.push(`${where}: 429 without a Retry-After header`);
        if (!refsOf(r429).includes("#/components/schemas/ErrorResponse")) missing.push(`${where}: 429 without the ErrorResponse envelope`);
      }
      const r403 = op.responses["403"];
      if (!r403) missing.push(`${where}: no 403`);
      else if (!refsOf(r403).includes("#/components/schemas/ErrorResponse"))
        missing.push(`${where}: 403 without the ErrorResponse envelope`);
    }
    expect(missing).toEqual([]);
  });

  it("#13.18 what a restricted key is really answered (403 API_KEY_IP_NOT_ALLOWED, 429 API_KEY_RATE_LIMITED) is what the document describes", async () => {
    const doc = await servedDocument();
    const documented = doc.paths["/v1/capabilities"]!.get!;
    const envelope = doc.components.schemas.ErrorResponse as { required: string[] };

    const limited = await createTenant({ scopes: ["capabilities:read"] });
    await setRestrictions(limited.keyId, { ip_allowlist: [], rate_limit_per_minute: 1 });
    expect((await api("/v1/capabilities", { key: limited.key })).status).toBe(200);
    const refused = await api("/v1/capabilities", { key: limited.key });
    expect(refused.status).toBe(429);
    const body429 = await json(refused);
    expect(body429.code).toBe("API_KEY_RATE_LIMITED");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    for (const field of envelope.required) expect(body429, field).toHaveProperty(field);
    expect(documented.responses["429"].headers["Retry-After"]).toBeDefined();

    const fenced = await createTenant({ scopes: ["capabilities:read"] });
    await setRestrictions(fenced.keyId, { ip_allowlist: ["203.0.113.0/24"], rate_limit_per_minute: null });
    const denied = await api("/v1/capabilities", { key: fenced.key, headers: { "cf-connecting-ip": "198.51.100.7" } });
    expect(denied.status).toBe(403);
    const body403 = await json(denied);
    expect(body403.code).toBe("API_KEY_IP_NOT_ALLOWED");
    for (const field of envelope.required) expect(body403, field).toHaveProperty(field);
    expect(refsOf(documented.responses["403"])).toContain("#/components/schemas/ErrorResponse");
  });
});

describe("#13.19 limits are consistent and published", () => {
  it("#13.19 POST /v1/verify accepts a full-size file together with a sidecar manifest, within the published limits", async () => {
    const { key } = await createTenant({ scopes: [...ALL_SCOPES] });
    const { limits } = await json(await api("/v1/capabilities", { key }));
    // A file at the published maximum plus a sidecar manifest well under its own published maximum.
    const file = new Uint8Array(limits.verify.file_maximum_bytes).fill(0x61);
    const manifest = new Uint8Array(256 * 1024).fill(0x7b);
    expect(manifest.length).toBeLessThanOrEqual(limits.verify.manifest_maximum_bytes);
    const form = new FormData();
    form.append("file", new File([file], "big.txt", { type: "text/plain" }));
    form.append("manifest", new File([manifest], "big.txt.c2pa", { type: "application/c2pa" }));
    const res = await exports.default.fetch(
      new Request(`${BASE}/v1/verify`, { method: "POST", headers: { authorization: `Bearer ${key}` }, body: form }),
    );
    const body = await res.text();
    expect(res.status, body.slice(0, 300)).toBe(200);

    // One byte over the published file limit is refused with the error envelope.
    const over = new FormData();
    over.append("file", new File([new Uint8Array(limits.verify.file_maximum_bytes + 1)], "over.txt", { type: "text/plain" }));
    const refused = await exports.default.fetch(
      new Request(`${BASE}/v1/verify`, { method: "POST", headers: { authorization: `Bearer ${key}` }, body: over }),
    );
    expect(refused.status).toBe(413);
    expect((await json(refused)).code).toBe("svc.request.too_large");
  }, 120_000);
});
