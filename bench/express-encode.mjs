// #19 diagnostic: what the watermark step's JPEG encode settings cost and give, in Node, on the 1 MP bench source
// (written by `node bench/express.mjs --http`) and the bridge photograph: our baseline encoder (wasm/jpegenc) at
// several qualities and chroma samplings, CPU ms p50 of the encode alone, output bytes, and PSNR (RGB) of the
// decoded output against the pixels encoded. The service's choice (image-codec.ts): the source's estimated quality,
// at least 85, 4:4:4 from 90 up. Nothing here changes it; it is what a change would trade.
//
//   node bench/express-encode.mjs [runs=9]
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { bundleForNode } from "./lib/node-bundle.mjs";

const ROOT = join(import.meta.dirname, "..");
const runs = Number(process.argv[2] ?? 9);
const entry = `
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { BaselineJpegEncoder } from "./src/media/codecs/baseline-jpeg";
import { estimateJpegQuality } from "./src/media/codecs/jpeg-segments";
import { nodeImageCodec } from "./test/support/node-codec";
export const codec = nodeImageCodec();
export const encoder = new BaselineJpegEncoder(new WebAssembly.Module(readFileSync(join(${JSON.stringify(ROOT)}, "wasm", "build", "jpegenc.wasm"))));
export { estimateJpegQuality };
`;
const { codec, encoder, estimateJpegQuality } = await import(bundleForNode("express-encode-entry", entry));
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const p50 = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/** PSNR over R, G and B of two RGBA images of one size. */
function psnr(a, b) {
  let sum = 0;
  let n = 0;
  for (let i = 0; i < a.length; i += 4)
    for (let c = 0; c < 3; c++) {
      const d = a[i + c] - b[i + c];
      sum += d * d;
      n++;
    }
  return 10 * Math.log10((255 * 255) / (sum / n));
}

const sources = [
  ["bench 1280x800", join(ROOT, "dist", "bench", "express-1280x800.jpg")],
  ["photo-bridge 1600x1004", join(ROOT, "test", "fixtures", "media", "photo-bridge.jpg")],
];
for (const [name, file] of sources) {
  if (!existsSync(file)) {
    console.log(`${name}: ${file} missing (run node bench/express.mjs --http once)`);
    continue;
  }
  const bytes = new Uint8Array(readFileSync(file));
  const decoded = await codec.decode(bytes, "image/jpeg");
  if (decoded.status !== "decoded") throw new Error(decoded.message);
  const image = decoded.image;
  console.log(`${name} (${bytes.length} bytes, estimated quality ${estimateJpegQuality(bytes)}): encode CPU ms p50 of ${runs}`);
  for (const [quality, sampling] of [
    [95, "4:4:4"],
    [90, "4:4:4"],
    [90, "4:2:0"],
    [85, "4:4:4"],
    [85, "4:2:0"],
  ]) {
    const times = [];
    let out = null;
    for (let i = 0; i < runs + 1; i++) {
      const c = cpu();
      out = encoder.encode(image, quality, sampling);
      if (i > 0) times.push(cpu() - c);
    }
    const back = await codec.decode(out, "image/jpeg");
    if (back.status !== "decoded") throw new Error(back.message);
    console.log(
      `  q${quality} ${sampling}: ${p50(times).toFixed(1)} ms, ${out.length} bytes, PSNR ${psnr(image.data, back.image.data).toFixed(2)} dB`,
    );
  }
}
