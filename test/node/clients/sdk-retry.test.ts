/**
 * The SDK's client rules (SPEC "Client rules") against a scripted Worker in Miniflare: retry only on 429, 503 or
 * `retryable: true`; Retry-After honoured (measured); exponential backoff otherwise; the same Idempotency-Key on
 * every retry of one write and a fresh one per new write; the API key never sent to a capability URL; no retry
 * after the attempts run out or when Retry-After is beyond the ceiling.
 */
import { join } from "node:path";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createSvcClient, type SvcClient, SvcError, SvcJobError } from "../../../packages/client/src/index";
import { miniflareFetch } from "./sdk-support";

const KEY = "svc_live_retrytestkey0123456789";
let mf: Miniflare;
let client: SvcClient;

interface Logged {
  method: string;
  host: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  at: number;
}

const envelope = (code: string, retryable: boolean) => ({
  code,
  message: code,
  request_id: "req_abcdefghij234567",
  retryable,
  documentation_url: `https://svc.example/docs/errors#${code}`,
  field_details: [],
  job_reference: null,
});
const JOB = { job_id: "job_abcdefghij234567", state: "queued", mode: "standard" };

async function script(answers: { status: number; headers?: Record<string, string>; body?: unknown; raw?: string }[]) {
  await mf.dispatchFetch("http://api.test/__script", { method: "POST", body: JSON.stringify(answers) });
}
async function logged(): Promise<Logged[]> {
  return (await (await mf.dispatchFetch("http://api.test/__log")).json()) as Logged[];
}

beforeAll(async () => {
  mf = new Miniflare(
    convertV4MiniflareOptions({
      workers: [
        { name: "scripted", modules: true, scriptPath: join(import.meta.dirname, "scripted-worker.js"), compatibilityDate: "2026-10-01" },
      ],
    } as never),
  );
  await mf.ready;
});
afterAll(async () => {
  await mf?.dispose();
});
beforeEach(() => {
  client = createSvcClient({
    apiKey: KEY,
    baseUrl: "http://api.test",
    fetch: miniflareFetch(mf),
    retry: { baseDelayMs: 20, maxDelayMs: 200 },
  });
});

describe("SDK retry rules", () => {
  it("429 with Retry-After: waits at least that long, then succeeds with the same Idempotency-Key", async () => {
    await script([
      { status: 429, headers: { "retry-after": "1" }, body: envelope("API_KEY_RATE_LIMITED", true) },
      { status: 202, body: JOB },
    ]);
    const answer = await client.sign({ assetId: "ast_abcdefghij234567", recipeId: "rcp_system_sign_only" });
    expect(answer.status).toBe(202);
    const [first, second] = await logged();
    expect(second).toBeDefined();
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(1000);
    expect(second!.at - first!.at).toBeLessThan(3000);
    expect(first!.headers["idempotency-key"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(second!.headers["idempotency-key"]).toBe(first!.headers["idempotency-key"]);
    expect(second!.body).toBe(first!.body);
    expect(first!.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it("503 without Retry-After: retried with backoff until it succeeds, one key throughout", async () => {
    await script([
      { status: 503, body: envelope("svc.auth.unavailable", true) },
      { status: 503, body: "not an envelope" },
      { status: 202, body: JOB },
    ]);
    await client.sign({ assetId: "ast_abcdefghij234567" });
    const log = await logged();
    expect(log).toHaveLength(3);
    expect(new Set(log.map((l) => l.headers["idempotency-key"])).size).toBe(1);
  });

  it("a fresh Idempotency-Key per logical write; a caller's own key is kept", async () => {
    await script([
      { status: 202, body: JOB },
      { status: 202, body: JOB },
      { status: 202, body: JOB },
    ]);
    await client.sign({ assetId: "ast_abcdefghij234567" });
    await client.sign({ assetId: "ast_abcdefghij234567" });
    await client.sign({ assetId: "ast_abcdefghij234567", idempotencyKey: "my-own-key-1" });
    const keys = (await logged()).map((l) => l.headers["idempotency-key"]);
    expect(keys[0]).not.toBe(keys[1]);
    expect(keys[2]).toBe("my-own-key-1");
  });

  it.each([
    [422, envelope("svc.request.invalid", false)],
    [400, envelope("svc.verify.no_input", false)],
    [404, envelope("svc.resource.not_found", false)],
    [409, envelope("svc.jobs.conflict", false)],
    [500, envelope("svc.internal", false)],
    [401, { detail: "Authentication required" }],
    [403, { detail: "The API key lacks the scope this operation requires." }],
  ])("%i with retryable false (or no envelope): one attempt, a typed error", async (status, body) => {
    await script([
      { status, body, headers: { "x-request-id": "req_fromheader2345678" } },
      { status: 202, body: JOB },
    ]);
    const err = (await client.sign({ assetId: "ast_abcdefghij234567" }).catch((e: unknown) => e)) as SvcError;
    expect(err).toBeInstanceOf(SvcError);
    expect(err.status).toBe(status);
    expect(err.retryable).toBe(false);
    expect(err.request_id).toMatch(/^req_/);
    expect(err.code).toBe("code" in body ? body.code : `http_${status}`);
    expect(await logged()).toHaveLength(1);
    expect(`${err} ${JSON.stringify(err)} ${err.message}`).not.toContain(KEY);
  });

  it("a 4xx whose envelope says retryable (409 request_in_progress) is retried with the same key", async () => {
    await script([
      { status: 409, headers: { "retry-after": "0" }, body: envelope("svc.idempotency.request_in_progress", true) },
      { status: 202, body: JOB },
    ]);
    await client.sign({ assetId: "ast_abcdefghij234567" });
    const log = await logged();
    expect(log).toHaveLength(2);
    expect(log[1]!.headers["idempotency-key"]).toBe(log[0]!.headers["idempotency-key"]);
  });

  it("gives up after maxAttempts with the last answer as a retryable SvcError", async () => {
    const limited = createSvcClient({
      apiKey: KEY,
      baseUrl: "http://api.test",
      fetch: miniflareFetch(mf),
      retry: { maxAttempts: 3, baseDelayMs: 5 },
    });
    await script(Array.from({ length: 5 }, () => ({ status: 503, body: envelope("svc.auth.unavailable", true) })));
    const err = (await limited.sign({ assetId: "ast_abcdefghij234567" }).catch((e: unknown) => e)) as SvcError;
    expect(err).toBeInstanceOf(SvcError);
    expect(err.status).toBe(503);
    expect(err.retryable).toBe(true);
    expect(await logged()).toHaveLength(3);
  });

  it("a Retry-After beyond the ceiling is not waited out; retry: false sends once", async () => {
    const impatient = createSvcClient({
      apiKey: KEY,
      baseUrl: "http://api.test",
      fetch: miniflareFetch(mf),
      retry: { maxRetryAfterMs: 2000 },
    });
    await script([
      { status: 429, headers: { "retry-after": "3600" }, body: envelope("API_KEY_RATE_LIMITED", true) },
      { status: 202, body: JOB },
    ]);
    const started = Date.now();
    const err = (await impatient.sign({ assetId: "ast_abcdefghij234567" }).catch((e: unknown) => e)) as SvcError;
    expect(Date.now() - started).toBeLessThan(1000);
    expect(err.status).toBe(429);
    expect(err.retry_after).toBe(3600);
    expect(await logged()).toHaveLength(1);

    const once = createSvcClient({ apiKey: KEY, baseUrl: "http://api.test", fetch: miniflareFetch(mf), retry: false });
    await script([{ status: 503 }, { status: 202, body: JOB }]);
    await expect(once.sign({ assetId: "ast_abcdefghij234567" })).rejects.toBeInstanceOf(SvcError);
    expect(await logged()).toHaveLength(1);
  });

  it("reads (GET) are retried too, without an Idempotency-Key", async () => {
    await script([
      { status: 503, body: envelope("svc.auth.unavailable", true) },
      { status: 200, body: { ...JOB, state: "completed" } },
    ]);
    const { data } = await client.api.GET("/v1/jobs/{job_id}", { params: { path: { job_id: "job_abcdefghij234567" } } });
    expect(data?.state).toBe("completed");
    const log = await logged();
    expect(log).toHaveLength(2);
    expect(log.every((l) => l.headers["idempotency-key"] === undefined)).toBe(true);
  });

  it("an abort during a Retry-After wait ends the call at once", async () => {
    await script([
      { status: 429, headers: { "retry-after": "30" }, body: envelope("API_KEY_RATE_LIMITED", true) },
      { status: 202, body: JOB },
    ]);
    const started = Date.now();
    await expect(client.sign({ assetId: "ast_abcdefghij234567", signal: AbortSignal.timeout(300) })).rejects.toMatchObject({
      name: "TimeoutError",
    });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await logged()).toHaveLength(1);
  });

  it("upload: storage gets exactly the returned headers and never the key; complete carries a key; a failed PUT aborts", async () => {
    const created = {
      upload_id: "upl_abcdefghij234567",
      asset_id: "ast_abcdefghij234567",
      expires_at: "2026-11-28T10:00:00.000Z",
      mode: "single",
      status: "initiated",
      parts: [],
      upload: {
        method: "PUT",
        url: "http://storage.test/put/upl_abcdefghij234567?sig=x",
        headers: { "Content-Type": "image/jpeg", "X-Extra": "1" },
      },
    };
    const completed = {
      upload_id: created.upload_id,
      asset_id: created.asset_id,
      asset_object_id: "aob_abcdefghij234567",
      byte_length: 4,
      sha256: "x",
      status: "completed",
    };
    await script([{ status: 201, body: created }, { status: 503 }, { status: 200 }, { status: 200, body: completed }]);
    await client.upload(new Uint8Array([1, 2, 3, 4]), { mediaType: "image/jpeg" });
    const [create, put1, put2, complete] = await logged();
    expect(JSON.parse(create!.body)).toMatchObject({
      byte_length: 4,
      mode: "single",
      sha256: "9f64a747e1b97f131fabb6b447296c9b6f0201e79fb3c5356e6c77e89b6a806a",
    });
    for (const put of [put1!, put2!]) {
      expect(put.host).toBe("storage.test");
      expect(put.headers.authorization).toBeUndefined();
      expect(put.headers["idempotency-key"]).toBeUndefined();
      expect(put.headers["content-type"]).toBe("image/jpeg");
      expect(put.headers["x-extra"]).toBe("1");
    }
    expect(complete!.path).toBe("/v1/uploads/upl_abcdefghij234567/complete");
    expect(complete!.headers["idempotency-key"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(complete!.headers["idempotency-key"]).not.toBe(create!.headers["idempotency-key"]);

    await script([
      { status: 201, body: created },
      { status: 403, body: envelope("svc.storage.signature_invalid", false) },
      { status: 200 },
    ]);
    await expect(client.upload(new Uint8Array([1, 2, 3, 4]), { mediaType: "image/jpeg" })).rejects.toBeInstanceOf(SvcError);
    expect((await logged()).map((l) => l.path)).toEqual([
      "/v1/uploads",
      "/put/upl_abcdefghij234567",
      "/v1/uploads/upl_abcdefghij234567/abort",
    ]);
  });

  it("hostile answers: a non-JSON error, an empty body, a huge Retry-After date, all end as typed errors", async () => {
    await script([{ status: 418, raw: "<html>" }]);
    const e1 = (await client.sign({ assetId: "ast_abcdefghij234567" }).catch((e: unknown) => e)) as SvcError;
    expect(e1).toBeInstanceOf(SvcError);
    expect(e1.code).toBe("http_418");
    await script([{ status: 502 }]);
    const e2 = (await client.sign({ assetId: "ast_abcdefghij234567" }).catch((e: unknown) => e)) as SvcError;
    expect(e2.code).toBe("http_502");
    expect(e2.retryable).toBe(false);
    await script([
      { status: 429, headers: { "retry-after": "Fri, 31 Dec 9999 23:59:59 GMT" }, body: envelope("API_KEY_RATE_LIMITED", true) },
    ]);
    const e3 = (await client.sign({ assetId: "ast_abcdefghij234567" }).catch((e: unknown) => e)) as SvcError;
    expect(e3.status).toBe(429);
    await script([{ status: 202, raw: "<html>truncated" }]);
    const e4 = (await client.sign({ assetId: "ast_abcdefghij234567" }).catch((e: unknown) => e)) as SvcError;
    expect(e4).toBeInstanceOf(SvcError);
    expect(e4.code).toBe("invalid_response");
  });
});

describe("SDK job polling", () => {
  it("signAndWait polls until terminal; a rejected job throws SvcJobError with its error_code", async () => {
    await script([
      { status: 202, body: JOB },
      { status: 200, body: { ...JOB, state: "running" } },
      { status: 200, body: { ...JOB, state: "rejected", error_code: "svc.jobs.decode_failed", error_message: "cannot decode" } },
    ]);
    const states: string[] = [];
    const err = (await client
      .signAndWait({ assetId: "ast_abcdefghij234567", initialIntervalMs: 20, onUpdate: (j) => states.push(j.state) })
      .catch((e: unknown) => e)) as SvcJobError;
    expect(err).toBeInstanceOf(SvcJobError);
    expect(err.error_code).toBe("svc.jobs.decode_failed");
    expect(err.state).toBe("rejected");
    expect(states).toEqual(["queued", "running", "rejected"]);
    const log = await logged();
    expect(log.map((l) => `${l.method} ${l.path}`)).toEqual([
      "POST /v1/sign",
      "GET /v1/jobs/job_abcdefghij234567",
      "GET /v1/jobs/job_abcdefghij234567",
    ]);
    // the interval doubles: the second wait is longer than the first (each within ±20 % of 20 ms and 40 ms)
    expect(log[2]!.at - log[1]!.at).toBeGreaterThanOrEqual(30);
  });

  it("a job still running when the timeout passes ends the wait with a TimeoutError", async () => {
    await script(Array.from({ length: 50 }, () => ({ status: 200, body: { ...JOB, state: "running" } })));
    const started = Date.now();
    await expect(client.waitForJob(JOB.job_id, { timeoutMs: 300, initialIntervalMs: 20 })).rejects.toMatchObject({ name: "TimeoutError" });
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
