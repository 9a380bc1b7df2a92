import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import { bundleForNode } from "./lib/node-bundle.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
/** The service's fingerprint code, bundled for Node (see bench/lib/node-bundle.mjs). */
const ENTRY = [
  `export { IsccImageFingerprinter, PdqFingerprinter, hammingDistance, pixelPlane, pdqRegionHashes, pdqQueryWindowHashes, queryWindowImage, PDQ_REGIONS, PDQ_QUERY_WINDOWS } from "./src/media/fingerprint/index.ts";`,
  `export { pdqBandValues, PDQ_MATCH_DISTANCE, PDQ_MIN_QUALITY, PDQ_REGION_MATCH_DISTANCE } from "./src/soft-bindings/repo.ts";`,
].join("\n");

// ------------------------------------------------------------------------------------------------------------
// Corpus: the watermark bench's generators (bench/lib/images.mjs) plus four families of our own, chosen at random
// per image with a random seed and size, so that no two images share a layout

const FAMILIES = [
  // [family, weight %]: makeImage kinds, then ours
  ["photo", 14],
  ["photo-textured", 9],
  ["highkey", 6],
  ["lowkey", 3],
  ["shapes", 9],
  ["noise", 5],
  ["stripes", 5],
  ["gradient", 3],
  ["flat", 1],
  ["document", 5],
  ["text", 8],
  ["cells", 10],
  ["fields", 12],
  ["waves", 10],
];
const MAKEIMAGE_KINDS = new Set([
  "photo",
  "photo-textured",
  "highkey",
  "lowkey",
  "shapes",
  "noise",
  "stripes",
  "gradient",
  "flat",
  "document",
]);

/** The image spec of corpus index `id` (indexed set: seeds 1..; unindexed distractors: seeds from 1,000,000). */
function specOf(id, rng, distractor = false) {
  const seed = (distractor ? 1_000_000 : 1) + id;
  const r = rng(seed * 2654435761);
  let pick = r() * 100,
    family = FAMILIES[0][0];
  for (const [f, w] of FAMILIES) {
    if (pick < w) {
      family = f;
      break;
    }
    pick -= w;
  }
  const W = 256 + Math.floor(r() * 769),
    H = 256 + Math.floor(r() * 769);
  return { id, family, W, H, seed };
}

function makeCorpusImage(lib, { family, W, H, seed }) {
  if (MAKEIMAGE_KINDS.has(family)) return lib.makeImage(family, W, H, seed);
  const rnd = lib.rng(seed * 40503 + 99991);
  const d = new Uint8Array(W * H * 4);
  const put = (i, r, g, b) => {
    d[4 * i] = r < 0 ? 0 : Math.min(r, 255);
    d[4 * i + 1] = g < 0 ? 0 : Math.min(g, 255);
    d[4 * i + 2] = b < 0 ? 0 : Math.min(b, 255);
    d[4 * i + 3] = 255;
  };
  const colour = () => [rnd() * 255, rnd() * 255, rnd() * 255];
  if (family === "cells") {
    // Voronoi mosaic: 6..55 cells, each with its own colour and shading slope, dark borders, fine grain
    const K = 6 + Math.floor(rnd() * 50);
    const px = new Float64Array(K),
      py = new Float64Array(K),
      cr = new Float64Array(K),
      cg = new Float64Array(K),
      cb = new Float64Array(K),
      gx = new Float64Array(K),
      gy = new Float64Array(K);
    for (let k = 0; k < K; k++) {
      px[k] = rnd() * W;
      py[k] = rnd() * H;
      cr[k] = rnd() * 255;
      cg[k] = rnd() * 255;
      cb[k] = rnd() * 255;
      gx[k] = ((rnd() - 0.5) * 120) / W;
      gy[k] = ((rnd() - 0.5) * 120) / H;
    }
    const border = 2 + rnd() * 6;
    // per 32x32 tile, only the seeds that can be the nearest or second nearest to one of its pixels (exact: a seed
    // farther from the tile than the second smallest farthest-corner distance never is), in seed order
    const tw = Math.ceil(W / 32),
      th = Math.ceil(H / 32),
      tiles = [];
    for (let ty = 0; ty < th; ty++)
      for (let tx = 0; tx < tw; tx++) {
        const x0 = tx * 32,
          x1 = Math.min(W, x0 + 32) - 1,
          y0 = ty * 32,
          y1 = Math.min(H, y0 + 32) - 1;
        const near = new Float64Array(K),
          far = new Float64Array(K);
        for (let k = 0; k < K; k++) {
          const nx = Math.max(x0 - px[k], 0, px[k] - x1),
            ny = Math.max(y0 - py[k], 0, py[k] - y1);
          const fx = Math.max(px[k] - x0, x1 - px[k]),
            fy = Math.max(py[k] - y0, y1 - py[k]);
          near[k] = nx * nx + ny * ny;
          far[k] = fx * fx + fy * fy;
        }
        const bound = [...far].sort((a, b) => a - b)[Math.min(1, K - 1)];
        tiles.push(Int32Array.from({ length: K }, (_, k) => k).filter((k) => near[k] <= bound));
      }
    for (let y = 0; y < H; y++)
      for (let x = 0; x < W; x++) {
        let b1 = 0,
          d1 = Infinity,
          d2 = Infinity;
        const cand = tiles[(y >> 5) * tw + (x >> 5)];
        for (let c = 0; c < cand.length; c++) {
          const k = cand[c],
            dx = x - px[k],
            dy = y - py[k],
            dd = dx * dx + dy * dy;
          if (dd < d1) {
            d2 = d1;
            d1 = dd;
            b1 = k;
          } else if (dd < d2) d2 = dd;
        }
        const edge = Math.sqrt(d2) - Math.sqrt(d1) < border ? 0.35 : 1;
        const s = (x - px[b1]) * gx[b1] + (y - py[b1]) * gy[b1] + (rnd() - 0.5) * 12;
        put(y * W + x, (cr[b1] + s) * edge, (cg[b1] + s) * edge, (cb[b1] + s) * edge);
      }
  } else if (family === "fields") {
    // photo-like: smooth low-frequency field posterized into 3..6 regions with sharp edges, lit by a ramp, grain
    const n = lib.fractal(W, H, rnd, Math.max(W, H) / (1 + rnd() * 3), 3, 0.5);
    const L = 3 + Math.floor(rnd() * 4);
    const cuts = Array.from({ length: L - 1 }, () => (rnd() - 0.5) * 0.5).sort((a, b) => a - b);
    const cols = Array.from({ length: L }, colour);
    const ang = rnd() * 2 * Math.PI,
      ca = Math.cos(ang) / W,
      sa = Math.sin(ang) / H,
      light = 40 + rnd() * 80;
    for (let y = 0; y < H; y++)
      for (let x = 0; x < W; x++) {
        const i = y * W + x,
          v = n[i];
        let l = 0;
        while (l < L - 1 && v > cuts[l]) l++;
        const c = cols[l],
          s = ((x - W / 2) * ca + (y - H / 2) * sa) * light + v * 60 + (rnd() - 0.5) * 10;
        put(i, c[0] + s, c[1] + s, c[2] + s);
      }
  } else if (family === "waves") {
    // interference of 3..6 plane and circular waves (wavelengths 1/16..1/3 of the short side), two-colour map, grain
    const m = 3 + Math.floor(rnd() * 4),
      S = Math.min(W, H);
    const v = new Float32Array(W * H),
      rowS = new Float64Array(W),
      rowC = new Float64Array(W);
    let tot = 0;
    for (let w = 0; w < m; w++) {
      const k = (2 * Math.PI) / (S * (1 / 16 + rnd() * (1 / 3 - 1 / 16))),
        a = rnd() * 2 * Math.PI,
        ph = rnd() * 6.3,
        amp = 0.3 + rnd();
      tot += amp;
      if (rnd() < 0.4) {
        const cx = rnd() * W,
          cy = rnd() * H;
        for (let y = 0; y < H; y++)
          for (let x = 0; x < W; x++) {
            const dx = x - cx,
              dy = y - cy;
            v[y * W + x] += amp * Math.sin(k * Math.sqrt(dx * dx + dy * dy) + ph);
          }
      } else {
        // sin(kx x + ky y + ph) = sin(kx x) cos(ky y + ph) + cos(kx x) sin(ky y + ph)
        const kx = k * Math.cos(a),
          ky = k * Math.sin(a);
        for (let x = 0; x < W; x++) {
          rowS[x] = Math.sin(kx * x);
          rowC[x] = Math.cos(kx * x);
        }
        for (let y = 0; y < H; y++) {
          const cy = amp * Math.cos(ky * y + ph),
            sy = amp * Math.sin(ky * y + ph);
          for (let x = 0, i = y * W; x < W; x++, i++) v[i] += rowS[x] * cy + rowC[x] * sy;
        }
      }
    }
    const c1 = colour(),
      c2 = colour();
    for (let i = 0; i < W * H; i++) {
      const t = 0.5 + (0.5 * v[i]) / tot,
        g = (rnd() - 0.5) * 8;
      put(i, c1[0] * (1 - t) + c2[0] * t + g, c1[1] * (1 - t) + c2[1] * t + g, c1[2] * (1 - t) + c2[2] * t + g);
    }
  } else {
    // text: a page with random margins, 1..3 columns, line heights, headings, glyph-like 3x5 patterns and 0..2 figures (drawn over the text)
    const bg = [235 + rnd() * 20, 232 + rnd() * 23, 225 + rnd() * 30],
      ink = [rnd() * 60, rnd() * 60, rnd() * 80];
    for (let i = 0; i < W * H; i++) put(i, bg[0], bg[1], bg[2]);
    const margin = 10 + Math.floor(rnd() * 0.12 * W),
      cols = 1 + Math.floor(rnd() * 3),
      gutter = 10 + Math.floor(rnd() * 20);
    const colW = Math.floor((W - 2 * margin - (cols - 1) * gutter) / cols);
    const figures = Array.from({ length: Math.floor(rnd() * 3) }, () => {
      const fw = Math.floor((0.2 + rnd() * 0.4) * W),
        fh = Math.floor((0.15 + rnd() * 0.3) * H);
      return { x: Math.floor(rnd() * (W - fw)), y: Math.floor(rnd() * (H - fh)), w: fw, h: fh, a: colour(), b: colour() };
    });
    for (let c = 0; c < cols && colW > 20; c++) {
      const x0 = margin + c * (colW + gutter);
      let y = margin + Math.floor(rnd() * 30),
        lines = 0;
      while (y < H - margin && lines++ < 500) {
        const heading = rnd() < 0.08,
          lh = heading ? 16 + Math.floor(rnd() * 16) : 6 + Math.floor(rnd() * 10),
          cw = Math.max(3, Math.round(lh * 0.6));
        if (y + lh > H - margin) break;
        const lineEnd = x0 + (rnd() < 0.15 ? Math.floor(colW * (0.2 + rnd() * 0.6)) : colW);
        let x = x0 + (rnd() < 0.1 ? 2 * cw : 0),
          words = 0;
        while (x < lineEnd - cw && words++ < 200) {
          const nChars = 1 + Math.floor(rnd() * 9);
          for (let ch = 0; ch < nChars && x + cw <= lineEnd; ch++, x += cw) {
            const glyph = Math.floor(rnd() * 32768);
            for (let yy = 0; yy < lh - 2; yy++)
              for (let xx = 0; xx < cw - 1; xx++) {
                const bit = Math.min(4, Math.floor((yy * 5) / (lh - 2))) * 3 + Math.min(2, Math.floor((xx * 3) / (cw - 1)));
                if ((glyph >> bit) & 1) put((y + yy) * W + x + xx, ink[0], ink[1], ink[2]);
              }
          }
          x += cw;
        }
        y += lh + 2 + Math.floor(lh * 0.4) + (rnd() < 0.12 ? lh * 2 : 0);
      }
    }
    for (const f of figures) {
      const n = lib.fractal(f.w, f.h, rnd, Math.max(f.w, f.h) / 3, 4, 0.6);
      for (let y = 0; y < f.h; y++)
        for (let x = 0; x < f.w; x++) {
          const t = Math.min(1, Math.max(0, 0.5 + 1.6 * n[y * f.w + x]));
          put((f.y + y) * W + f.x + x, f.a[0] * (1 - t) + f.b[0] * t, f.a[1] * (1 - t) + f.b[1] * t, f.a[2] * (1 - t) + f.b[2] * t);
        }
    }
  }
  return { width: W, height: H, data: d };
}

// ------------------------------------------------------------------------------------------------------------
// Transformations (applied to the query set; bench/lib/images.mjs has the codecs and pixel operations)

const TRANSFORM_NAMES = [
  "none",
  "JPEG q75",
  "JPEG q50",
  "resize 50%",
  "crop 10% (corner)",
  "crop 10% (centred)",
  "crop 10% + JPEG q75",
  "crop 20% (corner)",
  "crop 20% (centred)",
  "crop 20% + resize 50% + JPEG q75",
  "crop 10% (one side)",
  "crop 20% (one side)",
  "crop 10% (random offset)",
  "crop 20% (random offset)",
  "brightness +20%",
  "brightness -20%",
  "screenshot (75% + PNG)",
];
function transforms(lib) {
  const cut = (n, f) => Math.round(n * f);
  const corner = (im, f = 0.1) =>
    lib.crop(im, cut(im.width, f), cut(im.height, f), im.width - cut(im.width, f), im.height - cut(im.height, f));
  const centred = (im, f = 0.1) =>
    lib.crop(im, cut(im.width, f / 2), cut(im.height, f / 2), im.width - 2 * cut(im.width, f / 2), im.height - 2 * cut(im.height, f / 2));
  // f of each side cut, split between its two ends at random (seeded per image): frames that are not one of the
  // indexed windows (src/media/fingerprint/regions.ts), to show what the windows do not cover
  const randomOffset = (im, f, seed) => {
    const r = lib.rng(seed * 7919 + Math.round(f * 100));
    const l = cut(im.width, f * r()),
      t = cut(im.height, f * r());
    return lib.crop(im, l, t, im.width - cut(im.width, f), im.height - cut(im.height, f));
  };
  // one border cut by f (left, right, top or bottom, by the image's seed): the aspect ratio changes
  const oneSide = (im, f, seed) => {
    const side = seed % 4,
      cw = cut(im.width, f),
      ch = cut(im.height, f);
    if (side === 0) return lib.crop(im, cw, 0, im.width - cw, im.height);
    if (side === 1) return lib.crop(im, 0, 0, im.width - cw, im.height);
    if (side === 2) return lib.crop(im, 0, ch, im.width, im.height - ch);
    return lib.crop(im, 0, 0, im.width, im.height - ch);
  };
  const t = {
    none: async (im) => im,
    "JPEG q75": (im) => lib.jpeg(im, 75),
    "JPEG q50": (im) => lib.jpeg(im, 50),
    "resize 50%": async (im) => lib.resize(im, Math.round(im.width / 2), Math.round(im.height / 2)),
    "crop 10% (corner)": async (im) => corner(im),
    "crop 10% (centred)": async (im) => centred(im),
    "crop 10% + JPEG q75": (im) => lib.jpeg(corner(im), 75),
    "crop 20% (corner)": async (im) => corner(im, 0.2),
    "crop 20% (centred)": async (im) => centred(im, 0.2),
    "crop 20% + resize 50% + JPEG q75": (im) => {
      const c = corner(im, 0.2);
      return lib.jpeg(lib.resize(c, Math.round(c.width / 2), Math.round(c.height / 2)), 75);
    },
    "crop 10% (one side)": async (im, seed) => oneSide(im, 0.1, seed),
    "crop 20% (one side)": async (im, seed) => oneSide(im, 0.2, seed),
    "crop 10% (random offset)": async (im, seed) => randomOffset(im, 0.1, seed),
    "crop 20% (random offset)": async (im, seed) => randomOffset(im, 0.2, seed),
    "brightness +20%": async (im) => lib.brightness(im, 1.2),
    "brightness -20%": async (im) => lib.brightness(im, 0.8),
    // as a screen shows it at 75 % (area resampling) and a screenshot tool saves it: lossless PNG, then decoded
    "screenshot (75% + PNG)": (im) => lib.png(lib.resize(im, Math.round(im.width * 0.75), Math.round(im.height * 0.75))),
  };
  return TRANSFORM_NAMES.map((n) => [n, t[n]]);
}

// ------------------------------------------------------------------------------------------------------------
// Worker: generates an image, fingerprints it, and for a query image also every transformed version

if (!isMainThread) {
  const lib = await import("./lib/images.mjs");
  const F = await import(workerData.bundleUrl);
  const module = new WebAssembly.Module(readFileSync(join(root, "wasm", "build", "fingerprint.wasm")));
  const pdq = new F.PdqFingerprinter(module);
  const iscc = new F.IsccImageFingerprinter(module);
  const TRANSFORMS = transforms(lib);
  // Publication fingerprints the full image; with --plane a looked-up copy gets the verify service's PDQ, of the
  // reduced plane (src/media/fingerprint/plane.ts), and its ISCC of the full image, as verify-service.ts does.
  // A looked-up image also gets the verify service's query windows (regions.ts PDQ_QUERY_WINDOWS) of the image its PDQ
  // read, those at the quality gate, and their CPU.
  const fingerprint = (img, lookedUp = false) => {
    const input = lookedUp && workerData.plane ? F.pixelPlane(module, img).image : img;
    const p = pdq.compute(input),
      c = iscc.compute(img);
    if (p.status !== "computed" || c.status !== "computed") throw new Error(`fingerprint failed: ${p.message ?? c.message}`);
    let windows = [],
      windowMs = 0;
    if (lookedUp && p.quality >= F.PDQ_MIN_QUALITY) {
      const s = performance.now();
      // as the verify service: the windows read PDQ's input capped at QUERY_WINDOW_MAX_SIDE (#19)
      const w = F.pdqQueryWindowHashes(pdq, F.queryWindowImage(module, input, workerData.windowSide));
      windowMs = performance.now() - s;
      if (w.status === "failed") throw new Error(w.message);
      if (w.status === "computed") windows = w.regions.filter((x) => x.quality >= F.PDQ_MIN_QUALITY).map((x) => x.bits);
    }
    return { pdq: p.bits, quality: p.quality, iscc: c.bits, windows, windowMs };
  };
  parentPort.on("message", async (spec) => {
    try {
      const t0 = performance.now();
      const img = makeCorpusImage(lib, spec);
      const t1 = performance.now();
      const fp = fingerprint(img, spec.distractor === true);
      const fpMs = performance.now() - t1;
      let transformed = null;
      if (spec.query && fp.quality >= F.PDQ_MIN_QUALITY) {
        transformed = [];
        for (const [name, fn] of TRANSFORMS) transformed.push({ name, ...fingerprint(await fn(img, spec.seed), true) });
      }
      // Region hashes of what publication indexes (src/jobs/steps/fingerprint.ts): the windows of the image PDQ read,
      // those of quality >= 50 (an unindexed distractor is never published: none)
      let regions = [],
        regionMs = 0;
      if (!spec.distractor && fp.quality >= F.PDQ_MIN_QUALITY) {
        const s = performance.now();
        const r = F.pdqRegionHashes(pdq, img);
        regionMs = performance.now() - s;
        if (r.status === "failed") throw new Error(r.message);
        if (r.status === "computed") regions = r.regions.filter((x) => x.quality >= F.PDQ_MIN_QUALITY);
      }
      parentPort.postMessage({ ...spec, ...fp, transformed, regions, regionMs, genMs: t1 - t0, fpMs, ms: performance.now() - t0 });
    } catch (err) {
      parentPort.postMessage({ ...spec, error: String(err?.stack ?? err) });
    }
  });
} else {
  await main();
}

// ------------------------------------------------------------------------------------------------------------
// Main: corpus in worker threads, then the in-memory index and the lookups

async function main() {
  const tStart = performance.now();
  const quick = process.argv.includes("--quick");
  // --window-side N: the query windows' image capped at N px a side instead of the service's QUERY_WINDOW_MAX_SIDE
  const windowSide = process.argv.includes("--window-side") ? Number(process.argv[process.argv.indexOf("--window-side") + 1]) : undefined;
  const verbose = process.argv.includes("--verbose");
  const wArg = process.argv.indexOf("--workers");
  const nWorkers =
    wArg > 0 ? Math.max(1, Math.min(16, Number(process.argv[wArg + 1]) || 1)) : Math.max(1, Math.min(4, availableParallelism()));
  const TARGET_INDEXED = quick ? 200 : 1000;
  const QUERY_EVERY = 4; // every 4th generated image, if PDQ-indexed, is a query (about 250 of 1,000)
  const N_DISTRACTORS = quick ? 60 : 250;
  const MAX_GENERATED = 3 * TARGET_INDEXED; // bound: never generate more than this many candidates for the index

  const bundleUrl = bundleForNode("fingerprint-entry", ENTRY);
  const F = await import(bundleUrl);
  const { PDQ_MATCH_DISTANCE, PDQ_MIN_QUALITY, PDQ_REGION_MATCH_DISTANCE, pdqBandValues, hammingDistance } = F;
  const { rng } = await import("./lib/images.mjs");
  const ISCC_NEAR = Math.floor((PDQ_MATCH_DISTANCE / 256) * 64); // 7 of 64 bits: the same share as PDQ's 31 of 256

  // --- worker pool
  const workers = Array.from(
    { length: nWorkers },
    () => new Worker(fileURLToPath(import.meta.url), { workerData: { bundleUrl, plane: process.argv.includes("--plane"), windowSide } }),
  );
  async function runAll(specs) {
    const out = new Array(specs.length);
    let next = 0;
    await Promise.all(
      workers.map(
        (w) =>
          new Promise((resolve, reject) => {
            const give = () => {
              if (next >= specs.length) {
                for (const e of ["message", "error", "exit"]) w.removeAllListeners(e);
                resolve();
                return;
              }
              w.postMessage({ ...specs[next], slot: next });
              next++;
            };
            w.on("message", (r) => {
              if (r.error) {
                reject(new Error(`image ${r.id} (${r.family}): ${r.error}`));
                return;
              }
              out[r.slot] = r;
              give();
            });
            w.on("error", reject);
            w.on("exit", (code) => reject(new Error(`worker thread exited (${code})`)));
            give();
          }),
      ),
    );
    return out;
  }

  // --- 1. corpus: generate in waves until TARGET_INDEXED images have PDQ quality >= 50 (deterministic: whole waves)
  const tGen = performance.now();
  const generated = [];
  let indexedCount = 0;
  let distractors;
  try {
    for (let wave = 0; indexedCount < TARGET_INDEXED && generated.length < MAX_GENERATED && wave < 100; wave++) {
      const n = wave === 0 ? Math.ceil(TARGET_INDEXED * 1.2) : Math.ceil(TARGET_INDEXED * 0.05);
      const specs = Array.from({ length: n }, (_, k) => {
        const id = generated.length + k;
        return { ...specOf(id, rng), query: id % QUERY_EVERY === 0 };
      });
      const res = await runAll(specs);
      generated.push(...res);
      indexedCount = generated.filter((g) => g.quality >= PDQ_MIN_QUALITY).length;
    }
    // distractors are looked up as they are and under every transformation too: none is indexed, so any match is false
    distractors = await runAll(
      Array.from({ length: N_DISTRACTORS }, (_, id) => ({ ...specOf(id, rng, true), query: true, distractor: true })),
    );
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  const genWallMs = performance.now() - tGen;
  if (indexedCount < TARGET_INDEXED) throw new Error(`only ${indexedCount} of ${generated.length} generated images are indexable`);

  // --- 2. index: every image's ISCC code (the service stores it whatever the PDQ quality); PDQ bands for quality >= 50
  const tIndex = performance.now();
  const hex = (b) => Buffer.from(b).toString("hex");
  const isccIndex = new Map(); // code -> ids in registration order (exactMatch returns the earliest)
  for (const g of generated) {
    const k = hex(g.iscc);
    const list = isccIndex.get(k);
    if (list) list.push(g.id);
    else isccIndex.set(k, [g.id]);
  }
  const pdqOf = new Map();
  const bands = Array.from({ length: 16 }, () => new Map()); // band -> value -> ids (the pdq_bands table)
  for (const g of generated) {
    if (g.quality < PDQ_MIN_QUALITY) continue;
    pdqOf.set(g.id, g.pdq);
    pdqBandValues(g.pdq).forEach((v, b) => {
      const list = bands[b].get(v);
      if (list) list.push(g.id);
      else bands[b].set(v, [g.id]);
    });
  }
  // region hashes (pdq_regions): their own band maps, keyed "id:region"
  const regionOf = new Map();
  const regionBands = Array.from({ length: 16 }, () => new Map());
  for (const g of generated) {
    if (g.quality < PDQ_MIN_QUALITY) continue;
    for (const r of g.regions) {
      const key = `${g.id}:${r.region}`;
      regionOf.set(key, r.bits);
      pdqBandValues(r.bits).forEach((v, b) => {
        const list = regionBands[b].get(v);
        if (list) list.push(key);
        else regionBands[b].set(v, [key]);
      });
    }
  }
  const indexMs = performance.now() - tIndex;
  const byId = new Map(generated.map((g) => [g.id, g]));

  /** nearestPdq, in memory: 16 bands x (value + 16 one-bit neighbours) probes, exact distances over the candidates. */
  function nearestPdq(bits) {
    const candidates = new Set();
    const values = pdqBandValues(bits);
    for (let b = 0; b < 16; b++) {
      const m = bands[b];
      for (let k = -1; k < 16; k++) {
        const ids = m.get(k < 0 ? values[b] : values[b] ^ (1 << k));
        if (ids) for (const id of ids) candidates.add(id);
      }
    }
    let best = null;
    const within = [];
    for (const id of candidates) {
      const distance = hammingDistance(bits, pdqOf.get(id));
      if (distance <= PDQ_MATCH_DISTANCE) {
        within.push(id);
        if (!best || distance < best.distance) best = { id, distance };
      }
    }
    return { best, within, candidates: candidates.size };
  }
  /** The region lookup (nearestPdqRegions in the service): the same probes over the region hashes, within PDQ_REGION_MATCH_DISTANCE. */
  // `windows`: the query's own windows (PDQ_QUERY_WINDOWS), probed with its whole-image hash as the service does
  // (soft-bindings/repo.ts pdqProbeBinds): the whole hash's bands and their one-bit neighbours, each window's bands exactly
  function nearestRegion(bits, windows = []) {
    const candidates = new Set();
    const hashes = [bits, ...windows];
    const values = pdqBandValues(bits);
    for (let b = 0; b < 16; b++)
      for (let k = -1; k < 16; k++) {
        const keys = regionBands[b].get(k < 0 ? values[b] : values[b] ^ (1 << k));
        if (keys) for (const key of keys) candidates.add(key);
      }
    for (const w of windows)
      for (const [b, v] of pdqBandValues(w).entries()) {
        const keys = regionBands[b].get(v);
        if (keys) for (const key of keys) candidates.add(key);
      }
    let best = null;
    for (const key of candidates) {
      for (const h of hashes) {
        const distance = hammingDistance(h, regionOf.get(key));
        if (distance <= PDQ_REGION_MATCH_DISTANCE && (!best || distance < best.distance))
          best = { id: Number(key.slice(0, key.indexOf(":"))), region: Number(key.slice(key.indexOf(":") + 1)), distance };
      }
    }
    return { best, candidates: candidates.size };
  }
  /** The same question answered by scanning every indexed hash (to check that the band index loses nothing). */
  function scanPdq(bits) {
    let best = null;
    for (const [id, h] of pdqOf) {
      const distance = hammingDistance(bits, h);
      if (distance <= PDQ_MATCH_DISTANCE && (!best || distance < best.distance)) best = { id, distance };
    }
    return best;
  }
  const isccExact = (bits) => isccIndex.get(hex(bits)) ?? null;
  function isccNearest(bits) {
    let best = null;
    for (const g of generated) {
      const distance = hammingDistance(bits, g.iscc);
      if (distance <= ISCC_NEAR && (!best || distance < best.distance)) best = { id: g.id, distance };
    }
    return best;
  }

  // --- 3. lookups
  const queries = generated.filter((g) => g.transformed);
  const rows = new Map(
    TRANSFORM_NAMES.map((n) => [
      n,
      {
        n: 0,
        lookedUp: 0,
        pdqTop: 0,
        pdqIn: 0,
        pdqFalse: 0,
        pdqDist: [],
        cand: 0,
        isccExact: 0,
        isccExactFalse: 0,
        isccDist: [],
        isccNear: 0,
        isccNearFalse: 0,
        svcRight: 0,
        svcWrong: 0,
        regTop: 0,
        regFalse: 0,
        regCand: 0,
        regDist: [],
        svc2Right: 0,
        svc2Wrong: 0,
        qwTop: 0,
        qwFalse: 0,
        qwDist: [],
        svc3Right: 0,
        svc3Wrong: 0,
        qwLookups: 0,
      },
    ]),
  );
  const falseMatches = [];
  let lookupMs = 0,
    lookups = 0,
    regionLookupMs = 0,
    regionLookups = 0,
    windowLookupMs = 0,
    windowLookups = 0,
    windowHashes = 0,
    scanMismatch = 0;
  const windowCpu = [];
  const t0 = performance.now();
  for (const q of queries) {
    for (const t of q.transformed) {
      const row = rows.get(t.name);
      row.n++;
      row.pdqDist.push(hammingDistance(t.pdq, q.pdq));
      row.isccDist.push(hammingDistance(t.iscc, q.iscc));
      // ISCC exact (what the service does first)
      const ex = isccExact(t.iscc);
      if (ex?.includes(q.id)) row.isccExact++;
      if (ex && ex[0] !== q.id) {
        row.isccExactFalse++;
        falseMatches.push({ fp: "iscc exact", q, t: t.name, other: ex[0], distance: 0 });
      }
      const near = isccNearest(t.iscc);
      if (near?.id === q.id) row.isccNear++;
      else if (near) {
        row.isccNearFalse++;
        falseMatches.push({ fp: `iscc <=${ISCC_NEAR}`, q, t: t.name, other: near.id, distance: near.distance });
      }
      // PDQ (the service's band lookup), only when the query's quality is enough
      let pdqBest = null;
      if (t.quality >= PDQ_MIN_QUALITY) {
        row.lookedUp++;
        const s = performance.now();
        const r = nearestPdq(t.pdq);
        lookupMs += performance.now() - s;
        lookups++;
        row.cand += r.candidates;
        pdqBest = r.best;
        if (r.best?.id === q.id) row.pdqTop++;
        else if (r.best) {
          row.pdqFalse++;
          falseMatches.push({ fp: "pdq", q, t: t.name, other: r.best.id, distance: r.best.distance });
        }
        if (r.within.includes(q.id)) row.pdqIn++;
        const scan = scanPdq(t.pdq);
        if ((scan?.distance ?? -1) !== (r.best?.distance ?? -1)) scanMismatch++;
      }
      // the service's order: an ISCC exact hit answers (only for a textured query: PDQ quality >= 50, since
      // featureless images share codes); otherwise the PDQ lookup
      const svc = ex && t.quality >= PDQ_MIN_QUALITY ? ex[0] : pdqBest?.id;
      if (svc === q.id) row.svcRight++;
      else if (svc !== undefined) row.svcWrong++;
      // regions: the same query's hash against every indexed window; answers only when the whole-image lookup found nothing
      let regBest = null;
      if (t.quality >= PDQ_MIN_QUALITY) {
        const s = performance.now();
        const r = nearestRegion(t.pdq);
        regionLookupMs += performance.now() - s;
        regionLookups++;
        row.regCand += r.candidates;
        regBest = r.best;
        if (r.best?.id === q.id) row.regTop++;
        else if (r.best) {
          row.regFalse++;
          falseMatches.push({ fp: `pdq region ${r.best.region}`, q, t: t.name, other: r.best.id, distance: r.best.distance });
        }
      }
      row.regDist.push(Math.min(256, ...q.regions.map((x) => hammingDistance(t.pdq, x.bits))));
      const svc2 = svc ?? regBest?.id;
      if (svc2 === q.id) row.svc2Right++;
      else if (svc2 !== undefined) row.svc2Wrong++;
      // #20: the whole-image hash and the query's windows together against every indexed window
      let qwBest = null;
      if (t.quality >= PDQ_MIN_QUALITY) {
        const s = performance.now();
        const r = nearestRegion(t.pdq, t.windows);
        windowLookupMs += performance.now() - s;
        windowLookups++;
        windowHashes += 1 + t.windows.length;
        windowCpu.push(t.windowMs);
        row.qwLookups++;
        qwBest = r.best;
        if (r.best?.id === q.id) row.qwTop++;
        else if (r.best) {
          row.qwFalse++;
          falseMatches.push({
            fp: `pdq query windows / region ${r.best.region}`,
            q,
            t: t.name,
            other: r.best.id,
            distance: r.best.distance,
          });
        }
      }
      row.qwDist.push(Math.min(256, ...q.regions.flatMap((x) => [t.pdq, ...t.windows].map((h) => hammingDistance(h, x.bits)))));
      const svc3 = svc ?? qwBest?.id;
      if (svc3 === q.id) row.svc3Right++;
      else if (svc3 !== undefined) row.svc3Wrong++;
    }
  }
  const queryLoopMs = performance.now() - t0;

  // distractors: none of them is indexed, so any match is a false match
  const dis = { n: distractors.length, lookedUp: 0, pdq: 0, iscc: 0, isccNear: 0, svc: 0, cand: 0, nearestPdq: [] };
  // every distractor under every transformation, against the whole-image and the region hashes (any hit is false)
  const disT = { n: 0, lookedUp: 0, pdq: 0, region: 0, qw: 0, svc: 0, nearestRegion: [], nearestWindow: [] };
  for (const g of distractors) {
    for (const t of [{ name: "unindexed", ...g }, ...(g.transformed ?? [])]) {
      disT.n++;
      if (t.quality < PDQ_MIN_QUALITY) continue;
      disT.lookedUp++;
      const full = nearestPdq(t.pdq).best;
      const s = performance.now();
      const reg = nearestRegion(t.pdq).best;
      regionLookupMs += performance.now() - s;
      regionLookups++;
      if (full) disT.pdq++;
      if (reg) {
        disT.region++;
        falseMatches.push({ fp: `pdq region ${reg.region}`, q: g, t: `unindexed, ${t.name}`, other: reg.id, distance: reg.distance });
      }
      const s2 = performance.now();
      const qw = nearestRegion(t.pdq, t.windows).best;
      windowLookupMs += performance.now() - s2;
      windowLookups++;
      windowHashes += 1 + t.windows.length;
      windowCpu.push(t.windowMs);
      if (qw) {
        disT.qw++;
        falseMatches.push({
          fp: `pdq query windows / region ${qw.region}`,
          q: g,
          t: `unindexed, ${t.name}`,
          other: qw.id,
          distance: qw.distance,
        });
      }
      if (full || reg || qw) disT.svc++;
      let nearest = 256;
      for (const h of regionOf.values()) nearest = Math.min(nearest, hammingDistance(t.pdq, h));
      disT.nearestRegion.push(nearest);
      let nearestW = nearest;
      for (const w of t.windows) for (const h of regionOf.values()) nearestW = Math.min(nearestW, hammingDistance(w, h));
      disT.nearestWindow.push(nearestW);
    }
  }
  for (const g of distractors) {
    const ex = isccExact(g.iscc);
    if (ex) {
      dis.iscc++;
      falseMatches.push({ fp: "iscc exact", q: g, t: "unindexed", other: ex[0], distance: 0 });
    }
    const near = isccNearest(g.iscc);
    if (near) {
      dis.isccNear++;
      falseMatches.push({ fp: `iscc <=${ISCC_NEAR}`, q: g, t: "unindexed", other: near.id, distance: near.distance });
    }
    let hit = null;
    if (g.quality >= PDQ_MIN_QUALITY) {
      dis.lookedUp++;
      const s = performance.now();
      const r = nearestPdq(g.pdq);
      lookupMs += performance.now() - s;
      lookups++;
      dis.cand += r.candidates;
      hit = r.best;
      if (r.best) {
        dis.pdq++;
        falseMatches.push({ fp: "pdq", q: g, t: "unindexed", other: r.best.id, distance: r.best.distance });
      }
      let nearest = 256;
      for (const h of pdqOf.values()) nearest = Math.min(nearest, hammingDistance(g.pdq, h));
      dis.nearestPdq.push(nearest);
    }
    if ((ex && g.quality >= PDQ_MIN_QUALITY) || hit) dis.svc++;
  }

  // near-duplicates inside the corpus itself (how distinct the indexed images are, to PDQ and to ISCC)
  const ids = [...pdqOf.keys()];
  let dupPairs = 0,
    minPair = 256;
  const nearestNeighbour = [];
  const dupList = [];
  for (let i = 0; i < ids.length; i++) {
    let nn = 256;
    for (let j = 0; j < ids.length; j++) {
      if (i === j) continue;
      const d = hammingDistance(pdqOf.get(ids[i]), pdqOf.get(ids[j]));
      if (d < nn) nn = d;
      if (j > i && d <= PDQ_MATCH_DISTANCE) {
        dupPairs++;
        dupList.push([ids[i], ids[j], d]);
      }
    }
    nearestNeighbour.push(nn);
    minPair = Math.min(minPair, nn);
  }
  const isccShared = [...isccIndex.values()].filter((l) => l.length > 1);

  // --- 4. report
  const pad = (s, n) => String(s).padEnd(n);
  const lpad = (s, n) => String(s).padStart(n);
  const pct = (a, b) => (b ? `${((100 * a) / b).toFixed(1)}%` : "-");
  const median = (xs) => {
    if (!xs.length) return "-";
    const s = [...xs].sort((a, b) => a - b);
    return s[s.length >> 1];
  };
  const pctl = (xs, p) => {
    const s = [...xs].sort((a, b) => a - b);
    return s[Math.min(s.length - 1, Math.floor(p * s.length))];
  };
  const famCount = (list) => {
    const m = new Map();
    for (const g of list) m.set(g.family, (m.get(g.family) ?? 0) + 1);
    return m;
  };
  const excluded = generated.filter((g) => g.quality < PDQ_MIN_QUALITY);
  const exFam = famCount(excluded);
  const sizes = generated.map((g) => g.W * g.H);
  const cpuGen = generated.reduce((a, g) => a + g.genMs, 0),
    cpuFp = generated.reduce((a, g) => a + g.fpMs, 0);

  console.log(
    `Fingerprint recall of the original among ${pdqOf.size} indexed assets (PDQ) / ${generated.length} (ISCC), after transformations, and false matches`,
  );
  console.log("");
  console.log(
    `corpus: ${generated.length} generated images (seeded; ${FAMILIES.length} families; ${Math.min(...generated.map((g) => Math.min(g.W, g.H)))}..${Math.max(...generated.map((g) => Math.max(g.W, g.H)))} px per side, ` +
      `${(Math.min(...sizes) / 1e6).toFixed(2)}..${(Math.max(...sizes) / 1e6).toFixed(2)} MP). Every image's ISCC code is indexed; its PDQ hash only with quality >= ${PDQ_MIN_QUALITY}:`,
  );
  console.log(
    `  PDQ-indexed ${pdqOf.size}; excluded for quality < ${PDQ_MIN_QUALITY}: ${excluded.length} (${[...exFam]
      .sort((a, b) => b[1] - a[1])
      .map(([f, n]) => `${f} ${n}/${famCount(generated).get(f)}`)
      .join(", ")})`,
  );
  console.log(`  families (generated): ${[...famCount(generated)].map(([f, n]) => `${f} ${n}`).join(", ")}`);
  console.log(
    `  distinctness: nearest other indexed PDQ hash per image: min ${minPair}, 1st percentile ${pctl(nearestNeighbour, 0.01)}, median ${median(nearestNeighbour)} bits; ` +
      `pairs within ${PDQ_MATCH_DISTANCE}: ${dupPairs}${
        dupList.length
          ? ` (${dupList
              .slice(0, 5)
              .map(([a, b, d]) => `#${a} ${byId.get(a).family} ~ #${b} ${byId.get(b).family}: ${d}`)
              .join("; ")})`
          : ""
      }; ` +
      `ISCC codes shared by several images: ${isccShared.length} (${isccShared.reduce((a, l) => a + l.length, 0)} images${isccShared.length ? `: ${[...famCount(isccShared.flat().map((id) => byId.get(id)))].map(([f, n]) => `${f} ${n}`).join(", ")}` : ""})`,
  );
  console.log(
    `  queries: ${queries.length} indexed originals (every ${QUERY_EVERY}th generated image that is PDQ-indexed), each under ${TRANSFORM_NAMES.length} transformations = ${queries.length * TRANSFORM_NAMES.length} lookups`,
  );
  console.log("");
  console.log(
    `PDQ (service lookup: 16 x 16-bit bands, each value and its 16 one-bit neighbours probed, then exact Hamming <= ${PDQ_MATCH_DISTANCE}; query quality >= ${PDQ_MIN_QUALITY})`,
  );
  console.log(
    `  ${pad("transformation", 24)} ${lpad("looked up", 10)} ${lpad("recall@1", 9)} ${lpad("recall", 8)} ${lpad("false", 6)} ${lpad("false %", 8)} ${lpad("median d", 9)} ${lpad("p90 d", 6)} ${lpad("cand./q", 8)}`,
  );
  for (const [name, r] of rows) {
    console.log(
      `  ${pad(name, 24)} ${lpad(`${r.lookedUp}/${r.n}`, 10)} ${lpad(pct(r.pdqTop, r.n), 9)} ${lpad(pct(r.pdqIn, r.n), 8)} ${lpad(r.pdqFalse, 6)} ${lpad(pct(r.pdqFalse, r.lookedUp), 8)} ${lpad(median(r.pdqDist), 9)} ${lpad(pctl(r.pdqDist, 0.9), 6)} ${lpad((r.cand / Math.max(1, r.lookedUp)).toFixed(1), 8)}`,
    );
  }
  console.log(
    `  ${pad("unindexed (distinct)", 24)} ${lpad(`${dis.lookedUp}/${dis.n}`, 10)} ${lpad("-", 9)} ${lpad("-", 8)} ${lpad(dis.pdq, 6)} ${lpad(pct(dis.pdq, dis.lookedUp), 8)} ${lpad(`(${median(dis.nearestPdq)})`, 9)} ${lpad("", 6)} ${lpad((dis.cand / Math.max(1, dis.lookedUp)).toFixed(1), 8)}`,
  );
  console.log(
    `  recall@1: the returned nearest match is the original (share of all queries; a query under quality ${PDQ_MIN_QUALITY} is not looked up = miss); recall: the original`,
  );
  console.log(
    `  is among the matches <= ${PDQ_MATCH_DISTANCE}; false: a different asset returned as the nearest (% of lookups); d: Hamming distance to the original's hash`,
  );
  console.log(
    `  (all queries; unindexed row: median distance to the nearest indexed hash); cand./q: distinct candidates per lookup from the band probes, of ${pdqOf.size} indexed.`,
  );
  console.log(
    `  band index vs brute-force scan of all ${pdqOf.size} hashes: ${scanMismatch} of ${lookups} lookups differ (0 expected: with 16 bands, any hash within 31 bits differs in <= 1 bit in some band)`,
  );
  console.log("");
  const nRegions = [...regionOf.keys()].length;
  console.log(
    `PDQ regions (${F.PDQ_REGIONS.length} windows per image, src/media/fingerprint/regions.ts; indexed with quality >= ${PDQ_MIN_QUALITY}: ${nRegions}, ` +
      `${(nRegions / Math.max(1, pdqOf.size)).toFixed(1)} per PDQ-indexed image): the query's whole-image hash against every window, Hamming <= ${PDQ_REGION_MATCH_DISTANCE}`,
  );
  console.log(
    `  ${pad("transformation", 34)} ${lpad("region@1", 9)} ${lpad("false", 6)} ${lpad("median d", 9)} ${lpad("cand./q", 8)} ${lpad("whole only", 11)} ${lpad("whole+regions", 14)} ${lpad("wrong", 6)}`,
  );
  for (const [name, r] of rows) {
    console.log(
      `  ${pad(name, 34)} ${lpad(pct(r.regTop, r.n), 9)} ${lpad(r.regFalse, 6)} ${lpad(median(r.regDist), 9)} ${lpad((r.regCand / Math.max(1, r.lookedUp)).toFixed(1), 8)} ${lpad(pct(r.svcRight, r.n), 11)} ${lpad(pct(r.svc2Right, r.n), 14)} ${lpad(r.svc2Wrong, 6)}`,
    );
  }
  const L = regionLookups;
  const cp = 1 - 0.05 ** (1 / Math.max(1, L));
  console.log(
    `  unindexed distractors under every transformation: ${disT.lookedUp} lookups of ${disT.n} (quality >= ${PDQ_MIN_QUALITY}); whole-image hits ${disT.pdq}, region hits ${disT.region}; ` +
      `nearest region hash: median ${median(disT.nearestRegion)}, min ${Math.min(256, ...disT.nearestRegion)} bits`,
  );
  const falseRegion = [...rows.values()].reduce((a, r) => a + r.regFalse, 0) + disT.region;
  console.log(
    `  false region matches: ${falseRegion} in ${L} region lookups (indexed queries + distractors)` +
      (falseRegion === 0
        ? `; 95% upper bound on the false-match rate per lookup: ${(100 * cp).toFixed(3)}% (Clopper-Pearson, 0 of ${L}; rule of three ${(300 / L || 0).toFixed(3)}%)`
        : ""),
  );
  console.log(
    `  region@1: the nearest window within ${PDQ_REGION_MATCH_DISTANCE} is one of the original's; d: distance to the nearest of the original's windows; whole only / whole+regions: the service order`,
  );
  console.log(
    `  (ISCC exact, PDQ whole image) without and with the region lookup (which answers only when the others found nothing), right asset; wrong: another asset.`,
  );
  console.log("");
  // #20: the verify service's query windows (regions.ts PDQ_QUERY_WINDOWS) with the whole-image hash, against every window
  const qwFalseAll = [...rows.values()].reduce((a, r) => a + r.qwFalse, 0) + disT.qw;
  const WL = windowLookups;
  const WH = windowHashes;
  console.log(
    `PDQ query windows (${F.PDQ_QUERY_WINDOWS.length} windows of the looked-up image, those at quality >= ${PDQ_MIN_QUALITY}, with its whole-image hash, against every indexed window, Hamming <= ${PDQ_REGION_MATCH_DISTANCE})`,
  );
  console.log(
    `  ${pad("transformation", 34)} ${lpad("window@1", 9)} ${lpad("false", 6)} ${lpad("median d", 9)} ${lpad("whole+regions", 14)} ${lpad("+query windows", 15)} ${lpad("wrong", 6)}`,
  );
  for (const [name, r] of rows)
    console.log(
      `  ${pad(name, 34)} ${lpad(pct(r.qwTop, r.n), 9)} ${lpad(r.qwFalse, 6)} ${lpad(median(r.qwDist), 9)} ${lpad(pct(r.svc2Right, r.n), 14)} ${lpad(pct(r.svc3Right, r.n), 15)} ${lpad(r.svc3Wrong, 6)}`,
    );
  console.log(
    `  unindexed distractors under every transformation: query-window hits ${disT.qw}; nearest window (any query hash to any indexed window): median ${median(disT.nearestWindow)}, min ${Math.min(256, ...disT.nearestWindow)} bits`,
  );
  console.log(
    `  false matches: ${qwFalseAll} in ${WL} lookups of ${WH} query hashes (${(WH / Math.max(1, WL)).toFixed(1)} per lookup)` +
      (qwFalseAll === 0
        ? `; 95% upper bound per lookup ${(100 * (1 - 0.05 ** (1 / Math.max(1, WL)))).toFixed(3)}%, per query hash ${(100 * (1 - 0.05 ** (1 / Math.max(1, WH)))).toFixed(4)}% (Clopper-Pearson, 0 observed)`
        : ""),
  );
  console.log(
    `  CPU of the query windows per lookup (one luma plane, PDQ_QUERY_WINDOWS): median ${median(windowCpu).toFixed(1)} ms, p90 ${pctl(windowCpu, 0.9).toFixed(1)} ms; lookups ${windowLookupMs.toFixed(1)} ms wall for ${WL}`,
  );
  console.log("");
  console.log(
    `ISCC image code, 64 bits (service: exact lookup; "<= ${ISCC_NEAR}": nearest code within ${ISCC_NEAR} bits by brute-force scan, NOT done by the service)`,
  );
  console.log(
    `  ${pad("transformation", 24)} ${lpad("exact recall", 13)} ${lpad("exact false", 12)} ${lpad(`<=${ISCC_NEAR} recall@1`, 15)} ${lpad(`<=${ISCC_NEAR} false`, 10)} ${lpad("median d", 9)} ${lpad("p90 d", 6)}`,
  );
  for (const [name, r] of rows) {
    console.log(
      `  ${pad(name, 24)} ${lpad(pct(r.isccExact, r.n), 13)} ${lpad(r.isccExactFalse, 12)} ${lpad(pct(r.isccNear, r.n), 15)} ${lpad(r.isccNearFalse, 10)} ${lpad(median(r.isccDist), 9)} ${lpad(pctl(r.isccDist, 0.9), 6)}`,
    );
  }
  console.log(
    `  ${pad("unindexed (distinct)", 24)} ${lpad("-", 13)} ${lpad(dis.iscc, 12)} ${lpad("-", 15)} ${lpad(dis.isccNear, 10)}   (of ${dis.n})`,
  );
  console.log(
    `  exact false: the earliest asset registered under the query's code is another one; d: Hamming distance to the original's code (of 64)`,
  );
  console.log("");
  console.log(
    `Service verification order (ISCC exact hit answers when the query's PDQ quality >= ${PDQ_MIN_QUALITY}, else PDQ nearest): right asset / wrong asset / no match, of ${queries.length} per row`,
  );
  for (const [name, r] of rows)
    console.log(`  ${pad(name, 34)} ${lpad(pct(r.svcRight, r.n), 7)} ${lpad(r.svcWrong, 5)} ${lpad(r.n - r.svcRight - r.svcWrong, 5)}`);
  console.log(`  ${pad("unindexed (distinct)", 34)} ${lpad("-", 7)} ${lpad(dis.svc, 5)} ${lpad(dis.n - dis.svc, 5)}`);
  if (falseMatches.length) {
    console.log("");
    console.log(
      `false matches (${falseMatches.length}${verbose ? "" : "; first 10, --verbose for all"}): query (family, size, PDQ quality) -> returned indexed asset, at distance`,
    );
    for (const f of verbose ? falseMatches : falseMatches.slice(0, 10)) {
      const o = byId.get(f.other);
      console.log(
        `  ${f.fp} ${f.t}: ${f.t === "unindexed" ? "unindexed #" : "#"}${f.q.id} ${f.q.family} ${f.q.W}x${f.q.H} (q ${f.q.quality}) -> #${o.id} ${o.family} ${o.W}x${o.H} (q ${o.quality}) at ${f.distance}`,
      );
    }
  }
  console.log("");
  console.log(
    `timing (${nWorkers} worker threads, Node ${process.version}): corpus + fingerprints + transformations ${genWallMs.toFixed(0)} ms wall ` +
      `(${generated.length + distractors.length} images; per image: generation ${(cpuGen / generated.length).toFixed(1)} ms, PDQ + ISCC ${(cpuFp / generated.length).toFixed(1)} ms, mean ${(sizes.reduce((a, b) => a + b, 0) / sizes.length / 1e6).toFixed(2)} MP)`,
  );
  console.log(
    `  index build (ISCC map + 16 band maps): ${indexMs.toFixed(1)} ms wall; PDQ band lookups: ${lookups} in ${lookupMs.toFixed(1)} ms wall (${((1000 * lookupMs) / lookups).toFixed(1)} µs each); ` +
      `query loop incl. brute-force checks ${queryLoopMs.toFixed(0)} ms; total ${((performance.now() - tStart) / 1000).toFixed(1)} s`,
  );
  const withRegions = generated.filter((g) => g.quality >= PDQ_MIN_QUALITY);
  const regionCpu = withRegions.map((g) => g.regionMs);
  console.log(
    `  region hashes at publication (${F.PDQ_REGIONS.length} windows, on the image PDQ reads): median ${median(regionCpu).toFixed(1)} ms, p90 ${pctl(regionCpu, 0.9).toFixed(1)} ms per image ` +
      `(whole-image PDQ + ISCC: ${(cpuFp / generated.length).toFixed(1)} ms); region lookups: ${regionLookups} in ${regionLookupMs.toFixed(1)} ms wall`,
  );
}
