// Video fingerprint recall: how vPDQ and TMK+PDQF (src/media/fingerprint/video, over wasm/build/fingerprint.wasm,
// bundled for Node like the other recall benches) hold up under common transformations, how close unrelated
// clips come, and what each hasher costs in CPU per second of video. Not part of CI or `npm run bench`: it needs
// Debian's ffmpeg (libx264).
//
//   node bench/video-fingerprint-recall.mjs [--json out.json] [--keep]
//
// Corpus: four 30-second 640x360 30 fps clips made here from the repository's photos (the PDQ test photos of
// ThreatExchange's labelme subset and bridge, the c2pa and media fixtures): three photos each, a slow zoom/pan
// on each (zoompan) and 1-second crossfades between them (xfade), H.264 CRF 18; plus upstream's
// doorknob-hd-no-bar.mp4 (a real 4-second 720p video). Transformations of each clip: re-encode at CRF 35,
// scaled to 50 %, frame rate 30 -> 25, a 10-second excerpt from 10.4 s (not at a frame-sampling boundary), and
// for TMK the excerpt's score too (TMK is a whole-video matcher: an excerpt is expected to fail it).
//
// Frames come from ffmpeg with the specs the hashers export (VPDQ_FRAME_SPEC: every frame 128x128 by area
// averaging; TMK_FRAME_SPEC: upstream's `-s 64:64 -r 15`). vPDQ hashes one frame a second (upstream's default)
// and matches by upstream's rule (dedupe, quality >= 50, Hamming <= 31); also against the original hashed 5 times
// a second ("dense target": what an index would store so an excerpt's samples, at any phase, find a frame close
// in time); reported: query and target match
// percentages of each transformed clip (query) against its original (target), and the largest against any other
// clip's original (false positives). TMK: level-1 / level-2 scores against the original and the largest against
// the others. CPU: process.cpuUsage() around the hashers only (decoding is the decoder's), median of 5 runs.
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { bundleForNode } from "./lib/node-bundle.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const work = join(tmpdir(), "video-fingerprint-recall");
mkdirSync(work, { recursive: true });
const args = process.argv.slice(2);
const jsonOut = args.includes("--json") ? args[args.indexOf("--json") + 1] : null;

const { FingerprintKernel, VpdqHasher, TmkPdqfHasher, vpdqMatch, tmkScores, VPDQ_FRAME_SPEC, TMK_FRAME_SPEC, VPDQ_MATCH, TMK_MATCH } =
  await import(
    bundleForNode(
      "video-fingerprint-entry",
      `export * from "./src/media/fingerprint/video/index.ts"; export { FingerprintKernel } from "./src/media/fingerprint/index.ts";`,
    )
  );
const kernel = FingerprintKernel.of(new WebAssembly.Module(readFileSync(join(root, "wasm", "build", "fingerprint.wasm"))));

const ff = (a) => execFileSync("ffmpeg", ["-v", "error", "-nostdin", "-y", ...a], { maxBuffer: 2 ** 31 });
const probe = (file) => {
  const [w, h, rate, dur] = execFileSync("ffprobe", [
    "-v",
    "error",
    "-select_streams",
    "v:0",
    "-show_entries",
    "stream=width,height,avg_frame_rate:format=duration",
    "-of",
    "csv=p=0:nk=1",
    file,
  ])
    .toString()
    .trim()
    .split(/[\n,]/);
  const [n, d] = rate.split("/").map(Number);
  return { width: Number(w), height: Number(h), fps: n / d, duration: Number(dur) };
};

// ---------------------------------------------------------------------------------------------------- corpus
const P = (p) => join(root, p);
const L = (q) => P(`test/fixtures/fp-vectors/pdq/images/reg-test-input/labelme-subset/${q}.jpg`);
const PHOTOS = [
  [P("test/fixtures/media/photo-bridge.jpg"), P("test/fixtures/media/sample-1mp.jpg"), P("test/fixtures/c2pa/adobe-20220124-A.jpg")],
  [L("q0003"), L("q0004"), L("q0122")],
  [L("q0291"), L("q0746"), L("q1050")],
  [L("q2821"), P("test/fixtures/c2pa/cloud.jpg"), P("test/fixtures/c2pa/no_alg.jpg")],
];

/** A 30-s slideshow: each photo 11 s of slow zoom (alternating in and out, panning), 1-s crossfades. */
function makeClip(photos, out) {
  const inputs = photos.flatMap((p) => ["-loop", "1", "-t", "11", "-i", p]);
  const zooms = photos.map(
    (_, i) =>
      `[${i}:v]scale=1280:720:force_original_aspect_ratio=increase,crop=1280:720,setsar=1,` +
      `zoompan=z='${i % 2 ? "1.4-0.0012*on" : "1+0.0012*on"}':x='iw/2-(iw/zoom/2)+${i === 2 ? "on*0.3" : "0"}':y='ih/2-(ih/zoom/2)':d=1:s=640x360:fps=30,trim=duration=11,setpts=PTS-STARTPTS[v${i}]`,
  );
  const graph = `${zooms.join(";")};[v0][v1]xfade=transition=fade:duration=1:offset=10[x1];[x1][v2]xfade=transition=fade:duration=1:offset=20,trim=duration=30,format=yuv420p[out]`;
  ff([...inputs, "-filter_complex", graph, "-map", "[out]", "-r", "30", "-c:v", "libx264", "-crf", "18", "-preset", "veryfast", out]);
}

const TRANSFORMS = {
  crf35: (i, o) => ff(["-i", i, "-c:v", "libx264", "-crf", "35", "-preset", "veryfast", o]),
  scale50: (i, o) => ff(["-i", i, "-vf", "scale=iw/2:ih/2", "-c:v", "libx264", "-crf", "23", "-preset", "veryfast", o]),
  fps25: (i, o) => ff(["-i", i, "-r", "25", "-c:v", "libx264", "-crf", "23", "-preset", "veryfast", o]),
  excerpt10s: (i, o) => ff(["-ss", "10.4", "-i", i, "-t", "10", "-c:v", "libx264", "-crf", "23", "-preset", "veryfast", o]),
};

// ---------------------------------------------------------------------------------------------------- hashing
function rawFrames(file, w, h, a) {
  const out = ff(["-i", file, ...a, "-an", "-pix_fmt", "rgb24", "-f", "rawvideo", "-"]);
  const size = w * h * 3;
  return Array.from({ length: out.length / size }, (_, i) => ({
    index: i,
    width: w,
    height: h,
    rgb: new Uint8Array(out.buffer, out.byteOffset + i * size, size),
  }));
}
const vpdqFramesOf = (file, fps) =>
  rawFrames(file, VPDQ_FRAME_SPEC.width, VPDQ_FRAME_SPEC.height, [
    "-vf",
    `scale=128:128:flags=${VPDQ_FRAME_SPEC.scaleFlags}`,
    "-fps_mode",
    "passthrough",
  ]).map((f) => ({ ...f, timestampSeconds: f.index / fps }));
const tmkFramesOf = (file) =>
  rawFrames(file, 64, 64, ["-s", "64:64", "-r", String(TMK_FRAME_SPEC.fps)]).map((f) => ({ ...f, timestampSeconds: f.index / 15 }));

function vpdq(frames, fps, secondsPerHash = 1) {
  const h = new VpdqHasher(kernel, { secondsPerHash, frameRate: fps });
  for (const f of frames) h.push(f);
  const r = h.finish();
  if (r.status !== "computed") throw new Error(r.message);
  return r.hashes;
}
function tmk(frames) {
  const h = new TmkPdqfHasher(kernel);
  for (const f of frames) h.push(f);
  const r = h.finish();
  if (r.status !== "computed") throw new Error(r.message);
  return r.features;
}
function hashFile(file) {
  const { fps, duration } = probe(file);
  const frames = vpdqFramesOf(file, fps);
  return { fps, duration, vpdq: vpdq(frames, fps), vpdqDense: vpdq(frames, fps, 0.2), tmk: tmk(tmkFramesOf(file)) };
}

// ---------------------------------------------------------------------------------------------------- run
const clips = [];
for (const [i, photos] of PHOTOS.entries()) {
  const out = join(work, `clip${i}.mp4`);
  makeClip(photos, out);
  clips.push({ name: `clip${i}`, file: out });
}
clips.push({ name: "doorknob", file: P("test/fixtures/fp-vectors/vpdq/doorknob-hd-no-bar.mp4") });

const originals = clips.map((c) => ({ ...c, ...hashFile(c.file) }));
const round = (x, d = 1) => Math.round(x * 10 ** d) / 10 ** d;
const rows = [];
for (const [ci, c] of originals.entries()) {
  for (const [tname, make] of Object.entries(TRANSFORMS)) {
    if (tname === "excerpt10s" && c.duration < 20) continue;
    const file = join(work, `${c.name}-${tname}.mp4`);
    make(c.file, file);
    const t = hashFile(file);
    const same = vpdqMatch(t.vpdq, c.vpdq);
    const dense = vpdqMatch(t.vpdq, c.vpdqDense);
    const sameTmk = tmkScores(t.tmk, c.tmk);
    let fpDense = 0;
    let fpQuery = 0;
    let fpTarget = 0;
    let fpL1 = -1;
    let fpL2 = 0;
    for (const [oi, o] of originals.entries()) {
      if (oi === ci) continue;
      const m = vpdqMatch(t.vpdq, o.vpdq);
      fpQuery = Math.max(fpQuery, m.queryMatchPercent);
      fpTarget = Math.max(fpTarget, m.targetMatchPercent);
      fpDense = Math.max(fpDense, vpdqMatch(t.vpdq, o.vpdqDense).queryMatchPercent);
      const s = tmkScores(t.tmk, o.tmk);
      fpL1 = Math.max(fpL1, s.level1);
      fpL2 = Math.max(fpL2, s.level2);
    }
    rows.push({
      clip: c.name,
      transform: tname,
      vpdq: {
        query: round(same.queryMatchPercent),
        target: round(same.targetMatchPercent),
        frames: `${same.queryFrames}/${same.targetFrames}`,
      },
      vpdqOthersMax: { query: round(fpQuery), target: round(fpTarget) },
      vpdqDenseTarget: { query: round(dense.queryMatchPercent), othersMaxQuery: round(fpDense) },
      tmk: { level1: round(sameTmk.level1, 3), level2: round(sameTmk.level2, 3) },
      tmkOthersMax: { level1: round(fpL1, 3), level2: round(fpL2, 3) },
    });
  }
}
// originals against each other: the false-positive floor
const pairs = [];
for (let i = 0; i < originals.length; i++)
  for (let j = 0; j < originals.length; j++) {
    if (i === j) continue;
    const m = vpdqMatch(originals[i].vpdq, originals[j].vpdq);
    const s = tmkScores(originals[i].tmk, originals[j].tmk);
    const md = vpdqMatch(originals[i].vpdq, originals[j].vpdqDense);
    pairs.push({
      q: originals[i].name,
      t: originals[j].name,
      query: round(m.queryMatchPercent),
      queryDense: round(md.queryMatchPercent),
      level1: round(s.level1, 3),
      level2: round(s.level2, 3),
    });
  }

// ---------------------------------------------------------------------------------------------------- CPU
function cpuMs(fn, runs = 5) {
  const ms = [];
  for (let r = 0; r < runs; r++) {
    const t0 = process.cpuUsage();
    fn();
    const d = process.cpuUsage(t0);
    ms.push((d.user + d.system) / 1000);
  }
  return ms.sort((a, b) => a - b)[runs >> 1];
}
const c0 = originals[0];
const small = vpdqFramesOf(c0.file, 30);
const tmkF = tmkFramesOf(c0.file);
const door = P("test/fixtures/fp-vectors/vpdq/doorknob-hd-no-bar.mp4");
const doorFull = rawFrames(door, 1280, 720, ["-vf", "scale=1280:720:flags=area", "-fps_mode", "passthrough"]).map((f) => ({
  ...f,
  timestampSeconds: f.index / 30,
}));
const cpu = {
  "vpdq 128x128, 1 hash/s (ms CPU per s of video)": round(cpuMs(() => vpdq(small, 30)) / c0.duration, 2),
  "vpdq 128x128, every frame @30fps": round(cpuMs(() => vpdq(small, 30, 0)) / c0.duration, 2),
  "vpdq 1280x720, 1 hash/s": round(cpuMs(() => vpdq(doorFull, 30)) / 4, 2),
  "vpdq 1280x720, every frame @30fps": round(cpuMs(() => vpdq(doorFull, 30, 0), 3) / 4, 2),
  "tmk+pdqf 64x64 @15fps": round(cpuMs(() => tmk(tmkF)) / c0.duration, 2),
  "tmkScores one pair (ms)": round(
    cpuMs(() => tmkScores(c0.tmk, originals[1].tmk)),
    2,
  ),
  "vpdqMatch 30x30 hashes (ms)": round(
    cpuMs(() => vpdqMatch(c0.vpdq, originals[1].vpdq)),
    3,
  ),
};

const report = { thresholds: { VPDQ_MATCH, TMK_MATCH }, rows, originalsPairs: pairs, cpu, node: process.version };
for (const r of rows)
  console.log(
    `${r.clip.padEnd(9)} ${r.transform.padEnd(11)} vpdq q/t ${String(r.vpdq.query).padStart(5)}/${String(r.vpdq.target).padStart(5)} (${r.vpdq.frames})  others max q/t ${r.vpdqOthersMax.query}/${r.vpdqOthersMax.target}  dense-target q ${r.vpdqDenseTarget.query} (others ${r.vpdqDenseTarget.othersMaxQuery}) | tmk l1/l2 ${r.tmk.level1}/${r.tmk.level2}  others max ${r.tmkOthersMax.level1}/${r.tmkOthersMax.level2}`,
  );
const maxPair = (k) => Math.max(...pairs.map((p) => p[k]));
console.log(
  `unrelated originals: max vpdq query% ${maxPair("query")} (dense target ${maxPair("queryDense")}), max tmk level1 ${maxPair("level1")}, level2 ${maxPair("level2")}`,
);
console.log("cpu:", JSON.stringify(cpu, null, 1));
if (jsonOut) writeFileSync(jsonOut, JSON.stringify(report, null, 1));
if (!args.includes("--keep")) rmSync(work, { recursive: true, force: true });
