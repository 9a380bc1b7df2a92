/**
 * #19: the fingerprint step indexes the published pixels as a verification of a copy reads them (verify-pixels.ts:
 * a JPEG reduced in the DCT domain), so what publication indexes is exactly what verification computes from an
 * unchanged copy of the output. Checked on photo-like and synthetic textures at the express size (1280 x 800, read
 * at 1/2), including textures whose ISCC code from the full decode (what publication indexed before) differs from
 * the one verification computes: those were missed by the exact lookup before and are found now.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { AdmittedRequest } from "../../../src/jobs/admission.ts";
import { fingerprintStep, readPublished } from "../../../src/jobs/steps/fingerprint.ts";
import { BaselineJpegEncoder } from "../../../src/media/codecs/baseline-jpeg.ts";
import { IsccImageFingerprinter, PdqFingerprinter } from "../../../src/media/fingerprint/index.ts";
import type { ImageServices } from "../../../src/media/types.ts";
import { WasmWatermarker } from "../../../src/media/watermark/kernel.ts";
import { verifyPixels } from "../../../src/verifications/verify-pixels.ts";
import { nodeImageCodec } from "../../support/node-codec.ts";
import { texture } from "../../support/textures.ts";

const ROOT = join(import.meta.dirname, "..", "..", "..");
const Module = WebAssembly.Module as unknown as new (bytes: Uint8Array) => WebAssembly.Module;
const fingerprintModule = new Module(readFileSync(join(ROOT, "wasm", "build", "fingerprint.wasm")));
const pdq = new PdqFingerprinter(fingerprintModule);
const iscc = new IsccImageFingerprinter(fingerprintModule);
const codec = nodeImageCodec();
const services: ImageServices = {
  codec,
  watermarker: new WasmWatermarker(new Module(readFileSync(join(ROOT, "wasm", "build", "watermark.wasm")))),
  fingerprinters: new Map<string, PdqFingerprinter | IsccImageFingerprinter>([
    ["pdq", pdq],
    ["iscc-image", iscc],
  ]),
};
const encoder = new BaselineJpegEncoder(new Module(readFileSync(join(ROOT, "wasm", "build", "jpegenc.wasm"))));
const admitted = { fingerprint_algorithms: ["iscc-image", "pdq"] } as AdmittedRequest;
const PHOTO = new Uint8Array(readFileSync(join(ROOT, "test", "fixtures", "media", "photo-bridge.jpg")));

/** Fingerprints exactly as verify-service.ts computes them from a copy's bytes (ISCC on the decode, PDQ on the plane). */
async function asVerificationComputes(bytes: Uint8Array) {
  const got = await verifyPixels(services, bytes, "image/jpeg");
  if (got.status !== "decoded") throw new Error(got.message);
  const { full, plane } = got.pixels;
  const i = iscc.compute(full);
  const p = pdq.compute(plane.opaque ? plane.image : full);
  if (i.status !== "computed" || p.status !== "computed") throw new Error("fingerprint");
  return { iscc: i, pdq: p, scale: plane.factor };
}

describe("express fingerprints agree with verification (#19)", () => {
  it("what publication indexes is exactly what verification computes from an unchanged copy", async () => {
    const cases: [string, Uint8Array][] = [["photo-bridge.jpg (1600 x 1004)", PHOTO]];
    for (let seed = 1; seed <= 12; seed++) cases.push([`texture ${seed}`, encoder.encode(texture(1280, 800, seed), 92, "4:4:4")]);
    let fullDiffers = 0;
    for (const [label, bytes] of cases) {
      const published = fingerprintStep(services, admitted, await readPublished(services, bytes, "image/jpeg"));
      const verified = await asVerificationComputes(bytes);
      expect(verified.scale, label).toBe(2);
      expect(
        published.fingerprints.map((f) => [f.algorithm, f.value, f.quality]),
        label,
      ).toEqual([
        ["iscc-image", verified.iscc.value, verified.iscc.quality],
        ["pdq", verified.pdq.value, verified.pdq.quality],
      ]);
      // what publication indexed before #19: the code of the full decode
      const whole = await codec.decode(bytes, "image/jpeg");
      if (whole.status !== "decoded") throw new Error(label);
      const before = iscc.compute(whole.image);
      if (before.status === "computed" && before.value !== verified.iscc.value) fullDiffers++;
    }
    // the full decode's code missed some of these copies (the exact lookup would not have found them)
    expect(fullDiffers).toBeGreaterThan(0);
  });
});
