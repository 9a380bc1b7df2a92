// The watermark detector's equivalence set (svc-wm-tiledss-1): a fixed, seeded list of images whose detection
// outcome (detected + payload, or not_detected) is recorded in test/fixtures/watermark-equivalence.json, so that a
// change to the detector's arithmetic or search (SIMD, f32, cheaper folds, early exits) can be shown to lose no
// detection and add no false positive. Used by watermark-equivalence.test.ts (the `fast` subset) and by
// watermark-equivalence.mjs (the whole set: record, check, or compare two kernels side by side).
import { readFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "..", "..", "..");
// test images and attacks shared with the image benchmarks (importing it initializes the @jsquash codecs)
const lib = await import("../../../bench/lib/images.mjs");
const { makeImage, jpeg, resize, crop, brightness, jpegDec } = lib;

const cut = (n, f) => Math.round(n * f);
/** Rotation by `deg` about the centre, bilinear, same size (corners filled with the nearest edge pixel). */
function rotate(img, deg) {
  const { width: W, height: H, data } = img;
  const out = new Uint8Array(data.length);
  const a = (deg * Math.PI) / 180;
  const c = Math.cos(a);
  const s = Math.sin(a);
  const cx = W / 2;
  const cy = H / 2;
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const u = Math.min(W - 1.001, Math.max(0, c * (x + 0.5 - cx) + s * (y + 0.5 - cy) + cx - 0.5));
      const v = Math.min(H - 1.001, Math.max(0, -s * (x + 0.5 - cx) + c * (y + 0.5 - cy) + cy - 0.5));
      const i = Math.floor(u);
      const j = Math.floor(v);
      const fx = u - i;
      const fy = v - j;
      for (let ch = 0; ch < 4; ch++) {
        const p = (j * W + i) * 4 + ch;
        const top = data[p] * (1 - fx) + data[p + 4] * fx;
        const bottom = data[p + W * 4] * (1 - fx) + data[p + W * 4 + 4] * fx;
        out[(y * W + x) * 4 + ch] = Math.round(top * (1 - fy) + bottom * fy);
      }
    }
  return { width: W, height: H, data: out };
}

export const ATTACKS = [
  ["none", async (im) => im],
  ["jpeg75", (im) => jpeg(im, 75)],
  ["jpeg50", (im) => jpeg(im, 50)],
  ["resize80", async (im) => resize(im, cut(im.width, 0.8), cut(im.height, 0.8))],
  ["resize65", async (im) => resize(im, cut(im.width, 0.65), cut(im.height, 0.65))],
  ["resize50", async (im) => resize(im, cut(im.width, 0.5), cut(im.height, 0.5))],
  [
    "crop5corner",
    async (im) => crop(im, cut(im.width, 0.05), cut(im.height, 0.05), im.width - cut(im.width, 0.05), im.height - cut(im.height, 0.05)),
  ],
  [
    "crop10corner",
    async (im) => crop(im, cut(im.width, 0.1), cut(im.height, 0.1), im.width - cut(im.width, 0.1), im.height - cut(im.height, 0.1)),
  ],
  ["crop20corner", async (im) => crop(im, 0, cut(im.height, 0.2), im.width - cut(im.width, 0.2), im.height - cut(im.height, 0.2))],
  [
    "crop10sides",
    async (im) =>
      crop(im, cut(im.width, 0.05), cut(im.height, 0.05), im.width - 2 * cut(im.width, 0.05), im.height - 2 * cut(im.height, 0.05)),
  ],
  ["crop15width", async (im) => crop(im, 0, 0, im.width - cut(im.width, 0.15), im.height)],
  [
    "crop10+jpeg75",
    async (im) =>
      jpeg(crop(im, cut(im.width, 0.1), cut(im.height, 0.1), im.width - cut(im.width, 0.1), im.height - cut(im.height, 0.1)), 75),
  ],
  ["brightness80", async (im) => brightness(im, 0.8)],
  ["rotate0.5", async (im) => rotate(im, 0.5)],
  ["rotate1", async (im) => rotate(im, 1)],
];
const FAST_ATTACKS = new Set(["none", "jpeg75", "resize50", "crop5corner", "crop10corner", "crop20corner", "crop15width"]);
const UNMARKED_ATTACKS = ["none", "jpeg75", "resize50", "crop10corner", "crop15width"];
const STRENGTHS = ["subtle", "balanced", "robust"];

const SOURCES = [
  ["photo", 1155, 866],
  ["photo-textured", 1024, 768],
  ["shapes", 800, 1000],
  ["gradient", 1280, 720],
  ["noise", 1000, 1000],
  ["flat", 1400, 700],
  ["lowkey", 1600, 1200],
  ["highkey", 866, 1155],
  ["document", 1200, 900],
  ["stripes", 1155, 866],
  ["photo", 1024, 768],
  ["photo-textured", 1280, 720],
  ["photo", 1600, 1200],
  ["shapes", 1000, 1000],
];

async function decodeFile(path) {
  const d = await jpegDec.default(new Uint8Array(readFileSync(path)).buffer);
  return { width: d.width, height: d.height, data: new Uint8Array(d.data.buffer, d.data.byteOffset, d.data.length) };
}

/**
 * Yields { id, fast, image, payload? } in a fixed order; `payload` (hex) is what a marked case carries. `only`:
 * the fast subset. `embed(image, payload, strength)` marks an image (the caller's watermarker).
 */
export async function* equivalenceCases(embed, { only = "all" } = {}) {
  const want = (fast) => only === "all" || fast;
  const sources = SOURCES.map(([kind, W, H], i) => ({
    name: `${kind}-${W}x${H}-${i}`,
    fast: i < 3,
    load: async () => makeImage(kind, W, H, 7000 + i),
  }));
  sources.push({ name: "photo-bridge", fast: true, load: () => decodeFile(join(ROOT, "test/fixtures/media/photo-bridge.jpg")) });
  sources.push({ name: "sample-1mp", fast: false, load: () => decodeFile(join(ROOT, "test/fixtures/media/sample-1mp.jpg")) });
  for (const [si, src] of sources.entries()) {
    if (!want(src.fast)) continue;
    const image = await src.load();
    for (const [ai, [name, attack]] of ATTACKS.entries()) {
      if (!UNMARKED_ATTACKS.includes(name)) continue;
      const fast = src.fast && (name === "none" || name === "crop10corner");
      if (want(fast)) yield { id: `unmarked/${src.name}/${name}`, fast, image: await attack(image) };
      void ai;
    }
    for (const strength of STRENGTHS) {
      const payload = Uint8Array.from({ length: 8 }, (_, j) => (si * 53 + j * 29 + strength.length * 7) & 255);
      const sFast = src.fast && strength !== "robust";
      if (!want(sFast)) continue;
      const marked = embed(image, payload, strength);
      if (!marked) continue;
      for (const [name, attack] of ATTACKS) {
        const fast = sFast && FAST_ATTACKS.has(name);
        if (!want(fast)) continue;
        yield { id: `${strength}/${src.name}/${name}`, fast, image: await attack(marked), payload: Buffer.from(payload).toString("hex") };
      }
    }
  }
  // unmarked generated images of every kind and size, down to the minimum edge and elongated
  const kinds = ["photo", "photo-textured", "shapes", "gradient", "noise", "flat", "lowkey", "highkey", "document", "stripes"];
  const sizes = [
    [1155, 866],
    [640, 480],
    [300, 200],
    [128, 128],
    [2000, 1000],
    [512, 512],
    [900, 1200],
    [2000, 160],
  ];
  for (let i = 0; i < 48; i++) {
    const fast = i % 6 === 0;
    if (!want(fast)) continue;
    const [W, H] = sizes[i % sizes.length];
    const kind = kinds[i % kinds.length];
    yield { id: `unmarked/gen-${kind}-${W}x${H}-${i}`, fast, image: makeImage(kind, W, H, 60_000 + i) };
  }
  // real photographs: the verify benches' 2.8 MP photograph and the JPEG decoder's crops of a real photo
  if (want(true)) {
    const photo = await lib.benchPhotograph();
    const d = await jpegDec.default(photo.bytes.slice().buffer);
    yield {
      id: "unmarked/bench-photograph-2.8mp",
      fast: true,
      image: { width: d.width, height: d.height, data: new Uint8Array(d.data.buffer) },
    };
  }
  if (only === "all") {
    const dir = join(ROOT, "test/fixtures/jpegdec");
    for (const name of [
      "baseline-444.jpg",
      "baseline-420-restart-3-mcus.jpg",
      "progressive-422-restart.jpg",
      "gray.jpg",
      "rgb-adobe.jpg",
      "extended-sof1-q5.jpg",
    ]) {
      yield { id: `unmarked/jpegdec-${name}`, fast: false, image: await decodeFile(join(dir, name)) };
    }
  }
}

/** The detector's outcome and diagnostics for one image. */
export function outcome(wm, image) {
  const d = wm.detect(image);
  return {
    status: d.status,
    payload: d.status === "detected" ? Buffer.from(d.payload).toString("hex") : null,
    z: Number(wm.lastDetect.syncZ.toFixed(3)),
    peakZ: Number(wm.lastDetect.peakSyncZ.toFixed(3)),
    scale: Number(wm.lastDetect.scaleRatio.toFixed(4)),
  };
}

/**
 * Images whose marked bytes are pinned (watermark-equivalence.test.ts): odd sizes (rows and columns not multiples
 * of 4), heavy clamping (white pixels, high key), random alpha, an elongated grid, each at subtle and robust.
 */
export function embedPinCases() {
  const specs = [
    ["highkey", 301, 257],
    ["shapes", 1001, 403],
    ["noise", 130, 131],
    ["photo-textured", 999, 777],
    ["document", 2000, 150],
  ];
  const out = [];
  for (const [i, [kind, W, H]] of specs.entries()) {
    const image = makeImage(kind, W, H, 900 + i);
    if (i % 2 === 0) for (let p = 3; p < image.data.length; p += 4) image.data[p] = (p * 7) & 255;
    for (let p = 0; p < image.data.length; p += 4 * 3) image.data[p] = 255;
    for (const strength of ["subtle", "robust"])
      out.push({
        id: `${kind}-${W}x${H}-${strength}`,
        image,
        strength,
        payload: Uint8Array.from({ length: 8 }, (_, j) => (i * 31 + j) & 255),
      });
  }
  return out;
}
