// Audio for the audio watermark's bench: real-sounding clips (espeak-ng speech over a synthesised music bed, and
// free music from Debian packages when installed) and ffmpeg attacks. Everything goes through 16-bit PCM
// (Int16Array, interleaved) so it feeds the AudioWatermarker directly.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const work = mkdtempSync(join(tmpdir(), "svc-audio-"));
process.on("exit", () => rmSync(work, { recursive: true, force: true }));
let serial = 0;
const tmp = (ext) => join(work, `f${serial++}.${ext}`);

/** mulberry32, as test/support/prng.ts. */
export function prng(seed) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A WAV file (16-bit PCM) of interleaved samples. */
export function wavBytes(pcm, rate, channels) {
  const data = Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength);
  const h = Buffer.alloc(44);
  h.write("RIFF", 0);
  h.writeUInt32LE(36 + data.length, 4);
  h.write("WAVEfmt ", 8);
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20);
  h.writeUInt16LE(channels, 22);
  h.writeUInt32LE(rate, 24);
  h.writeUInt32LE(rate * channels * 2, 28);
  h.writeUInt16LE(channels * 2, 32);
  h.writeUInt16LE(16, 34);
  h.write("data", 36);
  h.writeUInt32LE(data.length, 40);
  return Buffer.concat([h, data]);
}

/** Decodes any file ffmpeg reads to interleaved s16 at `rate` / `channels` (optionally a [start, start + duration) window). */
export function decodeFile(file, { rate, channels, start, duration, filter } = {}) {
  const args = ["-v", "error", "-nostdin"];
  if (start !== undefined) args.push("-ss", String(start));
  if (duration !== undefined) args.push("-t", String(duration));
  args.push("-i", file);
  if (filter) args.push("-af", filter);
  if (rate) args.push("-ar", String(rate));
  if (channels) args.push("-ac", String(channels));
  args.push("-f", "s16le", "-acodec", "pcm_s16le", "pipe:1");
  const out = execFileSync("ffmpeg", args, { maxBuffer: 1 << 30 });
  return new Int16Array(out.buffer, out.byteOffset, out.byteLength >> 1).slice();
}

/**
 * An ffmpeg round trip: the PCM written as WAV, encoded with `encode` args into `ext`, decoded back to s16 at
 * `outRate` (default: the input's) with the input's channel count. Returns { pcm, rate }.
 */
export function ffmpegRoundTrip(pcm, rate, channels, { ext = "wav", encode = [], outRate = rate, filter } = {}) {
  const src = tmp("wav");
  writeFileSync(src, wavBytes(pcm, rate, channels));
  const enc = tmp(ext);
  execFileSync("ffmpeg", ["-v", "error", "-nostdin", "-y", "-i", src, ...encode, enc]);
  const back = decodeFile(enc, { rate: outRate, channels, filter });
  return { pcm: back, rate: outRate };
}

export const ATTACKS = {
  "mp3-128k": (pcm, rate, ch) => ffmpegRoundTrip(pcm, rate, ch, { ext: "mp3", encode: ["-c:a", "libmp3lame", "-b:a", "128k"] }),
  "mp3-64k": (pcm, rate, ch) => ffmpegRoundTrip(pcm, rate, ch, { ext: "mp3", encode: ["-c:a", "libmp3lame", "-b:a", "64k"] }),
  "aac-96k": (pcm, rate, ch) => ffmpegRoundTrip(pcm, rate, ch, { ext: "m4a", encode: ["-c:a", "aac", "-b:a", "96k"] }),
  "resample-48k": (pcm, rate, ch) => ffmpegRoundTrip(pcm, rate, ch, { outRate: 48000 }),
  "volume+6dB": (pcm, rate) => ({ pcm: gain(pcm, 2), rate }),
  "volume-6dB": (pcm, rate) => ({ pcm: gain(pcm, 0.5), rate }),
};

/** Scales samples by `g`, saturating (a +6 dB gain clips loud audio, as it would anywhere). */
export function gain(pcm, g) {
  const out = new Int16Array(pcm.length);
  for (let i = 0; i < pcm.length; i++) out[i] = Math.max(-32768, Math.min(32767, Math.round(pcm[i] * g)));
  return out;
}

/** Frames [start, start + seconds) of interleaved PCM. */
export function excerpt(pcm, rate, channels, startSeconds, seconds) {
  const a = Math.round(startSeconds * rate) * channels;
  return pcm.slice(a, a + Math.round(seconds * rate) * channels);
}

const NOTES = [0, 2, 4, 5, 7, 9, 11];

/**
 * A music-like bed in code (deterministic from `seed`): a chord progression of harmonic voices with attack/decay
 * envelopes and vibrato, a bass line, and noise-burst drums (kick, snare, hat) at a seeded tempo, in stereo with
 * voices panned. Float32 per channel, roughly in [-0.5, 0.5].
 */
export function synthMusic(seed, seconds, rate, channels = 2) {
  const rnd = prng(seed);
  const n = Math.round(seconds * rate);
  const out = Array.from({ length: channels }, () => new Float32Array(n));
  const bpm = 70 + Math.floor(rnd() * 90);
  const beat = (60 / bpm) * rate;
  const root = 45 + Math.floor(rnd() * 12); // MIDI note of the key's root
  const freq = (m) => 440 * 2 ** ((m - 69) / 12);
  const harmonics = 3 + Math.floor(rnd() * 6);
  const bright = 0.4 + rnd() * 0.5;
  const add = (ch, i, v) => {
    if (i >= 0 && i < n) out[ch][i] += v;
  };
  for (let b = 0, t = 0; t < n; b++, t = Math.round(b * beat)) {
    // chord every 4 beats: scale degrees I, IV, V, vi in a seeded order
    const degree = [0, 3, 4, 5][Math.floor(rnd() * 4)];
    const chord = [0, 2, 4].map((s) => root + 12 + NOTES[(degree + s) % 7] + 12 * Math.floor((degree + s) / 7));
    // melody note, bass, drums
    const voices = [
      { m: chord[Math.floor(rnd() * 3)] + 12, amp: 0.12, dur: beat * (rnd() < 0.3 ? 0.5 : 1), pan: rnd() },
      { m: root + NOTES[degree] - 12, amp: 0.16, dur: beat, pan: 0.5 },
    ];
    if (b % 4 === 0) for (const m of chord) voices.push({ m, amp: 0.06, dur: beat * 4, pan: rnd() });
    for (const v of voices) {
      const f = freq(v.m);
      const len = Math.min(Math.round(v.dur * 1.2), n - t);
      const vib = 4 + rnd() * 2;
      for (let i = 0; i < len; i++) {
        const tt = i / rate;
        const env = Math.min(1, tt * 80) * Math.exp(-tt * (2 + 3 * rnd() * 0)) * (1 - i / len);
        const ph = 2 * Math.PI * f * tt + (0.003 * f * Math.sin(2 * Math.PI * vib * tt)) / vib;
        let s = 0;
        for (let h = 1; h <= harmonics; h++) s += (bright ** (h - 1) / h) * Math.sin(h * ph);
        const x = v.amp * env * s;
        for (let c = 0; c < channels; c++) add(c, t + i, x * (channels === 1 ? 1 : c === 0 ? 1 - v.pan : v.pan) * 1.4);
      }
    }
    // drums: kick on 1 and 3, snare on 2 and 4, hats every half beat
    const drum = (at, len, amp, tone, noise, decay) => {
      for (let i = 0; i < len; i++) {
        const tt = i / rate;
        const env = Math.exp(-tt * decay);
        const x = amp * env * (tone ? Math.sin(2 * Math.PI * tone * tt * (1 + 2 * env)) : 0) + noise * env * (rnd() * 2 - 1);
        for (let c = 0; c < channels; c++) add(c, at + i, x);
      }
    };
    if (b % 2 === 0) drum(t, Math.round(0.25 * rate), 0.3, 55, 0.02, 18);
    else drum(t, Math.round(0.2 * rate), 0.08, 180, 0.12, 25);
    drum(t + Math.round(beat / 2), Math.round(0.05 * rate), 0, 0, 0.04, 90);
  }
  return out;
}

const VOICES = ["en", "en-us", "en-gb-x-rp", "de", "fr", "es", "it", "nl", "pt", "sv"];

/** espeak-ng speech (seeded text, voice, speed, pitch) resampled to `rate`, mono float. */
export function speech(seed, seconds, rate) {
  const rnd = prng(seed * 7 + 1);
  const words = "provenance signal music river window morning garden story number letter silver market paper travel".split(" ");
  const text = Array.from({ length: Math.ceil(seconds * 3) }, () => words[Math.floor(rnd() * words.length)]).join(" ");
  const wav = tmp("wav");
  const voice = VOICES[seed % VOICES.length];
  execFileSync("espeak-ng", [
    "-v",
    voice,
    "-s",
    String(130 + Math.floor(rnd() * 60)),
    "-p",
    String(30 + Math.floor(rnd() * 40)),
    "-w",
    wav,
    text,
  ]);
  const pcm = decodeFile(wav, { rate, channels: 1 });
  const out = new Float32Array(Math.round(seconds * rate));
  for (let i = 0; i < out.length && i < pcm.length; i++) out[i] = pcm[i] / 32768;
  return out;
}

/** A speech-over-music clip: interleaved s16, peak normalised to -1 dBFS. */
export function speechMusicClip(seed, seconds, rate = 44100, channels = 2) {
  const bed = synthMusic(seed, seconds, rate, channels);
  const voice = speech(seed, seconds, rate);
  const rnd = prng(seed + 99);
  const vGain = 0.5 + rnd() * 0.8;
  const bGain = 0.3 + rnd() * 0.8;
  return normalise(bed, (c, i) => bGain * bed[c][i] + vGain * voice[i], channels, 10 ** (-1 / 20));
}

function normalise(bed, sample, channels, peakTarget) {
  const n = bed[0].length;
  const mix = new Float32Array(n * channels);
  let peak = 1e-9;
  for (let i = 0; i < n; i++)
    for (let c = 0; c < channels; c++) {
      const v = sample(c, i);
      mix[i * channels + c] = v;
      peak = Math.max(peak, Math.abs(v));
    }
  const g = (peakTarget * 32767) / peak;
  const pcm = new Int16Array(mix.length);
  for (let i = 0; i < mix.length; i++) pcm[i] = Math.round(mix[i] * g);
  return pcm;
}

/** Free music from Debian packages, if installed (fretsonfire-songs-*, asc-music): file paths. */
export function debianMusic() {
  const roots = ["/usr/share/games/fretsonfire/data/songs", "/usr/share/games/asc/music", "/usr/share/asc/music"];
  const files = [];
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(ogg|mp3|flac|wav)$/i.test(e.name) && !/guitar|rhythm|drums/i.test(e.name)) files.push(p);
    }
  };
  for (const r of roots) if (existsSync(r)) walk(r);
  return files.sort();
}

export { readFileSync };
