// Robustness, quality and cost of our audio watermark (svc-awm-stdm-1, wasm/audiowm). Uses ffmpeg and espeak-ng
// (not run in CI).
//
//   node bench/audio-watermark-robustness.mjs              # >= 20 clips (speech over music beds + Debian music)
//   node bench/audio-watermark-robustness.mjs --quick      # 6 clips
//   add --verbose to list every clip/attack that was not recovered
//   node bench/audio-watermark-robustness.mjs --encode-paths   # only the step's MP3-in / FLAC-in re-encode paths
//
// Clips: 30 s, stereo 44.1 kHz: espeak-ng speech (seeded voice, speed, pitch) over a music bed synthesised in code
// (bench/lib/audio.mjs: seeded tempo, key, harmonics, drums), and 30-s excerpts of the free songs of Debian's
// fretsonfire-songs-muldjord / -sectoid packages when installed (apt-get install them to include real music).
// Prints, per transformation, the recovery rate (right payload), wrong payloads and the raw code-bit accuracy; false
// positives on the unmarked clips (as they are and after MP3 64k) and with a wrong key; SNR; CPU per minute of audio
// for embed (which includes its self-check) and detect; kernel memory. Then the watermark step's re-encode paths on
// the first clips (6; 3 with --quick): an MP3 128k upload (decoded by our mpg123, marked, re-encoded by LAME in wasm
// at 128k) and a 16-bit FLAC upload (decoded, marked, re-encoded by our FLAC encoder): SNR after our encode, CPU per
// minute of audio for decode + embed + encode, and recovery after a stripped ffmpeg MP3 64k copy.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import "./lib/ts-resolve.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
execFileSync(process.execPath, [join(root, "scripts", "build-wasm.mjs")], { stdio: "inherit", cwd: root });

const { WasmAudioWatermarker, AUDIO_WATERMARK_ALGORITHM } = await import("../src/media/watermark/audio/kernel.ts");
const A = await import("./lib/audio.mjs");

const quick = process.argv.includes("--quick");
const verbose = process.argv.includes("--verbose");
// Only the step's re-encode paths (the last section), not the kernel's robustness table.
const encodeOnly = process.argv.includes("--encode-paths");
const wm = new WasmAudioWatermarker(new WebAssembly.Module(readFileSync(join(root, "wasm", "build", "audiowm.wasm"))));
const KEY = new TextEncoder().encode("bench-deployment-key");
const WRONG_KEY = new TextEncoder().encode("another-deployment-key");
const SECONDS = 30;
const RATE = 44100;

// ------------------------------------------------------------------------------------------------------------
// Clips

const clips = [];
const synthCount = quick ? 4 : 14;
for (let s = 1; s <= synthCount; s++) clips.push({ name: `speech+music#${s}`, make: () => A.speechMusicClip(s, SECONDS, RATE, 2) });
const songs = A.debianMusic().filter((f) => f.endsWith("song.ogg"));
for (const song of songs.slice(0, quick ? 2 : 10)) {
  const dir = dirname(song);
  clips.push({
    name: `music:${dir.split("/").pop()}`,
    make: () => {
      // the song's backing track with its guitar track, 30 s from 0:40
      const guitar = join(dir, "guitar.ogg");
      const args = ["-v", "error", "-nostdin", "-ss", "40", "-t", String(SECONDS), "-i", song];
      let filter = "anull";
      try {
        readFileSync(guitar, { flag: "r" });
        args.push("-ss", "40", "-t", String(SECONDS), "-i", guitar);
        filter = "amix=inputs=2:normalize=0";
      } catch {}
      args.push("-filter_complex", filter, "-ar", String(RATE), "-ac", "2", "-f", "s16le", "pipe:1");
      const out = execFileSync("ffmpeg", args, { maxBuffer: 1 << 28 });
      return new Int16Array(out.buffer, out.byteOffset, out.byteLength >> 1).slice();
    },
  });
}

// ------------------------------------------------------------------------------------------------------------
// Attacks (each returns { pcm, rate })

const rnd = A.prng(2026);
const ATTACKS = {
  "MP3 128k": (pcm) => A.ATTACKS["mp3-128k"](pcm, RATE, 2),
  "MP3 64k": (pcm) => A.ATTACKS["mp3-64k"](pcm, RATE, 2),
  "AAC 96k": (pcm) => A.ATTACKS["aac-96k"](pcm, RATE, 2),
  "44.1 -> 48 kHz": (pcm) => A.ffmpegRoundTrip(pcm, RATE, 2, { outRate: 48000 }),
  "10-s excerpt": (pcm) => ({ pcm: A.excerpt(pcm, RATE, 2, rnd() * (SECONDS - 10.5), 10), rate: RATE }),
  "excerpt + MP3 64k": (pcm) => A.ATTACKS["mp3-64k"](A.excerpt(pcm, RATE, 2, rnd() * (SECONDS - 10.5), 10), RATE, 2),
  "volume +6 dB": (pcm) => ({ pcm: A.gain(pcm, 2), rate: RATE }),
  "volume -6 dB": (pcm) => ({ pcm: A.gain(pcm, 0.5), rate: RATE }),
};

const rows = new Map(); // attack -> { ok, wrong, n, acc[] }
const row = (name) => {
  if (!rows.has(name)) rows.set(name, { ok: 0, wrong: 0, n: 0, acc: [] });
  return rows.get(name);
};
const snrs = [];
let embedMs = 0;
let detectMs = 0;
let detectCount = 0;
let audioMinutes = 0;
let falsePositives = 0;
let unmarkedTrials = 0;
let wrongKeyHits = 0;
let wrongKeyTrials = 0;
let embedFailures = 0;
let peakZUnmarked = 0;
const misses = [];

const cpu = (f) => {
  const t = process.cpuUsage();
  const r = f();
  const d = process.cpuUsage(t);
  return [r, (d.user + d.system) / 1000];
};

function record(name, clip, payload, pcm, rate) {
  const r = row(name);
  const [d, ms] = cpu(() => wm.detect({ pcm, sampleRate: rate, channels: 2, key: KEY }));
  detectMs += (ms / (pcm.length / 2 / rate)) * 60;
  detectCount++;
  const acc = wm.codeBitAccuracy(payload);
  r.n++;
  if (acc !== null) r.acc.push(acc);
  if (d.status === "detected") {
    if (d.payload.every((v, i) => v === payload[i])) r.ok++;
    else r.wrong++;
  } else
    misses.push(
      `${name} / ${clip}: ${d.status} (peak sync z ${wm.lastDetect.peakSyncZ.toFixed(1)}, bit accuracy ${acc?.toFixed(3) ?? "-"})`,
    );
}

const started = Date.now();
for (const [index, clip] of (encodeOnly ? [] : clips).entries()) {
  const pcm = clip.make();
  const payload = Uint8Array.from({ length: 8 }, (_, i) => (index * 97 + i * 29 + 5) & 255);
  // unmarked: as is, and after MP3 64k
  for (const x of [pcm, A.ATTACKS["mp3-64k"](pcm, RATE, 2).pcm]) {
    const d = wm.detect({ pcm: x, sampleRate: RATE, channels: 2, key: KEY });
    unmarkedTrials++;
    if (d.status === "detected") falsePositives++;
    peakZUnmarked = Math.max(peakZUnmarked, wm.lastDetect.peakSyncZ);
  }
  const [e, ms] = cpu(() => wm.embed({ pcm, sampleRate: RATE, channels: 2, payload, key: KEY }));
  if (e.status !== "embedded") {
    embedFailures++;
    console.error(`${clip.name}: embed ${e.status}: ${e.message}`);
    continue;
  }
  embedMs += ms;
  audioMinutes += pcm.length / 2 / RATE / 60;
  snrs.push(e.snr_db);
  record("none", clip.name, payload, e.pcm, RATE);
  for (const [name, attack] of Object.entries(ATTACKS)) {
    const a = attack(e.pcm);
    record(name, clip.name, payload, a.pcm, a.rate);
  }
  // 48 -> 44.1 kHz: the clip made at 48 kHz, marked there, resampled to 44.1 kHz
  const at48 = A.ffmpegRoundTrip(pcm, RATE, 2, { outRate: 48000 }).pcm;
  const e48 = wm.embed({ pcm: at48, sampleRate: 48000, channels: 2, payload, key: KEY });
  if (e48.status === "embedded") {
    snrs.push(e48.snr_db);
    const back = A.ffmpegRoundTrip(e48.pcm, 48000, 2, { outRate: RATE });
    record("48 -> 44.1 kHz", clip.name, payload, back.pcm, RATE);
  } else embedFailures++;
  // wrong key on the marked clip
  const w = wm.detect({ pcm: e.pcm, sampleRate: RATE, channels: 2, key: WRONG_KEY });
  wrongKeyTrials++;
  if (w.status === "detected") wrongKeyHits++;
  process.stderr.write(`${clip.name} done (${((Date.now() - started) / 1000).toFixed(0)} s)\n`);
}

// ------------------------------------------------------------------------------------------------------------
// Report

const pct = (a, b) => (b ? `${((100 * a) / b).toFixed(1)} %` : "-");
const mean = (xs) => xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length);
if (!encodeOnly) {
  console.log(
    `\n## ${AUDIO_WATERMARK_ALGORITHM}: ${clips.length} clips of ${SECONDS} s (${synthCount} speech+music, ${clips.length - synthCount} Debian music), 64-bit payload\n`,
  );
  console.log("| transformation | recovered | wrong payload | code-bit accuracy (mean / min) |");
  console.log("| --- | --- | --- | --- |");
  for (const [name, r] of rows)
    console.log(
      `| ${name} | ${r.ok}/${r.n} (${pct(r.ok, r.n)}) | ${r.wrong} | ${r.acc.length ? `${mean(r.acc).toFixed(3)} / ${Math.min(...r.acc).toFixed(3)}` : "-"} |`,
    );
  console.log(
    `\n- false positives, unmarked clips (as is and after MP3 64k): ${falsePositives}/${unmarkedTrials}; highest sync z-score ${peakZUnmarked.toFixed(2)} (threshold 5); bound per detect ${wm.falsePositiveBound.toExponential(2)}`,
  );
  console.log(`- wrong key on marked clips: ${wrongKeyHits}/${wrongKeyTrials} detected`);
  console.log(`- embed failures: ${embedFailures}`);
  console.log(`- SNR (output vs input, all channels): mean ${mean(snrs).toFixed(2)} dB, min ${Math.min(...snrs).toFixed(2)} dB`);
  console.log(
    `- CPU per minute of audio (44.1 kHz stereo): embed ${(embedMs / audioMinutes).toFixed(0)} ms (incl. its self-check detect), detect ${(detectMs / detectCount).toFixed(0)} ms`,
  );
  console.log(`- kernel linear memory after the run: ${(wm.kernelMemoryBytes / 2 ** 20).toFixed(1)} MiB (30-s clips)`);
  if (verbose) for (const m of misses) console.log(`  miss: ${m}`);
}

// ------------------------------------------------------------------------------------------------------------
// The watermark step's re-encode paths (MP3 in, FLAC in): our decoders, the embed, our encoders, as the step runs them

// Bundled for Node with the npm packages left to Node's resolver (the decoders' packages load their own Node parts).
const entryOut = join(root, "dist", "bench", "audio-encode-entry.mjs");
execFileSync(
  join(root, "node_modules", ".bin", "esbuild"),
  [
    "--bundle",
    "--platform=node",
    "--format=esm",
    "--packages=external",
    "--loader=ts",
    "--sourcefile=audio-encode-entry.ts",
    `--outfile=${entryOut}`,
    "--log-level=error",
  ],
  {
    cwd: root,
    input: `export { WasmAudioDecoder } from "./src/media/codecs/audio/index.ts"; export { WasmAudioEncoders } from "./src/media/codecs/audio/encoders.ts"; export { PcmCollector } from "./src/media/audio.ts";`,
  },
);
const codec = await import(pathToFileURL(entryOut).href);
const wasmOf = (name) => new WebAssembly.Module(readFileSync(join(root, "wasm", "build", `${name}.wasm`)));
const decoder = new codec.WasmAudioDecoder({ mpg123: wasmOf("mpg123"), flac: wasmOf("flac") });
const encoders = new codec.WasmAudioEncoders(wasmOf("lame"));
const { mkdtempSync, writeFileSync, rmSync } = await import("node:fs");
const { tmpdir } = await import("node:os");
const scratch = mkdtempSync(join(tmpdir(), "awm-encode-bench-"));
const cpuAsync = async (f) => {
  const t = process.cpuUsage();
  const r = await f();
  const d = process.cpuUsage(t);
  return [r, (d.user + d.system) / 1000];
};
async function decodeAll(bytes, type) {
  const c = new codec.PcmCollector(1 << 26);
  const r = await decoder.decode(bytes, type, c);
  if (r.status !== "decoded") throw new Error(`${type}: ${r.message}`);
  return c;
}
/** SNR of `b` against `a` (interleaved stereo) at the lag (b delayed by 0–2400 frames) that fits them best. */
function alignedSnr(a, b) {
  let best = { lag: 0, err: Number.POSITIVE_INFINITY };
  const probe = Math.min(a.length / 2, RATE * 5);
  for (let lag = 0; lag <= 2400; lag++) {
    let err = 0;
    for (let i = RATE; i < probe; i += 7) err += (a[2 * i] - b[2 * (i + lag)]) ** 2;
    if (err < best.err) best = { lag, err };
  }
  let sig = 0;
  let noise = 0;
  for (let i = 0; i + best.lag < b.length / 2 && i < a.length / 2; i++)
    for (let c = 0; c < 2; c++) {
      sig += a[2 * i + c] ** 2;
      noise += (a[2 * i + c] - b[2 * (i + best.lag) + c]) ** 2;
    }
  return 10 * Math.log10(sig / Math.max(noise, 1));
}
const paths = {
  "MP3 128k in": { snr: [], ms: 0, minutes: 0, ok: 0, n: 0 },
  "FLAC 16-bit in": { snr: [], ms: 0, minutes: 0, ok: 0, n: 0, exact: 0 },
};
for (const [index, clip] of clips.slice(0, quick ? 3 : 6).entries()) {
  const pcm = clip.make();
  const payload = Uint8Array.from({ length: 8 }, (_, i) => (index * 53 + i * 71 + 11) & 255);
  const src = join(scratch, `c${index}.wav`);
  writeFileSync(src, A.wavBytes(pcm, RATE, 2));
  for (const [name, type, args] of [
    ["MP3 128k in", "audio/mpeg", ["-c:a", "libmp3lame", "-b:a", "128k", "-f", "mp3"]],
    ["FLAC 16-bit in", "audio/flac", ["-c:a", "flac", "-sample_fmt", "s16", "-f", "flac"]],
  ]) {
    const p = paths[name];
    const upload = execFileSync("ffmpeg", ["-v", "error", "-nostdin", "-i", src, ...args, "pipe:1"], { maxBuffer: 1 << 28 });
    const [out, ms] = await cpuAsync(async () => {
      const input = await decodeAll(new Uint8Array(upload), type);
      const e = wm.embed({ pcm: input.pcm(), sampleRate: RATE, channels: 2, payload, key: KEY });
      if (e.status !== "embedded") throw new Error(e.message);
      const enc =
        type === "audio/flac"
          ? encoders.flac({ samples: e.pcm, sampleRate: RATE, channels: 2, bitsPerSample: 16 })
          : await encoders.mp3({ pcm: e.pcm, sampleRate: RATE, channels: 2, kbps: 128 });
      if (enc.status !== "encoded") throw new Error(enc.message);
      return { bytes: enc.bytes, input: input.pcm(), marked: e.pcm };
    });
    p.ms += ms;
    p.minutes += pcm.length / 2 / RATE / 60;
    const back = (await decodeAll(out.bytes, type)).pcm();
    if (type === "audio/flac") p.exact += back.length === out.marked.length && back.every((v, i) => v === out.marked[i]) ? 1 : 0;
    p.snr.push(alignedSnr(out.input, back));
    const copy = join(scratch, `copy${index}.mp3`);
    const ours = join(scratch, `ours${index}`);
    writeFileSync(ours, out.bytes);
    execFileSync("ffmpeg", ["-v", "error", "-nostdin", "-y", "-i", ours, "-map_metadata", "-1", "-c:a", "libmp3lame", "-b:a", "64k", copy]);
    const d = wm.detect({ pcm: A.decodeFile(copy, { rate: RATE, channels: 2 }), sampleRate: RATE, channels: 2, key: KEY });
    p.n++;
    if (d.status === "detected" && d.payload.every((v, i) => v === payload[i])) p.ok++;
  }
}
rmSync(scratch, { recursive: true, force: true });
console.log("\n## The step's re-encode paths (30-s clips, 44.1 kHz stereo)\n");
console.log("| upload | SNR after our encode (mean / min) | CPU per minute: decode + embed + encode | recovered after ffmpeg MP3 64k |");
console.log("| --- | --- | --- | --- |");
for (const [name, p] of Object.entries(paths))
  console.log(
    `| ${name}${p.exact !== undefined ? ` (our FLAC decodes bit-exactly: ${p.exact}/${p.n})` : ""} | ${mean(p.snr).toFixed(2)} / ${Math.min(...p.snr).toFixed(2)} dB | ${(p.ms / p.minutes).toFixed(0)} ms | ${p.ok}/${p.n} |`,
  );
