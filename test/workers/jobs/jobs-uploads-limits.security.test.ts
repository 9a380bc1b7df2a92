import { describe, expect, it } from "vitest";
import { registryFor } from "../../../src/catalog/installed";
import { database } from "../../../src/db/client";
import { admitSign } from "../../../src/jobs/admission";
import type { JobServices } from "../../../src/jobs/runner";
import * as runner from "../../../src/jobs/runner";
import * as sweep from "../../../src/jobs/sweep";
import { mediaServices } from "../../../src/media";
import { concatBytes } from "../../../src/platform/bytes";
import { api, callUrl, createTenant, fixture, json, sha256HexOf, testEnv, uploadAsset, waitForJob } from "../support/helpers";
import { servicesWithDecode } from "../support/jobs.helpers";

const sign = (key: string, body: unknown, idem: string = crypto.randomUUID()) =>
  api("/v1/sign", { method: "POST", key, body, headers: { "idempotency-key": idem } });
const signBatch = (key: string, items: unknown[], idem: string = crypto.randomUUID()) =>
  api("/v1/sign/batch", { method: "POST", key, body: { items }, headers: { "idempotency-key": idem } });

/** Numbers the sweep and runner export after the fix; the fallbacks keep this file loadable on older code. */
const LEASE_MS: number = ((runner as Record<string, unknown>).JOB_LEASE_MS as number) ?? 15 * 60_000;
const MAX_ATTEMPTS: number = ((runner as Record<string, unknown>).MAX_JOB_ATTEMPTS as number) ?? 6;
const START_DEADLINE_MS: number = ((sweep as Record<string, unknown>).JOB_START_DEADLINE_MS as number) ?? 24 * 3_600_000;

/** A grayscale PNG of the given size, all black (a few KB of bytes, many pixels). */
async function blackPng(width: number, height: number): Promise<Uint8Array> {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Uint8Array) => {
    let c = 0xffffffff;
    for (const b of bytes) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Uint8Array) => {
    const out = new Uint8Array(12 + data.length);
    const view = new DataView(out.buffer);
    view.setUint32(0, data.length);
    out.set(new TextEncoder().encode(type), 4);
    out.set(data, 8);
    view.setUint32(8 + data.length, crc(out.subarray(4, 8 + data.length)));
    return out;
  };
  const ihdr = new Uint8Array(13);
  const v = new DataView(ihdr.buffer);
  v.setUint32(0, width);
  v.setUint32(4, height);
  ihdr.set([8, 0, 0, 0, 0], 8); // 8-bit grayscale
  const raw = new Uint8Array((width + 1) * height); // filter byte 0 and black pixels on every row
  const compressed = new Uint8Array(
    await new Response(new Blob([raw]).stream().pipeThrough(new CompressionStream("deflate"))).arrayBuffer(),
  );
  const parts = [
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", compressed),
    chunk("IEND", new Uint8Array()),
  ];
  return concatBytes(parts);
}

async function limitKey(keyId: string, perMinute: number) {
  await testEnv.DB.prepare("UPDATE api_keys SET restrictions = ? WHERE id = ?")
    .bind(JSON.stringify({ version: 1, ip_allowlist: [], rate_limit_per_minute: perMinute, updated_at: new Date().toISOString() }), keyId)
    .run();
}

/** Admits a job without a queue message, so the test drives the runner and the sweep itself. */
async function admitted(recipe = "rcp_system_sign_only", file = "sample.jpg") {
  const tenant = await createTenant();
  const { assetId } = await uploadAsset(tenant.key, fixture(file), "image/jpeg");
  const result = await admitSign(database(testEnv.DB), registryFor(testEnv), tenant.tenantId, { asset_id: assetId, recipe_id: recipe });
  if (result.status !== "admitted") throw new Error(JSON.stringify(result));
  return { tenant, assetId, job: result.job };
}

async function jobRow(id: string) {
  return (await testEnv.DB.prepare("SELECT * FROM jobs WHERE id = ?").bind(id).first<Record<string, any>>())!;
}

async function crashingServices(): Promise<JobServices> {
  const real = await mediaServices(testEnv);
  return { ...real, reader: { read: async () => Promise.reject(new Error("the isolate died here")) } };
}

describe("#13 jobs, uploads and limits", () => {
  it("#13.10 sign-only signs an image above the 12 MP decode limit; decoding recipes still refuse it", async () => {
    const { key, tenantId } = await createTenant();
    const png = await blackPng(4000, 3100); // 12.4 MP
    const { assetId } = await uploadAsset(key, png, "image/png", "big.png");
    const watermark = await sign(key, { asset_id: assetId, recipe_id: "rcp_system_watermark_then_sign" });
    expect(watermark.status).toBe(422);
    expect((await json(watermark)).code).toBe("svc.sign.image_dimensions_unsupported");

    const res = await sign(key, { asset_id: assetId, recipe_id: "rcp_system_sign_only" });
    expect(res.status).toBe(202);
    const jobId = (await json(res)).job_id;
    // Run it here as the queue would (its consumer may run it too: runs are idempotent).
    await runner.runJob(testEnv, await mediaServices(testEnv), tenantId, jobId);
    const done = await waitForJob(key, jobId, 90_000);
    expect(done).toMatchObject({ state: "completed", error_code: null });
  }, 180_000);

  it("#13.11 refused sign and batch requests spend no rate-limit unit; a batch above the key's capacity is a clear 422", async () => {
    const tenant = await createTenant();
    await limitKey(tenant.keyId, 3);
    // Ten refused signs (no such asset) with a limit of 3 a minute: none is rate limited.
    for (let i = 0; i < 10; i++) {
      const res = await sign(tenant.key, { asset_id: "ast_aaaaaaaaaaaaaaaa", recipe_id: "rcp_system_sign_only" });
      expect(res.status).toBe(404);
    }
    // A refused batch (every item refused) spends nothing either.
    const refusedBatch = await signBatch(tenant.key, [
      { asset_id: "ast_aaaaaaaaaaaaaaaa", recipe_id: "rcp_system_sign_only" },
      { asset_id: "ast_bbbbbbbbbbbbbbbb", recipe_id: "rcp_system_sign_only" },
    ]);
    expect(refusedBatch.status).toBe(202);
    expect((await json(refusedBatch)).items.map((i: { status: number }) => i.status)).toEqual([404, 404]);

    // A batch larger than the bucket can ever hold: 422 naming the limit, not 429.
    const tooBig = await signBatch(
      tenant.key,
      Array.from({ length: 4 }, () => ({ asset_id: "ast_aaaaaaaaaaaaaaaa", recipe_id: "rcp_system_sign_only" })),
    );
    expect(tooBig.status).toBe(422);
    const body = await json(tooBig);
    expect(body.code).toBe("svc.sign.batch_exceeds_rate_limit");
    expect(body.message).toContain("3");
    expect(tooBig.headers.get("retry-after")).toBeNull();

    // The whole capacity is still there: three real signs pass, the fourth is limited.
    const assets = [];
    for (let i = 0; i < 3; i++)
      assets.push((await uploadAsset((await createTenantKeyOf(tenant)).key, fixture("sample.jpg"), "image/jpeg")).assetId);
    const batch = await signBatch(
      tenant.key,
      assets.map((asset_id) => ({ asset_id, recipe_id: "rcp_system_sign_only" })),
    );
    expect(batch.status).toBe(202);
    expect((await json(batch)).items.map((i: { status: number }) => i.status)).toEqual([202, 202, 202]);
    expect((await sign(tenant.key, { asset_id: "ast_aaaaaaaaaaaaaaaa", recipe_id: "rcp_system_sign_only" })).status).toBe(429);
  });

  it("#13.12 a failed multipart complete leaks no storage text and leaves the upload retryable or failed; complete racing abort never leaves an object without bytes", async () => {
    const { key } = await createTenant();
    const bytes = fixture("sample.jpg");
    const createMultipart = async (sha256: string) => {
      const res = await api("/v1/uploads", {
        method: "POST",
        key,
        body: {
          byte_length: bytes.length,
          declared_media_type: "image/jpeg",
          mode: "multipart",
          sha256,
          parts: [{ part_number: 1, byte_length: bytes.length }],
        },
      });
      expect(res.status).toBe(201);
      const upload = await json(res);
      const put = await callUrl(upload.parts[0].url, { method: "PUT", headers: upload.parts[0].headers, body: bytes });
      expect(put.status).toBe(200);
      return { id: upload.upload_id as string, etag: put.headers.get("etag")!.replaceAll('"', "") };
    };
    const complete = (id: string, parts: unknown[]) =>
      api(`/v1/uploads/${id}/complete`, { method: "POST", key, body: { parts }, headers: { "idempotency-key": crypto.randomUUID() } });
    const noStorageText = (body: { message: string }) => {
      expect(body.message).not.toMatch(/\(\d{5}\)|multipart upload|completeMultipartUpload|R2|Error:/i);
    };

    // A wrong ETag: refused with our own words, and the upload can still be completed with the right one.
    const first = await createMultipart(await sha256HexOf(bytes));
    const wrong = await complete(first.id, [{ part_number: 1, etag: "0".repeat(32) }]);
    expect(wrong.status).toBe(422);
    const wrongBody = await json(wrong);
    expect(wrongBody.code).toBe("svc.uploads.parts_invalid");
    noStorageText(wrongBody);
    const right = await complete(first.id, [{ part_number: 1, etag: first.etag }]);
    expect(right.status).toBe(200);

    // Assembled bytes that do not match the declared hash: the parts are spent, so the upload is failed with a code.
    const second = await createMultipart("a".repeat(64));
    const mismatch = await complete(second.id, [{ part_number: 1, etag: second.etag }]);
    expect((await json(mismatch)).code).toBe("svc.uploads.sha256_mismatch");
    const again = await complete(second.id, [{ part_number: 1, etag: second.etag }]);
    const againBody = await json(again);
    expect(again.status).toBe(409);
    expect(againBody.code).toBe("svc.uploads.failed");
    expect(againBody.message).toContain("svc.uploads.sha256_mismatch");
    noStorageText(againBody);

    // The race: complete and abort at once, many times, in both orders.
    const tenant = await createTenant();
    const sha256 = await sha256HexOf(bytes);
    for (let i = 0; i < 16; i++) {
      const created = await json(
        await api("/v1/uploads", {
          method: "POST",
          key: tenant.key,
          body: { byte_length: bytes.length, declared_media_type: "image/jpeg", mode: "single", sha256 },
        }),
      );
      expect((await callUrl(created.upload.url, { method: "PUT", headers: created.upload.headers, body: bytes })).status).toBe(200);
      const doComplete = () =>
        api(`/v1/uploads/${created.upload_id}/complete`, {
          method: "POST",
          key: tenant.key,
          body: {},
          headers: { "idempotency-key": crypto.randomUUID() },
        });
      const doAbort = () =>
        api(`/v1/uploads/${created.upload_id}/abort`, {
          method: "POST",
          key: tenant.key,
          headers: { "idempotency-key": crypto.randomUUID() },
        });
      const [c, a] = i % 2 === 0 ? await Promise.all([doComplete(), doAbort()]) : (await Promise.all([doAbort(), doComplete()])).reverse();
      expect([200, 410]).toContain(c!.status);
      expect([200, 409]).toContain(a!.status);
      // Exactly one of them won.
      expect(c!.status === 200).toBe(a!.status === 409);
    }
    const objects = await testEnv.DB.prepare("SELECT id, r2_key FROM objects WHERE tenant_id = ?")
      .bind(tenant.tenantId)
      .all<{ id: string; r2_key: string }>();
    for (const o of objects.results) expect(await testEnv.OBJECTS.head(o.r2_key), `object ${o.id} has no bytes`).not.toBeNull();
    const completed = await testEnv.DB.prepare("SELECT COUNT(*) AS n FROM uploads WHERE tenant_id = ? AND status = 'completed'")
      .bind(tenant.tenantId)
      .first<{ n: number }>();
    expect(objects.results.length).toBe(completed!.n);
  }, 180_000);

  it("#13.13 a job whose step keeps crashing is re-queued when its lease lapses, then failed with a code and job.failed", async () => {
    // One crash, then the lease lapses: the sweep re-queues it and the queue finishes it.
    const once = await admitted();
    await expect(runner.runJob(testEnv, await crashingServices(), once.tenant.tenantId, once.job.id)).rejects.toThrow(
      "the isolate died here",
    );
    expect((await jobRow(once.job.id)).state).toBe("running");
    await sweep.requeueStaleJobs(testEnv, Date.now() + LEASE_MS + 1000);
    expect((await waitForJob(once.tenant.key, once.job.id, 90_000)).state).toBe("completed");

    // Crashing on every attempt: after the bounded attempts the sweep fails it, with job.failed in the outbox.
    const { tenant, assetId, job } = await admitted();
    const services = await crashingServices();
    for (let i = 0; i < MAX_ATTEMPTS; i++)
      await expect(runner.runJob(testEnv, services, tenant.tenantId, job.id)).rejects.toThrow("the isolate died here");
    expect((await jobRow(job.id)).state).toBe("running");
    await sweep.requeueStaleJobs(testEnv, Date.now() + LEASE_MS + 1000);
    const failed = await json(await api(`/v1/jobs/${job.id}`, { key: tenant.key }));
    expect(failed).toMatchObject({ state: "failed", error_code: "svc.jobs.attempts_exhausted", result: null });
    expect(failed.terminal_at).not.toBeNull();
    expect((await json(await api(`/v1/assets/${assetId}`, { key: tenant.key }))).status).toBe("failed");
    const events = await testEnv.DB.prepare("SELECT type, body FROM webhook_events WHERE tenant_id = ?")
      .bind(tenant.tenantId)
      .all<{ type: string; body: string }>();
    expect(events.results.map((e) => e.type)).toEqual(["job.failed"]);
    expect(JSON.parse(events.results[0]!.body).data).toMatchObject({
      job_id: job.id,
      asset_id: assetId,
      state: "failed",
      error_code: "svc.jobs.attempts_exhausted",
    });
    // A late redelivery changes nothing.
    await runner.runJob(testEnv, services, tenant.tenantId, job.id);
    expect((await jobRow(job.id)).state).toBe("failed");
  }, 240_000);

  it("#13.13 two runners for one job (a duplicate message while the lease is live): one runs, the other spends no attempt", async () => {
    const { tenant, job } = await admitted();
    const real = await mediaServices(testEnv);
    let reads = 0; // the reader checks every output once per run
    const services: JobServices = {
      ...real,
      reader: { read: (...args: Parameters<typeof real.reader.read>) => (reads++, real.reader.read(...args)) },
    };
    await Promise.all([
      runner.runJob(testEnv, services, tenant.tenantId, job.id),
      runner.runJob(testEnv, services, tenant.tenantId, job.id),
    ]);
    const row = await jobRow(job.id);
    expect(row.state).toBe("completed");
    expect(row.attempts).toBe(1);
    expect(reads).toBe(1);
  });

  it("#13.13 accepted, rejected and expired are reached: admitted-not-queued, input refused at run time, never started in time", async () => {
    // accepted: admitted, not yet handed to the queue; the sweep hands it over.
    const a = await admitted();
    expect(a.job.state).toBe("accepted");
    expect((await json(await api(`/v1/jobs/${a.job.id}`, { key: a.tenant.key }))).state).toBe("accepted");

    // expired: never started within the start deadline.
    const e = await admitted();
    await sweep.requeueStaleJobs(testEnv, Date.now() + START_DEADLINE_MS + 1000);
    const expired = await json(await api(`/v1/jobs/${e.job.id}`, { key: e.tenant.key }));
    expect(expired).toMatchObject({ state: "expired", error_code: "svc.jobs.expired", result: null });
    expect((await json(await api(`/v1/assets/${e.assetId}`, { key: e.tenant.key }))).status).toBe("uploaded");

    // rejected: the input cannot be processed (the image does not decode): a reason, not a crash.
    const tenant = await createTenant();
    const { assetId } = await uploadAsset(tenant.key, fixture("sample-1mp.jpg"), "image/jpeg");
    const r = await admitSign(database(testEnv.DB), registryFor(testEnv), tenant.tenantId, {
      asset_id: assetId,
      recipe_id: "rcp_system_watermark_then_sign",
    });
    if (r.status !== "admitted") throw new Error(JSON.stringify(r));
    const undecodable = await servicesWithDecode(async () => ({ status: "unsupported", message: "no" }));
    await runner.runJob(testEnv, undecodable, tenant.tenantId, r.job.id);
    const rejected = await json(await api(`/v1/jobs/${r.job.id}`, { key: tenant.key }));
    expect(rejected).toMatchObject({ state: "rejected", error_code: "svc.jobs.decode_failed", result: null });
    expect(rejected.terminal_at).not.toBeNull();
  }, 180_000);

  it("#13.19 the signing profile holds watermark algorithm, strength and fingerprint defaults and allowed sets, checked against the registry and used by the next sign", async () => {
    const admin = await createTenant();
    const signer = await createTenantKeyOf(admin);
    const put = (body: Record<string, unknown>) =>
      api(`/v1/api-keys/${signer.keyId}/signing-profile`, {
        method: "PUT",
        key: admin.key,
        body: { default_recipe_id: null, allowed_recipe_ids: null, ...body },
      });
    const profile = {
      default_watermark_algorithm: "svc-wm-tiledss-1",
      allowed_watermark_algorithms: ["svc-wm-tiledss-1"],
      default_watermark_strength: "robust",
      allowed_watermark_strengths: ["balanced", "robust"],
      default_fingerprint_algorithms: ["pdq"],
      allowed_fingerprint_algorithms: ["pdq"],
    };
    const saved = await put(profile);
    expect(saved.status).toBe(200);
    expect(await json(saved)).toMatchObject(profile);
    expect(await json(await api(`/v1/api-keys/${signer.keyId}/signing-profile`, { key: admin.key }))).toMatchObject(profile);

    // Checked against the capability registry and for consistency.
    const unknown = await put({ default_watermark_algorithm: "no-such-mark" });
    expect([unknown.status, (await json(unknown)).code]).toEqual([422, "svc.request.invalid"]);
    const unavailable = await put({ default_watermark_algorithm: "trustmark-q" });
    expect([unavailable.status, (await json(unavailable)).code]).toEqual([422, "svc.sign.algorithm_unavailable"]);
    const inconsistent = await put({ default_watermark_strength: "subtle", allowed_watermark_strengths: ["robust"] });
    expect([inconsistent.status, (await json(inconsistent)).code]).toEqual([422, "svc.request.invalid"]);
    expect((await json(await api(`/v1/api-keys/${signer.keyId}/signing-profile`, { key: admin.key }))).default_watermark_strength).toBe(
      "robust",
    );

    // The next sign: what the request names must be allowed; what it leaves out comes from the profile.
    const { assetId } = await uploadAsset(admin.key, fixture("sample-1mp.jpg"), "image/jpeg");
    const subtle = await sign(signer.key, { asset_id: assetId, recipe_id: "rcp_system_watermark_then_sign", watermark_strength: "subtle" });
    expect([subtle.status, (await json(subtle)).code]).toEqual([403, "svc.sign.option_not_allowed"]);
    const iscc = await sign(signer.key, {
      asset_id: assetId,
      recipe_id: "rcp_system_watermark_then_sign",
      fingerprint_algorithms: ["iscc-image", "pdq"],
    });
    expect(iscc.status).toBe(202); // the locked ISCC code is always allowed
    await testEnv.DB.prepare("UPDATE assets SET status = 'uploaded' WHERE id = ?").bind(assetId).run();
    const admittedJob = await json(await sign(signer.key, { asset_id: assetId, recipe_id: "rcp_system_watermark_then_sign" }));
    const row = await jobRow(admittedJob.job_id);
    expect(JSON.parse(row.admitted)).toMatchObject({
      watermark_algorithm: "svc-wm-tiledss-1",
      watermark_strength: "robust",
      fingerprint_algorithms: ["pdq", "iscc-image"],
    });
  }, 180_000);
});

/** A second key of the same tenant without a rate limit (uploads must not spend the limited key's units). */
async function createTenantKeyOf(tenant: { tenantId: string }) {
  const { addKey } = await import("../support/helpers");
  return addKey(tenant.tenantId);
}
