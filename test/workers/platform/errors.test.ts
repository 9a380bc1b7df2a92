import { createExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createApp, MAX_JSON_BODY_BYTES } from "../../../src/app";
import { ERROR_CODES, FORBIDDEN_UNCLASSIFIED_DETAIL } from "../../../src/platform/errors";
import { api, createTenant, json, testEnv } from "../support/helpers";

const ENVELOPE_KEYS = ["code", "documentation_url", "field_details", "job_reference", "message", "request_id", "retryable"];

describe("error envelope", () => {
  it("an unknown path answers 404 svc.route.not_found in the full envelope", async () => {
    const res = await api("/v1/nothing-here");
    expect(res.status).toBe(404);
    const body = await json(res);
    expect(Object.keys(body).sort()).toEqual(ENVELOPE_KEYS);
    expect(body).toMatchObject({ code: "svc.route.not_found", retryable: false, field_details: [], job_reference: null });
    expect(body.request_id).toBe(res.headers.get("x-request-id"));
    expect(body.documentation_url).toBe("http://svc.test/docs/errors#svc.route.not_found");
  });

  it("unparsable JSON is a 422 contract violation, not a 500", async () => {
    const { key } = await createTenant();
    const res = await api("/v1/api-keys", { method: "POST", key, rawBody: "{not json", headers: { "content-type": "application/json" } });
    expect(res.status).toBe(422);
    const body = await json(res);
    expect(body.code).toBe("svc.request.invalid");
    expect(body.field_details[0].location).toBe("body");
  });

  it("a body without a JSON content type is refused with 415", async () => {
    const { key } = await createTenant();
    const res = await api("/v1/api-keys", {
      method: "POST",
      key,
      rawBody: '{"name":"x","scopes":["identity:read"]}',
      headers: { "content-type": "text/plain" },
    });
    expect(res.status).toBe(415);
    expect((await json(res)).code).toBe("svc.request.unsupported_media_type");
  });

  it("a body over the limit answers 413 svc.request.too_large", async () => {
    const { key } = await createTenant();
    const res = await api("/v1/api-keys", {
      method: "POST",
      key,
      rawBody: "x".repeat(MAX_JSON_BODY_BYTES + 1),
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(413);
    expect((await json(res)).code).toBe("svc.request.too_large");
  });

  it("an operation served but not classified in the policy table is denied to everyone", async () => {
    const app = createApp();
    app.get("/v1/unclassified", (c) => c.json({ leaked: true }));
    const { key } = await createTenant();
    for (const headers of [{}, { authorization: `Bearer ${key}` }] as Record<string, string>[]) {
      const res = await app.fetch(new Request("http://svc.test/v1/unclassified", { headers }), testEnv, createExecutionContext());
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ detail: FORBIDDEN_UNCLASSIFIED_DETAIL });
    }
  });

  it("an unexpected exception is a 500 svc.internal without stack or message", async () => {
    const app = createApp();
    const { OPERATION_POLICIES } = await import("../../../src/platform/auth/policy");
    OPERATION_POLICIES["GET /test/throws"] = { auth: "none" };
    app.get("/test/throws", () => {
      throw new TypeError("secret internal detail at /src/x.ts:1");
    });
    const res = await app.fetch(new Request("http://svc.test/test/throws"), testEnv, createExecutionContext());
    // Files share modules (isolate: false): other files must not see the test-only operation.
    delete OPERATION_POLICIES["GET /test/throws"];
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(text).not.toContain("secret internal detail");
    expect(text).not.toContain(".ts");
    expect(JSON.parse(text)).toMatchObject({ code: "svc.internal", retryable: true });
  });

  it("the errors page documents every code of the registry", async () => {
    const res = await api("/docs/errors");
    expect(res.status).toBe(200);
    const html = await res.text();
    for (const code of Object.keys(ERROR_CODES)) expect(html).toContain(`id="${code}"`);
    const { JOB_ERROR_CODES } = await import("../../../src/jobs/job-errors");
    for (const code of Object.keys(JOB_ERROR_CODES)) expect(html).toContain(`id="${code}"`);
  });

  it("the reference page lists the operations", async () => {
    const html = await (await api("/docs")).text();
    expect(html).toContain("/v1/capabilities");
    expect(html).toContain("capabilities:read");
  });
});
