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

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
execFileSync(process.execPath, [join(root, "scripts", "build-wasm.mjs")], { stdio: "inherit", cwd: root });

const { WasmWatermarker, WATERMARK_ALGORITHM, WATERMARK_STRENGTH_PSNR_DB } = await import("../src/media/watermark/kernel.ts");
const jpegEnc = await import("@jsquash/jpeg/encode.js");
const jpegDec = await import("@jsquash/jpeg/decode.js");
const pngEnc = await import("@jsquash/png/encode.js");
const pngDec = await import("@jsquash/png/decode.js");
const nm = (p) => readFileSync(join(root, "node_modules", p));
await jpegEnc.init(new WebAssembly.Module(nm("@jsquash/jpeg/codec/enc/mozjpeg_enc.wasm")));
await jpegDec.init(new WebAssembly.Module(nm("@jsquash/jpeg/codec/dec/mozjpeg_dec.wasm")));
await pngEnc.init(new WebAssembly.Module(nm("@jsquash/png/codec/pkg/squoosh_png_bg.wasm")));
await pngDec.init(new WebAssembly.Module(nm("@jsquash/png/codec/pkg/squoosh_png_bg.wasm")));

v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc");
const quick = process.argv.includes("--quick");
const verbose = process.argv.includes("--verbose");
const wasmModule = new WebAssembly.Module(readFileSync(join(root, "wasm", "build", "watermark.wasm")));
const wm = new WasmWatermarker(wasmModule);

// ------------------------------------------------------------------------------------------------------------
// Test images (seeded): photo-like scenes, textures, shapes, gradients, flat, low/high key, documents, stripes

function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
function valueNoise(W, H, cell, rnd) {
  const gw = Math.ceil(W / cell) + 2;
  const gh = Math.ceil(H / cell) + 2;
  const g = new Float32Array(gw * gh).map(() => rnd());
  const out = new Float32Array(W * H);
  for (let y = 0; y < H; y++) {
    const v = y / cell, j = Math.floor(v), fy = v - j, sy = fy * fy * (3 - 2 * fy);
    for (let x = 0; x < W; x++) {
      const u = x / cell, i = Math.floor(u), fx = u - i, sx = fx * fx * (3 - 2 * fx);
      const a = g[j * gw + i], b = g[j * gw + i + 1], c = g[(j + 1) * gw + i], d = g[(j + 1) * gw + i + 1];
      out[y * W + x] = (a * (1 - sx) + b * sx) * (1 - sy) + (c * (1 - sx) + d * sx) * sy;
    }
  }
  return out;
}
function fractal(W, H, rnd, base, octaves, persistence) {
  const out = new Float32Array(W * H);
  let amp = 1, cell = base, tot = 0;
  for (let o = 0; o < octaves && cell >= 1; o++) {
    const n = valueNoise(W, H, cell, rnd);
    for (let i = 0; i < out.length; i++) out[i] += amp * (n[i] - 0.5);
    tot += amp;
    amp *= persistence;
    cell /= 2;
  }
  for (let i = 0; i < out.length; i++) out[i] /= tot;
  return out;
}
export function makeImage(kind, W, H, seed) {
  const rnd = rng(seed * 7919 + 17);
  const d = new Uint8Array(W * H * 4);
  const put = (i, r, g, b) => {
    d[4 * i] = Math.max(0, Math.min(255, Math.round(r)));
    d[4 * i + 1] = Math.max(0, Math.min(255, Math.round(g)));
    d[4 * i + 2] = Math.max(0, Math.min(255, Math.round(b)));
    d[4 * i + 3] = 255;
  };
  const c1 = [rnd() * 255, rnd() * 255, rnd() * 255];
  const c2 = [rnd() * 255, rnd() * 255, rnd() * 255];
  if (kind === "gradient") {
    const ang = rnd() * Math.PI, ca = Math.cos(ang), sa = Math.sin(ang);
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) {
      const t = Math.min(1, Math.max(0, ((x - W / 2) * ca + (y - H / 2) * sa) / Math.hypot(W, H) + 0.5));
      put(y * W + x, c1[0] * (1 - t) + c2[0] * t, c1[1] * (1 - t) + c2[1] * t, c1[2] * (1 - t) + c2[2] * t);
    }
  } else if (kind === "flat") {
    for (let i = 0; i < W * H; i++) put(i, c1[0], c1[1], c1[2]);
  } else if (kind === "noise") {
    const n = fractal(W, H, rnd, 4, 3, 0.7);
    const amp = 60 + rnd() * 80;
    for (let i = 0; i < W * H; i++) put(i, 128 + amp * n[i] * 2, 120 + amp * n[i] * 2, 110 + amp * n[i] * 2);
  } else if (kind === "shapes") {
    for (let i = 0; i < W * H; i++) put(i, c1[0], c1[1], c1[2]);
    const ns = 5 + Math.floor(rnd() * 15);
    for (let s = 0; s < ns; s++) {
      const col = [rnd() * 255, rnd() * 255, rnd() * 255];
      const cx = rnd() * W, cy = rnd() * H, r = (0.05 + rnd() * 0.25) * Math.min(W, H), circ = rnd() < 0.5;
      for (let y = Math.max(0, Math.floor(cy - r)); y < Math.min(H, cy + r); y++)
        for (let x = Math.max(0, Math.floor(cx - r)); x < Math.min(W, cx + r); x++) {
          if (circ && (x - cx) ** 2 + (y - cy) ** 2 > r * r) continue;
          put(y * W + x, col[0], col[1], col[2]);
        }
    }
  } else if (kind === "document") {
    // white page, dark text-like strokes in lines, a grey figure box
    for (let i = 0; i < W * H; i++) put(i, 250, 250, 248);
    const lineH = 14 + Math.floor(rnd() * 10);
    for (let y0 = 40; y0 + lineH < H - 40; y0 += lineH * 2) {
      let x = 40;
      while (x < W - 60) {
        const w = 10 + Math.floor(rnd() * 50);
        for (let y = y0; y < y0 + lineH; y++) for (let xx = x; xx < Math.min(W - 40, x + w); xx++) if (((xx * 7 + y * 3) % 5) < 3) put(y * W + xx, 20, 20, 30);
        x += w + 8 + Math.floor(rnd() * 10);
      }
    }
    const bx = Math.floor(W * 0.55), by = Math.floor(H * 0.2), bw = Math.floor(W * 0.35), bh = Math.floor(H * 0.3);
    for (let y = by; y < by + bh; y++) for (let x = bx; x < bx + bw; x++) put(y * W + x, 180 + 40 * Math.sin(x / 30), 190, 200);
  } else if (kind === "stripes") {
    const p = 3 + rnd() * 20, ang = rnd() * Math.PI, ca = Math.cos(ang), sa = Math.sin(ang);
    const n = fractal(W, H, rnd, 64, 4, 0.5);
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) {
      const v = 128 + 90 * Math.sin((2 * Math.PI * (x * ca + y * sa)) / p) + 60 * n[y * W + x];
      put(y * W + x, v * c1[0] / 255 + 30, v * c1[1] / 255 + 30, v * c1[2] / 255 + 30);
    }
  } else {
    // photo-like: a fractal landscape under a sky gradient; variants: textured ground, low key, high key
    const n = fractal(W, H, rnd, Math.max(W, H) / 3, 8, 0.55);
    const tex = fractal(W, H, rnd, 8, 3, 0.8);
    const horizon = H * (0.3 + rnd() * 0.4);
    const sat = rnd();
    const gain = kind === "lowkey" ? 0.25 : 1;
    const lift = kind === "highkey" ? 110 : 0;
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) {
      const i = y * W + x;
      const h = horizon + n[i] * H * 0.4;
      if (y < h) {
        const t = y / H;
        let v = [90 + 120 * t, 140 + 80 * t, 220 + 30 * t];
        if (sat > 0.7 && n[i] > 0.15) v = [255, 255, 255];
        put(i, (v[0] + 10 * n[i]) * gain + lift, (v[1] + 10 * n[i]) * gain + lift, v[2] * gain + lift);
      } else {
        const k = 0.5 + n[i];
        const tt = kind === "photo-textured" ? tex[i] * 120 : tex[i] * 40;
        put(i, (c1[0] * k + tt) * gain + lift, (c1[1] * k + tt * 0.9) * gain + lift, (c1[2] * k * 0.6 + tt * 0.5) * gain + lift);
      }
    }
  }
  return { width: W, height: H, data: d };
}

// 52 kinds x sizes (all >= 0.79 MP, so that a 50 % downscale keeps the canonical 512 x 384 grid)
const KIND_MIX = [
  ...Array(12).fill("photo"), ...Array(8).fill("photo-textured"), ...Array(6).fill("shapes"), ...Array(4).fill("gradient"),
  ...Array(4).fill("noise"), ...Array(2).fill("flat"), ...Array(4).fill("lowkey"), ...Array(4).fill("highkey"),
  ...Array(4).fill("document"), ...Array(4).fill("stripes"),
];
const SIZES = [[1155, 866], [1024, 768], [800, 1000], [1280, 720], [1000, 1000], [1400, 700], [1600, 1200], [866, 1155], [1200, 900]];
const nImages = quick ? 12 : KIND_MIX.length;
const images = [];
for (let i = 0; i < nImages; i++) {
  const kind = quick ? KIND_MIX[(i * 5) % KIND_MIX.length] : KIND_MIX[i];
  const [W, H] = SIZES[i % SIZES.length];
  images.push({ kind, seed: 1000 + i, W, H });
}

// ------------------------------------------------------------------------------------------------------------
// Attacks

async function jpeg(img, quality) {
  const frame = { data: new Uint8ClampedArray(img.data.buffer, img.data.byteOffset, img.data.length), width: img.width, height: img.height, colorSpace: "srgb" };
  const bytes = await jpegEnc.default(frame, { quality });
  const out = await jpegDec.default(bytes);
  return { width: out.width, height: out.height, data: new Uint8Array(out.data.buffer, out.data.byteOffset, out.data.length) };
}
async function png(img) {
  const frame = { data: new Uint8ClampedArray(img.data.buffer, img.data.byteOffset, img.data.length), width: img.width, height: img.height };
  const bytes = await pngEnc.default(frame);
  const out = await pngDec.default(bytes);
  return { width: out.width, height: out.height, data: new Uint8Array(out.data.buffer, out.data.byteOffset, out.data.length) };
}
/** Area-average resize (what a decent downscaler does). */
function resize(img, W2, H2) {
  const { width: W, height: H, data } = img;
  const out = new Uint8Array(W2 * H2 * 4);
  const sx = W / W2, sy = H / H2;
  for (let y = 0; y < H2; y++) {
    const y0 = y * sy, y1 = (y + 1) * sy;
    for (let x = 0; x < W2; x++) {
      const x0 = x * sx, x1 = (x + 1) * sx;
      let r = 0, g = 0, b = 0, a = 0, wt = 0;
      for (let yy = Math.floor(y0); yy < Math.min(H, Math.ceil(y1)); yy++) {
        const wy = Math.min(y1, yy + 1) - Math.max(y0, yy);
        for (let xx = Math.floor(x0); xx < Math.min(W, Math.ceil(x1)); xx++) {
          const w = wy * (Math.min(x1, xx + 1) - Math.max(x0, xx));
          const p = 4 * (yy * W + xx);
          r += w * data[p]; g += w * data[p + 1]; b += w * data[p + 2]; a += w * data[p + 3]; wt += w;
        }
      }
      const q = 4 * (y * W2 + x);
      out[q] = Math.round(r / wt); out[q + 1] = Math.round(g / wt); out[q + 2] = Math.round(b / wt); out[q + 3] = Math.round(a / wt);
    }
  }
  return { width: W2, height: H2, data: out };
}
function crop(img, x0, y0, W2, H2) {
  const out = new Uint8Array(W2 * H2 * 4);
  for (let y = 0; y < H2; y++) out.set(img.data.subarray(4 * ((y + y0) * img.width + x0), 4 * ((y + y0) * img.width + x0 + W2)), 4 * y * W2);
  return { width: W2, height: H2, data: out };
}
function brightness(img, f) {
  const out = new Uint8Array(img.data.length);
  for (let i = 0; i < out.length; i++) out[i] = (i & 3) === 3 ? img.data[i] : Math.max(0, Math.min(255, Math.round(img.data[i] * f)));
  return { ...img, data: out };
}
const cut = (n, f) => Math.round(n * f);
const ATTACKS = [
  ["none", async (im) => im],
  ["PNG round trip", png],
  ["JPEG q75", (im) => jpeg(im, 75)],
  ["JPEG q50", (im) => jpeg(im, 50)],
  ["resize 50%", async (im) => resize(im, Math.round(im.width / 2), Math.round(im.height / 2))],
  ["crop 10% corner", async (im) => crop(im, cut(im.width, 0.1), cut(im.height, 0.1), im.width - cut(im.width, 0.1), im.height - cut(im.height, 0.1))],
  ["crop 10% sides", async (im) => crop(im, cut(im.width, 0.05), cut(im.height, 0.05), im.width - 2 * cut(im.width, 0.05), im.height - 2 * cut(im.height, 0.05))],
  ["crop 10% width", async (im) => crop(im, 0, 0, im.width - cut(im.width, 0.1), im.height)],
  ["crop 10% + JPEG q75", async (im) => jpeg(crop(im, cut(im.width, 0.1), cut(im.height, 0.1), im.width - cut(im.width, 0.1), im.height - cut(im.height, 0.1)), 75)],
  ["brightness +20%", async (im) => brightness(im, 1.2)],
  ["brightness -20%", async (im) => brightness(im, 0.8)],
];
const QUICK_ATTACKS = new Set(["none", "JPEG q75", "resize 50%", "crop 10% corner", "crop 10% + JPEG q75"]);

// ------------------------------------------------------------------------------------------------------------
// 1 + 2: robustness and PSNR per strength

const pad = (s, n) => String(s).padEnd(n);
const lpad = (s, n) => String(s).padStart(n);
const pct = (x) => `${(100 * x).toFixed(1)}%`;
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[s.length >> 1]; };

console.log(`\n${WATERMARK_ALGORITHM}: ${nImages} generated images (${[...new Set(images.map((i) => i.kind))].join(", ")}), 0.8-1.9 MP`);
console.log(`PSNR targets (dB): ${JSON.stringify(WATERMARK_STRENGTH_PSNR_DB)}; falsePositiveBound = ${wm.falsePositiveBound.toExponential(3)}\n`);

const strengths = quick ? ["balanced"] : ["subtle", "balanced", "robust"];
const psnrByStrength = {};
const t0 = performance.now();
for (const strength of strengths) {
  const rows = new Map(ATTACKS.filter(([name]) => !quick || QUICK_ATTACKS.has(name)).map(([name]) => [name, { ok: 0, wrong: 0, bitAcc: [] }]));
  const psnrs = [];
  let embedFailures = 0;
  for (const [index, spec] of images.entries()) {
    const img = makeImage(spec.kind, spec.W, spec.H, spec.seed);
    const payload = new Uint8Array(8).map((_, j) => (index * 37 + j * 101 + strength.length * 13) & 255);
    const e = wm.embed({ image: img, payload, strength });
    if (e.status !== "embedded") { embedFailures++; continue; }
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
      if (verbose && !ok) console.log(`  miss: #${index} ${spec.kind} ${spec.W}x${spec.H} ${name}: ${d.status} sync z ${wm.lastDetect.syncZ.toFixed(1)} scale ${wm.lastDetect.scaleRatio.toFixed(4)} code-bit acc ${acc === null ? "-" : pct(acc)}`);
    }
  }
  psnrByStrength[strength] = psnrs;
  console.log(`strength ${strength} (target ${WATERMARK_STRENGTH_PSNR_DB[strength]} dB): PSNR mean ${(psnrs.reduce((a, b) => a + b, 0) / psnrs.length).toFixed(2)}, min ${Math.min(...psnrs).toFixed(2)}, max ${Math.max(...psnrs).toFixed(2)} dB; embed failures ${embedFailures}/${nImages}`);
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
  const sizes = [[1155, 866], [640, 480], [1280, 720], [800, 1000], [512, 512], [300, 200], [128, 128], [2000, 1000]];
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
  console.log(`false positives: ${detected}/${nUnmarked} unmarked images detected (${attempts} BCH decode attempts made in total; ` +
    `${(attempts / nUnmarked).toFixed(2)} per image; bound ${wm.falsePositiveBound.toExponential(3)} per image = 40 attempts x V(127,7)/2^63) ` +
    `[mean ${(ms / nUnmarked).toFixed(0)} ms per detect, sizes 128x128 to 2000x1000]\n`);
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
const sizesForTiming = quick ? [[1155, 866]] : [[1155, 866], [4000, 3000]];
for (const [W, H] of sizesForTiming) {
  const img = makeImage("photo", W, H, 7);
  const payload = new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]);
  const reps = W * H > 4e6 ? 3 : 7;
  // memory: with the input held, the growth of ArrayBuffer memory across one embed (output + kernel growth)
  gc();
  const before = process.memoryUsage().arrayBuffers;
  const kernelBefore = wm.kernelMemoryBytes;
  let held = wm.embed({ image: img, payload, strength: "balanced" });
  const grown = process.memoryUsage().arrayBuffers - before;
  const kernelGrowth = wm.kernelMemoryBytes - kernelBefore;
  held = null;
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
  console.log(`${W}x${H} (${(W * H / 1e6).toFixed(1)} MP), medians of ${reps}: embed ${e.ms.toFixed(1)} ms (PSNR ${e.out.psnr_db} dB); ` +
    `detect marked ${det.ms.toFixed(1)} ms [${det.out.status}], cropped 10% ${detCrop.ms.toFixed(1)} ms [${detCrop.out.status}], unmarked ${detUnmarked.ms.toFixed(1)} ms [${detUnmarked.out.status}]`);
  console.log(`  baseline in the same run: JPEG decode ${tDec.toFixed(1)} ms + JPEG q75 encode (MozJPEG, jSquash defaults) ${tEnc.toFixed(1)} ms = ${(tDec + tEnc).toFixed(1)} ms`);
  console.log(`  memory: input ${mb(img.data.length)} MB + output ${mb(marked.data.length)} MB + kernel linear memory ${mb(wm.kernelMemoryBytes)} MB ` +
    `= ${mb(img.data.length + marked.data.length + wm.kernelMemoryBytes)} MB peak by construction; measured: ArrayBuffer memory grew by ${mb(grown)} MB ` +
    `during one embed with the input held (kernel memory grew by ${mb(kernelGrowth)} MB of that)`);
}

// ------------------------------------------------------------------------------------------------------------
// 5: plain JS vs wasm, one hot loop: area-resampling an RGBA image's luma onto the canonical grid

{
  const [W, H] = quick ? [1155, 866] : [4000, 3000];
  const img = makeImage("gradient", W, H, 3);
  const k = new WebAssembly.Instance(wasmModule, {}).exports;
  const s = Math.min(1, Math.sqrt(196608 / (W * H)));
  const Wc = Math.round(W * s), Hc = Math.round(H * s);
  // plain JS, same algorithm as the kernel's lumaRows (integer luma x 1000, two-cell splat per axis)
  const dx0 = new Int32Array(W), dfx = new Float32Array(W);
  for (let x = 0; x < W; x++) { const a = x * s, b = (x + 1) * s, c = Math.floor(a); dx0[x] = Math.min(c, Wc); dfx[x] = b > c + 1 ? (c + 1 - a) / s : 1; }
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
      const a = y * s, bb = (y + 1) * s, c = Math.floor(a), fy = bb > c + 1 ? (c + 1 - a) / s : 1;
      const o = c * Wc, o2 = (c + 1) * Wc;
      for (let i = 0; i < Wc; i++) { acc[o + i] += fy * row[i]; acc[o2 + i] += (1 - fy) * row[i]; }
    }
  };
  k.setup(W, H);
  const rows = k.stripRows(), ptr = k.stripPtr();
  const wasmLuma = () => {
    k.lumaBegin();
    for (let y = 0; y < H; y += rows) {
      const n = Math.min(rows, H - y);
      new Uint8Array(k.memory.buffer).set(img.data.subarray(y * W * 4, (y + n) * W * 4), ptr);
      k.lumaRows(y, n);
    }
  };
  for (let i = 0; i < 3; i++) { jsLuma(); wasmLuma(); }
  const tj = timeIt(jsLuma, 7).ms, tw = timeIt(wasmLuma, 7).ms;
  console.log(`\nhot loop, luma area-resampling of ${W}x${H} onto ${Wc}x${Hc}: plain JS ${tj.toFixed(1)} ms, wasm ${tw.toFixed(1)} ms (incl. strip copies) -> ${(tj / tw).toFixed(2)}x`);
}
