// #19 diagnostic: the express job's pixel stages in Node, CPU ms p50 per stage, on the 1 MP bench source (written by
// `node bench/express.mjs --http`) and the bridge photograph: what the watermark step, the fingerprints folded
// into its record, and the two stored digests cost, with the service's own codec and kernels. The Worker runs the
// same wasm; absolute figures differ, the split is what to read.
//
//   node bench/express-stages.mjs [runs=9]
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { bundleForNode } from "./lib/node-bundle.mjs";

const ROOT = join(import.meta.dirname, "..");
const runs = Number(process.argv[2] ?? 9);
const entry = `
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { IsccImageFingerprinter, PdqFingerprinter } from "./src/media/fingerprint";
import { WasmWatermarker } from "./src/media/watermark/kernel";
import { nodeImageCodec } from "./test/support/node-codec";
import { markAndEncode } from "./src/jobs/steps/watermark";
import { readPublished, fingerprintStep } from "./src/jobs/steps/fingerprint";
const Module = WebAssembly.Module;
export function services() {
  const build = (f) => new Module(readFileSync(join(${JSON.stringify(ROOT)}, "wasm", "build", f)));
  const fp = build("fingerprint.wasm");
  const iscc = new IsccImageFingerprinter(fp);
  const pdq = new PdqFingerprinter(fp);
  return {
    codec: nodeImageCodec(),
    watermarker: new WasmWatermarker(build("watermark.wasm")),
    fingerprinters: new Map([[iscc.algorithm, iscc], [pdq.algorithm, pdq]]),
  };
}
export { markAndEncode, readPublished, fingerprintStep };
`;
const { services, markAndEncode, readPublished, fingerprintStep } = await import(bundleForNode("express-stages-entry", entry));
const image = services();
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const p50 = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

const sources = [
  ["bench 1280x800 q90 4:4:4 progressive", join(ROOT, "dist", "bench", "express-1280x800.jpg")],
  ["photo-bridge 1600x1004 4:2:0 baseline", join(ROOT, "test", "fixtures", "media", "photo-bridge.jpg")],
  ["sample-1mp 1280x800 4:2:0 baseline", join(ROOT, "test", "fixtures", "media", "sample-1mp.jpg")],
];
const admitted = (algorithms) => ({ fingerprint_algorithms: algorithms });
for (const [name, file] of sources) {
  if (!existsSync(file)) {
    console.log(`${name}: ${file} missing (run node bench/express.mjs --http once)`);
    continue;
  }
  const bytes = new Uint8Array(readFileSync(file));
  const t = {};
  const add = (k, v) => (t[k] ??= []).push(v);
  let outBytes = 0;
  for (let i = 0; i < runs + 1; i++) {
    const payload = crypto.getRandomValues(new Uint8Array(8));
    let c = cpu();
    const { encoded } = await markAndEncode(image, bytes, "image/jpeg", payload, "balanced");
    const c1 = cpu();
    const back = await readPublished(image, encoded, "image/jpeg");
    const c2 = cpu();
    const found = image.watermarker.detect(back.full);
    const c3 = cpu();
    if (found.status !== "detected") throw new Error("mark lost");
    fingerprintStep(image, admitted(["iscc-image"]), back);
    const c4 = cpu();
    fingerprintStep(image, admitted(["pdq"]), back);
    const c5 = cpu();
    await crypto.subtle.digest("SHA-256", encoded);
    const c6 = cpu();
    outBytes = encoded.length;
    if (i === 0) continue; // warm-up
    add("decode+embed+encode", c1 - c);
    add("read-back decode", c2 - c1);
    add("detect", c3 - c2);
    add("iscc", c4 - c3);
    add("pdq + 18 regions", c5 - c4);
    add("sha256", c6 - c5);
    c = 0;
  }
  const total = Object.values(t).reduce((s, xs) => s + p50(xs), 0);
  console.log(`${name} (${bytes.length} → ${outBytes} bytes): CPU ms p50 of ${runs}, total ${total.toFixed(1)}`);
  console.log(
    `  ${Object.entries(t)
      .map(([k, xs]) => `${k} ${p50(xs).toFixed(1)}`)
      .join(", ")}`,
  );
}
