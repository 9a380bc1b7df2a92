/**
 * Audio and video are priced (and held to the pricing envelope's 4 h) by the inspected `duration_seconds`, so it may
 * never be less than what the file actually plays. FLAC states its length in STREAMINFO (total samples), a field a
 * customer can patch smaller without any decoder minding: `flac -t` passes and ffprobe shows the smaller figure. Both
 * upload paths (the in-memory inspector, and the streamed inspection of large uploads) now report the later of that
 * total and the last frame's end (its header's first sample plus its block size), and still accept the file. Real
 * encoder output (flac CLI, ffmpeg), patched here.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { flacTagHead } from "../../../src/media/c2pa/flac";
import { ByteSniffingInspector } from "../../../src/media/inspect";
import type { InspectionResult } from "../../../src/media/types";
import { inspectStreamed } from "../../../src/uploads/large-inspection";
import { installDigestStream, streamOf } from "./stream-support";

const FIXTURES = join(import.meta.dirname, "..", "..", "fixtures", "audio", "flac-frames");
const dir = mkdtempSync(join(tmpdir(), "duration-honesty-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(() => installDigestStream());

/** A 3.1 s 44.1 kHz stereo tone encoded by `flac` (fixed block size 4096): 136,710 samples. */
function flacCli(extra: string[] = []): Uint8Array {
  const wav = join(dir, "tone.wav");
  const out = join(dir, `tone${extra.join("")}.flac`);
  execFileSync("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=3.1:sample_rate=44100", "-ac", "2", wav]);
  execFileSync("flac", ["-s", "-f", ...extra, "-o", out, wav]);
  return new Uint8Array(readFileSync(out));
}

/** Where STREAMINFO's body starts (after `fLaC` and the block header, past any ID3v2 tag). */
function streamInfoAt(b: Uint8Array): number {
  for (let i = 0; i + 4 <= b.length; i++) if (b[i] === 0x66 && b[i + 1] === 0x4c && b[i + 2] === 0x61 && b[i + 3] === 0x43) return i + 8;
  throw new Error("no fLaC");
}

function totalSamples(b: Uint8Array): number {
  const si = streamInfoAt(b);
  return (b[si + 13]! & 15) * 2 ** 32 + new DataView(b.buffer, b.byteOffset).getUint32(si + 14);
}

/** A copy whose STREAMINFO states `total` samples (the 36-bit field; nothing else changes, no checksum covers it). */
function patchTotal(b: Uint8Array, total: number): Uint8Array {
  const out = b.slice();
  const si = streamInfoAt(out);
  out[si + 13] = (out[si + 13]! & 0xf0) | Math.floor(total / 2 ** 32);
  new DataView(out.buffer).setUint32(si + 14, total % 2 ** 32);
  return out;
}

/** Whether the reference decoder accepts the file (`flac -t`: frames, CRCs, and the MD5 of the decoded audio). */
function flacTestPasses(b: Uint8Array): boolean {
  const path = join(dir, "check.flac");
  writeFileSync(path, b);
  try {
    execFileSync("flac", ["-t", "-s", path], { stdio: "pipe" });
    return true;
  } catch {
    return false;
  }
}

function ffprobeSeconds(b: Uint8Array): number {
  const path = join(dir, "probe.flac");
  writeFileSync(path, b);
  return Number(execFileSync("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", path]).toString().trim());
}

/** Small chunks, so every box and frame header crosses chunk boundaries somewhere. */
const chunked = (bytes: Uint8Array, size = 4096) => streamOf(bytes, size);

/** Both upload paths' results for `bytes` declared as audio/flac. */
async function bothPaths(bytes: Uint8Array): Promise<{ memory: InspectionResult; streamed: InspectionResult }> {
  const memory = new ByteSniffingInspector().inspect(bytes, "audio/flac");
  const { inspection: streamed } = await inspectStreamed(chunked(bytes), bytes.length, "audio/flac", "audio");
  return { memory, streamed };
}

function durationOf(result: InspectionResult): number | null {
  expect(result.status, JSON.stringify(result)).toBe("ok");
  return result.status === "ok" ? result.facts.duration_seconds : null;
}

describe("FLAC: a STREAMINFO total patched smaller than the frames carry", () => {
  it("flac CLI, fixed block size: 3.1 s patched to claim 1.0 s is inspected (and so billed) as 3.1 s on both paths", async () => {
    const honest = flacCli();
    expect(totalSamples(honest)).toBe(136710);
    const patched = patchTotal(honest, 44100);
    // The patch is a valid file to the reference decoder, and ffprobe believes it: nothing but the frames tells.
    expect(flacTestPasses(patched)).toBe(true);
    expect(ffprobeSeconds(patched)).toBeCloseTo(1.0, 3);
    for (const bytes of [honest, patched]) {
      const { memory, streamed } = await bothPaths(bytes);
      expect(durationOf(memory)).toBe(3.1);
      expect(durationOf(streamed)).toBe(3.1);
      expect(streamed).toEqual(memory);
    }
  });

  it("a total patched to any figure below the frames' reach, with a C2PA tag before fLaC and an ID3v1 tag after the frames", async () => {
    const honest = flacCli();
    const store = new Uint8Array(64).fill(7);
    const id3v1 = new Uint8Array(128);
    id3v1.set([0x54, 0x41, 0x47]); // "TAG"
    for (const total of [1, 4096, 136709]) {
      const flac = patchTotal(honest, total);
      const bytes = new Uint8Array([...flacTagHead(store.length), ...store, ...flac, ...id3v1]);
      const { memory, streamed } = await bothPaths(bytes);
      expect(durationOf(memory), `total ${total}`).toBe(3.1);
      expect(durationOf(streamed), `total ${total}`).toBe(3.1);
    }
  });

  it("variable block size (sample-numbered frames, flac CLI output): the last frame's sample number decides", async () => {
    const honest = new Uint8Array(readFileSync(join(FIXTURES, "variable.flac")));
    const total = totalSamples(honest);
    const rate = 44100;
    expect(total).toBe(101430);
    const patched = patchTotal(honest, 1000);
    expect(flacTestPasses(patched)).toBe(true);
    const { memory, streamed } = await bothPaths(patched);
    const expected = Math.round((total / rate) * 1000) / 1000;
    expect(new ByteSniffingInspector().inspect(honest, "audio/flac")).toMatchObject({
      facts: { sample_rate: rate, duration_seconds: expected },
    });
    expect(durationOf(memory)).toBe(expected);
    expect(durationOf(streamed)).toBe(expected);
  });

  it("a total of 0 (unknown, as ffmpeg writes when it cannot seek back): the frames' reach is reported, not null", async () => {
    const unknown = new Uint8Array(readFileSync(join(FIXTURES, "unknown-total.flac")));
    expect(totalSamples(unknown)).toBe(0);
    // The same stream with its total stated: what the frames carry.
    const wav = join(dir, "unknown.wav");
    execFileSync("ffmpeg", ["-v", "error", "-y", "-i", join(FIXTURES, "unknown-total.flac"), wav]);
    const samples = Number(
      execFileSync("ffprobe", ["-v", "error", "-count_packets", "-show_entries", "stream=duration_ts", "-of", "csv=p=0", wav])
        .toString()
        .trim(),
    );
    const rate = new ByteSniffingInspector().inspect(unknown, "audio/flac");
    expect(rate.status).toBe("ok");
    const sampleRate = rate.status === "ok" ? rate.facts.sample_rate! : 0;
    const { memory, streamed } = await bothPaths(unknown);
    expect(durationOf(memory)).toBe(Math.round((samples / sampleRate) * 1000) / 1000);
    expect(durationOf(streamed)).toBe(durationOf(memory));
  });

  it("a last frame holding more false syncs than the scanner keeps: the chain of whole frames still counts every sample", () => {
    // 33 frames of 4096 mono samples, the last holding -8 (bytes FF F8, a frame sync) at every other sample, stored
    // verbatim: 2048 false syncs in the last frame push its real start out of the 1024 candidates kept, so only the
    // chain of whole frames followed from the first (FlacFrames.carriedSamples) tells how far the audio reaches.
    const n = 33 * 4096;
    const wav = new Uint8Array(44 + n * 2);
    const view = new DataView(wav.buffer);
    wav.set(new TextEncoder().encode("RIFF\0\0\0\0WAVEfmt "), 0);
    view.setUint32(4, 36 + n * 2, true);
    [16, 1, 1, 44100, 88200, 2, 16].forEach((v, i) =>
      (i === 0 || i === 3 || i === 4 ? view.setUint32 : view.setUint16).call(view, [16, 20, 22, 24, 28, 32, 34][i]!, v, true),
    );
    wav.set(new TextEncoder().encode("data"), 36);
    view.setUint32(40, n * 2, true);
    let seed = 7;
    for (let i = 0; i < n; i++) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      view.setInt16(44 + i * 2, i >= n - 4096 && i % 2 === 0 ? -8 : (seed >>> 16) - 32768, true);
    }
    const wavPath = join(dir, "syncs.wav");
    const flacPath = join(dir, "syncs.flac");
    writeFileSync(wavPath, wav);
    execFileSync("flac", [
      "-s",
      "-f",
      "-b",
      "4096",
      "-l",
      "0",
      "--disable-fixed-subframes",
      "--disable-constant-subframes",
      "-o",
      flacPath,
      wavPath,
    ]);
    const honest = new Uint8Array(readFileSync(flacPath));
    expect(totalSamples(honest)).toBe(n);
    let syncs = 0;
    for (let i = honest.length - 8192; i + 1 < honest.length; i++) if (honest[i] === 0xff && (honest[i + 1]! & 0xfe) === 0xf8) syncs++;
    expect(syncs).toBeGreaterThan(2000);
    const patched = patchTotal(honest, 44100);
    expect(flacTestPasses(patched)).toBe(true);
    expect(durationOf(new ByteSniffingInspector().inspect(patched, "audio/flac"))).toBe(Math.round((n / 44100) * 1000) / 1000);
  });

  it("a total stating more than the frames carry is unchanged: in memory the stated figure, streamed the existing refusal", async () => {
    const honest = flacCli();
    const over = patchTotal(honest, 136710 + 44100);
    const { memory, streamed } = await bothPaths(over);
    expect(durationOf(memory)).toBe(4.1);
    expect(streamed).toMatchObject({ status: "corrupt", message: expect.stringContaining("STREAMINFO overstates the length") });
  });
});

/** An ffmpeg MP4 (H.264 25 fps + AAC 44.1 kHz, 3.1 s; or the AAC alone as an M4A) written to `dir`. */
function mp4(audioOnly = false): Uint8Array {
  const out = join(dir, audioOnly ? "tone.m4a" : "clip.mp4");
  const video = ["-f", "lavfi", "-i", "testsrc=duration=3.1:size=160x120:rate=25"];
  const audio = ["-f", "lavfi", "-i", "sine=frequency=440:duration=3.1:sample_rate=44100"];
  const codecs = audioOnly ? ["-c:a", "aac"] : ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest"];
  execFileSync("ffmpeg", ["-v", "error", "-y", ...(audioOnly ? [] : video), ...audio, ...codecs, out]);
  return new Uint8Array(readFileSync(out));
}

/** Every `type` box's offset (a plain byte search: the boxes patched here sit where no sample data is). */
function boxesOf(b: Uint8Array, type: string): number[] {
  const found: number[] = [];
  const code = [...type].map((c) => c.charCodeAt(0));
  for (let i = 4; i + 4 <= b.length; i++) if (code.every((c, k) => b[i + k] === c)) found.push(i - 4);
  return found;
}

/** A copy whose `mvhd` (and, with `tracks`, every `mdhd`) states `seconds` (version-0 boxes, as ffmpeg writes them). */
function patchStated(b: Uint8Array, seconds: number, tracks: boolean): Uint8Array {
  const out = b.slice();
  const view = new DataView(out.buffer);
  for (const type of tracks ? ["mvhd", "mdhd"] : ["mvhd"]) {
    for (const at of boxesOf(out, type)) {
      expect(out[at + 8], `${type} version`).toBe(0);
      view.setUint32(at + 24, Math.round(seconds * view.getUint32(at + 20)));
    }
  }
  return out;
}

function ffprobeFormatSeconds(b: Uint8Array, name: string): number {
  const path = join(dir, name);
  writeFileSync(path, b);
  return Number(execFileSync("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", path]).toString().trim());
}

describe("MP4: a movie whose mvhd/mdhd state less than its tracks' samples play", () => {
  async function bothBmff(bytes: Uint8Array, type: string, chunk: number) {
    const memory = new ByteSniffingInspector().inspect(bytes, type);
    const { inspection: streamed } = await inspectStreamed(
      chunked(bytes, chunk),
      bytes.length,
      type,
      type.startsWith("video") ? "video" : "audio",
    );
    return { memory, streamed };
  }

  it("ffmpeg H.264 + AAC, 3.12 s (its edit lists cut the AAC priming): mvhd, then every mdhd too, patched to 1 s", async () => {
    const honest = mp4();
    for (const patched of [honest, patchStated(honest, 1, false), patchStated(honest, 1, true)]) {
      if (patched !== honest) expect(ffprobeFormatSeconds(patched, "patched.mp4")).toBeCloseTo(1, 2);
      for (const chunk of [3, 4096]) {
        const { memory, streamed } = await bothBmff(patched, "video/mp4", chunk);
        // 3.12: the video's 78 frames of 40 ms; the audio's samples run 3.123 s, but its edit list presents 3.1 s.
        expect(durationOf(memory), `chunks of ${chunk}`).toBe(3.12);
        expect(durationOf(streamed), `chunks of ${chunk}`).toBe(3.12);
      }
    }
  });

  it("an ffmpeg M4A (AAC only) with mvhd and mdhd patched to 0.5 s still reports 3.1 s", async () => {
    const patched = patchStated(mp4(true), 0.5, true);
    expect(ffprobeFormatSeconds(patched, "patched.m4a")).toBeCloseTo(0.5, 2);
    const { memory, streamed } = await bothBmff(patched, "audio/mp4", 4096);
    expect(durationOf(memory)).toBe(3.1);
    expect(durationOf(streamed)).toBe(3.1);
  });

  it("a stated duration longer than the tracks is still reported (the rule is a floor, not a rewrite)", async () => {
    const longer = patchStated(mp4(), 10, false);
    const { memory, streamed } = await bothBmff(longer, "video/mp4", 4096);
    expect(durationOf(memory)).toBe(10);
    expect(durationOf(streamed)).toBe(10);
  });
});

describe("AVI: a stream header stating fewer frames than `movi` carries", () => {
  it("ffmpeg MJPEG + PCM, 78 frames at 25 fps: strh and avih patched to 25 frames still report 3.12 s", () => {
    const path = join(dir, "clip.avi");
    execFileSync("ffmpeg", [
      ...["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=duration=3.1:size=160x120:rate=25"],
      ...["-f", "lavfi", "-i", "sine=duration=3.1", "-c:v", "mjpeg", "-c:a", "pcm_s16le", "-shortest", path],
    ]);
    const honest = new Uint8Array(readFileSync(path));
    const patched = honest.slice();
    const view = new DataView(patched.buffer);
    const avih = boxesOf(patched, "avih")[0]! + 4; // the chunk id's offset (boxesOf looks for a box's type)
    const strh = boxesOf(patched, "strh")[0]! + 4;
    expect(view.getUint32(strh + 8 + 32, true)).toBe(78);
    view.setUint32(avih + 8 + 16, 25, true); // dwTotalFrames
    view.setUint32(strh + 8 + 32, 25, true); // the video stream's dwLength
    expect(ffprobeFormatSeconds(patched, "patched.avi")).toBeCloseTo(1, 2);
    for (const bytes of [honest, patched]) {
      expect(durationOf(new ByteSniffingInspector().inspect(bytes, "video/x-msvideo"))).toBe(3.12);
    }
  });
});

describe("MP3 and ADTS: bytes that are no frame inside the stream", () => {
  /** `bytes` with `junk` inserted at `at`. */
  const insert = (bytes: Uint8Array, at: number, junk: Uint8Array) =>
    new Uint8Array([...bytes.subarray(0, at), ...junk, ...bytes.subarray(at)]);

  /** The seconds ffmpeg decodes (mono 44.1 kHz s16): what plays, past any junk. */
  function decodedSeconds(bytes: Uint8Array, name: string): number {
    const path = join(dir, name);
    writeFileSync(path, bytes);
    const pcm = execFileSync("ffmpeg", ["-v", "quiet", "-i", path, "-f", "s16le", "-ac", "1", "-ar", "44100", "-"], { maxBuffer: 1 << 26 });
    return pcm.length / 2 / 44100;
  }

  it.each([
    ["audio/mpeg", "libmp3lame", "mp3"],
    ["audio/aac", "aac", "aac"],
  ])("%s (ffmpeg %s, 3.1 s): 4 junk bytes after the first frames do not end the count at 0.1 s", (type, codec, ext) => {
    const path = join(dir, `tone.${ext}`);
    execFileSync("ffmpeg", [
      "-v",
      "error",
      "-y",
      "-f",
      "lavfi",
      "-i",
      "sine=frequency=440:duration=3.1:sample_rate=44100",
      "-c:a",
      codec,
      path,
    ]);
    const honest = new Uint8Array(readFileSync(path));
    const whole = durationOf(new ByteSniffingInspector().inspect(honest, type))!;
    expect(whole).toBeGreaterThan(3);
    // After the 4th frame sync past the first (a frame boundary: a frame starts there).
    let at = 0;
    for (let syncs = 0; syncs < 5; at++) if (honest[at] === 0xff && (honest[at + 1]! & 0xf0) === 0xf0) syncs++;
    const junked = insert(honest, at - 1, new TextEncoder().encode("JUNK"));
    expect(decodedSeconds(junked, `junked.${ext}`)).toBeGreaterThan(3);
    const seconds = durationOf(new ByteSniffingInspector().inspect(junked, type))!;
    expect(seconds).toBeGreaterThanOrEqual(whole - 0.05);
    expect(seconds).toBeLessThanOrEqual(whole);
  });
});
