/**
 * #20: a marked small photograph scaled down below the detector's canonical area (512 x 384) shows the tile below
 * its canonical size; the detector's stage 2 scans those scales (0.6-0.97) for such images. Checked on a real
 * photograph (test/fixtures/media/photo-aitzgorri-900x675.jpg, 0.6 MP): resized to 50 % (tile at 0.88) and to 256 px
 * on the short side (0.67), each read back with the right payload; the unmarked photograph resized the same way is
 * not detected. The whole measurement is bench/photo-recovery.mjs.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { RgbaImage } from "../../../src/media/types";
import { WasmWatermarker } from "../../../src/media/watermark";
import { nodeImageCodec } from "../../support/node-codec";

const ROOT = join(import.meta.dirname, "..", "..", "..");
const Module = WebAssembly.Module as unknown as new (b: Uint8Array) => WebAssembly.Module;
const wm = new WasmWatermarker(new Module(readFileSync(join(ROOT, "wasm", "build", "watermark.wasm"))));

/** Area-average resize (each output pixel the mean of the source pixels it covers, fractional at the edges). */
function resize(image: RgbaImage, width: number, height: number): RgbaImage {
  const data = new Uint8Array(width * height * 4);
  const sx = image.width / width;
  const sy = image.height / height;
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const acc = [0, 0, 0, 0];
      let total = 0;
      for (let yy = Math.floor(y * sy); yy < Math.min(image.height, Math.ceil((y + 1) * sy)); yy++) {
        const wy = Math.min((y + 1) * sy, yy + 1) - Math.max(y * sy, yy);
        for (let xx = Math.floor(x * sx); xx < Math.min(image.width, Math.ceil((x + 1) * sx)); xx++) {
          const w = wy * (Math.min((x + 1) * sx, xx + 1) - Math.max(x * sx, xx));
          for (let c = 0; c < 4; c++) acc[c]! += w * image.data[(yy * image.width + xx) * 4 + c]!;
          total += w;
        }
      }
      for (let c = 0; c < 4; c++) data[(y * width + x) * 4 + c] = Math.round(acc[c]! / total);
    }
  return { width, height, data };
}

describe("watermark: downscaled copies of a small photograph (#20)", () => {
  it("resized to 50 % and to 256 px on the short side: the right payload; the unmarked photograph: nothing", async () => {
    const decoded = await nodeImageCodec().decode(
      new Uint8Array(readFileSync(join(ROOT, "test", "fixtures", "media", "photo-aitzgorri-900x675.jpg"))),
      "image/jpeg",
    );
    if (decoded.status !== "decoded") throw new Error(decoded.message);
    const photo = decoded.image;
    const payload = new Uint8Array([0x20, 0x5a, 0x11, 0xc3, 0x7e, 0x02, 0x94, 0xd8]);
    const marked = wm.embed({ image: photo, payload, strength: "balanced" });
    if (marked.status !== "embedded") throw new Error(marked.status);
    for (const [width, height] of [
      [450, 338],
      [341, 256],
    ] as const) {
      const copy = resize(marked.image, width, height);
      const got = wm.detect(copy);
      expect(got.status, `${width}x${height}`).toBe("detected");
      if (got.status === "detected") expect(Buffer.from(got.payload).toString("hex")).toBe(Buffer.from(payload).toString("hex"));
      // the tile shows below its canonical size: found by the scan added for small images
      expect(wm.lastDetect.scaleRatio).toBeLessThan(0.97);
      expect(wm.detect(resize(photo, width, height)).status).toBe("not_detected");
    }
  }, 60_000);
});
