// #19 diagnostic: a verification's whole pixel work, as src/verifications/verify-service.ts runs it (verifyPixels,
// the watermark detector, whole-image PDQ, ISCC, and the 15 PDQ query windows), on two checkouts in one process,
// interleaved (alternating order), CPU ms per stage (medians, minima), on the bench images of bench/verify.mjs (the
// 2.8 MP photograph and the 64 px sample) and bench/verify-keyed.mjs, every output compared exactly: the detector's
// result and diagnostics, the PDQ hash and quality and the ISCC code; the query windows (which a checkout with #19's
// capped query plane hashes on a smaller image, media/fingerprint/query-plane.ts queryWindowImage) by Hamming distance per window.
//   node bench/pixels-pipeline-ab.mjs --old-root DIR [--runs N] [--window-side N]   (DIR: another checkout with its wasm/build)
import { readFileSync } from "node:fs";
import { join } from "node:path";
import v8 from "node:v8";
import vm from "node:vm";
import "./lib/ts-resolve.mjs";

v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc");
const ROOT = join(import.meta.dirname, "..");
const opt = (name, fallback) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : fallback);
const runs = Number(opt("--runs", 15));
const oldRoot = opt("--old-root", null);
// --window-side N: a checkout with a capped query plane caps the query windows' image at N px (default: its own cap)
const windowSide = opt("--window-side", undefined) === undefined ? undefined : Number(opt("--window-side"));
if (!oldRoot) throw new Error("usage: node bench/pixels-pipeline-ab.mjs --old-root DIR [--runs N]");
const { benchPhotograph, jpegEnc, makeImage } = await import("./lib/images.mjs");
const { hammingDistance } = await import(join(ROOT, "src", "media", "fingerprint", "index.ts"));

/** One checkout's pixel pipeline, with its own modules (src/ and wasm/build/). */
async function pipeline(root) {
  const src = (p) => import(join(root, "src", p));
  const { WasmWatermarker } = await src("media/watermark/kernel.ts");
  const { IsccImageFingerprinter, PdqFingerprinter, queryWindowFactor, queryWindowHashes } = await src("media/fingerprint/index.ts");
  const { pdqQueryWindowHashes } = await src("media/fingerprint/regions.ts");
  const { JpegStreamDecoder } = await src("media/codecs/jpeg-decoder.ts");
  const { ImageBufferLease, queryWindowInput, queryWindowPixels, verifyPixels } = await src("verifications/verify-pixels.ts");
  // a checkout from before #19's capped query plane hashes the windows on PDQ's input itself; one with the reused
  // buffers (ImageBufferLease, queryWindowInput) reduces it into a leased buffer; a newer one hashes them in PDQ's
  // kernel (queryWindowHashes, below) and never calls this
  const windowImage = ImageBufferLease
    ? (p, image, take) => queryWindowInput(p, image, windowSide, take).image
    : queryWindowPixels
      ? (p, image) => queryWindowPixels(p, image, windowSide)
      : (_pdq, image) => image;
  const mod = (n) => new WebAssembly.Module(readFileSync(join(root, "wasm", "build", n)));
  const wm = new WasmWatermarker(mod("watermark.wasm"));
  const fp = mod("fingerprint.wasm");
  const pdq = new PdqFingerprinter(fp);
  const iscc = new IsccImageFingerprinter(fp);
  const stream = mod("jpegdec.wasm");
  const services = {
    codec: {
      mediaTypes: ["image/jpeg"],
      maxPixels: 12_000_000,
      async decode() {
        return { status: "failed", message: "not in this bench" };
      },
      async rowSource(bytes) {
        return new JpegStreamDecoder(stream).source(bytes, 12_000_000);
      },
    },
    watermarker: wm,
    fingerprinters: new Map([
      ["pdq", pdq],
      ["iscc-image", iscc],
    ]),
  };
  // the order of verify-service.ts durableFacts
  // a checkout with #19's reused decode buffer (pixel-facts.ts measureImagePixels) leases it per verification
  return async (bytes, t) => {
    const lease = ImageBufferLease ? new ImageBufferLease() : null;
    const windowsLease = ImageBufferLease ? new ImageBufferLease() : null;
    try {
      return await run(bytes, t, lease, windowsLease);
    } finally {
      lease?.release();
      windowsLease?.release();
    }
  };
  async function run(bytes, t, lease, windowsLease) {
    let t0 = cpu();
    const v = await verifyPixels(services, bytes, "image/jpeg", lease?.take);
    if (v.status !== "decoded") throw new Error(v.message);
    t.decode.push(cpu() - t0);
    const pixels = v.pixels.full;
    const plane = v.pixels.plane.opaque ? v.pixels.plane.image : pixels;
    t0 = cpu();
    const d = wm.detect(pixels);
    t.detect.push(cpu() - t0);
    // a checkout whose windows stay in PDQ's kernel (queryWindowHashes): PDQ's pass reduces their image, and they are
    // hashed before ISCC, as pixel-facts.ts does (the reduction is then timed in PDQ's column)
    const inKernel = queryWindowHashes && queryWindowFactor(plane.width, plane.height, windowSide) > 1;
    t0 = cpu();
    const p = inKernel ? pdq.compute(plane, { plane: queryWindowFactor(plane.width, plane.height, windowSide) }) : pdq.compute(plane);
    t.pdq.push(cpu() - t0);
    let w;
    if (inKernel) {
      t0 = cpu();
      w = queryWindowHashes(pdq, plane, windowSide, p.plane).result;
      t.windows.push(cpu() - t0);
    }
    t0 = cpu();
    const i = iscc.compute(pixels);
    t.iscc.push(cpu() - t0);
    if (!inKernel) {
      t0 = cpu();
      w = queryWindowHashes
        ? queryWindowHashes(pdq, plane, windowSide).result
        : pdqQueryWindowHashes(pdq, windowImage(pdq, plane, windowsLease?.take));
      t.windows.push(cpu() - t0);
    }
    const hex = (b) => Buffer.from(b).toString("hex");
    return {
      same: JSON.stringify({
        detect: d.status === "detected" ? { ...d, payload: hex(d.payload) } : d,
        diag: wm.lastDetect,
        pdq: [p.value, p.quality],
        iscc: i.value,
      }),
      windows: w.status === "computed" ? w.regions : w.status,
    };
  }
}
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const sides = [
  ["old", await pipeline(oldRoot)],
  ["new", await pipeline(ROOT)],
];
const img = makeImage("photo-textured", 1280, 800, 1);
const keyed = new Uint8Array(
  await jpegEnc.default(
    { data: new Uint8ClampedArray(img.data.buffer, img.data.byteOffset, img.data.length), width: 1280, height: 800 },
    { quality: 90 },
  ),
);
const cases = [
  ["2.8 MP photo (bench/verify.mjs)", (await benchPhotograph()).bytes],
  ["1 MP q90 (bench/verify-keyed.mjs)", keyed],
  // the 64 px JPEG of bench/verify.mjs's bare-Miniflare row: its windows are most of its pixel work
  ["64 px sample (bench/verify.mjs first row)", new Uint8Array(readFileSync(join(ROOT, "test/fixtures/media/sample.jpg")))],
];
const stages = ["decode", "detect", "pdq", "iscc", "windows"];
console.log(`Pixel work of one verification, old ${oldRoot} vs new ${ROOT}: CPU ms, medians (minima) of ${runs} interleaved runs`);
for (const [name, bytes] of cases) {
  const t = sides.map(() => Object.fromEntries([...stages, "total"].map((s) => [s, []])));
  const outs = [];
  for (let r = 0; r < runs; r++)
    for (const k of r & 1 ? [1, 0] : [0, 1]) {
      gc();
      const n = t[k].decode.length;
      outs[k] = await sides[k][1](bytes, t[k]);
      t[k].total.push(stages.reduce((s, st) => s + t[k][st][n], 0));
    }
  const f = (xs) => `${median(xs).toFixed(2)} (${Math.min(...xs).toFixed(2)})`;
  console.log(`${name}`);
  for (const s of [...stages, "total"])
    console.log(`  ${s.padEnd(8)} old ${f(t[0][s])}  new ${f(t[1][s])}  x${(median(t[1][s]) / median(t[0][s])).toFixed(2)}`);
  const [a, b] = outs;
  console.log(`  detector, PDQ and ISCC equal: ${a.same === b.same}${a.same === b.same ? "" : `\n    old ${a.same}\n    new ${b.same}`}`);
  if (typeof a.windows === "string" || typeof b.windows === "string")
    console.log(`  windows: old ${a.windows.length} new ${b.windows.length}`);
  else {
    // a checkout with the capped query plane hashes the windows on a smaller image: bits differ, within PDQ's tolerance
    const d = a.windows.map((r, i) => hammingDistance(r.bits, b.windows[i].bits));
    const q = (ws) => ws.map((r) => r.quality).join(" ");
    console.log(`  windows: Hamming distance old-new per window ${d.join(" ")} (max ${Math.max(...d)})`);
    console.log(`    quality old ${q(a.windows)}\n    quality new ${q(b.windows)}`);
  }
}
