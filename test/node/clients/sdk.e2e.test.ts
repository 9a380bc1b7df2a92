/**
 * @svc/client against the real Worker bundle (Miniflare): upload, sign (standard and express), wait, download with
 * the hash checked, verify the download; a sidecar format brings its manifest; typed errors carry code and
 * request_id; a lying hash or a tampered capability is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSvcClient, type SvcClient, SvcError, SvcIntegrityError } from "../../../packages/client/src/index";
import { fixtureBytes, type SignedService, sha256Hex, startSignedService } from "../../support/svc-client";
import { miniflareFetch, type Sent } from "./sdk-support";

let svc: SignedService;
let client: SvcClient;
const sent: Sent[] = [];

beforeAll(async () => {
  svc = await startSignedService();
  client = createSvcClient({ apiKey: svc.key, baseUrl: "http://svc.local", fetch: miniflareFetch(svc.worker.mf, sent) });
}, 120_000);

afterAll(async () => {
  await svc?.dispose();
});

describe("SDK end to end", () => {
  it("uploads a JPEG, signs it (standard), downloads it with the hash checked and verifies it", { timeout: 120_000 }, async () => {
    const source = fixtureBytes("sample.jpg");
    const phases = new Set<string>();
    const upload = await client.upload(new Blob([source], { type: "image/jpeg" }), {
      filename: "sample.jpg",
      onProgress: (p) => phases.add(`${p.phase}:${p.loaded === p.total ? "done" : "partial"}`),
    });
    expect(upload.status).toBe("completed");
    expect(upload.sha256).toBe(sha256Hex(source));
    expect(upload.byte_length).toBe(source.length);
    expect(phases).toContain("hash:done");
    expect(phases).toContain("upload:done");

    const updates: string[] = [];
    const { job, download } = await client.signAndWait({
      assetId: upload.asset_id,
      recipeId: "rcp_system_sign_only",
      timeoutMs: 90_000,
      onUpdate: (j) => updates.push(j.state),
    });
    expect(job.state).toBe("completed");
    expect(job.mode).toBe("standard");
    expect(download).toBeNull();
    expect(updates.at(-1)).toBe("completed");

    const got = await client.download(upload.asset_id);
    expect(got.byte_length).toBe(got.capability.byte_length);
    expect(got.sha256).toBe(sha256Hex(got.bytes));
    expect(got.media_type).toBe("image/jpeg");
    expect(got.sidecar).toBeNull();
    expect(got.bytes.length).toBeGreaterThan(source.length);

    const verdict = await client.verify(new Blob([got.bytes as Uint8Array<ArrayBuffer>]));
    expect(verdict.status, verdict.developer_explanation).toBe("verified_manifest");
    // by asset id too (keyed JSON variant)
    expect((await client.verify({ assetId: upload.asset_id })).status).toBe("verified_manifest");

    // the key went to the API only; capability requests carried exactly the returned headers
    const storage = sent.filter((s) => !new URL(s.url).pathname.startsWith("/v1/"));
    expect(storage.length).toBeGreaterThanOrEqual(2);
    for (const s of storage) {
      expect(s.headers.authorization).toBeUndefined();
      expect(s.headers["idempotency-key"]).toBeUndefined();
    }
    const writes = sent.filter((s) => s.method === "POST" && new URL(s.url).pathname.startsWith("/v1/"));
    for (const w of writes) expect(w.headers["idempotency-key"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(writes.map((w) => w.headers["idempotency-key"])).size).toBe(writes.length);
  });

  it("express: signAndWait answers with the download in the request; verify finds manifest and watermark", {
    timeout: 120_000,
  }, async () => {
    const source = fixtureBytes("photo-aitzgorri-900x675.jpg");
    const upload = await client.upload(source, { mediaType: "image/jpeg" });
    const answer = await client.sign({ assetId: upload.asset_id, recipeId: "rcp_system_watermark_then_sign", mode: "express" });
    expect(answer.job.mode).toBe("express");
    // the express wait is bounded (10 s); on a loaded machine it may answer 202, and signAndWait then polls
    const { job, download } =
      answer.status === 200
        ? { job: answer.job, download: answer.download }
        : await client.waitForJob(answer.job.job_id, { timeoutMs: 90_000 }).then((j) => ({ job: j, download: null }));
    expect(job.state).toBe("completed");
    if (answer.status === 200) expect(download).not.toBeNull();
    const got = await client.download(download ?? upload.asset_id, { verifyHash: true });
    const verdict = await client.verify(got.bytes);
    expect(verdict.status, verdict.developer_explanation).toMatch(/^verified_manifest/);

    // signAndWait on a new asset through express: either way it ends completed
    const second = await client.upload(source, { mediaType: "image/jpeg" });
    const done = await client.signAndWait({
      assetId: second.asset_id,
      recipeId: "rcp_system_watermark_then_sign",
      mode: "express",
      timeoutMs: 90_000,
    });
    expect(done.job.state).toBe("completed");
    expect(done.job.mode).toBe("express");
  });

  it("a sidecar format downloads with its manifest, both checked; verify with the manifest", { timeout: 120_000 }, async () => {
    const source = fixtureBytes("sample.txt");
    const upload = await client.upload(source, { mediaType: "text/plain" });
    await client.signAndWait({ assetId: upload.asset_id, recipeId: "rcp_private_sidecar_text_sign_only", timeoutMs: 90_000 });
    const got = await client.download(upload.asset_id);
    expect(got.sidecar).not.toBeNull();
    expect(got.sidecar!.filename).toBe(`${got.filename}.c2pa`);
    expect(got.sidecar!.sha256).toBe(got.capability.sidecar_manifest!.sha256);
    expect(Buffer.from(got.bytes).equals(Buffer.from(source))).toBe(true);
    const verdict = await client.verify(got.bytes, { manifest: got.sidecar!.bytes });
    expect(verdict.status, verdict.developer_explanation).toBe("verified_manifest");
  });

  it("multipart upload: parts of 5 MiB, ETags returned, progress per part", { timeout: 120_000 }, async () => {
    const bytes = new Uint8Array(11 * 1024 * 1024 + 17).fill(0x61); // text, 3 parts: 5 + 5 + 1 MiB and a bit
    const loaded: number[] = [];
    const done = await client.upload(bytes, {
      mediaType: "text/plain",
      multipartThreshold: 1024,
      partSize: 5 * 1024 * 1024,
      concurrency: 2,
      onProgress: (p) => p.phase === "upload" && loaded.push(p.loaded),
    });
    expect(done.status).toBe("completed");
    expect(done.byte_length).toBe(bytes.length);
    expect(done.sha256).toBe(sha256Hex(bytes));
    expect(loaded.at(-1)).toBe(bytes.length);
    expect(loaded.length).toBe(4); // 0, then one per part
  });

  it("a wrong declared hash is refused at completion as an SvcError with code and request_id", async () => {
    const err = await client
      .upload(fixtureBytes("sample.jpg"), { mediaType: "image/jpeg", sha256: "0".repeat(64) })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SvcError);
    const e = err as SvcError;
    expect(e.status).toBeGreaterThanOrEqual(400);
    expect(e.status).toBeLessThan(500);
    expect(e.code).toMatch(/^svc\./);
    expect(e.request_id).toMatch(/^req_/);
    expect(e.retryable).toBe(false);
  });

  it("a tampered capability (wrong SHA-256) is refused with SvcIntegrityError", { timeout: 60_000 }, async () => {
    const upload = await client.upload(fixtureBytes("sample.png"), { mediaType: "image/png" });
    await client.signAndWait({ assetId: upload.asset_id, recipeId: "rcp_system_sign_only", timeoutMs: 50_000 });
    const cap = (await client.download(upload.asset_id)).capability;
    const wrongHash = { ...cap, sha256: "f".repeat(64) };
    await expect(client.download(wrongHash)).rejects.toBeInstanceOf(SvcIntegrityError);
    const shorter = { ...cap, byte_length: cap.byte_length - 1 };
    await expect(client.download(shorter)).rejects.toBeInstanceOf(SvcIntegrityError);
    // unchecked on request: the bytes arrive as served
    expect((await client.download(wrongHash, { verifyHash: false })).byte_length).toBe(cap.byte_length);
  });

  it("typed errors: 401 (fix the key), 404, 422 with field details", async () => {
    const badKey = createSvcClient({ apiKey: "svc_live_wrong", baseUrl: "http://svc.local", fetch: miniflareFetch(svc.worker.mf) });
    const e401 = (await badKey.download("ast_abcdefghij234567").catch((e: unknown) => e)) as SvcError;
    expect(e401).toBeInstanceOf(SvcError);
    expect(e401.status).toBe(401);
    expect(e401.code).toBe("http_401");
    expect(e401.detail).toMatch(/API key/);
    expect(e401.request_id).toMatch(/^req_/);
    expect(e401.retryable).toBe(false);
    expect(`${e401} ${JSON.stringify(e401)} ${e401.stack}`).not.toContain("svc_live_wrong");

    const e404 = (await client.download("ast_abcdefghij234567").catch((e: unknown) => e)) as SvcError;
    expect(e404).toBeInstanceOf(SvcError);
    expect(e404.status).toBe(404);
    expect(e404.code).toBe("svc.resource.not_found");
    expect(e404.request_id).toMatch(/^req_/);

    const e422 = (await client.sign({ assetId: "not-an-asset-id", recipeId: "rcp_system_sign_only" }).catch((e: unknown) => e)) as SvcError;
    expect(e422).toBeInstanceOf(SvcError);
    expect(e422.status).toBe(422);
    expect(e422.code).toBe("svc.request.invalid");
    expect(e422.request_id).toMatch(/^req_/);
    expect(e422.field_details.map((f) => f.field)).toContain("asset_id");

    // the generic typed API, unwrapped the same way
    const { error, response } = await client.api.GET("/v1/jobs/{job_id}", { params: { path: { job_id: "job_abcdefghij234567" } } });
    expect(response.status).toBe(404);
    expect(error).toMatchObject({ code: "svc.resource.not_found" });
  });

  it("public verify (no key) answers a status; a truncated JPEG ends as a status or a typed refusal", { timeout: 60_000 }, async () => {
    const anonymousSent: Sent[] = [];
    const anonymous = createSvcClient({ baseUrl: "http://svc.local", fetch: miniflareFetch(svc.worker.mf, anonymousSent) });
    const verdict = await anonymous.verify(fixtureBytes("sample.jpg"));
    expect(verdict.status).toBeTypeOf("string");
    const truncated = await anonymous.verify(new Uint8Array([0xff, 0xd8, 0xff])).catch((e: unknown) => e);
    // a three-byte "JPEG": a clean status or a typed refusal, never a throw of another kind
    if (truncated instanceof Error) expect(truncated).toBeInstanceOf(SvcError);
    expect(anonymousSent.every((r) => r.headers.authorization === undefined)).toBe(true);
    // a keyed client asked for the public variant sends no key either
    const before = sent.length;
    await client.verify(fixtureBytes("sample.jpg"), { public: true });
    expect(sent.slice(before).every((r) => r.headers.authorization === undefined)).toBe(true);
  });
});
