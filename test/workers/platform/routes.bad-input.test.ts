import { describe, expect, it } from "vitest";
import { ALL_SCOPES } from "../../../src/platform/auth/scopes";
import { api, createTenant } from "../support/helpers";

/**
 * Every operation in the OpenAPI document, called with bad input (unknown or malformed path ids, hostile query
 * values, malformed and wrongly typed bodies): never a 5xx, and every refusal is the error envelope — `code` and
 * `message` (ErrorResponse) or `detail` (HttpErrorResponse).
 */
const BAD_IDS = ["whe_abcdefghij234567", "nope", "%00", "x".repeat(300), "..%2f..%2fetc", "urn:uuid:00000000-0000-0000-0000-000000000000"];
const BAD_QUERIES = [
  "?limit=0",
  "?limit=99999999999999999999",
  "?cursor=%FF%FE",
  "?include_deleted=maybe&status=zzz",
  "?alg=&value=%%%",
  "?maxResults=-1&scope=everything",
];
const BAD_BODIES: { type: string; body: string }[] = [
  { type: "application/json", body: "{" },
  { type: "application/json", body: '{"url":7,"events":"asset.signed","max_concurrency":1e309}' },
  { type: "application/json", body: "[".repeat(5000) },
  { type: "text/plain", body: "hello" },
  { type: "application/octet-stream", body: "\u0000\u0001\u0002" },
];

describe("bad input to every documented operation", () => {
  it("never answers 5xx, and refuses with the error envelope", async () => {
    const { key } = await createTenant({ scopes: [...ALL_SCOPES] });
    const doc = await (await api("/openapi.json")).json<{ paths: Record<string, Record<string, unknown>> }>();
    const calls: { method: string; path: string; init: { body?: string; headers: Record<string, string> } }[] = [];
    // Readiness probes answer 503 by contract while a dependency is not ready (SPEC "Other"); they take no input.
    for (const [template, item] of Object.entries(doc.paths).filter(([p]) => !p.startsWith("/readyz"))) {
      for (const method of Object.keys(item).filter((m) => ["get", "post", "put", "patch", "delete"].includes(m))) {
        for (const [i, id] of BAD_IDS.entries()) {
          const path = template.replace(/\{[^}]+\}/g, encodeURIComponent(id).replace(/%25/g, "%")) + BAD_QUERIES[i % BAD_QUERIES.length];
          const bad = BAD_BODIES[i % BAD_BODIES.length]!;
          const withBody = method !== "get" && method !== "delete";
          calls.push({
            method: method.toUpperCase(),
            path,
            init: {
              headers: { "idempotency-key": `bad-${i}-${calls.length}`, ...(withBody ? { "content-type": bad.type } : {}) },
              ...(withBody ? { body: bad.body } : {}),
            },
          });
        }
      }
    }
    expect(calls.length).toBeGreaterThan(500);
    const failures: string[] = [];
    for (const call of calls) {
      const res = await api(call.path, { method: call.method, key, rawBody: call.init.body, headers: call.init.headers });
      const text = await res.text();
      if (res.status >= 500) failures.push(`${call.method} ${call.path} → ${res.status} ${text.slice(0, 120)}`);
      else if (res.status >= 400) {
        let body: Record<string, unknown> | null = null;
        try {
          body = JSON.parse(text) as Record<string, unknown>;
        } catch {
          body = null;
        }
        const envelope =
          body !== null && ((typeof body.code === "string" && typeof body.message === "string") || typeof body.detail === "string");
        if (!envelope) failures.push(`${call.method} ${call.path} → ${res.status} without the error envelope: ${text.slice(0, 120)}`);
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);
});
