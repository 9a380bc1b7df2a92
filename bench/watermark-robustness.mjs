// Robustness, quality and speed of our invisible watermark (svc-wm-tiledss-1, wasm/watermark).
//
//   npx node bench/watermark-robustness.mjs            # full run (a few minutes: JPEG encoding dominates)
//   npx node bench/watermark-robustness.mjs --quick    # 12 images, balanced only, no 12 MP timing
//   add --verbose to list every image/attack that was not recovered
//
// Builds the wasm kernels first (scripts/build-wasm.mjs), imports the TypeScript wrapper directly (Node 22
// strips the types) and generates every test image in code (seeded, deterministic). Prints:
//   1. recovery rate, wrong-payload count and raw code-bit accuracy per attack and strength, over >= 50 images
//   2. measured luma PSNR per strength
//   3. false positives on >= 100 unmarked images, next to the code's bound
//   4. embed / detect time at 1 MP and 12 MP next to a JPEG decode + encode of the same image, kernel memory
//   5. one hot loop (luma area-resampling) in plain JS vs the wasm kernel
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import v8 from "node:v8";
import vm from "node:vm";
import "./lib/ts-resolve.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
execFileSync(process.execPath, [join(root, "scripts", "build-wasm.mjs")], { stdio: "inherit", cwd: root });

const { WasmWatermarker, WATERMARK_ALGORITHM, WATERMARK_STRENGTH_PSNR_DB } = await import("../src/media/watermark/kernel.ts");
// test images and attacks: shared with bench/fingerprint-recall.mjs (importing it initializes the @jsquash codecs)
const { makeImage, jpeg, png, resize, crop, brightness, jpegEnc, jpegDec } = await import("./lib/images.mjs");

export { makeImage };

v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc");
const quick = process.argv.includes("--quick");
const verbose = process.argv.includes("--verbose");
const wasmModule = new WebAssembly.Module(readFileSync(join(root, "wasm", "build", "watermark.wasm")));
const wm = new WasmWatermarker(wasmModule);

// ------------------------------------------------------------------------------------------------------------
// Test images (seeded, bench/lib/images.mjs): photo-like scenes, textures, shapes, gradients, flat, low/high key, documents, stripes

// 52 kinds x sizes (all >= 0.79 MP, so that a 50 % downscale keeps the canonical 512 x 384 grid)
const KIND_MIX = [
  ...Array(12).fill("photo"),
  ...Array(8).fill("photo-textured"),
  ...Array(6).fill("shapes"),
  ...Array(4).fill("gradient"),
  ...Array(4).fill("noise"),
  ...Array(2).fill("flat"),
  ...Array(4).fill("lowkey"),
  ...Array(4).fill("highkey"),
  ...Array(4).fill("document"),
  ...Array(4).fill("stripes"),
];
const SIZES = [
  [1155, 866],
  [1024, 768],
  [800, 1000],
  [1280, 720],
  [1000, 1000],
  [1400, 700],
  [1600, 1200],
  [866, 1155],
  [1200, 900],
];
const nImages = quick ? 12 : KIND_MIX.length;
const images = [];
for (let i = 0; i < nImages; i++) {
  const kind = quick ? KIND_MIX[(i * 5) % KIND_MIX.length] : KIND_MIX[i];
  const [W, H] = SIZES[i % SIZES.length];
  images.push({ kind, seed: 1000 + i, W, H });
}

// ------------------------------------------------------------------------------------------------------------
// Attacks (the transformations are in bench/lib/images.mjs)

const cut = (n, f) => Math.round(n * f);
const ATTACKS = [
  ["none", async (im) => im],
  ["PNG round trip", png],
  ["JPEG q75", (im) => jpeg(im, 75)],
  ["JPEG q50", (im) => jpeg(im, 50)],
  ["resize 50%", async (im) => resize(im, Math.round(im.width / 2), Math.round(im.height / 2))],
  [
    "crop 10% corner",
    async (im) => crop(im, cut(im.width, 0.1), cut(im.height, 0.1), im.width - cut(im.width, 0.1), im.height - cut(im.height, 0.1)),
  ],
  [
    "crop 10% sides",
    async (im) =>
      crop(im, cut(im.width, 0.05), cut(im.height, 0.05), im.width - 2 * cut(im.width, 0.05), im.height - 2 * cut(im.height, 0.05)),
  ],
  ["crop 10% width", async (im) => crop(im, 0, 0, im.width - cut(im.width, 0.1), im.height)],
  [
    "crop 10% + JPEG q75",
    async (im) =>
      jpeg(crop(im, cut(im.width, 0.1), cut(im.height, 0.1), im.width - cut(im.width, 0.1), im.height - cut(im.height, 0.1)), 75),
  ],
  ["brightness +20%", async (im) => brightness(im, 1.2)],
  ["brightness -20%", async (im) => brightness(im, 0.8)],
];
const QUICK_ATTACKS = new Set(["none", "JPEG q75", "resize 50%", "crop 10% corner", "crop 10% + JPEG q75"]);

// ------------------------------------------------------------------------------------------------------------
// 1 + 2: robustness and PSNR per strength

const pad = (s, n) => String(s).padEnd(n);
const lpad = (s, n) => String(s).padStart(n);
const pct = (x) => `${(100 * x).toFixed(1)}%`;
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
};

console.log(`\n${WATERMARK_ALGORITHM}: ${nImages} generated images (${[...new Set(images.map((i) => i.kind))].join(", ")}), 0.8-1.9 MP`);
console.log(
  `PSNR targets (dB): ${JSON.stringify(WATERMARK_STRENGTH_PSNR_DB)}; falsePositiveBound = ${wm.falsePositiveBound.toExponential(3)}\n`,
);

const strengths = quick ? ["balanced"] : ["subtle", "balanced", "robust"];
const psnrByStrength = {};
const t0 = performance.now();
for (const strength of strengths) {
  const rows = new Map(
    ATTACKS.filter(([name]) => !quick || QUICK_ATTACKS.has(name)).map(([name]) => [name, { ok: 0, wrong: 0, bitAcc: [] }]),
  );
  const psnrs = [];
  let embedFailures = 0;
  for (const [index, spec] of images.entries()) {
    const img = makeImage(spec.kind, spec.W, spec.H, spec.seed);
    const payload = new Uint8Array(8).map((_, j) => (index * 37 + j * 101 + strength.length * 13) & 255);
    const e = wm.embed({ image: img, payload, strength });
    if (e.status !== "embedded") {
      embedFailures++;
      continue;
    }
    psnrs.push(e.psnr_db);
    for (const [name, attack] of ATTACKS) {
      const row = rows.get(name);
      if (!row) continue;
      const attacked = await attack(e.image);
      const d = wm.detect(attacked);
      const acc = wm.codeBitAccuracy(payload);
      row.bitAcc.push(acc ?? 0.5);
      const ok = d.status === "detected" && d.payload.every((v, j) => v === payload[j]);
      if (ok) row.ok++;
      else if (d.status === "detected") row.wrong++;
      if (verbose && !ok)
        console.log(
          `  miss: #${index} ${spec.kind} ${spec.W}x${spec.H} ${name}: ${d.status} sync z ${wm.lastDetect.syncZ.toFixed(1)} scale ${wm.lastDetect.scaleRatio.toFixed(4)} code-bit acc ${acc === null ? "-" : pct(acc)}`,
        );
    }
  }
  psnrByStrength[strength] = psnrs;
  console.log(
    `strength ${strength} (target ${WATERMARK_STRENGTH_PSNR_DB[strength]} dB): PSNR mean ${(psnrs.reduce((a, b) => a + b, 0) / psnrs.length).toFixed(2)}, min ${Math.min(...psnrs).toFixed(2)}, max ${Math.max(...psnrs).toFixed(2)} dB; embed failures ${embedFailures}/${nImages}`,
  );
  console.log(`  ${pad("attack", 22)} ${lpad("recovered", 14)} ${lpad("wrong", 6)} ${lpad("code-bit acc.", 14)}`);
  for (const [name, row] of rows) {
    const n = psnrs.length;
    const acc = row.bitAcc.reduce((a, b) => a + b, 0) / Math.max(1, row.bitAcc.length);
    console.log(`  ${pad(name, 22)} ${lpad(`${row.ok}/${n} ${pct(row.ok / n)}`, 14)} ${lpad(row.wrong, 6)} ${lpad(pct(acc), 14)}`);
  }
  console.log("");
}
console.log(`(code-bit acc. = share of the 127 BCH code bits read correctly before error correction at the detector's`);
console.log(` last decode attempt; 50% when no sync peak reached the threshold. BCH corrects up to 7 errors, i.e. >= 94.5%.)`);
console.log(`robustness section: ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);

// ------------------------------------------------------------------------------------------------------------
// 3: false positives on unmarked images

{
  const nUnmarked = quick ? 30 : 120;
  const kinds = [...new Set(KIND_MIX)];
  const sizes = [
    [1155, 866],
    [640, 480],
    [1280, 720],
    [800, 1000],
    [512, 512],
    [300, 200],
    [128, 128],
    [2000, 1000],
  ];
  let detected = 0;
  let attempts = 0;
  let ms = 0;
  for (let i = 0; i < nUnmarked; i++) {
    const [W, H] = sizes[i % sizes.length];
    const img = makeImage(kinds[i % kinds.length], W, H, 50_000 + i);
    const t = performance.now();
    const d = wm.detect(img);
    ms += performance.now() - t;
    attempts += wm.lastDetect.decodeAttempts;
    if (d.status === "detected") detected++;
  }
  console.log(
    `false positives: ${detected}/${nUnmarked} unmarked images detected (${attempts} BCH decode attempts made in total; ` +
      `${(attempts / nUnmarked).toFixed(2)} per image; bound ${wm.falsePositiveBound.toExponential(3)} per image = 40 attempts x V(127,7)/2^63) ` +
      `[mean ${(ms / nUnmarked).toFixed(0)} ms per detect, sizes 128x128 to 2000x1000]\n`,
  );
}

// ------------------------------------------------------------------------------------------------------------
// 4: timings and memory

function timeIt(fn, reps) {
  const ts = [];
  let out;
  for (let r = 0; r < reps; r++) {
    const t = performance.now();
    out = fn();
    ts.push(performance.now() - t);
  }
  return { ms: median(ts), out };
}
async function timeAsync(fn, reps) {
  const ts = [];
  for (let r = 0; r < reps; r++) {
    const t = performance.now();
    await fn();
    ts.push(performance.now() - t);
  }
  return median(ts);
}
const sizesForTiming = quick
  ? [[1155, 866]]
  : [
      [1155, 866],
      [4000, 3000],
    ];
for (const [W, H] of sizesForTiming) {
  const img = makeImage("photo", W, H, 7);
  const payload = new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]);
  const reps = W * H > 4e6 ? 3 : 7;
  // memory: with the input held, the growth of ArrayBuffer memory across one embed (output + kernel growth)
  gc();
  const before = process.memoryUsage().arrayBuffers;
  const kernelBefore = wm.kernelMemoryBytes;
  wm.embed({ image: img, payload, strength: "balanced" });
  const grown = process.memoryUsage().arrayBuffers - before;
  const kernelGrowth = wm.kernelMemoryBytes - kernelBefore;
  gc();
  const e = timeIt(() => wm.embed({ image: img, payload, strength: "balanced" }), reps);
  const marked = e.out.image;
  const det = timeIt(() => wm.detect(marked), reps);
  const croppedImg = crop(marked, cut(W, 0.1), cut(H, 0.1), W - cut(W, 0.1), H - cut(H, 0.1));
  const detCrop = timeIt(() => wm.detect(croppedImg), reps);
  const detUnmarked = timeIt(() => wm.detect(img), reps);
  const frame = { data: new Uint8ClampedArray(img.data.buffer), width: W, height: H, colorSpace: "srgb" };
  const jpegBytes = await jpegEnc.default(frame, { quality: 75 });
  const tDec = await timeAsync(() => jpegDec.default(jpegBytes), reps);
  const tEnc = await timeAsync(() => jpegEnc.default(frame, { quality: 75 }), reps);
  const mb = (b) => (b / 1e6).toFixed(1);
  console.log(
    `${W}x${H} (${((W * H) / 1e6).toFixed(1)} MP), medians of ${reps}: embed ${e.ms.toFixed(1)} ms (PSNR ${e.out.psnr_db} dB); ` +
      `detect marked ${det.ms.toFixed(1)} ms [${det.out.status}], cropped 10% ${detCrop.ms.toFixed(1)} ms [${detCrop.out.status}], unmarked ${detUnmarked.ms.toFixed(1)} ms [${detUnmarked.out.status}]`,
  );
  console.log(
    `  baseline in the same run: JPEG decode ${tDec.toFixed(1)} ms + JPEG q75 encode (MozJPEG, jSquash defaults) ${tEnc.toFixed(1)} ms = ${(tDec + tEnc).toFixed(1)} ms`,
  );
  console.log(
    `  memory: input ${mb(img.data.length)} MB + output ${mb(marked.data.length)} MB + kernel linear memory ${mb(wm.kernelMemoryBytes)} MB ` +
      `= ${mb(img.data.length + marked.data.length + wm.kernelMemoryBytes)} MB peak by construction; measured: ArrayBuffer memory grew by ${mb(grown)} MB ` +
      `during one embed with the input held (kernel memory grew by ${mb(kernelGrowth)} MB of that)`,
  );
}

// ------------------------------------------------------------------------------------------------------------
// 5: plain JS vs wasm, one hot loop: area-resampling an RGBA image's luma onto the canonical grid

{
  const [W, H] = quick ? [1155, 866] : [4000, 3000];
  const img = makeImage("gradient", W, H, 3);
  const k = new WebAssembly.Instance(wasmModule, {}).exports;
  const s = Math.min(1, Math.sqrt(196608 / (W * H)));
  const Wc = Math.round(W * s),
    Hc = Math.round(H * s);
  // plain JS, same algorithm as the kernel's lumaRows (integer luma x 1000, two-cell splat per axis)
  const dx0 = new Int32Array(W),
    dfx = new Float32Array(W);
  for (let x = 0; x < W; x++) {
    const a = x * s,
      b = (x + 1) * s,
      c = Math.floor(a);
    dx0[x] = Math.min(c, Wc);
    dfx[x] = b > c + 1 ? (c + 1 - a) / s : 1;
  }
  const acc = new Float32Array((Wc + 2) * (Hc + 2));
  const row = new Float32Array(Wc + 2);
  const jsLuma = () => {
    acc.fill(0);
    const d = img.data;
    for (let y = 0; y < H; y++) {
      row.fill(0);
      for (let x = 0, p = y * W * 4; x < W; x++, p += 4) {
        const Y = 299 * d[p] + 587 * d[p + 1] + 114 * d[p + 2];
        const b = Y * dfx[x];
        const c = dx0[x];
        row[c] += b;
        row[c + 1] += Y - b;
      }
      const a = y * s,
        bb = (y + 1) * s,
        c = Math.floor(a),
        fy = bb > c + 1 ? (c + 1 - a) / s : 1;
      const o = c * Wc,
        o2 = (c + 1) * Wc;
      for (let i = 0; i < Wc; i++) {
        acc[o + i] += fy * row[i];
        acc[o2 + i] += (1 - fy) * row[i];
      }
    }
  };
  k.setup(W, H);
  const rows = k.stripRows(),
    ptr = k.stripPtr();
  const wasmLuma = () => {
    k.lumaBegin();
    for (let y = 0; y < H; y += rows) {
      const n = Math.min(rows, H - y);
      new Uint8Array(k.memory.buffer).set(img.data.subarray(y * W * 4, (y + n) * W * 4), ptr);
      k.lumaRows(y, n);
    }
  };
  for (let i = 0; i < 3; i++) {
    jsLuma();
    wasmLuma();
  }
  const tj = timeIt(jsLuma, 7).ms,
    tw = timeIt(wasmLuma, 7).ms;
  console.log(
    `\nhot loop, luma area-resampling of ${W}x${H} onto ${Wc}x${Hc}: plain JS ${tj.toFixed(1)} ms, wasm ${tw.toFixed(1)} ms (incl. strip copies) -> ${(tj / tw).toFixed(2)}x`,
  );
}
