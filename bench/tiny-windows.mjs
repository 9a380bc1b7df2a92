// What the query windows (PDQ_QUERY_WINDOWS, #20) of a small image can find (#19: the public verify of a 64 px
// JPEG hashes 15 windows). For real photographs published at several sizes (their PDQ and the crop windows
// publication indexes, computed as jobs/steps/fingerprint.ts does on the published plane), copies cropped from a
// corner or the centre to 1, 0.97 ... 0.8 of each side and scaled to a short side of 24-256 px (bicubic, JPEG q75)
// are read as POST /v1/verify reads them (verify-pixels.ts, PDQ's quality gate, the copy's own windows) and matched
// as soft-bindings/repo.ts does (the whole hash within PDQ_MATCH_DISTANCE of the published hash; a window reached by
// a band probe within PDQ_REGION_MATCH_DISTANCE). Per short side: how many copies only a query window recovers.
//   node bench/tiny-windows.mjs [--photos N]
// Corpus: the wallpapers bench/photo-recovery.mjs fetches into dist/bench/photos (run it, or apt-get download
// mate-backgrounds lomiri-wallpapers-16.04 and dpkg -x them there).
import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { imageCodecModules, kernelModule } from "./lib/codec-modules.mjs";
import { bundleForNode } from "./lib/node-bundle.mjs";

const root = join(import.meta.dirname, "..");
const limit = Number(process.argv[process.argv.indexOf("--photos") + 1]) || 1000;
const svc = await import(
  bundleForNode(
    "tiny-windows",
    [
      `export { PdqFingerprinter, hammingDistance, pdqQueryWindowBits } from "./src/media/fingerprint/index.ts";`,
      `export { JsquashImageCodec } from "./src/media/codecs/image-codec.ts";`,
      `export { verifyPixels } from "./src/verifications/verify-pixels.ts";`,
      `export { pdqRegions } from "./src/jobs/steps/fingerprint.ts";`,
      `export { PDQ_MATCH_DISTANCE, PDQ_MIN_QUALITY, PDQ_REGION_MATCH_DISTANCE } from "./src/soft-bindings/repo.ts";`,
    ].join("\n"),
  )
);
const { jpegEnc } = await import("./lib/images.mjs");
const codec = new svc.JsquashImageCodec(imageCodecModules());
const pdq = new svc.PdqFingerprinter(kernelModule("fingerprint"));
const services = { codec, watermarker: null, fingerprinters: new Map([["pdq", pdq]]) };
const { PDQ_MATCH_DISTANCE, PDQ_MIN_QUALITY, PDQ_REGION_MATCH_DISTANCE } = svc;

const dirs = ["usr/share/backgrounds", "usr/share/backgrounds/mate/nature"].map((d) => join(root, "dist/bench/photos", d));
const files = dirs
  .flatMap((d) =>
    readdirSync(d)
      .filter((f) => f.endsWith(".jpg"))
      .map((f) => join(d, f)),
  )
  .slice(0, limit);

function rgba(input, filter, width, height) {
  const args = ["-v", "error", "-nostdin"];
  let stdin;
  if (typeof input === "string") args.push("-i", input);
  else {
    args.push("-f", "rawvideo", "-pix_fmt", "rgba", "-s", `${input.width}x${input.height}`, "-i", "pipe:0");
    stdin = Buffer.from(input.data.buffer, input.data.byteOffset, input.data.length);
  }
  args.push("-frames:v", "1", "-vf", `${filter},format=rgba`, "-f", "rawvideo", "-pix_fmt", "rgba", "pipe:1");
  const out = execFileSync("ffmpeg", args, { input: stdin, maxBuffer: 1 << 28 });
  return { width, height, data: new Uint8Array(out.buffer, out.byteOffset, out.length) };
}
const jpeg = async (img, quality) =>
  new Uint8Array(
    await jpegEnc.default(
      { data: new Uint8ClampedArray(img.data.buffer, img.data.byteOffset, img.data.length), width: img.width, height: img.height },
      { quality },
    ),
  );

/** PDQ of the bytes as a verification reads them: the whole hash at the gate, and the gated query windows. */
async function read(bytes, published) {
  const got = await svc.verifyPixels(services, bytes, "image/jpeg");
  if (got.status !== "decoded") throw new Error(got.message);
  const input = got.pixels.plane.opaque ? got.pixels.plane.image : got.pixels.full;
  const whole = pdq.compute(input);
  if (whole.status !== "computed" || whole.quality < PDQ_MIN_QUALITY) return null;
  if (published) return { bits: whole.bits, regions: (svc.pdqRegions(pdq, input) ?? []).map((r) => Buffer.from(r.bits, "hex")) };
  return { bits: whole.bits, windows: svc.pdqQueryWindowBits(pdq, input, PDQ_MIN_QUALITY), size: [input.width, input.height] };
}
function shareBand(a, b, bits) {
  for (let i = 0; i < 32; i += 2) {
    let x = ((a[i] ^ b[i]) << 8) | (a[i + 1] ^ b[i + 1]);
    let n = 0;
    for (; x; x &= x - 1) n++;
    if (n <= bits) return true;
  }
  return false;
}
/** As the index lookup: the whole hash (to the whole and, band-probed ±1 bit, to the windows), then the windows. */
function match(copy, pub) {
  if (svc.hammingDistance(copy.bits, pub.bits) <= PDQ_MATCH_DISTANCE) return "whole";
  for (const r of pub.regions)
    if (shareBand(copy.bits, r, 1) && svc.hammingDistance(copy.bits, r) <= PDQ_REGION_MATCH_DISTANCE) return "whole";
  for (const r of pub.regions)
    for (const w of copy.windows) if (shareBand(w, r, 0) && svc.hammingDistance(w, r) <= PDQ_REGION_MATCH_DISTANCE) return "window";
  return null;
}

const SHORT = [32, 40, 48, 64, 96, 128, 256];
const KEEP = [1, 0.94, 0.9, 0.85, 0.8];
const ANCHORS = [
  [0, 0],
  [1, 0],
  [0, 1],
  [1, 1],
  [0.5, 0.5],
];
const PUBLISHED = [1_000_000, 65_536, 4_096]; // published area: ≈1 MP, ≈256 px, ≈64 px (a square side)
const rows = new Map(); // `${pubLabel} ${short}` → { copies, gated, whole, window, windowsComputed }
const even = (x) => Math.max(2, Math.round(x / 2) * 2);
for (const file of files) {
  const [w, h] = String(
    execFileSync("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height", "-of", "csv=p=0", file]),
  )
    .trim()
    .split(",")
    .map(Number);
  for (const area of PUBLISHED) {
    const s = Math.sqrt(area / (w * h));
    const W = even(w * s);
    const H = even(h * s);
    const original = rgba(file, `scale=${W}:${H}:flags=lanczos`, W, H);
    const pub = await read(await jpeg(original, 90), true);
    if (!pub) continue;
    for (const short of SHORT) {
      if (short > Math.min(W, H)) continue; // copies are never upscaled
      const key = `${String(Math.min(W, H)).padStart(4)} px published, copy short side ${String(short).padStart(3)}`;
      const row = rows.get(key) ?? { copies: 0, gated: 0, whole: 0, window: 0, windowsComputed: 0 };
      rows.set(key, row);
      for (const keep of KEEP)
        for (const [fx, fy] of keep === 1 ? [[0, 0]] : ANCHORS) {
          const cw = Math.round(W * keep);
          const ch = Math.round(H * keep);
          const k = short / Math.min(cw, ch);
          const img = rgba(
            original,
            `crop=${cw}:${ch}:${Math.round((W - cw) * fx)}:${Math.round((H - ch) * fy)},scale=${Math.round(cw * k)}:${Math.round(ch * k)}:flags=bicubic`,
            Math.round(cw * k),
            Math.round(ch * k),
          );
          row.copies++;
          const copy = await read(await jpeg(img, 75), false);
          if (!copy) continue;
          row.gated++;
          if (copy.windows.length) row.windowsComputed++;
          const how = match(copy, pub);
          if (how) row[how]++;
        }
    }
  }
  process.stdout.write(".");
}
console.log(`\n${files.length} photographs; copies: ${KEEP.join(", ")} of each side, corners and centre, JPEG q75\n`);
console.log("published / copy".padEnd(48), "copies", "gated", "windows", "by whole", "only by a window");
for (const [key, r] of [...rows].sort())
  console.log(
    key.padEnd(48),
    String(r.copies).padStart(6),
    String(r.gated).padStart(5),
    String(r.windowsComputed).padStart(7),
    String(r.whole).padStart(8),
    String(r.window).padStart(16),
  );
