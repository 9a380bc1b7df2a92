/**
 * End-to-end bad input against the REAL Worker bundle (test/support/worker.ts), over the public HTTP flow: lying
 * hashes, lengths and media types, garbage, truncated files and video/mp4 outside the contract are refused with
 * their documented codes — never a 500, and never a completed job whose output the reference reader rejects.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seededBytes } from "../../support/prng";
import { referenceVerdict } from "../../support/signer-conformance";
import {
  completeUpload,
  createUpload,
  download,
  fixtureBytes,
  putBytes,
  type SignedService,
  signAndWait,
  startSignedService,
} from "../../support/svc-client";

let svc: SignedService;

beforeAll(async () => {
  svc = await startSignedService();
}, 120_000);

afterAll(async () => {
  await svc?.dispose();
});

/** Deterministic pseudo-random bytes (the shared seeded PRNG), so a failure reproduces. */
const garbage = (length: number, seed = 0x6a7b) => seededBytes(length, seed);

/** Create and PUT `bytes` honestly as `mediaType`; returns the upload id (the caller completes). */
async function stage(bytes: Uint8Array, mediaType: string, filename: string): Promise<string> {
  const created = await createUpload(svc, bytes, mediaType, filename);
  expect(created.status, created.text).toBe(201);
  const put = await putBytes(svc, created.body, bytes);
  expect(put.status, await put.clone().text()).toBe(200);
  return created.body.upload_id;
}

function expectError(res: { status: number; text: string; body: any }, status: number, code: string | string[]) {
  expect(res.status, res.text).toBe(status);
  expect([code].flat(), res.text).toContain(res.body?.code);
  expect(res.body).toMatchObject({ message: expect.any(String), request_id: expect.any(String) });
}

describe.concurrent("upload refusals, end to end", () => {
  it("a wrong sha256 → 422 svc.uploads.sha256_mismatch at complete", async () => {
    const bytes = fixtureBytes("sample.png");
    const created = await createUpload(svc, bytes, "image/png", "a.png", {
      sha256: createHash("sha256").update("other bytes").digest("hex"),
    });
    expect(created.status, created.text).toBe(201);
    expect((await putBytes(svc, created.body, bytes)).status).toBe(200);
    expectError(await completeUpload(svc, created.body.upload_id), 422, "svc.uploads.sha256_mismatch");
    const asset = await svc.call("GET", `/v1/assets/${created.body.asset_id}`);
    expect(asset.body.status, asset.text).not.toBe("published");
  });

  it.each([
    ["fewer", -10],
    ["more", +10],
  ])("PUT %s bytes than declared → 422 svc.storage.length_mismatch; nothing is stored", async (_what, delta) => {
    const bytes = fixtureBytes("sample.png");
    const created = await createUpload(svc, bytes, "image/png", "a.png");
    expect(created.status).toBe(201);
    const other = delta < 0 ? bytes.subarray(0, bytes.length + delta) : new Uint8Array([...bytes, ...new Uint8Array(delta)]);
    const put = await putBytes(svc, created.body, other);
    const text = await put.text();
    expect(put.status, text).toBe(422);
    expect(JSON.parse(text).code).toBe("svc.storage.length_mismatch");
    expectError(await completeUpload(svc, created.body.upload_id), 409, "svc.uploads.bytes_missing");
  });

  it.each([
    ["fewer", -10],
    ["more", +10],
  ])(
    "a streamed body (no Content-Length) with %s bytes than declared → 422 svc.storage.length_mismatch; nothing is stored",
    async (_what, delta) => {
      const bytes = fixtureBytes("sample.png");
      const created = await createUpload(svc, bytes, "image/png", "a.png");
      expect(created.status).toBe(201);
      const other = delta < 0 ? bytes.subarray(0, bytes.length + delta) : new Uint8Array([...bytes, ...new Uint8Array(delta)]);
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(other.slice());
          controller.close();
        },
      });
      const put = (await svc.worker.mf.dispatchFetch(created.body.upload.url, {
        method: "PUT",
        headers: created.body.upload.headers,
        body,
        duplex: "half",
      } as never)) as unknown as Response;
      const text = await put.text();
      expect(put.status, text).toBe(422);
      expect(JSON.parse(text).code).toBe("svc.storage.length_mismatch");
      expectError(await completeUpload(svc, created.body.upload_id), 409, "svc.uploads.bytes_missing");
    },
  );

  it("PNG bytes declared image/jpeg → 422 svc.media.type_mismatch", async () => {
    const id = await stage(fixtureBytes("sample.png"), "image/jpeg", "a.jpg");
    const res = await completeUpload(svc, id);
    expectError(res, 422, "svc.media.type_mismatch");
    expect(res.body.message).toMatch(/image\/png/);
  });

  it("random bytes declared image/png → 422 svc.media.unsupported_type or svc.media.corrupt", async () => {
    const id = await stage(garbage(4096), "image/png", "a.png");
    expectError(await completeUpload(svc, id), 422, ["svc.media.unsupported_type", "svc.media.corrupt"]);
  });

  it("a PNG signature followed by garbage → 422 svc.media.corrupt", async () => {
    const bytes = new Uint8Array([...fixtureBytes("sample.png").subarray(0, 8), ...garbage(4096)]);
    const id = await stage(bytes, "image/png", "a.png");
    expectError(await completeUpload(svc, id), 422, ["svc.media.corrupt", "svc.media.unsupported_type"]);
  });

  it.each([
    "sample-hevc.mp4",
    "sample-10bit.mp4",
    "sample-fragmented.mp4",
    "sample-heaac.mp4",
    "sample-extra-track.mp4",
    "sample-two-audio.mp4",
    "sample-hdr.mp4",
  ])("%s as video/mp4 → 422 MEDIA_CODEC_UNSUPPORTED at complete", async (name) => {
    const id = await stage(fixtureBytes(name), "video/mp4", name);
    expectError(await completeUpload(svc, id), 422, "MEDIA_CODEC_UNSUPPORTED");
  });
});

/** What happened to each truncated file, for the log. */
const outcomes = new Map<string, string>();
afterAll(() => {
  for (const [name, outcome] of outcomes) console.log(`truncated ${name}: ${outcome}`);
});

/** A truncation case: `fixture` cut at `cut` bytes (default: half), uploaded as `mediaType`, signed with `recipe`. */
function t(fixture: string, mediaType: string, recipe: string, cut?: number) {
  const length = fixtureBytes(fixture).length;
  return [`${fixture} (${mediaType}) cut at ${cut ?? length >> 1}/${length}`, { fixture, mediaType, recipe, cut }] as const;
}

describe.concurrent("truncated files (cut at 50%): a clear 4xx at complete, or a failed job with an error code", () => {
  it.each([
    t("sample.jpg", "image/jpeg", "rcp_system_sign_only"),
    t("sample-1mp.jpg", "image/jpeg", "rcp_system_sign_only"),
    t("sample.png", "image/png", "rcp_system_sign_only"),
    t("sample.webp", "image/webp", "rcp_system_sign_only"),
    t("sample.tif", "image/tiff", "rcp_system_sign_only"),
    t("sample.gif", "image/gif", "rcp_system_sign_only"),
    t("sample.avif", "image/avif", "rcp_system_sign_only"),
    t("sample.heic", "image/heic", "rcp_system_sign_only"),
    t("sample.svg", "image/svg+xml", "rcp_system_sign_only"),
    t("sample.mp4", "video/mp4", "rcp_system_sign_only"),
    t("sample.mov", "video/quicktime", "rcp_system_sign_only"),
    t("sample.m4a", "audio/mp4", "rcp_system_sign_only"),
    t("sample.mp3", "audio/mpeg", "rcp_system_sign_only"),
    t("sample.wav", "audio/wav", "rcp_system_sign_only"),
    t("sample.flac", "audio/flac", "rcp_system_sign_only"),
    t("sample.avi", "video/x-msvideo", "rcp_system_sign_only"),
    t("sample-container.jxl", "image/jxl", "rcp_system_sign_only"),
    t("sample.dng", "image/x-adobe-dng", "rcp_system_sign_only"),
    t("sample.pdf", "application/pdf", "rcp_private_sidecar_document_sign_only"),
    t("sample.txt", "text/plain", "rcp_private_sidecar_text_sign_only"),
    t("sample.txt", "text/plain", "rcp_private_sidecar_text_sign_only", 38), // inside the UTF-8 sequence of "—"
  ])(
    "%s",
    async (name, { fixture, mediaType, recipe, cut }) => {
      const full = fixtureBytes(fixture);
      const bytes = full.slice(0, cut ?? full.length >> 1);
      const id = await stage(bytes, mediaType, fixture);
      const completed = await completeUpload(svc, id);
      expect(completed.status, completed.text).not.toBeGreaterThanOrEqual(500);
      if (completed.status !== 200) {
        expect(completed.status, completed.text).toBeGreaterThanOrEqual(400);
        expect(completed.body?.code, completed.text).toMatch(/^svc\.media\.|^MEDIA_/);
        outcomes.set(name, `${completed.status} ${completed.body.code} at complete (${completed.body.message})`);
        return;
      }
      const job = await signAndWait(svc, completed.body.asset_id, recipe);
      if (job.state === "completed") {
        // Accepted as a whole file: then its output must stand up to the reference reader.
        const { bytes: out, sidecar } = await download(svc, completed.body.asset_id);
        const verdict = await referenceVerdict(svc.pki.rootCertPem, mediaType, out, sidecar ?? undefined);
        outcomes.set(name, `accepted and signed; reference reader: ${verdict.state} [${verdict.failure.join(", ")}]`);
        expect(verdict.failure).toEqual([]);
        expect(verdict.state).toBe("Trusted");
        return;
      }
      outcomes.set(name, `complete 200, job ${job.state} ${job.error_code} (${job.error_message})`);
      expect(job.state, JSON.stringify(job)).toBe("failed");
      expect(job.error_code, JSON.stringify(job)).toMatch(/^svc\./);
    },
    60_000,
  );
});
