// Per-stage CPU of a verification's pixel work, in Node (the same V8 and wasm as workerd, whose clock does not
// advance during CPU work, so the stages cannot be timed inside it), and what the reduced plane changes.
//   node bench/verify-stages.mjs [--runs N] [--agreement N]
// 1. Medians of N runs per stage for the bench images of bench/verify.mjs (the 2.8 MP photograph) and
//    bench/verify-keyed.mjs (a 1 MP photo-like JPEG q90) and the 64 px sample: decode, watermark detect (full
//    image), PDQ and ISCC on the full image (before #19) and on the plane (now), the plane itself.
// 2. Agreement: on N seeded generated images of 0.8-3 MP, PDQ and ISCC of the plane against those of the full
//    image (what publication indexes): equal ISCC codes, PDQ Hamming distances (the lookup accepts <= 31).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import "./lib/ts-resolve.mjs";

const ROOT = join(import.meta.dirname, "..");
const arg = (name, fallback) => (process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) : fallback);
const runs = arg("--runs", 7);
const agreementImages = arg("--agreement", 40);
const { WasmWatermarker } = await import("../src/media/watermark/kernel.ts");
const { IsccImageFingerprinter, PdqFingerprinter, hammingDistance } = await import("../src/media/fingerprint/index.ts");
const { pixelPlane } = await import("../src/media/fingerprint/plane.ts");
const { benchPhotograph, jpegDec, jpegEnc, makeImage } = await import("./lib/images.mjs");
const wmModule = new WebAssembly.Module(readFileSync(join(ROOT, "wasm/build/watermark.wasm")));
const fpModule = new WebAssembly.Module(readFileSync(join(ROOT, "wasm/build/fingerprint.wasm")));
const wm = new WasmWatermarker(wmModule);
const iscc = new IsccImageFingerprinter(fpModule);
const pdq = new PdqFingerprinter(fpModule);

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
async function time(fn) {
  const xs = [];
  let out;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    out = await fn();
    xs.push(performance.now() - t0);
  }
  return { ms: median(xs), out };
}

/** The bench/verify.mjs photograph (bench/lib/images.mjs). */
async function photograph() {
  return (await benchPhotograph()).bytes;
}

async function generatedJpeg(kind, W, H, seed, quality) {
  const img = makeImage(kind, W, H, seed);
  return new Uint8Array(await jpegEnc.default({ data: new Uint8ClampedArray(img.data.buffer), width: W, height: H }, { quality }));
}

const cases = [
  ["2.8 MP photograph (bench/verify.mjs)", await photograph()],
  ["1 MP photo-textured q90 (bench/verify-keyed.mjs)", await generatedJpeg("photo-textured", 1280, 800, 1, 90)],
  ["64 px sample.jpg", new Uint8Array(readFileSync(join(ROOT, "test/fixtures/media/sample.jpg")))],
];
console.log(`\nStages of a verification's pixel work (Node ${process.version}, medians of ${runs}, ms)\n`);
for (const [name, bytes] of cases) {
  const dec = await time(() => jpegDec.default(bytes.slice().buffer));
  const img = { width: dec.out.width, height: dec.out.height, data: new Uint8Array(dec.out.data.buffer) };
  const det = await time(() => wm.detect(img));
  const p = await time(() => pdq.compute(img));
  const i = await time(() => iscc.compute(img));
  const pl = await time(() => pixelPlane(fpModule, img));
  const plane = pl.out.image;
  const p2 = await time(() => pdq.compute(plane));
  const i2 = await time(() => iscc.compute(plane));
  const before = dec.ms + det.ms + p.ms + i.ms;
  // the service (verify-pixels.ts): PDQ of the plane from factor 3, ISCC and the watermark of the full decode
  const after = pl.out.factor >= 3 ? dec.ms + det.ms + pl.ms + p2.ms + i.ms : before;
  console.log(`${name}: ${img.width}x${img.height}, ${bytes.length} bytes; plane ${plane.width}x${plane.height} (factor ${pl.out.factor})`);
  console.log(
    `  decode ${dec.ms.toFixed(1)} | watermark ${det.ms.toFixed(1)} (${det.out.status}) | full image: pdq ${p.ms.toFixed(1)} iscc ${i.ms.toFixed(1)} | plane ${pl.ms.toFixed(1)}: pdq ${p2.ms.toFixed(1)} iscc ${i2.ms.toFixed(1)}`,
  );
  console.log(
    `  total before #19 ${before.toFixed(1)} -> service now ${after.toFixed(1)} ms; plane vs full: pdq distance ${hammingDistance(p.out.bits, p2.out.bits)}, iscc ${i.out.value === i2.out.value ? "equal" : "differs"}`,
  );
}

if (agreementImages > 0) {
  const kinds = ["photo", "photo-textured", "shapes", "gradient", "noise", "lowkey", "highkey", "document", "stripes"];
  const sizes = [
    [1024, 768],
    [1280, 960],
    [1600, 1200],
    [2112, 1326],
    [1000, 1500],
  ];
  let equal = 0;
  let n = 0;
  let gated = 0;
  const distances = [];
  for (let k = 0; k < agreementImages; k++) {
    const [W, H] = sizes[k % sizes.length];
    const bytes = await generatedJpeg(kinds[k % kinds.length], W, H, 900 + k, 80);
    const d = await jpegDec.default(bytes.buffer);
    const img = { width: d.width, height: d.height, data: new Uint8Array(d.data.buffer) };
    const plane = pixelPlane(fpModule, img).image;
    const pf = pdq.compute(img);
    const pp = pdq.compute(plane);
    n++;
    if (iscc.compute(img).value === iscc.compute(plane).value) equal++;
    // the service looks PDQ up only at quality >= 50 (and ISCC only then, see verify-service.ts)
    if (pf.quality >= 50 && pp.quality >= 50) distances.push(hammingDistance(pf.bits, pp.bits));
    else gated++;
  }
  distances.sort((a, b) => a - b);
  console.log(
    `\nPlane vs full image on ${n} generated JPEGs (q80, 0.8-3 MP, ${kinds.length} kinds): ISCC equal ${equal}/${n}; ` +
      `PDQ distance median ${median(distances)}, max ${distances.at(-1)} (lookup accepts <= 31) over ${distances.length} textured (quality >= 50), ${gated} under the quality gate`,
  );
}
