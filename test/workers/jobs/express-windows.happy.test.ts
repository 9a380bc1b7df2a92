import { describe, expect, it } from "vitest";
import { registryFor } from "../../../src/catalog/installed";
import { database } from "../../../src/db/client";
import type { Bindings } from "../../../src/env";
import { admitSign } from "../../../src/jobs/admission";
import type { FingerprintOutput } from "../../../src/jobs/outputs";
import { jobWithPublication } from "../../../src/jobs/repo";
import { type JobServices, runJob, runJobForAnswer } from "../../../src/jobs/runner";
import { fingerprintStep, readPublished } from "../../../src/jobs/steps/fingerprint";
import { indexDeferredWindows } from "../../../src/jobs/steps/pdq-windows";
import { mediaServices } from "../../../src/media";
import type { RgbaImage } from "../../../src/media/types";
import { PDQ_REGION_MATCH_DISTANCE } from "../../../src/soft-bindings/repo";
import { createTenant, fixture, json, testEnv, uploadAsset } from "../support/helpers";
import { verifyFile } from "../support/verify-helpers";

/*
 * #19: an express run answers without PDQ's 18 crop windows (they serve only the recovery of cropped copies): its
 * fingerprint step defers them, and a follow-up indexes them after the publication, in the request's waitUntil and
 * again from the job's safety-net queue message (steps/pdq-windows.ts). What that must keep: the windows indexed are
 * exactly those a queue run would have indexed, a cropped copy is recovered once the follow-up ran, a follow-up lost
 * with its isolate is made by the safety net, redeliveries add nothing, and a deletion that lands first leaves nothing.
 */

const db = testEnv.DB;
const count = async (publicationId: string) =>
  (await db.prepare("SELECT COUNT(*) AS n FROM pdq_regions WHERE publication_id = ?").bind(publicationId).first<{ n: number }>())!.n;

/**
 * An express job run as the request runs it: `background` work collected (it runs on, concurrently), and the answer's
 * rows as the publication batch read them (before any follow-up could change them).
 */
async function expressRun() {
  // a real photograph: a 10 % crop moves its whole-image PDQ far beyond the match distance (pdq-regions.test.ts)
  const tenant = await createTenant();
  const { assetId } = await uploadAsset(tenant.key, fixture("photo-bridge.jpg"), "image/jpeg", "photo.jpg");
  const admitted = await admitSign(database(testEnv.DB), registryFor(testEnv), tenant.tenantId, {
    asset_id: assetId,
    recipe_id: "rcp_system_express_watermark_then_sign",
    mode: "express",
    fingerprint_algorithms: ["iscc-image", "pdq"],
  });
  if (admitted.status !== "admitted") throw new Error(JSON.stringify(admitted));
  const job = admitted.job;
  const pending: Promise<unknown>[] = [];
  const services: JobServices = { ...(await mediaServices(testEnv)), background: (work) => pending.push(work) };
  // the jobs queue's sends recorded, not delivered: the test runs the consumer's run itself (or not: a lost message)
  const sent: unknown[] = [];
  const env = { ...testEnv, JOBS_QUEUE: { send: async (body: unknown) => void sent.push(body) } } as unknown as Bindings;
  const answer = (await runJobForAnswer(env, services, tenant.tenantId, job.id, job))!;
  expect(answer.job.state).toBe("completed");
  const answered = JSON.parse(answer.steps.find((s) => s.step === "fingerprint")!.output!) as FingerprintOutput;
  await Promise.all(pending);
  return { tenant, assetId, job, answer, answered, sent, publicationId: answer.job.publicationId! };
}

const fingerprintOutput = async (jobId: string) => {
  const row = await db
    .prepare("SELECT output FROM job_steps WHERE job_id = ? AND step = 'fingerprint'")
    .bind(jobId)
    .first<{ output: string }>();
  return { text: row!.output, output: JSON.parse(row!.output) as FingerprintOutput };
};

/**
 * A verdict's PDQ matches of `publicationId` (the watermark, which survives the crop, is a match of its own; another
 * test's publication of the same photograph may match too).
 */
const pdqMatches = (
  verdict: { matches?: { kind: string; algorithm: string; publication_id: string; distance: number }[] },
  publicationId: string,
) => (verdict.matches ?? []).filter((m) => m.kind === "fingerprint" && m.algorithm === "pdq" && m.publication_id === publicationId);

/** The published bytes, read back from R2. */
async function publishedBytes(r2Key: string): Promise<Uint8Array> {
  return new Uint8Array(await (await testEnv.OBJECTS.get(r2Key))!.arrayBuffer());
}

/** The copy cropped 10 % from the top-left corner (it keeps the bottom-right 90 %), re-encoded. */
async function croppedCopy(bytes: Uint8Array): Promise<Uint8Array> {
  const { codec } = (await mediaServices(testEnv)).image!;
  const decoded = await codec.decode(bytes, "image/jpeg");
  if (decoded.status !== "decoded") throw new Error("decode");
  const image = decoded.image;
  const [x0, y0] = [Math.round(image.width * 0.1), Math.round(image.height * 0.1)];
  const [w, h] = [image.width - x0, image.height - y0];
  const data = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++)
    data.set(image.data.subarray(((y0 + y) * image.width + x0) * 4, ((y0 + y) * image.width + x0 + w) * 4), y * w * 4);
  const encoded = await codec.encode({ width: w, height: h, data } as RgbaImage, "image/jpeg", new Uint8Array());
  if (encoded.status !== "encoded") throw new Error("encode");
  return encoded.bytes;
}

describe("express: PDQ crop windows indexed after the answer (#19)", () => {
  it("the answer's publication has its primary signals and its windows deferred; the follow-up indexes exactly a queue run's windows", async () => {
    const { job, answer, answered, sent, publicationId } = await expressRun();
    // what the answer read: the whole-image PDQ and ISCC recorded and bound, the windows deferred
    expect(answered.pdq_regions_deferred).toBe(true);
    expect(answered.pdq_regions).toBeUndefined();
    expect(answered.fingerprints.map((f) => f.algorithm).sort()).toEqual(["iscc-image", "pdq"]);
    const bindings = await db
      .prepare("SELECT algorithm FROM soft_bindings WHERE publication_id = ? ORDER BY algorithm")
      .bind(publicationId)
      .all<{ algorithm: string }>();
    expect(bindings.results.map((r) => r.algorithm)).toEqual(expect.arrayContaining(["iscc-image", "pdq"]));
    const published = await publishedBytes(answer.output!.r2Key);
    // the follow-up message was sent after the answer (the request's waitUntil); the queue's run of it indexes the windows
    expect(sent).toEqual([{ type: "job.run", job_id: job.id, tenant_id: job.tenantId }]);
    expect(await count(publicationId)).toBe(0);
    await runJob(testEnv, await mediaServices(testEnv), job.tenantId, job.id);
    const after = await fingerprintOutput(job.id);
    expect(after.output.pdq_regions_deferred).toBeUndefined();
    // the windows a queue run computes in its step, from the published bytes read as verification reads them
    const services = await mediaServices(testEnv);
    const pixels = await readPublished(services.image!, published, "image/jpeg");
    const inline = fingerprintStep(services.image!, JSON.parse(job.admitted), pixels);
    expect(inline.fingerprints).toEqual(after.output.fingerprints);
    expect(inline.pdq_regions?.length).toBeGreaterThan(0);
    expect(after.output.pdq_regions).toEqual(inline.pdq_regions);
    expect(await count(publicationId)).toBe(inline.pdq_regions!.length);

    // a second follow-up (the safety net after the waitUntil did it) finds nothing deferred and adds nothing
    expect(await indexDeferredWindows(testEnv, services.image!, job.tenantId, job.id, null)).toEqual({ status: "not_deferred" });
    expect(await count(publicationId)).toBe(inline.pdq_regions!.length);
  }, 120_000);

  it("a follow-up lost with its isolate: a 10 % crop is not recovered until the job's safety-net message (the queue's run of a completed job) indexes the windows, once", async () => {
    // the follow-up message lost (the isolate died right after the answer): windows deferred, none indexed
    const { tenant, job, answer, answered, publicationId } = await expressRun();
    expect(answered.pdq_regions_deferred).toBe(true);
    expect(await count(publicationId)).toBe(0);
    const deferred = (await fingerprintOutput(job.id)).output;
    expect(deferred).toEqual(answered);
    // before the follow-up, a copy cropped 10 % is found by its watermark only (the whole-image PDQ cannot find it)
    const copy = await croppedCopy(await publishedBytes(answer.output!.r2Key));
    const early = await json(await verifyFile(copy));
    expect(pdqMatches(early, publicationId)).toEqual([]);
    const queue = await mediaServices(testEnv); // the consumer's services: no background
    await runJob(testEnv, queue, tenant.tenantId, job.id);
    const done = await fingerprintOutput(job.id);
    const indexed = done.output.pdq_regions!.length;
    expect(indexed).toBeGreaterThan(0);
    expect(done.output.pdq_regions_deferred).toBeUndefined();
    expect(await count(publicationId)).toBe(indexed);
    // after it, the copy is found through its window
    const verdict = await json(await verifyFile(copy));
    const found = pdqMatches(verdict, publicationId);
    expect(found, verdict.developer_explanation).toHaveLength(1);
    expect(found[0]).toMatchObject({ kind: "fingerprint", algorithm: "pdq", publication_id: publicationId });
    expect(found[0]!.distance).toBeLessThanOrEqual(PDQ_REGION_MATCH_DISTANCE);
    // redelivered: nothing more
    await runJob(testEnv, queue, tenant.tenantId, job.id);
    expect(await count(publicationId)).toBe(indexed);
    // two follow-ups racing from the deferred state: the windows go in once
    await db.batch([
      db.prepare("DELETE FROM pdq_regions WHERE publication_id = ?").bind(publicationId),
      db.prepare("UPDATE job_steps SET output = ? WHERE job_id = ? AND step = 'fingerprint'").bind(JSON.stringify(deferred), job.id),
    ]);
    await Promise.all([runJob(testEnv, queue, tenant.tenantId, job.id), runJob(testEnv, queue, tenant.tenantId, job.id)]);
    expect(await count(publicationId)).toBe(indexed);
  }, 120_000);

  it("a deletion that lands before the follow-up: nothing is indexed; published bytes that do not give the recorded PDQ: nothing is indexed", async () => {
    const { job, answered, publicationId } = await expressRun();
    const deferred = answered;
    const reset = () =>
      db.batch([
        db.prepare("DELETE FROM pdq_regions WHERE publication_id = ?").bind(publicationId),
        db.prepare("UPDATE job_steps SET output = ? WHERE job_id = ? AND step = 'fingerprint'").bind(JSON.stringify(deferred), job.id),
      ]);
    const image = (await mediaServices(testEnv)).image!;
    // the pdq binding removed (as a deletion removes it) while the asset row still names the publication
    await reset();
    await db.prepare("DELETE FROM soft_bindings WHERE publication_id = ? AND algorithm = 'pdq'").bind(publicationId).run();
    expect((await indexDeferredWindows(testEnv, image, job.tenantId, job.id, null)).status).toBe("indexed");
    expect(await count(publicationId)).toBe(0);
    // other bytes than the published ones (a different image): refused before anything is written
    await reset();
    const other = await croppedCopy(await publishedBytes((await jobWithPublication(database(db), job.tenantId, job.id))!.output!.r2Key));
    expect((await indexDeferredWindows(testEnv, image, job.tenantId, job.id, other)).status).toBe("not_indexed");
    expect(await count(publicationId)).toBe(0);
    // bytes that do not decode: refused, not thrown
    expect((await indexDeferredWindows(testEnv, image, job.tenantId, job.id, new Uint8Array([0xff, 0xd8, 0xff]))).status).toBe(
      "not_indexed",
    );
    // the asset no longer publishes it (deleted): gone
    await db.prepare("UPDATE assets SET publication_id = NULL WHERE publication_id = ?").bind(publicationId).run();
    expect(await indexDeferredWindows(testEnv, image, job.tenantId, job.id, null)).toEqual({ status: "gone" });
    expect(await count(publicationId)).toBe(0);
  }, 120_000);
});
