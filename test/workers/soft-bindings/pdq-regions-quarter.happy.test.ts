/**
 * #20 over HTTP: a real photograph of bench/photo-recovery.mjs's corpus (test/fixtures/media/photo-aitzgorri-900x675.jpg)
 * is signed with PDQ; a copy stripped of its manifest, cropped to 85 % of each side a quarter of the margin from the
 * left and three quarters from the top, scaled to 256 px on its short side and saved at JPEG q75 (the bench's
 * "crop 85 % + short side 256 + q75" row at its quarter offset) is recovered by POST /v1/verify through a window
 * publication now indexes at the quarter offsets (regions.ts PDQ_REGIONS, ids 18-29). None of the windows published
 * before #20 (ids 0-17) is within the match distance of the copy's hashes: the old layout missed it.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { imageServices } from "../../../src/media";
import { BaselineJpegEncoder } from "../../../src/media/codecs/baseline-jpeg";
import { hammingDistance, PDQ_REGIONS, type PdqFingerprinter, pdqQueryWindowBits } from "../../../src/media/fingerprint";
import type { RgbaImage } from "../../../src/media/types";
import { PDQ_MIN_QUALITY, PDQ_REGION_MATCH_DISTANCE } from "../../../src/soft-bindings/repo";
import { verifyPixels } from "../../../src/verifications/verify-pixels";
import jpegencModule from "../../../wasm/build/jpegenc.wasm";
import { api, callUrl, createTenant, fixture, json, uploadAsset, waitForJob } from "../support/helpers";
import { verifyFile } from "../support/verify-helpers";

const db = (env as unknown as { DB: D1Database }).DB;

/** `keep` of each side, `fx` / `fy` of the margin from the left / top, then an area-average resize to `short` px. */
function cropAndScale(image: RgbaImage, keep: number, fx: number, fy: number, short: number): RgbaImage {
  const cw = Math.round(image.width * keep);
  const ch = Math.round(image.height * keep);
  const x0 = Math.round((image.width - cw) * fx);
  const y0 = Math.round((image.height - ch) * fy);
  const s = short / Math.min(cw, ch);
  const width = Math.round(cw * s);
  const height = Math.round(ch * s);
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    const sy0 = Math.floor(y / s);
    const sy1 = Math.max(sy0 + 1, Math.floor((y + 1) / s));
    for (let x = 0; x < width; x++) {
      const sx0 = Math.floor(x / s);
      const sx1 = Math.max(sx0 + 1, Math.floor((x + 1) / s));
      for (let c = 0; c < 4; c++) {
        let sum = 0;
        for (let yy = sy0; yy < sy1; yy++)
          for (let xx = sx0; xx < sx1; xx++) sum += image.data[((y0 + yy) * image.width + x0 + xx) * 4 + c]!;
        data[(y * width + x) * 4 + c] = Math.round(sum / ((sy1 - sy0) * (sx1 - sx0)));
      }
    }
  }
  return { width, height, data };
}

/** A pdq_regions row's hash. */
function rowBits(row: Record<string, unknown>): Uint8Array {
  const bits = new Uint8Array(32);
  for (let b = 0; b < 16; b++) {
    const v = Number(row[`b${b}`]);
    bits[2 * b] = v >> 8;
    bits[2 * b + 1] = v & 255;
  }
  return bits;
}

describe("a copy cropped at a quarter offset and scaled to 256 px, over HTTP (#20)", () => {
  it("is recovered through a quarter-offset window; the windows published before #20 would not have found it", async () => {
    const { key } = await createTenant();
    const services = await imageServices();
    const { assetId } = await uploadAsset(key, fixture("photo-aitzgorri-900x675.jpg"), "image/jpeg", "aitzgorri.jpg");
    const started = await api("/v1/sign", {
      method: "POST",
      key,
      body: { asset_id: assetId, recipe_id: "rcp_system_sign", fingerprint_algorithms: ["iscc-image", "pdq"] },
      headers: { "idempotency-key": crypto.randomUUID() },
    });
    expect(started.status, await started.clone().text()).toBe(202);
    const job = await waitForJob(key, (await json(started)).job_id, 90_000);
    expect(job.state, JSON.stringify(job)).toBe("completed");
    const publicationId = job.result.publication_id as string;
    const rows = (await db.prepare("SELECT * FROM pdq_regions WHERE publication_id = ?").bind(publicationId).all()).results;
    // a textured photograph: every window, the quarter ones too, has the quality to be indexed
    expect(rows.map((r) => Number((r as Record<string, unknown>).region)).sort((a, b) => a - b)).toEqual(PDQ_REGIONS.map((r) => r.id));

    const d = await json(await api(`/v1/assets/${assetId}/download`, { method: "POST", key }));
    const signed = new Uint8Array(await (await callUrl(d.url, { method: "GET", headers: d.headers })).arrayBuffer());
    const decoded = await services.codec.decode(signed, "image/jpeg");
    if (decoded.status !== "decoded") throw new Error(decoded.message);
    const small = cropAndScale(decoded.image, 0.85, 0.25, 0.75, 256);
    expect([small.width, small.height]).toEqual([341, 256]);
    const copy = new BaselineJpegEncoder(jpegencModule).encode(small, 75, "4:2:0");

    // The copy's hashes as a verification computes them (its whole image and its own windows), against the windows.
    const pixels = await verifyPixels(services, copy, "image/jpeg");
    if (pixels.status !== "decoded") throw new Error(pixels.message);
    const pdq = services.fingerprinters.get("pdq") as PdqFingerprinter;
    const whole = pdq.compute(pixels.pixels.plane.image);
    if (whole.status !== "computed") throw new Error("pdq");
    const hashes = [whole.bits, ...pdqQueryWindowBits(pdq, pixels.pixels.plane.image, PDQ_MIN_QUALITY)];
    const nearest = (ids: (id: number) => boolean) =>
      Math.min(
        ...rows
          .filter((r) => ids(Number((r as Record<string, unknown>).region)))
          .flatMap((r) => hashes.map((h) => hammingDistance(h, rowBits(r as Record<string, unknown>)))),
      );
    expect(
      nearest((id) => id < 18),
      "a window published before #20",
    ).toBeGreaterThan(PDQ_REGION_MATCH_DISTANCE);
    expect(
      nearest((id) => id >= 18),
      "a quarter-offset window",
    ).toBeLessThanOrEqual(PDQ_REGION_MATCH_DISTANCE);

    const verdict = await json(await verifyFile(copy));
    expect(verdict.status, verdict.developer_explanation).toBe("fingerprint_match_only");
    expect(verdict.signals).toMatchObject({ c2pa_manifest_present: false, fingerprint_match: true });
    expect(verdict.matches[0]).toMatchObject({ kind: "fingerprint", algorithm: "pdq", publication_id: publicationId });
    expect(verdict.matches[0].distance).toBeLessThanOrEqual(PDQ_REGION_MATCH_DISTANCE);
  }, 180_000);
});
