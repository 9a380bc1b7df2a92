// Per-stage CPU of a verification's pixel work, in Node (the same V8 and wasm as workerd, whose clock does not
// advance during CPU work, so the stages cannot be timed inside it), before and after the reduced decode.
//   node bench/verify-stages.mjs [--runs N] [--agreement N] [--before-jpegdec FILE]
// 1. Medians of N runs (process CPU time, interleaved) for the bench images of bench/verify.mjs (the 2.8 MP
//    photograph) and bench/verify-keyed.mjs (a 1 MP photo-like JPEG q90) and the 64 px sample. "before": the
//    service before the reduced decode (our decoder at full size, PDQ's box plane from factor 3); "after":
//    verify-pixels.ts (a JPEG reduced in the DCT domain as far as the detector's canonical grid allows); then the
//    watermark detector, PDQ, ISCC and the 15 PDQ query windows on what each path hands them. --before-jpegdec: the jpegdec.wasm "before"
//    decodes with (e.g. one built from the commit before; default: this build's).
// 2. Agreement with what publication indexes (the fingerprints of the full-size decode, src/jobs/steps/
//    fingerprint.ts): equal ISCC codes (looked up exactly), PDQ Hamming distances (looked up within 31), and
//    whether the PDQ quality gate (>= 50: fingerprints are looked up at all) decides alike, before and after, on
//    real photographs (the bench photograph, the repo's photo fixtures, re-encodes of photo-bridge.jpg, the
//    decoder's 18 real-photo crops) and on N seeded generated JPEGs of 0.8-3 MP.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import v8 from "node:v8";
import vm from "node:vm";
import "./lib/ts-resolve.mjs";

// A collection before each timed run, so one path's garbage is not collected on another's clock.
v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc");

const ROOT = join(import.meta.dirname, "..");
const arg = (name, fallback) => (process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) : fallback);
const runs = arg("--runs", 7);
const agreementImages = arg("--agreement", 40);
const { WasmWatermarker } = await import("../src/media/watermark/kernel.ts");
const { IsccImageFingerprinter, PdqFingerprinter, hammingDistance, pixelPlane, planeFactor } = await import(
  "../src/media/fingerprint/index.ts"
);
const { JpegStreamDecoder } = await import("../src/media/codecs/jpeg-decoder.ts");
const { pdqQueryWindowHashes } = await import("../src/media/fingerprint/regions.ts");
const { verifyPixels } = await import("../src/verifications/verify-pixels.ts");
const { queryWindowImage } = await import("../src/media/fingerprint/query-plane.ts");
const { benchPhotograph, jpegDec, jpegEnc, makeImage, resize } = await import("./lib/images.mjs");
const module = (name) => new WebAssembly.Module(readFileSync(join(ROOT, "wasm/build", name)));
const wm = new WasmWatermarker(module("watermark.wasm"));
const fpModule = module("fingerprint.wasm");
const jpegStream = module("jpegdec.wasm");
const beforeFile = process.argv.includes("--before-jpegdec") ? process.argv[process.argv.indexOf("--before-jpegdec") + 1] : null;
const jpegStreamBefore = beforeFile ? new WebAssembly.Module(readFileSync(beforeFile)) : jpegStream;
const iscc = new IsccImageFingerprinter(fpModule);
const pdq = new PdqFingerprinter(fpModule);
const MAX_PIXELS = 12_000_000;
const PDQ_MIN_QUALITY = 50;

// The JPEG half of the service's codec (src/media/codecs/image-codec.ts): our decoder, MozJPEG for what it refuses.
const jpegCodec = (stream) => ({
  mediaTypes: ["image/jpeg"],
  maxPixels: MAX_PIXELS,
  async decode(bytes) {
    const ours = new JpegStreamDecoder(stream).decode(bytes, 1, MAX_PIXELS);
    if (ours.status === "decoded" || ours.status === "too_large") return ours;
    try {
      const d = await jpegDec.default(bytes.slice().buffer);
      return { status: "decoded", image: { width: d.width, height: d.height, data: new Uint8Array(d.data.buffer) } };
    } catch (error) {
      return { status: "failed", message: String(error?.message ?? error) };
    }
  },
  async rowSource(bytes) {
    return new JpegStreamDecoder(stream).source(bytes, MAX_PIXELS);
  },
});
const codec = jpegCodec(jpegStream);
const codecBefore = jpegCodec(jpegStreamBefore);
const services = {
  codec,
  watermarker: wm,
  fingerprinters: new Map([
    ["pdq", pdq],
    ["iscc-image", iscc],
  ]),
};

/** What the service read before the reduced decode: the full decode, and PDQ's plane from factor 3. */
async function before(bytes) {
  const full = (await codecBefore.decode(bytes)).image;
  const plane = planeFactor(full.width, full.height) >= 3 ? pixelPlane(pdq.kernel, full).image : full;
  return { image: full, pdqImage: plane };
}
async function after(bytes) {
  const v = await verifyPixels(services, bytes, "image/jpeg");
  if (v.status !== "decoded") throw new Error(v.message);
  return { image: v.pixels.full, pdqImage: v.pixels.plane.image, scale: v.pixels.plane.factor };
}

const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
/** Medians (and minima) of `runs` interleaved runs of each function (CPU ms), and the last result of each. */
async function timeAll(fns) {
  const xs = fns.map(() => []);
  const outs = [];
  for (let r = 0; r < runs; r++)
    for (let i = 0; i < fns.length; i++) {
      gc();
      const t0 = cpu();
      outs[i] = await fns[i]();
      xs[i].push(cpu() - t0);
    }
  return xs.map((x, i) => ({ ms: median(x), min: Math.min(...x), out: outs[i] }));
}

async function encode(img, options) {
  const frame = {
    data: new Uint8ClampedArray(img.data.buffer, img.data.byteOffset, img.data.length),
    width: img.width,
    height: img.height,
  };
  return new Uint8Array(await jpegEnc.default(frame, options));
}
const generatedJpeg = (kind, W, H, seed, quality) => encode(makeImage(kind, W, H, seed), { quality });

const cases = [
  ["2.8 MP photograph (bench/verify.mjs)", (await benchPhotograph()).bytes],
  ["1 MP photo-textured q90 (bench/verify-keyed.mjs)", await generatedJpeg("photo-textured", 1280, 800, 1, 90)],
  ["64 px sample.jpg", new Uint8Array(readFileSync(join(ROOT, "test/fixtures/media/sample.jpg")))],
];
console.log(`\nStages of a verification's pixel work (Node ${process.version}, medians of ${runs}, CPU ms)\n`);
for (const [name, bytes] of cases) {
  const [moz, b, a] = await timeAll([() => jpegDec.default(bytes.slice().buffer), () => before(bytes), () => after(bytes)]);
  const [detB, detA] = await timeAll([() => wm.detect(b.out.image), () => wm.detect(a.out.image)]);
  const [pdqB, pdqA, isccB, isccA, winB, winA] = await timeAll([
    () => pdq.compute(b.out.pdqImage),
    () => pdq.compute(a.out.pdqImage),
    () => iscc.compute(b.out.image),
    () => iscc.compute(a.out.image),
    // the 15 query windows (regions.ts PDQ_QUERY_WINDOWS) verify-service.ts hashes when PDQ passes the gate: before, on
    // PDQ's input; after, on PDQ's input capped at 768 px a side (media/fingerprint/query-plane.ts queryWindowImage, #19)
    () => pdqQueryWindowHashes(pdq, b.out.pdqImage),
    () => pdqQueryWindowHashes(pdq, queryWindowImage(pdq.kernel, a.out.pdqImage)),
  ]);
  const totalB = b.ms + detB.ms + pdqB.ms + isccB.ms + winB.ms;
  const totalA = a.ms + detA.ms + pdqA.ms + isccA.ms + winA.ms;
  const im = a.out.image;
  console.log(
    `${name}: ${b.out.image.width}x${b.out.image.height}, ${bytes.length} bytes; verify reads ${im.width}x${im.height} (1/${a.out.scale})`,
  );
  console.log(
    `  decode + plane: before ${b.ms.toFixed(1)} (MozJPEG alone ${moz.ms.toFixed(1)}) -> after ${a.ms.toFixed(1)} (x${(a.ms / b.ms).toFixed(2)}); ` +
      `minima ${b.min.toFixed(1)} (${moz.min.toFixed(1)}) -> ${a.min.toFixed(1)} (x${(a.min / b.min).toFixed(2)})`,
  );
  console.log(
    `  watermark ${detB.ms.toFixed(1)} (${detB.out.status}) -> ${detA.ms.toFixed(1)} (${detA.out.status}) | pdq ${pdqB.ms.toFixed(1)} -> ${pdqA.ms.toFixed(1)} | iscc ${isccB.ms.toFixed(1)} -> ${isccA.ms.toFixed(1)} | 15 PDQ query windows ${winB.ms.toFixed(1)} -> ${winA.ms.toFixed(1)}`,
  );
  console.log(`  all pixel work: before ${totalB.toFixed(1)} -> after ${totalA.toFixed(1)} ms (x${(totalA / totalB).toFixed(2)})`);
}

/** Fingerprints as publication indexes them (the full decode) and as verify computes them before and after. */
async function agreement(label, list) {
  const stat = { n: 0, reduced: 0, isccB: 0, isccA: 0, gateDiffers: 0, lookedUp: 0, foundB: 0, foundA: 0 };
  const dB = [];
  const dA = [];
  for (const [, bytes] of list) {
    // publication's decode (src/jobs/steps/common.ts decodeOrFail), with the decoder it ran before this change
    const decoded = await codecBefore.decode(bytes);
    if (decoded.status !== "decoded") continue; // not indexable (e.g. arithmetic coding: neither decoder takes it)
    const full = decoded.image;
    const indexedIscc = iscc.compute(full).value;
    const indexedPdq = pdq.compute(full);
    const b = await before(bytes);
    const a = await after(bytes);
    const pb = pdq.compute(b.pdqImage);
    const pa = pdq.compute(a.pdqImage);
    const ib = iscc.compute(b.image).value === indexedIscc;
    const ia = iscc.compute(a.image).value === indexedIscc;
    stat.n++;
    if (a.scale > 1) stat.reduced++;
    if (ib) stat.isccB++;
    if (ia) stat.isccA++;
    const gateB = pb.quality >= PDQ_MIN_QUALITY;
    const gateA = pa.quality >= PDQ_MIN_QUALITY;
    if (gateB !== gateA) stat.gateDiffers++;
    const distB = hammingDistance(indexedPdq.bits, pb.bits);
    const distA = hammingDistance(indexedPdq.bits, pa.bits);
    dB.push(distB);
    dA.push(distA);
    // Found by the service: the exact ISCC code, else PDQ within 31 (both only past the quality gate).
    if (gateB || gateA) stat.lookedUp++;
    if (gateB && (ib || distB <= 31)) stat.foundB++;
    if (gateA && (ia || distA <= 31)) stat.foundA++;
  }
  const summary = (d) => `median ${median(d)}, max ${Math.max(...d)}`;
  console.log(
    `${label}: ${stat.n} images (${stat.reduced} decoded reduced). ISCC equal to the indexed code: before ${stat.isccB}/${stat.n}, after ${stat.isccA}/${stat.n}. ` +
      `PDQ distance to the indexed hash: before ${summary(dB)}; after ${summary(dA)}. Quality gate decides differently: ${stat.gateDiffers}. ` +
      `Found (ISCC equal or PDQ <= 31, past the gate): before ${stat.foundB}, after ${stat.foundA} of ${stat.lookedUp} gated in.`,
  );
}

if (agreementImages > 0) {
  console.log(`\nAgreement with the indexed fingerprints (full-size decode, as publication computes them)\n`);
  const bridge = await jpegDec.default(readFileSync(join(ROOT, "test/fixtures/media/photo-bridge.jpg")).buffer);
  const bridgeRgba = { width: bridge.width, height: bridge.height, data: new Uint8Array(bridge.data.buffer) };
  const real = [
    ["bench photograph", (await benchPhotograph()).bytes],
    ["photo-bridge.jpg", new Uint8Array(readFileSync(join(ROOT, "test/fixtures/media/photo-bridge.jpg")))],
    ["sample-1mp.jpg", new Uint8Array(readFileSync(join(ROOT, "test/fixtures/media/sample-1mp.jpg")))],
  ];
  for (const [q, chroma, progressive, f] of [
    [90, 1, false, 1],
    [75, 2, true, 1],
    [60, 2, false, 1],
    [95, 2, true, 0.875],
    [80, 1, false, 0.75],
    [85, 2, false, 1.5],
  ]) {
    const img = f === 1 ? bridgeRgba : resize(bridgeRgba, Math.round(bridge.width * f), Math.round(bridge.height * f));
    real.push([`bridge q${q}`, await encode(img, { quality: q, chroma_subsample: chroma, progressive, baseline: !progressive })]);
  }
  const crops = readdirSync(join(ROOT, "test/fixtures/jpegdec")).filter((f) => f.endsWith(".jpg") && !f.startsWith("tiny"));
  for (const f of crops) real.push([f, new Uint8Array(readFileSync(join(ROOT, "test/fixtures/jpegdec", f)))]);
  await agreement("Real photographs", real);

  const kinds = ["photo", "photo-textured", "shapes", "gradient", "noise", "lowkey", "highkey", "document", "stripes"];
  const sizes = [
    [1024, 768],
    [1280, 960],
    [1600, 1200],
    [2112, 1326],
    [1000, 1500],
  ];
  const generated = [];
  for (let k = 0; k < agreementImages; k++) {
    const [W, H] = sizes[k % sizes.length];
    generated.push([kinds[k % kinds.length], await generatedJpeg(kinds[k % kinds.length], W, H, 900 + k, 80)]);
  }
  await agreement(`Generated JPEGs (q80, 0.8-3 MP, ${kinds.length} kinds)`, generated);
}
