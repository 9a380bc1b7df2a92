// Audio fingerprint recall: how far a Chromaprint fingerprint moves under common transformations, and how close
// unrelated audio comes, to decide how the service indexes audio (exact 32-bit values or masked bits, how many
// frames, which bit error rate separates a match from a non-match). Computed by the service's own code
// (src/media/fingerprint/audio over wasm/build/chromaprint.wasm, bundled for Node with esbuild like
// bench/fingerprint-recall.mjs). Not part of CI or `npm run bench`: it needs ffmpeg (with libmp3lame), sox and
// espeak-ng, and real music files.
//
//   node bench/audio-fingerprint-recall.mjs [--music DIR]... [--max-seconds 180] [--seed 1] [--json out.json]
//
// Corpus: every .ogg/.flac/.mp3/.it/.wav file under the --music directories (default: the Debian music packages
// pushover-data and tomatoes-data unpacked under /tmp/music, as made by
//   mkdir -p /tmp/music && cd /tmp/music && apt-get download pushover-data tomatoes-data && for d in *.deb; do dpkg -x $d x; done
// ), upstream's test.mp3 (10 s of real music, test/fixtures/fp-vectors/chromaprint), and three 70-second clips
// made here: espeak-ng speech over a sox-synthesised chord bed. Each clip is decoded once to s16le at its own rate
// and channel count (the "original"), capped at --max-seconds.
//
// Per clip and transformation, the transformed fingerprint is aligned against the original's (alignFingerprints):
// bit error rate (BER) and the fraction of exactly equal uint32 values at the best alignment, plus the same with
// each of a few bit masks; and the best alignment against every OTHER clip (the false-match side). Transformations:
// MP3 128k and 64k (libmp3lame), AAC 96k (ffmpeg aac), resampling to the other of 44.1/48 kHz, volume +6 dB
// (clipping) and -6 dB, a 10-second excerpt at a random (sample-exact) offset, that excerpt as MP3 64k.
// Also: CPU ms per minute of audio of the kernel (44.1 kHz stereo and 48 kHz stereo) and its memory.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { bundleForNode } from "./lib/node-bundle.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const work = join(tmpdir(), "audio-fingerprint-recall");
mkdirSync(work, { recursive: true });

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : dflt;
};
const musicDirs = args.flatMap((a, i) => (args[i - 1] === "--music" ? [a] : []));
if (musicDirs.length === 0) musicDirs.push("/tmp/music/x/usr/share/pushover/themes", "/tmp/music/x/usr/share/tomatoes/music");
const MAX_SECONDS = Number(opt("--max-seconds", "180"));
const SEED = Number(opt("--seed", "1"));
const JSON_OUT = opt("--json", null);

// The service's code, bundled for Node (see bench/lib/node-bundle.mjs), with the test suite's seeded generator.
const { Chromaprinter, alignFingerprints, prng } = await import(
  bundleForNode(
    "audio-fingerprint-entry",
    `export * from "./src/media/fingerprint/audio/index.ts"; export { prng } from "./test/support/prng.ts";`,
  )
);
const module = new WebAssembly.Module(readFileSync(join(root, "wasm", "build", "chromaprint.wasm")));
const printer = new Chromaprinter(module);

// ------------------------------------------------------------------------------------------------------------
// Helpers

const rand = prng(SEED);

const run = (cmd, argv, input) => execFileSync(cmd, argv, { maxBuffer: 1 << 30, input, stdio: ["pipe", "pipe", "pipe"] });

function probe(path) {
  const out = run("ffprobe", [
    "-v",
    "error",
    "-select_streams",
    "a:0",
    "-show_entries",
    "stream=sample_rate,channels",
    "-of",
    "csv=p=0",
    path,
  ]).toString();
  const [rate, channels] = out.trim().split(",").map(Number);
  return { rate, channels: Math.min(channels, 2) };
}

/** Decodes `path` to interleaved s16le at `rate`/`channels` (ffmpeg's defaults otherwise), at most `seconds`. */
function decode(path, rate, channels, seconds = MAX_SECONDS) {
  const argv = ["-v", "error", "-i", path, "-t", String(seconds), "-ac", String(channels), "-ar", String(rate), "-f", "s16le", "-"];
  const b = run("ffmpeg", argv);
  return new Int16Array(new Uint8Array(b).buffer, 0, b.length >> 1);
}

/** Writes PCM to a WAV via ffmpeg and returns its path. */
function wav(pcm, rate, channels, name) {
  const p = join(work, name);
  run(
    "ffmpeg",
    ["-v", "error", "-y", "-f", "s16le", "-ar", String(rate), "-ac", String(channels), "-i", "-", p],
    new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength),
  );
  return p;
}

function encodeDecode(srcWav, rate, channels, encArgs, ext) {
  const p = join(work, `tmp.${ext}`);
  run("ffmpeg", ["-v", "error", "-y", "-i", srcWav, ...encArgs, p]);
  return decode(p, rate, channels, MAX_SECONDS + 5);
}

function fingerprint(pcm, rate, channels) {
  const r = printer.fingerprint(pcm, rate, channels);
  if (r.status !== "computed") throw new Error(r.message);
  return r.raw;
}

const popcount = (x) => {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
};

// ------------------------------------------------------------------------------------------------------------
// Corpus

function findMusic(dir, out = []) {
  if (!existsSync(dir)) return out;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) findMusic(p, out);
    else if (/\.(ogg|flac|mp3|it|xm|mod|s3m|wav)$/i.test(e.name) && statSync(p).size > 100_000) out.push(p);
  }
  return out;
}

const SPEECH = [
  "The committee met on a grey Tuesday morning to review the harbour plans. After an hour of debate about the tides, the budget and the old lighthouse, they agreed to rebuild the northern pier first, then to widen the channel for the fishing fleet, and finally to restore the market hall that had stood empty for twenty years. Nobody expected the vote to be unanimous, yet every hand went up. ",
  "In the mountains the weather changes quickly. A clear sky at dawn can turn to hail by noon, and walkers who ignore the signs may find themselves far from shelter. Carry water, a map and a warm layer; tell someone where you are going; and turn back when the clouds gather on the western ridge, because the path down is steep and the rocks become slippery within minutes. ",
  "Bread is one of the oldest prepared foods. Flour, water, salt and yeast are mixed and kneaded until the dough is smooth and elastic, then left to rise in a warm place. After shaping, it rises again before baking in a hot oven until the crust is brown and the loaf sounds hollow when tapped. Good bread needs patience more than skill, and time more than effort. ",
];
const CHORDS = [
  ["C3", "E3", "G3"],
  ["A2", "C3", "E3"],
  ["F2", "A2", "C3"],
  ["G2", "B2", "D3"],
  ["D3", "F3", "A3"],
  ["E2", "G2", "B2"],
];

/** espeak-ng speech (about 70 s) over a sox chord bed, 44.1 kHz stereo. */
function speechClip(i) {
  const out = join(work, `speech${i}.wav`);
  if (existsSync(out)) return out;
  const speech = join(work, `speech${i}-voice.wav`);
  const voice = ["en-us", "en-gb", "en-us+f3"][i % 3];
  run("espeak-ng", ["-v", voice, "-s", String(150 + 10 * i), "-w", speech, SPEECH[i % SPEECH.length].repeat(3)]);
  const r = prng(100 + i);
  const segs = [];
  for (let s = 0; s < 60; s++) {
    const chord = CHORDS[Math.floor(r() * CHORDS.length)];
    const seg = join(work, `bed${i}-${s}.wav`);
    const len = (1 + Math.floor(r() * 3)) * 0.5;
    run("sox", [
      "-n",
      "-r",
      "22050",
      "-c",
      "1",
      seg,
      "synth",
      String(len),
      ...chord.flatMap((n) => ["pluck", n]),
      "fade",
      "0.01",
      String(len),
      "0.05",
    ]);
    segs.push(seg);
  }
  const bed = join(work, `bed${i}.wav`);
  run("sox", [...segs, bed]);
  const mixed = join(work, `mix${i}.wav`);
  run("sox", ["-m", "-v", "1.0", speech, "-v", "0.35", bed, mixed, "trim", "0", "70"]);
  run("sox", [mixed, "-r", "44100", "-c", "2", out]);
  return out;
}

const sources = [
  ...musicDirs.flatMap((d) => findMusic(d)),
  join(root, "test", "fixtures", "fp-vectors", "chromaprint", "test.mp3"),
  speechClip(0),
  speechClip(1),
  speechClip(2),
];
const musicCount = sources.length - 4;
if (musicCount === 0) console.error("warning: no music files found under", musicDirs.join(", "), "(see the header for how to get them)");

console.error(`decoding ${sources.length} clips...`);
const clips = sources.map((path, i) => {
  const { rate, channels } = probe(path);
  const pcm = decode(path, rate, channels);
  const src = wav(pcm, rate, channels, `orig${i}.wav`);
  const fp = fingerprint(pcm, rate, channels);
  return {
    name: path.split("/").pop(),
    kind: path.includes("speech") ? "speech+bed" : "music",
    rate,
    channels,
    pcm,
    src,
    fp,
    seconds: pcm.length / channels / rate,
  };
});

// ------------------------------------------------------------------------------------------------------------
// Measurements

/** Bit masks evaluated for exact-value indexing (the first classifier's 2 bits are the top bits). */
const MASKS = {
  all32: 0xffffffff,
  top16: 0xffff0000,
};

function stats(query, reference, alignment) {
  if (!alignment) return null;
  const { offset } = alignment;
  const perBit = new Float64Array(32);
  const equal = Object.fromEntries(Object.keys(MASKS).map((k) => [k, 0]));
  let n = 0;
  for (let i = Math.max(0, -offset); i < Math.min(query.length, reference.length - offset); i++) {
    const x = (query[i] ^ reference[i + offset]) >>> 0;
    for (let b = 0; b < 32; b++) perBit[b] += (x >>> b) & 1;
    for (const [k, m] of Object.entries(MASKS)) if ((x & m) >>> 0 === 0) equal[k]++;
    n++;
  }
  return {
    ...alignment,
    perBit: Array.from(perBit, (v) => v / n),
    equalFraction: Object.fromEntries(Object.entries(equal).map(([k, v]) => [k, v / n])),
  };
}

const trueRows = [];
const falseRows = [];
/** Excerpt queries: values found anywhere in a reference (as an exact-value index would find them). */
const hitRows = [];

function indexHits(query, reference, mask) {
  const set = new Set();
  for (const v of reference) set.add((v & mask) >>> 0);
  let n = 0;
  for (const v of query) if (set.has((v & mask) >>> 0)) n++;
  return n;
}

/** The excerpt's fingerprint at 4 sub-hop phases (dropping k/4 of a hop of input first); the phase with most equal values. */
function bestPhase(pcm, rate, channels, reference) {
  const hop = (1365 * rate) / 11025;
  let best = null;
  for (let k = 0; k < 4; k++) {
    const skip = Math.round((k * hop) / 4) * channels;
    const q = fingerprint(pcm.subarray(skip), rate, channels);
    const a = alignFingerprints(q, reference, { minOverlap: Math.min(q.length, 40) });
    if (a && (!best || a.equalFrames > best.a.equalFrames)) best = { q, a };
  }
  return best;
}

for (const [ci, clip] of clips.entries()) {
  const { rate, channels, pcm, src, fp } = clip;
  const other = rate === 48000 ? 44100 : 48000;
  const tx = [];
  tx.push(["mp3-128k", encodeDecode(src, rate, channels, ["-c:a", "libmp3lame", "-b:a", "128k"], "mp3")]);
  tx.push(["mp3-64k", encodeDecode(src, rate, channels, ["-c:a", "libmp3lame", "-b:a", "64k"], "mp3")]);
  tx.push(["aac-96k", encodeDecode(src, rate, channels, ["-c:a", "aac", "-b:a", "96k"], "m4a")]);
  const resampledPath = join(work, "resampled.wav");
  run("ffmpeg", ["-v", "error", "-y", "-i", src, "-ar", String(other), resampledPath]);
  tx.push([`resample-${other}`, decode(resampledPath, other, channels), other]);
  tx.push(["vol+6dB", encodeDecode(src, rate, channels, ["-af", "volume=6dB"], "wav")]);
  tx.push(["vol-6dB", encodeDecode(src, rate, channels, ["-af", "volume=-6dB"], "wav")]);
  const frames = pcm.length / channels;
  if (frames > rate * 12) {
    const start = Math.floor(rand() * (frames - rate * 10));
    const excerpt = pcm.slice(start * channels, (start + rate * 10) * channels);
    tx.push(["excerpt-10s", excerpt, rate, start / rate]);
    const exWav = wav(excerpt, rate, channels, "excerpt.wav");
    tx.push(["excerpt-10s-mp3-64k", encodeDecode(exWav, rate, channels, ["-c:a", "libmp3lame", "-b:a", "64k"], "mp3"), rate, start / rate]);
  }
  for (const [name, tpcm, trate = rate, startSec] of tx) {
    const q = fingerprint(tpcm, trate, channels);
    const isExcerpt = name.startsWith("excerpt");
    // Whole-clip copies: they start where the original starts (encoders add a few ms of delay: allow +-3 frames).
    const opts = isExcerpt
      ? { minOverlap: Math.min(q.length, 40) }
      : { minOverlap: Math.floor(q.length * 0.8), minOffset: -3, maxOffset: 3 };
    const a = stats(q, fp, alignFingerprints(q, fp, opts));
    const expectedOffset = isExcerpt ? Math.round((startSec * 11025) / 1365) : 0;
    trueRows.push({ clip: clip.name, kind: clip.kind, tx: name, frames: q.length, expectedOffset, ...a });
    if (isExcerpt) {
      const b = bestPhase(tpcm, trate, channels, fp);
      if (b)
        trueRows.push({
          clip: clip.name,
          kind: clip.kind,
          tx: `${name} (best of 4 phases)`,
          frames: b.q.length,
          expectedOffset,
          ...stats(b.q, fp, b.a),
        });
      // The index lookup with the phase-0 query, and with all 4 phases' values (a query looks each of them up).
      const phases = [0, 1, 2, 3].map((k) =>
        fingerprint(tpcm.subarray(Math.round((k * 1365 * trate) / 11025 / 4) * channels), trate, channels),
      );
      for (const [label, values] of [
        [name, q],
        [`${name} (4 phases)`, Uint32Array.from(new Set(phases.flatMap((p) => Array.from(p))))],
      ]) {
        for (const [mname, mask] of Object.entries(MASKS)) {
          const own = indexHits(values, fp, mask);
          const others = clips.filter((_, oi) => oi !== ci).map((o) => indexHits(values, o.fp, mask));
          hitRows.push({
            clip: clip.name,
            tx: label,
            mask: mname,
            frames: values.length,
            own,
            otherMax: Math.max(...others),
            otherMean: others.reduce((x, y) => x + y, 0) / others.length,
          });
        }
      }
    }
    // False-match side: the same query against every other clip's original, any offset, same minimum overlap.
    for (const [oi, o] of clips.entries()) {
      if (oi === ci) continue;
      const fopts = { minOverlap: isExcerpt ? Math.min(q.length, 40) : Math.min(q.length, o.fp.length, 200) };
      const f = stats(q, o.fp, alignFingerprints(q, o.fp, fopts));
      if (f) falseRows.push({ clip: clip.name, against: o.name, tx: name, ...f });
    }
  }
  console.error(`${clip.name}: done (${trueRows.length} true, ${falseRows.length} false pairs)`);
}

// ------------------------------------------------------------------------------------------------------------
// CPU and memory

function cpuPerMinute(rate, channels) {
  const r = prng(5);
  // A minute of the first music clip (or of noise) resampled to `rate`, `channels`.
  const base = clips[0];
  const pcm = decode(base.src, rate, channels, 60);
  const samples = pcm.length ? pcm : Int16Array.from({ length: rate * channels * 60 }, () => Math.floor((r() - 0.5) * 20000));
  const minutes = samples.length / channels / rate / 60;
  const times = [];
  for (let i = 0; i < 5; i++) {
    const t0 = process.cpuUsage();
    printer.start(rate, channels);
    for (let off = 0; off < samples.length; off += 8192) printer.write(samples.subarray(off, off + 8192));
    printer.finish();
    const d = process.cpuUsage(t0);
    times.push((d.user + d.system) / 1000 / minutes);
  }
  times.sort((a, b) => a - b);
  return times[2];
}
const cpu = { "44100x2": cpuPerMinute(44100, 2), "48000x2": cpuPerMinute(48000, 2), "11025x1": cpuPerMinute(11025, 1) };
const memoryBytes = printer.memoryBytes();

// ------------------------------------------------------------------------------------------------------------
// Report

const q = (xs, p) => {
  if (!xs.length) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * (s.length - 1) + 0.5))];
};
const pct = (v) => (Number.isNaN(v) ? "  n/a" : `${(100 * v).toFixed(1).padStart(5)}%`);

const txNames = [...new Set(trueRows.map((r) => r.tx))];
console.log(
  `\nAudio fingerprint recall: ${clips.length} clips (${musicCount} music files + test.mp3 + 3 speech-over-bed), ${clips.reduce((s, c) => s + c.seconds, 0).toFixed(0)} s, seed ${SEED}`,
);
console.log("\nTRUE pairs (transformed vs its original, best alignment): BER median / max; equal uint32 values median / min; offset found");
console.log("transformation                          n   BER med  BER max   eq32 med eq32 min  eq16hi med  offset ok");
for (const t of txNames) {
  const rows = trueRows.filter((r) => r.tx === t);
  const ber = rows.map((r) => r.bitErrorRate ?? 1);
  const eq = rows.map((r) => r.equalFraction?.all32 ?? 0);
  const eq16 = rows.map((r) => r.equalFraction?.top16 ?? 0);
  const ok = rows.filter((r) => r.offset !== undefined && Math.abs(r.offset - r.expectedOffset) <= 1).length;
  console.log(
    `${t.padEnd(38)} ${String(rows.length).padStart(3)}  ${pct(q(ber, 0.5))}  ${pct(Math.max(...ber))}   ${pct(q(eq, 0.5))}  ${pct(Math.min(...eq))}   ${pct(q(eq16, 0.5))}    ${ok}/${rows.length}`,
  );
}
console.log(
  "\nFALSE pairs (query vs every other clip's original, best alignment over all offsets): BER min / p1 / median; equal values max",
);
console.log("transformation           pairs  BER min   BER p1  BER med   eq32 max  eq16hi max");
for (const t of txNames) {
  const rows = falseRows.filter((r) => r.tx === t);
  if (rows.length === 0) continue; // the best-of-4-phases rows have no false side of their own
  const ber = rows.map((r) => r.bitErrorRate);
  const eq = rows.map((r) => r.equalFraction.all32);
  const eq16 = rows.map((r) => r.equalFraction.top16);
  console.log(
    `${t.padEnd(22)} ${String(rows.length).padStart(6)}  ${pct(Math.min(...ber))}  ${pct(q(ber, 0.01))}  ${pct(q(ber, 0.5))}   ${pct(Math.max(...eq))}    ${pct(Math.max(...eq16))}`,
  );
}
console.log(
  "\nEXACT-VALUE INDEX HITS of excerpt queries: query values found anywhere in the own reference vs the most in any unrelated clip",
);
console.log("transformation                      mask   values  own med  own min   other max  other mean");
for (const t of [...new Set(hitRows.map((r) => r.tx))]) {
  for (const m of Object.keys(MASKS)) {
    const rows = hitRows.filter((r) => r.tx === t && r.mask === m);
    const own = rows.map((r) => r.own);
    console.log(
      `${t.padEnd(34)}  ${m.padEnd(6)}  ${String(
        q(
          rows.map((r) => r.frames),
          0.5,
        ),
      ).padStart(
        6,
      )}  ${String(q(own, 0.5)).padStart(7)}  ${String(Math.min(...own)).padStart(7)}   ${String(Math.max(...rows.map((r) => r.otherMax))).padStart(9)}  ${(rows.reduce((x, r) => x + r.otherMean, 0) / rows.length).toFixed(2).padStart(10)}`,
    );
  }
}
// Which bits survive: per-bit error rate over all true pairs of the lossy transformations (bit 31 = first classifier's high bit).
const lossy = trueRows.filter((r) => r.perBit && !r.tx.startsWith("vol"));
const perBit = Array.from({ length: 32 }, (_, b) => lossy.reduce((s, r) => s + r.perBit[b], 0) / lossy.length);
console.log("\nper-bit error rate over lossy true pairs, bit 31 (classifier 0 high) .. bit 0 (classifier 15 low):");
console.log(
  perBit
    .map((v, b) => [b, v])
    .reverse()
    .map(([b, v]) => `${b}:${(100 * v).toFixed(1)}`)
    .join(" "),
);
console.log(
  `\nCPU per minute of audio (median of 5, ms): ${Object.entries(cpu)
    .map(([k, v]) => `${k} ${v.toFixed(0)}`)
    .join(", ")}`,
);
console.log(`kernel memory: ${(memoryBytes / 1024).toFixed(0)} KiB (after all runs; a wasm memory never shrinks)`);

if (JSON_OUT)
  writeFileSync(
    JSON_OUT,
    JSON.stringify(
      {
        clips: clips.map(({ name, kind, rate, channels, seconds }) => ({ name, kind, rate, channels, seconds })),
        trueRows,
        falseRows,
        hitRows,
        perBit,
        cpu,
        memoryBytes,
      },
      null,
      1,
    ),
  );
