import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { api, BASE, createTenant, fixture, json } from "../support/helpers";
import { verifyFile } from "../support/verify-helpers";

const post = (body: BodyInit | null, headers: Record<string, string> = {}) =>
  (exports as unknown as { default: Fetcher }).default.fetch(`${BASE}/v1/verify`, {
    method: "POST",
    body,
    // An address of this file alone: rate buckets live in Durable Objects, which outlive a file in the same workerd.
    headers: { "cf-connecting-ip": "2001:db8:e770:10::1", ...headers },
  });

describe("POST /v1/verify: errors are the SPEC's envelopes", () => {
  it("no input → 400 svc.verify.no_input (empty body, empty JSON, multipart without file)", async () => {
    expect((await json(await post(null))).code).toBe("svc.verify.no_input");
    const emptyJson = await post("{}", { "content-type": "application/json" });
    expect(emptyJson.status).toBe(400);
    expect((await json(emptyJson)).code).toBe("svc.verify.no_input");
    const form = new FormData();
    form.append("other", "x");
    const noFile = await post(form);
    expect(noFile.status).toBe(400);
    expect((await json(noFile)).code).toBe("svc.verify.no_input");
  });

  it("an unknown file type → 415 svc.verify.unsupported_file_type", async () => {
    const res = await verifyFile(crypto.getRandomValues(new Uint8Array(300)));
    expect(res.status).toBe(415);
    expect((await json(res)).code).toBe("svc.verify.unsupported_file_type");
  });

  it("an invalid key → 401 svc.auth.invalid_key (not the public variant)", async () => {
    const res = await verifyFile(fixture("sample.jpg"), { key: `svc_live_${"a".repeat(52)}` });
    expect(res.status).toBe(401);
    expect((await json(res)).code).toBe("svc.auth.invalid_key");
    const malformed = await post(new FormData(), { authorization: "Basic abc" });
    expect(malformed.status).toBe(401);
  });

  it("a key without verify:write → 403", async () => {
    const { key } = await createTenant({ scopes: ["assets:read"] });
    expect((await verifyFile(fixture("sample.jpg"), { key })).status).toBe(403);
  });

  it("asset_id without a key → 401; an unknown or unpublished asset → 404", async () => {
    const anonymous = await post(JSON.stringify({ asset_id: "ast_abcdefghij234567" }), { "content-type": "application/json" });
    expect(anonymous.status).toBe(401);
    const { key } = await createTenant();
    expect((await api("/v1/verify", { method: "POST", key, body: { asset_id: "ast_abcdefghij234567" } })).status).toBe(404);
  });

  it("manifest_uri: refused without configured hosts, and for private or non-https targets", async () => {
    for (const uri of [
      "https://manifests.example.com/a.c2pa",
      "http://127.0.0.1/a.c2pa",
      "https://169.254.169.254/latest",
      "file:///etc/passwd",
      "not a url",
    ]) {
      const res = await post(JSON.stringify({ manifest_uri: uri }), { "content-type": "application/json" });
      expect(res.status, uri).toBe(422);
    }
  });

  it("other body types → 415; oversize files → 413", async () => {
    const text = await post("hello", { "content-type": "text/plain" });
    expect(text.status).toBe(415);
    const form = new FormData();
    form.append("file", new File([new Uint8Array(26 * 1024 * 1024)], "big.bin"));
    expect((await post(form)).status).toBe(413);
  });
});
