import { describe, expect, it } from "vitest";
import { imageServices } from "../../../src/media";
import { PdqFingerprinter, pixelPlane, planeFactor } from "../../../src/media/fingerprint";
import type { RgbaImage } from "../../../src/media/types";
import { verifyDecodeScale, verifyPixels } from "../../../src/verifications/verify-pixels";
import { api, callUrl, createTenant, fixture, json, uploadAsset, waitForJob } from "../support/helpers";
import { texturedRgba, verifyFile } from "../support/verify-helpers";

/*
 * #19: a verification decodes once (verify-pixels.ts). A JPEG is read reduced in the DCT domain (one test here in
 * workerd; the rule and its fallbacks in test/node/verifications/verify-pixels.test.ts; the watermark recovered
 * through it in test/workers/jobs/watermark-flow.happy.test.ts). For other formats (PNG here) PDQ reads a box-reduced plane of the
 * decode (from factor 3, about 1.8 MP up), ISCC and the watermark detector the full decode. Large images are where
 * the plane differs from the image, so these tests use images of at least 4x the detector's canonical area.
 */

/** The plane by definition: each output channel the rounded mean of the (up to) k x k source pixels it covers. */
function referencePlane(image: RgbaImage, k: number): RgbaImage {
  const w = Math.ceil(image.width / k);
  const h = Math.ceil(image.height / k);
  const out = new Uint8Array(w * h * 4);
  for (let by = 0; by < h; by++)
    for (let bx = 0; bx < w; bx++)
      for (let c = 0; c < 4; c++) {
        let sum = 0;
        let n = 0;
        for (let y = by * k; y < Math.min(image.height, (by + 1) * k); y++)
          for (let x = bx * k; x < Math.min(image.width, (bx + 1) * k); x++) {
            sum += image.data[(y * image.width + x) * 4 + c]!;
            n++;
          }
        out[(by * w + bx) * 4 + c] = Math.floor((sum + (n >> 1)) / n);
      }
  return { width: w, height: h, data: out };
}

function seeded(width: number, height: number, seed: number, alpha = 255): RgbaImage {
  const data = new Uint8Array(width * height * 4);
  let s = seed >>> 0;
  for (let i = 0; i < data.length; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    data[i] = (i & 3) === 3 ? alpha : s >>> 24;
  }
  return { width, height, data };
}

async function kernel() {
  const pdq = (await imageServices()).fingerprinters.get("pdq");
  if (!(pdq instanceof PdqFingerprinter)) throw new Error("pdq fingerprinter missing");
  return pdq.kernel;
}

describe("verify pixels: the reduced plane (#19)", () => {
  it("keeps the detector's canonical area and minimum edge: whole factors only, 1 for images that are not larger", () => {
    expect(planeFactor(64, 48)).toBe(1);
    expect(planeFactor(1155, 866)).toBe(2); // 1.0 MP
    expect(planeFactor(2112, 1326)).toBe(3); // 2.8 MP: 704 x 442 = 311,168 pixels ≥ 196,608
    expect(planeFactor(4000, 3000)).toBe(7); // 12 MP: 572 x 429
    expect(planeFactor(6000, 200)).toBe(1); // a shorter side of 200 stays ≥ 128 only at factor 1
    for (const [w, h] of [
      [1024, 768],
      [2112, 1326],
      [4000, 3000],
      [3000, 300],
    ] as const) {
      const k = planeFactor(w, h);
      expect(Math.ceil(w / k) * Math.ceil(h / k), `${w}x${h}`).toBeGreaterThanOrEqual(Math.min(w * h, 196_608));
      expect(Math.min(Math.ceil(w / k), Math.ceil(h / k)), `${w}x${h}`).toBeGreaterThanOrEqual(Math.min(w, h, 128));
    }
  });

  it("is the rounded box mean of the decode, edge blocks included (sizes the factor does not divide)", async () => {
    const k = await kernel();
    for (const [w, h, seed] of [
      [1024, 768, 1],
      [1157, 869, 2],
      [2113, 1327, 3],
    ] as const) {
      const image = seeded(w, h, seed);
      const plane = pixelPlane(k, image);
      expect(plane.factor).toBe(planeFactor(w, h));
      expect(plane.opaque).toBe(true);
      expect({ w: plane.sourceWidth, h: plane.sourceHeight }).toEqual({ w, h });
      const want = referencePlane(image, plane.factor);
      expect({ w: plane.image.width, h: plane.image.height }).toEqual({ w: want.width, h: want.height });
      expect(Buffer.from(plane.image.data).equals(Buffer.from(want.data)), `${w}x${h}`).toBe(true);
    }
  });

  it("an image no larger than twice the canonical area is its own plane (no copy)", async () => {
    const image = seeded(640, 480, 4);
    const plane = pixelPlane(await kernel(), image);
    expect(plane.factor).toBe(1);
    expect(plane.image).toBe(image);
  });

  it("says when a pixel is not opaque (PDQ then reads the full image: compositing does not commute with averaging)", async () => {
    const k = await kernel();
    const image = seeded(1024, 800, 5);
    image.data[(799 * 1024 + 1023) * 4 + 3] = 254; // the very last pixel, in an edge block
    expect(pixelPlane(k, image).opaque).toBe(false);
    expect(pixelPlane(k, seeded(300, 300, 6, 0)).opaque).toBe(false);
  });

  it("decodes once: the full image and its plane, from one call; below factor 3 the plane is the image itself", async () => {
    const services = await imageServices();
    for (const [w, h, factor] of [
      [1280, 800, 1], // factor 2 would save PDQ no CPU: PDQ reads the full image, exactly as before
      [2112, 1330, 3],
    ] as const) {
      const data = texturedRgba(w, h);
      const png = await services.codec.encode({ width: w, height: h, data }, "image/png", new Uint8Array());
      if (png.status !== "encoded") throw new Error("encode");
      const got = await verifyPixels(services, png.bytes, "image/png");
      if (got.status !== "decoded") throw new Error(got.message);
      expect(Buffer.from(got.pixels.full.data).equals(Buffer.from(data))).toBe(true);
      expect(got.pixels.plane.factor, `${w}x${h}`).toBe(factor);
      if (factor === 1) expect(got.pixels.plane.image).toBe(got.pixels.full);
      else expect(Buffer.from(got.pixels.plane.image.data).equals(Buffer.from(referencePlane(got.pixels.full, factor).data))).toBe(true);
    }
  });

  it("in workerd, a large JPEG is read once, reduced in the DCT domain, and every signal reads that image", async () => {
    const services = await imageServices();
    const bytes = fixture("sample-1mp.jpg");
    const whole = await services.codec.decode(bytes, "image/jpeg");
    if (whole.status !== "decoded") throw new Error("decode");
    const scale = verifyDecodeScale(whole.image.width, whole.image.height);
    expect(scale).toBeGreaterThanOrEqual(2);
    const got = await verifyPixels(services, bytes, "image/jpeg");
    if (got.status !== "decoded") throw new Error(got.message);
    const want = await services.codec.decodeScaled!(bytes, "image/jpeg", scale);
    if (want.status !== "decoded") throw new Error("decodeScaled");
    expect({ w: got.pixels.full.width, h: got.pixels.full.height }).toEqual({ w: want.image.width, h: want.image.height });
    expect(got.pixels.full.width).toBe(Math.ceil(whole.image.width / scale));
    expect(Buffer.from(got.pixels.full.data).equals(Buffer.from(want.image.data))).toBe(true);
    expect(got.pixels.plane).toMatchObject({
      factor: scale,
      opaque: true,
      sourceWidth: whole.image.width,
      sourceHeight: whole.image.height,
    });
    expect(got.pixels.plane.image).toBe(got.pixels.full);
    expect(got.pixels.full.width * got.pixels.full.height).toBeGreaterThanOrEqual(196_608);
  });

  it("an undecodable image is reported as such, never given a plane", async () => {
    const got = await verifyPixels(await imageServices(), new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 1, 2, 3]), "image/jpeg");
    expect(got.status).toBe("failed");
  });
});

describe("verify of large images: verdicts with the plane (#19)", () => {
  it("a signed 2 MP image and its stripped copy: the same statuses and the exact ISCC match as before", async () => {
    const { key } = await createTenant();
    const { codec } = await imageServices();
    // 1800 x 1100 (2 MP): a plane of factor 3, so PDQ reads the plane.
    const w = 1800;
    const h = 1100;
    const source = await codec.encode({ width: w, height: h, data: texturedRgba(w, h) }, "image/png", new Uint8Array());
    if (source.status !== "encoded") throw new Error("encode");
    const { assetId } = await uploadAsset(key, source.bytes, "image/png", "photo");
    const started = await api("/v1/sign", {
      method: "POST",
      key,
      body: { asset_id: assetId, recipe_id: "rcp_system_sign", fingerprint_algorithms: ["iscc-image", "pdq"] },
      headers: { "idempotency-key": crypto.randomUUID() },
    });
    const job = await waitForJob(key, (await json(started)).job_id, 60_000);
    expect(job.state, JSON.stringify(job)).toBe("completed");
    const download = await json(await api(`/v1/assets/${assetId}/download`, { method: "POST", key }));
    const bytes = new Uint8Array(await (await callUrl(download.url, { method: "GET", headers: download.headers })).arrayBuffer());
    const receipt = await json(await api(`/v1/receipts/${job.result.receipt_id}`, { key }));
    expect(receipt.evidence.fingerprints.map((f: { algorithm: string }) => f.algorithm).sort()).toEqual(["iscc-image", "pdq"]);

    // The signed file itself: its manifest, and its own publication found by fingerprint.
    const signed = await json(await verifyFile(bytes));
    expect(signed.status, signed.developer_explanation).toBe("verified_manifest_and_fingerprint_match");
    expect(signed.signals).toMatchObject({ c2pa_manifest_present: true, fingerprint_match: true, watermark_present: false });

    // The same pixels without the manifest: found by the exact ISCC code (computed from the full decode, as at
    // publication), so distance 0 and score 1, as before the plane. (On this aliasing-prone synthetic texture the
    // plane's PDQ can be over 31 bits from the full image's, beyond the lookup: why ISCC keeps the full decode.)
    const decoded = await codec.decode(bytes, "image/png");
    if (decoded.status !== "decoded") throw new Error("decode");
    const stripped = await codec.encode(decoded.image, "image/png", new Uint8Array());
    if (stripped.status !== "encoded") throw new Error("encode stripped");
    const copy = await json(await verifyFile(stripped.bytes));
    expect(copy.status, copy.developer_explanation).toBe("fingerprint_match_only");
    expect(copy.matches[0]).toMatchObject({
      kind: "fingerprint",
      algorithm: "iscc-image",
      distance: 0,
      score: 1,
      publication_id: job.result.publication_id,
    });
    expect(copy.confidence).toBe(0.75);
  });
});
