// Robustness, quality and cost of our audio watermark (svc-awm-stdm-1, wasm/audiowm). Uses ffmpeg and espeak-ng
// (not run in CI).
//
//   node bench/audio-watermark-robustness.mjs              # >= 20 clips (speech over music beds + Debian music)
//   node bench/audio-watermark-robustness.mjs --quick      # 6 clips
//   add --verbose to list every clip/attack that was not recovered
//
// Clips: 30 s, stereo 44.1 kHz: espeak-ng speech (seeded voice, speed, pitch) over a music bed synthesised in code
// (bench/lib/audio.mjs: seeded tempo, key, harmonics, drums), and 30-s excerpts of the free songs of Debian's
// fretsonfire-songs-muldjord / -sectoid packages when installed (apt-get install them to include real music).
// Prints, per transformation, the recovery rate (right payload), wrong payloads and the raw code-bit accuracy; false
// positives on the unmarked clips (as they are and after MP3 64k) and with a wrong key; SNR; CPU per minute of audio
// for embed (which includes its self-check) and detect; kernel memory.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import "./lib/ts-resolve.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
execFileSync(process.execPath, [join(root, "scripts", "build-wasm.mjs")], { stdio: "inherit", cwd: root });

const { WasmAudioWatermarker, AUDIO_WATERMARK_ALGORITHM } = await import("../src/media/watermark/audio/kernel.ts");
const A = await import("./lib/audio.mjs");

const quick = process.argv.includes("--quick");
const verbose = process.argv.includes("--verbose");
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
for (const [index, clip] of clips.entries()) {
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
