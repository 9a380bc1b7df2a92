// #19: CPU of the PDQ window hashes (pdqRegionHashes: 30 windows since #20's quarter offsets, 18 before) of a
// photo's verification plane, the publication step's share of an express sign. A/B: `node bench/pdq-regions.mjs [runs] [baseline.mjs baseline.wasm]` times this tree's
// code and, when given, a baseline bundle + kernel, interleaved; prints process-CPU medians per call.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { bundleForNode } from "./lib/node-bundle.mjs";

const ROOT = join(import.meta.dirname, "..");
const ENTRY = `export { PdqFingerprinter, pdqRegionHashes, pixelPlane } from "./src/media/fingerprint/index.ts";`;
const runs = Number(process.argv[2] ?? 15);
const Module = WebAssembly.Module;

const { default: decode, init } = await import(join(ROOT, "node_modules/@jsquash/jpeg/decode.js"));
await init(new Module(readFileSync(join(ROOT, "node_modules/@jsquash/jpeg/codec/dec/mozjpeg_dec.wasm"))));

async function variant(label, bundleUrl, wasmPath) {
  const F = await import(bundleUrl);
  const module = new Module(readFileSync(wasmPath));
  return { label, F, module, pdq: new F.PdqFingerprinter(module), times: [] };
}
const variants = [await variant("this tree", bundleForNode("pdq-regions", ENTRY), join(ROOT, "wasm/build/fingerprint.wasm"))];
if (process.argv[3]) variants.push(await variant("baseline", new URL(`file://${process.argv[3]}`).href, process.argv[4]));

for (const file of ["sample-1mp.jpg", "photo-bridge.jpg"]) {
  const bytes = readFileSync(join(ROOT, "test/fixtures/media", file));
  const d = await decode(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
  const full = { width: d.width, height: d.height, data: new Uint8Array(d.data.buffer) };
  const plane = variants[0].F.pixelPlane(variants[0].module, full).image;
  for (const v of variants) v.times = [];
  for (let i = 0; i < runs; i++)
    for (const v of i % 2 ? [...variants].reverse() : variants) {
      const t0 = process.cpuUsage();
      const r = v.F.pdqRegionHashes(v.pdq, plane);
      const t = process.cpuUsage(t0);
      if (r.status !== "computed") throw new Error(r.message);
      v.times.push((t.user + t.system) / 1000);
    }
  const med = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
  for (const v of variants)
    console.log(
      `${file} plane ${plane.width}x${plane.height}: ${v.label} median ${med(v.times).toFixed(2)} ms CPU (min ${Math.min(...v.times).toFixed(2)}, ${runs} runs)`,
    );
}
