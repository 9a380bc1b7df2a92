// #19 diagnostic: two builds of the watermark kernel compared bit for bit on the detector's equivalence set
// (test/node/media/watermark-equivalence.cases.mjs): every embed's output bytes and PSNR, every detect's result,
// confidence and diagnostics (sync z, peak z, scan z, scale, attempts, folds), exactly, no rounding. For changes that
// must not move a single value (SIMD rewrites of the exact paths); the equivalence test itself allows the scan's
// rounding. Also the detect time of each build (medians, ms).
//   node bench/watermark-exact-ab.mjs OLD.wasm NEW.wasm [all|fast]
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import "./lib/ts-resolve.mjs";

const { WasmWatermarker } = await import("../src/media/watermark/kernel.ts");
const { equivalenceCases } = await import("../test/node/media/watermark-equivalence.cases.mjs");
const [oldFile, newFile, only = "all"] = process.argv.slice(2);
if (!oldFile || !newFile) throw new Error("usage: node bench/watermark-exact-ab.mjs OLD.wasm NEW.wasm [all|fast]");
const load = (p) => new WasmWatermarker(new WebAssembly.Module(readFileSync(p)));
const A = load(oldFile);
const B = load(newFile);
const digest = (d) => createHash("sha256").update(d).digest("hex").slice(0, 16);
let cases = 0;
let differing = 0;
let embeds = 0;
let embedsDiffering = 0;
const embed = (image, payload, strength) => {
  const a = A.embed({ image, payload, strength });
  const b = B.embed({ image, payload, strength });
  const key = (e) => (e.status === "embedded" ? `${digest(e.image.data)} ${e.psnr_db}` : e.status);
  embeds++;
  if (key(a) !== key(b)) embedsDiffering++;
  return a.status === "embedded" ? a.image : null;
};
const ms = [[], []];
const run = (wm, image, k) => {
  const t0 = performance.now();
  const d = wm.detect(image);
  ms[k].push(performance.now() - t0);
  return JSON.stringify([d.status, d.payload ? [...d.payload] : null, d.confidence ?? null, d.bit_errors ?? null, wm.lastDetect]);
};
for await (const c of equivalenceCases(embed, { only })) {
  cases++;
  const a = run(A, c.image, 0);
  const b = run(B, c.image, 1);
  if (a !== b) {
    differing++;
    if (differing <= 5) console.log(`DIFFERS ${c.id}\n  old ${a}\n  new ${b}`);
  }
}
const median = (xs) => [...xs].sort((x, y) => x - y)[xs.length >> 1];
console.log(
  `${cases} cases: detect results and diagnostics differing ${differing}; ${embeds} embeds, differing ${embedsDiffering}; ` +
    `detect ms median old ${median(ms[0]).toFixed(2)} new ${median(ms[1]).toFixed(2)}`,
);
if (differing > 0 || embedsDiffering > 0) process.exitCode = 1;
