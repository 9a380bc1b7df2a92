import { describe, expect, it } from "vitest";
import { MCP_INLINE_FILE_MAXIMUM_BYTES, MCP_REQUEST_MAXIMUM_BYTES } from "../../../src/mcp/schemas";
import { FORBIDDEN_SCOPE_DETAIL, UNAUTHORIZED_DETAIL } from "../../../src/platform/errors";
import { addKey, api, BASE, createTenant, fixture, json, uploadAsset } from "../support/helpers";
import { verifyFile } from "../support/verify-helpers";
import { base64Of, callTool, connectClient, structured, workerFetch } from "./mcp-client";

const ACCEPT = "application/json, text/event-stream";

/** A raw POST /mcp, as any HTTP client could send it. */
function post(body: string, headers: Record<string, string> = {}) {
  return workerFetch(`${BASE}/mcp`, {
    method: "POST",
    headers: { accept: ACCEPT, "content-type": "application/json", ...headers },
    body,
  });
}

const toolsList = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });

/** No answer of the endpoint lets a browser page of another site read it, or sets anything a browser would keep. */
function expectNoAmbientCredentials(res: Response) {
  expect(res.headers.get("set-cookie")).toBeNull();
  for (const name of res.headers.keys()) expect(name.toLowerCase()).not.toMatch(/^access-control-/);
}

describe("MCP endpoint security (#21)", () => {
  it("no key and a bad key → the same 401 body as every keyed operation; neither reaches a tool, and the key is never echoed", async () => {
    const none = await post(toolsList);
    expect(none.status).toBe(401);
    expect(await json(none)).toEqual({ detail: UNAUTHORIZED_DETAIL });
    expectNoAmbientCredentials(none);

    const bogus = "svc_live_notarealkeynotarealkeynotarealkey0";
    const bad = await post(toolsList, { authorization: `Bearer ${bogus}` });
    expect(bad.status).toBe(401);
    const text = await bad.text();
    // One identical body whatever was wrong with the credential (absent, malformed, unknown), as every keyed operation.
    expect(JSON.parse(text)).toEqual({ detail: UNAUTHORIZED_DETAIL });
    expect(text).not.toContain(bogus);

    // The SDK's client fails to connect without a key.
    await expect(connectClient({})).rejects.toThrow();
  });

  it("a key of tenant B cannot read or act on tenant A's job, verification or asset (not found, as in REST)", async () => {
    const a = await createTenant();
    const b = await createTenant();
    const { assetId } = await uploadAsset(a.key, fixture("sample.jpg"), "image/jpeg");
    const signed = await api("/v1/sign", {
      method: "POST",
      key: a.key,
      body: { asset_id: assetId, recipe_id: "rcp_system_sign_only" },
      headers: { "idempotency-key": crypto.randomUUID() },
    });
    const jobId = (await json(signed)).job_id as string;
    const verificationId = (await json(await verifyFile(fixture("sample.jpg"), { key: a.key }))).verification_id as string;
    expect(jobId).toMatch(/^job_/);
    expect(verificationId).toMatch(/^vfy_/);

    const client = await connectClient({ Authorization: `Bearer ${b.key}` });
    for (const [tool, args] of [
      ["get_job", { job_id: jobId }],
      ["get_verification", { verification_id: verificationId }],
      ["verify_media", { asset_id: assetId }],
      ["sign_asset", { asset_id: assetId }],
    ] as const) {
      const result = await callTool(client, tool, args);
      expect(result.isError, tool).toBe(true);
      expect(structured(result), tool).toMatchObject({ http_status: 404, code: "svc.resource.not_found" });
    }
    const page = structured(await callTool(client, "list_assets"));
    expect(page.items).toEqual([]);
    // Tenant A still sees its own.
    const own = await connectClient({ Authorization: `Bearer ${a.key}` });
    expect(structured(await callTool(own, "get_job", { job_id: jobId })).job_id).toBe(jobId);
  });

  it("a key without a tool's scope gets the REST scope refusal as a tool error; the tools it holds work", async () => {
    const { key } = await createTenant({ scopes: ["capabilities:read"] });
    const client = await connectClient({ Authorization: `Bearer ${key}` });
    // Every tool is listed (descriptions name the scope); the REST call is the one check.
    expect((await client.listTools()).tools).toHaveLength(8);
    const refused = await callTool(client, "verify_media", { file_base64: base64Of(fixture("sample.jpg")) });
    expect(refused.isError).toBe(true);
    expect(structured(refused)).toEqual({ http_status: 403, detail: FORBIDDEN_SCOPE_DETAIL });
    const sign = await callTool(client, "sign_asset", { asset_id: "ast_abcdefghij234567" });
    expect(structured(sign)).toEqual({ http_status: 403, detail: FORBIDDEN_SCOPE_DETAIL });
    const upload = await callTool(client, "upload_file", { file_base64: base64Of(fixture("sample.jpg")), media_type: "image/jpeg" });
    expect(structured(upload)).toEqual({ http_status: 403, detail: FORBIDDEN_SCOPE_DETAIL });
    expect((await callTool(client, "get_capabilities")).isError).toBeFalsy();
  });

  it("bodies are bounded: over the limit → 413 svc.request.too_large, before any tool runs", async () => {
    const { key } = await createTenant();
    const padding = "A".repeat(MCP_REQUEST_MAXIMUM_BYTES);
    const res = await post(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "verify_media", arguments: { file_base64: padding } },
      }),
      { authorization: `Bearer ${key}` },
    );
    expect(res.status).toBe(413);
    expect((await json(res)).code).toBe("svc.request.too_large");
  });

  it("hostile tool input gets a clean tool error, never a throw: oversized, non-canonical, ambiguous, missing, path-shaped", async () => {
    const { key } = await createTenant();
    const client = await connectClient({ Authorization: `Bearer ${key}` });
    // One byte over the inline limit: the input schema refuses it (its base64 fits the body bound).
    const over = await callTool(client, "verify_media", { file_base64: base64Of(new Uint8Array(MCP_INLINE_FILE_MAXIMUM_BYTES + 1)) });
    expect(over.isError).toBe(true);
    expect((over.content[0] as { text: string }).text).toMatch(/validation/i);

    const notBase64 = await callTool(client, "verify_media", { file_base64: "not base64!" });
    expect(structured(notBase64)).toMatchObject({ http_status: 422, code: "svc.request.invalid" });
    const truncated = await callTool(client, "verify_media", { file_base64: base64Of(fixture("sample.jpg").subarray(0, 200)) });
    expect(truncated.isError, JSON.stringify(truncated)).toBeFalsy(); // a truncated JPEG is a result, not a failure
    expect(structured(truncated).status).toBeDefined();
    const garbage = await callTool(client, "verify_media", { file_base64: base64Of(crypto.getRandomValues(new Uint8Array(512))) });
    expect(structured(garbage)).toMatchObject({ http_status: 415, code: "svc.verify.unsupported_file_type" });

    const both = await callTool(client, "verify_media", { asset_id: "ast_abcdefghij234567", object_id: "aob_abcdefghij234567" });
    expect(structured(both)).toMatchObject({ http_status: 422, code: "svc.request.invalid" });
    expect(structured(both).request_id).toMatch(/^req_/);
    const none = await callTool(client, "verify_media", {});
    expect(structured(none)).toMatchObject({ http_status: 400, code: "svc.verify.no_input" });

    for (const job_id of ["job_../../v1/api-keys", "../api-keys", "job_ABCDEFGHIJ234567"]) {
      const result = await callTool(client, "get_job", { job_id });
      expect(result.isError, job_id).toBe(true);
      expect((result.content[0] as { text: string }).text, job_id).toMatch(/validation/i);
    }
    const unknown = await client.callTool({ name: "delete_everything", arguments: {} }).catch((e: Error) => e);
    expect(unknown instanceof Error ? unknown.message : JSON.stringify(unknown)).toMatch(/not found/i);
  });

  it("malformed protocol messages get clean 4xx answers", async () => {
    const { key } = await createTenant();
    const auth = { authorization: `Bearer ${key}` };
    const notJson = await post("{not json", auth);
    expect(notJson.status).toBeGreaterThanOrEqual(400);
    expect(notJson.status).toBeLessThan(500);
    const notRpc = await post(JSON.stringify({ hello: "world" }), auth);
    expect(notRpc.status).toBe(422);
    // No batches: one POST runs at most one tool call (their memory and CPU add up inside one isolate).
    const batch = await post(`[${toolsList},${toolsList}]`, auth);
    expect(batch.status).toBe(422);
    const wrongAccept = await post(toolsList, { ...auth, accept: "text/html" });
    expect(wrongAccept.status).toBe(406);
    const wrongType = await post(toolsList, { ...auth, "content-type": "text/plain" });
    expect(wrongType.status).toBeGreaterThanOrEqual(400);
    expect(wrongType.status).toBeLessThan(500);
  });

  it("no browser page can drive it with ambient credentials: a foreign Origin is refused, no CORS, no cookies, GET/DELETE/OPTIONS 405", async () => {
    const { key } = await createTenant();
    const foreign = await post(toolsList, { authorization: `Bearer ${key}`, origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
    expectNoAmbientCredentials(foreign);

    // Origin is compared with the configured public origin (SVC_PUBLIC_BASE_URL) only, never with the request's own
    // Host (a DNS-rebinding page chooses that): this environment configures none, so a page origin is refused.
    expect((await post(toolsList, { authorization: `Bearer ${key}`, origin: BASE })).status).toBe(403);
    expect((await post(toolsList, { authorization: `Bearer ${key}` })).status).toBe(200); // agents send no Origin
    const ok = await post(toolsList, { authorization: `Bearer ${key}` });
    expect(ok.status).toBe(200);
    expectNoAmbientCredentials(ok);
    expect(await ok.text()).not.toContain(key);

    const preflight = await workerFetch(`${BASE}/mcp`, {
      method: "OPTIONS",
      headers: {
        origin: "https://evil.example",
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization",
      },
    });
    expect(preflight.status).toBe(405);
    expectNoAmbientCredentials(preflight);
    for (const method of ["GET", "DELETE"]) {
      const res = await workerFetch(`${BASE}/mcp`, { method, headers: { authorization: `Bearer ${key}`, accept: ACCEPT } });
      expect(res.status, method).toBe(405);
      expect(res.headers.get("allow")).toBe("POST");
    }
  });

  it("a key's restrictions hold through MCP: its network allowlist (the caller's address reaches the REST call) and its rate limit", async () => {
    const admin = await createTenant();
    const restrict = async (body: unknown) => {
      const k = await addKey(admin.tenantId);
      const res = await api(`/v1/api-keys/${k.keyId}/restrictions`, { method: "PUT", key: admin.key, body });
      expect(res.status, await res.clone().text()).toBe(200);
      return k.key;
    };
    const allowlisted = await restrict({ ip_allowlist: ["203.0.113.0/24"], rate_limit_per_minute: null });
    await expect(connectClient({ Authorization: `Bearer ${allowlisted}`, "CF-Connecting-IP": "198.51.100.7" })).rejects.toThrow();
    const inside = await connectClient({ Authorization: `Bearer ${allowlisted}`, "CF-Connecting-IP": "203.0.113.9" });
    expect((await callTool(inside, "get_capabilities")).isError).toBeFalsy();

    // 3 a minute: initialize and notifications/initialized spend two, the tool call's POST the third, so its REST
    // call is refused: a tool error that says how long to wait (an agent sees no Retry-After header).
    const limited = await restrict({ ip_allowlist: [], rate_limit_per_minute: 3 });
    const client = await connectClient({ Authorization: `Bearer ${limited}`, "CF-Connecting-IP": "203.0.113.10" });
    const refused = await callTool(client, "get_capabilities");
    expect(refused.isError).toBe(true);
    expect(structured(refused)).toMatchObject({ http_status: 429, code: "API_KEY_RATE_LIMITED" });
    expect(structured(refused).retry_after_seconds).toBeGreaterThan(0);
  });
});
