/**
 * #20 over HTTP: a small real photograph (test/fixtures/media/photo-aitzgorri-900x675.jpg, 0.6 MP) is watermarked
 * and signed; a copy stripped of its manifest, cropped to 85 % of each side, resized to 50 % (382 x 287, under the
 * watermark's canonical area, so its tile shows at 0.88 of its canonical size) and saved at JPEG q75, as a
 * messaging app would, is recovered by POST /v1/verify through the watermark. The unmarked photograph treated the
 * same way carries no mark.
 */
import { describe, expect, it } from "vitest";
import { imageServices } from "../../../src/media";
import { BaselineJpegEncoder } from "../../../src/media/codecs/baseline-jpeg";
import type { RgbaImage } from "../../../src/media/types";
import jpegencModule from "../../../wasm/build/jpegenc.wasm";
import { api, callUrl, createTenant, fixture, json, sha256HexOf, uploadAsset, waitForJob } from "../support/helpers";
import { verifyFile } from "../support/verify-helpers";

/** The centred crop keeping `keep` of each side, then an area-average resize to half of that. */
function cropAndHalve(image: RgbaImage, keep: number): RgbaImage {
  const cw = Math.round(image.width * keep);
  const ch = Math.round(image.height * keep);
  const x0 = (image.width - cw) >> 1;
  const y0 = (image.height - ch) >> 1;
  const width = cw >> 1;
  const height = ch >> 1;
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      for (let c = 0; c < 4; c++) {
        let sum = 0;
        for (let dy = 0; dy < 2; dy++)
          for (let dx = 0; dx < 2; dx++) sum += image.data[((y0 + 2 * y + dy) * image.width + x0 + 2 * x + dx) * 4 + c]!;
        data[(y * width + x) * 4 + c] = (sum + 2) >> 2;
      }
  return { width, height, data };
}

/** `bytes` decoded (the manifest does not survive), cropped 85 %, halved and encoded at JPEG q75 4:2:0. */
async function messagingCopy(bytes: Uint8Array): Promise<Uint8Array> {
  const { codec } = await imageServices();
  const decoded = await codec.decode(bytes, "image/jpeg");
  if (decoded.status !== "decoded") throw new Error(decoded.message);
  const small = cropAndHalve(decoded.image, 0.85);
  expect([small.width, small.height]).toEqual([382, 287]);
  return new BaselineJpegEncoder(jpegencModule).encode(small, 75, "4:2:0");
}

describe("a small real photograph, cropped and resized, over HTTP (#20)", () => {
  it("watermark then sign; the cropped 85 % + resized 50 % + JPEG q75 copy is recovered through the watermark", async () => {
    const { key } = await createTenant();
    const original = fixture("photo-aitzgorri-900x675.jpg");
    const { assetId } = await uploadAsset(key, original, "image/jpeg", "aitzgorri.jpg");
    const res = await api("/v1/sign", {
      method: "POST",
      key,
      body: { asset_id: assetId, recipe_id: "rcp_system_watermark_then_sign", fingerprint_algorithms: ["iscc-image", "pdq"] },
      headers: { "idempotency-key": crypto.randomUUID() },
    });
    expect(res.status, await res.clone().text()).toBe(202);
    const job = await waitForJob(key, (await json(res)).job_id, 60_000);
    expect(job.state, JSON.stringify(job)).toBe("completed");

    const d = await json(await api(`/v1/assets/${assetId}/download`, { method: "POST", key }));
    const got = await callUrl(d.url, { method: "GET", headers: d.headers });
    const published = new Uint8Array(await got.arrayBuffer());
    expect(await sha256HexOf(published)).toBe(d.sha256);

    const copy = await messagingCopy(published);
    const verdict = await json(await verifyFile(copy, { key }));
    expect(verdict.status, verdict.developer_explanation).toBe("watermark_only");
    expect(verdict.signals).toMatchObject({ c2pa_manifest_present: false, watermark_present: true, watermark_payload_valid: true });
    expect(verdict.matches.find((m: { kind: string }) => m.kind === "watermark")).toMatchObject({
      publication_id: job.result.publication_id,
    });

    // the same copy of the unmarked upload: no mark, no watermark match
    const plain = await json(await verifyFile(await messagingCopy(original), { key }));
    expect(plain.signals.watermark_present).toBe(false);
    expect(plain.matches.some((m: { kind: string }) => m.kind === "watermark")).toBe(false);
  });
});
