/**
 * The SDK's pure parts: the incremental SHA-256 against Node's, across block edges and the sliced path; webhook
 * verification with the Standard Webhooks library (valid, rotated, tampered, stale, wrong secret, not UTF-8,
 * not JSON); error envelopes of every shape; fromEnv; the core free of Node-only imports.
 */
import { spawnSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { errorFromBody } from "../../../packages/client/src/errors";
import {
  fromEnv,
  Sha256,
  SvcError,
  SvcWebhookError,
  sha256Blob,
  sha256Bytes,
  unwrap,
  verifyWebhook,
  webhooks,
} from "../../../packages/client/src/index";

const nodeHex = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

describe("SHA-256", () => {
  it.each([0, 1, 55, 56, 63, 64, 65, 119, 120, 127, 128, 1000, 1 << 20])(
    "%i bytes, whole and in uneven chunks, equals Node's",
    async (n) => {
      const bytes = new Uint8Array(randomBytes(n));
      expect(new Sha256().update(bytes).digestHex()).toBe(nodeHex(bytes));
      const h = new Sha256();
      for (let i = 0; i < n; i += 37) h.update(bytes.subarray(i, i + 37));
      expect(h.digestHex()).toBe(nodeHex(bytes));
      expect(await sha256Bytes(bytes)).toBe(nodeHex(bytes));
    },
  );

  it("a Blob above 64 MiB is hashed over slices and equals Node's", { timeout: 60_000 }, async () => {
    const bytes = new Uint8Array(65 * 1024 * 1024 + 3);
    for (let i = 0; i < bytes.length; i += 4096) bytes[i] = i & 0xff;
    const seen: number[] = [];
    expect(await sha256Blob(new Blob([bytes]), (n) => seen.push(n))).toBe(nodeHex(bytes));
    expect(seen.at(-1)).toBe(bytes.length);
    expect(seen.length).toBe(9);
  });
});

describe("webhooks.verify", () => {
  const secret = `whsec_${Buffer.from(randomBytes(24)).toString("base64")}`;
  const other = `whsec_${Buffer.from(randomBytes(24)).toString("base64")}`;
  const body = JSON.stringify({
    id: "evt_1",
    type: "asset.signed",
    event_catalog_version: "svc.customer-events.v1",
    timestamp: "x",
    test: false,
    data: { asset_id: "ast_x" },
  });
  const signed = (s: string, payload = body, at = new Date()) => {
    const id = "msg_abc";
    return {
      "webhook-id": id,
      "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
      "webhook-signature": new Webhook(s).sign(id, at, payload),
    };
  };

  it("accepts a valid delivery (string, bytes, Headers, rotated signature list)", () => {
    expect(verifyWebhook(body, signed(secret), secret).type).toBe("asset.signed");
    expect(webhooks.verify(new TextEncoder().encode(body), new Headers(signed(secret)), secret).id).toBe("evt_1");
    const h = signed(secret);
    const rotated = { ...h, "webhook-signature": `${signed(other)["webhook-signature"]} ${h["webhook-signature"]}` };
    expect(verifyWebhook(body, rotated, secret).type).toBe("asset.signed");
  });

  it.each([
    ["a tampered body", () => [body.replace("ast_x", "ast_y"), signed(secret), secret]],
    ["the wrong secret", () => [body, signed(other), secret]],
    ["a stale timestamp", () => [body, signed(secret, body, new Date(Date.now() - 301_000)), secret]],
    ["missing headers", () => [body, {}, secret]],
    ["a body that is not UTF-8", () => [new Uint8Array([0xff, 0xfe, 0x00]), signed(secret), secret]],
    ["a secret that is not one", () => [body, signed(secret), ""]],
    ["a signed body that is not JSON", () => ["not json", signed(secret, "not json"), secret]],
    ["a signed JSON that is no event", () => ["[1]", signed(secret, "[1]"), secret]],
  ])("refuses %s with SvcWebhookError (the secret never in the message)", (_name, make) => {
    const [payload, headers, s] = make() as [string, Record<string, string>, string];
    let thrown: unknown;
    try {
      verifyWebhook(payload, headers, s);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(SvcWebhookError);
    if (s) expect((thrown as Error).message).not.toContain(s.slice(6));
  });
});

describe("error envelopes", () => {
  const headers = new Headers({ "x-request-id": "req_header", "retry-after": "7" });
  it("reads the reason-coded envelope", () => {
    const e = errorFromBody(422, headers, {
      code: "svc.request.invalid",
      message: "bad",
      request_id: "req_body",
      retryable: false,
      documentation_url: "https://x/docs",
      field_details: [{ location: "body", field: "asset_id", code: "invalid_string", message: "m" }],
      job_reference: null,
      detail: "Request validation failed.",
    });
    expect(e).toMatchObject({
      status: 422,
      code: "svc.request.invalid",
      request_id: "req_body",
      retryable: false,
      detail: "Request validation failed.",
      retry_after: 7,
    });
    expect(e.field_details[0]!.field).toBe("asset_id");
    expect(String(e)).toContain("req_body");
  });
  it("unwrap takes an openapi-fetch answer or its promise, as the READMEs write it", async () => {
    const ok = { data: { items: [] }, response: new Response("{}", { status: 200 }) };
    expect(await unwrap(ok)).toEqual({ items: [] });
    // README: `await unwrap(svc.api.GET(...))`, the promise itself (a TypeError before)
    expect(await unwrap(Promise.resolve(ok))).toEqual({ items: [] });
    const body = { code: "svc.request.invalid", message: "bad", request_id: "req_x", retryable: false };
    const failed = Promise.resolve({ error: body, response: Response.json(body, { status: 422 }) });
    await expect(unwrap(failed)).rejects.toMatchObject({ status: 422, code: "svc.request.invalid" });
  });
  it.each([null, "text", 42, [1, 2], { code: 5, retryable: "yes" }])("survives a body of %j", (body) => {
    const e = errorFromBody(503, headers, body);
    expect(e).toBeInstanceOf(SvcError);
    expect(e.code).toBe("http_503");
    expect(e.retryable).toBe(true);
    expect(e.request_id).toBe("req_header");
  });
});

describe("environment and portability", () => {
  it("fromEnv reads SVC_API_KEY and SVC_API_BASE_URL only", () => {
    expect(fromEnv({ SVC_API_KEY: "k", SVC_API_BASE_URL: "https://api.example", OTHER: "x" })).toEqual({
      apiKey: "k",
      baseUrl: "https://api.example",
    });
    expect(fromEnv({})).toEqual({});
  });
  it("plain Node (type stripping, no bundler) loads the package as the CLI does", () => {
    const run = spawnSync(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        "const m = await import('@svc/client'); console.log(typeof m.createSvcClient, typeof m.webhooks.verify)",
      ],
      { cwd: join(import.meta.dirname, "../../../packages/cli"), encoding: "utf8" },
    );
    expect(run.stderr).not.toMatch(/Error/);
    expect(run.stdout.trim()).toBe("function function");
  });
  it("the core imports nothing Node-only and reads no environment outside env.ts", () => {
    const dir = join(import.meta.dirname, "../../../packages/client/src");
    for (const file of readdirSync(dir).filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))) {
      const text = readFileSync(join(dir, file), "utf8");
      expect(text, file).not.toMatch(/from "node:|require\(|\bBuffer\b/);
      if (file !== "env.ts") expect(text, file).not.toMatch(/process\./);
    }
  });
});
