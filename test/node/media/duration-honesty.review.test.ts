/**
 * Hostile review of the duration floors (h42-duration): valid files whose duration the two upload paths (in-memory
 * inspector, streamed inspection of large uploads) must report alike, and as players do. Real encoder output
 * (flac CLI, ffmpeg), compared with ffprobe where it tells.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ByteSniffingInspector } from "../../../src/media/inspect";
import type { InspectionResult } from "../../../src/media/types";
import { inspectStreamed } from "../../../src/uploads/large-inspection";
import { installDigestStream, streamOf } from "./stream-support";

const dir = mkdtempSync(join(tmpdir(), "duration-review-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(() => installDigestStream());

/** Small chunks, so every box and frame header crosses chunk boundaries somewhere. */
const chunked = (bytes: Uint8Array, size = 4096) => streamOf(bytes, size);

async function bothPaths(bytes: Uint8Array, type: string): Promise<{ memory: InspectionResult; streamed: InspectionResult }> {
  const memory = new ByteSniffingInspector().inspect(bytes, type);
  const kind = type.startsWith("video") ? "video" : "audio";
  const { inspection: streamed } = await inspectStreamed(chunked(bytes), bytes.length, type, kind);
  return { memory, streamed };
}

function durationOf(result: InspectionResult): number | null {
  expect(result.status, JSON.stringify(result)).toBe("ok");
  return result.status === "ok" ? result.facts.duration_seconds : null;
}

function ffprobeSeconds(b: Uint8Array, name: string): number {
  const path = join(dir, name);
  writeFileSync(path, b);
  return Number(execFileSync("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", path]).toString().trim());
}

/** A mono 44.1 kHz 16-bit WAV of `n` samples: noise, the last `syncTail` samples alternating -8 (bytes F8 FF). */
function wavWithSyncs(n: number, syncTail: number): Uint8Array {
  const wav = new Uint8Array(44 + n * 2);
  const view = new DataView(wav.buffer);
  wav.set(new TextEncoder().encode("RIFF\0\0\0\0WAVEfmt "), 0);
  view.setUint32(4, 36 + n * 2, true);
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, 44100, true);
  view.setUint32(28, 88200, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  wav.set(new TextEncoder().encode("data"), 36);
  view.setUint32(40, n * 2, true);
  let seed = 7;
  for (let i = 0; i < n; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    view.setInt16(44 + i * 2, i >= n - syncTail && i % 2 === 0 ? -8 : (seed >>> 16) - 32768, true);
  }
  return wav;
}

describe("FLAC: a valid file whose last frame holds more false syncs than the scanner keeps", () => {
  it("the streamed path accepts it and reports what the in-memory path and ffprobe report", async () => {
    // 33 frames of 4096 samples stored verbatim, the last holding 2048 byte pairs FF F8 (a frame sync): the last
    // frame's real start falls out of the 1024 candidates kept, but the chain of whole frames closes at the end.
    const n = 33 * 4096;
    writeFileSync(join(dir, "syncs.wav"), wavWithSyncs(n, 4096));
    const flags = ["-b", "4096", "-l", "0", "--disable-fixed-subframes", "--disable-constant-subframes"];
    execFileSync("flac", ["-s", "-f", ...flags, "-o", join(dir, "syncs.flac"), join(dir, "syncs.wav")]);
    const honest = new Uint8Array(readFileSync(join(dir, "syncs.flac")));
    execFileSync("flac", ["-t", "-s", join(dir, "syncs.flac")]);
    const expected = Math.round((n / 44100) * 1000) / 1000;
    expect(ffprobeSeconds(honest, "probe.flac")).toBeCloseTo(expected, 2);
    const { memory, streamed } = await bothPaths(honest, "audio/flac");
    expect(durationOf(memory)).toBe(expected);
    expect(durationOf(streamed)).toBe(expected);
  });
});

describe("FLAC: the frame chain's cost on a frame full of valid-looking headers", () => {
  it("20 MB of repeated valid frame headers (no frame closes) is inspected in linear time on both paths", async () => {
    // STREAMINFO (4096-sample blocks, 44.1 kHz mono 16-bit) then a 6-byte frame header (valid CRC-8) repeated: every
    // candidate has a valid header, so the chain tests its CRC-16 against each. That test once exponentiated over the
    // whole distance from the chain's frame (~1.7 s per 10 MB, 40x a real FLAC); now a few table steps per candidate.
    const crc8 = (d: number[]) =>
      d.reduce((c, x) => {
        let r = c ^ x;
        for (let k = 0; k < 8; k++) r = r & 0x80 ? ((r << 1) ^ 7) & 0xff : (r << 1) & 0xff;
        return r;
      }, 0);
    const head = [0xff, 0xf8, 0xc9, 0x08, 0x00];
    head.push(crc8(head));
    const si = new Uint8Array(34);
    si.set([0x10, 0x00, 0x10, 0x00], 0);
    // 44100 Hz (20 bits), 1 channel, 16 bits, 1000 samples stated.
    const v = (44100n << 44n) | (15n << 36n) | 1000n;
    new DataView(si.buffer).setBigUint64(10, v);
    const file = (size: number) => {
      const bytes = new Uint8Array(8 + 34 + size - (size % 6));
      bytes.set([0x66, 0x4c, 0x61, 0x43, 0x80, 0, 0, 34], 0);
      bytes.set(si, 8);
      for (let at = 42; at + 6 <= bytes.length; at += 6) bytes.set(head, at);
      return bytes;
    };
    const timed = async (bytes: Uint8Array) => {
      const started = performance.now();
      const result = await bothPaths(bytes, "audio/flac");
      return { result, ms: performance.now() - started };
    };
    // Linear, judged by a ratio measured in the same run (a wall-clock bound failed under load): 8× the bytes may take
    // about 8× the time; the quadratic chain took 64× (~7 s for 20 MB). The best of two runs each damps the noise.
    const small = file(2.5 * 1024 * 1024);
    const big = file(20 * 1024 * 1024);
    const smallMs = Math.min((await timed(small)).ms, (await timed(small)).ms);
    const first = await timed(big);
    const bigMs = Math.min(first.ms, (await timed(big)).ms);
    expect(bigMs, `20 MB ${bigMs.toFixed(0)} ms vs 2.5 MB ${smallMs.toFixed(0)} ms`).toBeLessThan(Math.max(24 * smallMs, 1500));
    const { memory, streamed } = first.result;
    expect(memory.status).toBe("ok");
    expect(streamed).toMatchObject({ status: "corrupt", message: expect.stringContaining("does not end with a whole audio frame") });
  });
});

describe("MP4: the streamed timing reads the boxes the in-memory inspector reads", () => {
  /** The offset and size of the first `type` child box in [start, end). */
  function childBox(b: Uint8Array, start: number, end: number, type: string): { at: number; size: number } {
    const view = new DataView(b.buffer, b.byteOffset);
    for (let at = start; at + 8 <= end; ) {
      const size = view.getUint32(at);
      if (String.fromCharCode(...b.subarray(at + 4, at + 8)) === type) return { at, size };
      at += size;
    }
    throw new Error(`no ${type}`);
  }

  it("a second stts in a track (the in-memory inspector reads the first) is not added to the track's time when streamed", async () => {
    const path = join(dir, "clip.mp4");
    execFileSync("ffmpeg", [
      ...["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=duration=3:size=160x120:rate=25"],
      ...["-c:v", "libx264", "-pix_fmt", "yuv420p", "-use_editlist", "0", path],
    ]);
    const honest = new Uint8Array(readFileSync(path));
    // ffmpeg writes moov after mdat: growing it moves no sample data. No edit list: it would cut the track to 3 s.
    const chain: { at: number; size: number }[] = [];
    let box = childBox(honest, 0, honest.length, "moov");
    chain.push(box);
    for (const type of ["trak", "mdia", "minf", "stbl", "stts"]) {
      box = childBox(honest, box.at + 8, box.at + box.size, type);
      chain.push(box);
    }
    expect(chain[0]!.at + chain[0]!.size).toBe(honest.length);
    const stts = chain.pop()!;
    const copy = honest.slice(stts.at, stts.at + stts.size);
    const doubled = new Uint8Array(honest.length + copy.length);
    doubled.set(honest.subarray(0, stts.at + stts.size), 0);
    doubled.set(copy, stts.at + stts.size);
    doubled.set(honest.subarray(stts.at + stts.size), stts.at + stts.size + copy.length);
    const view = new DataView(doubled.buffer);
    for (const { at, size } of chain) view.setUint32(at, size + copy.length);
    const { memory, streamed } = await bothPaths(doubled, "video/mp4");
    expect(durationOf(memory)).toBe(3);
    expect(durationOf(streamed)).toBe(durationOf(memory));
  });

  it("a trak that is moov's last child (no udta after it) counts when streamed: mvhd patched to 1 s, audio runs 6 s", async () => {
    const path = join(dir, "av6.mp4");
    execFileSync("ffmpeg", [
      ...["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=duration=3:size=160x120:rate=25", "-f", "lavfi", "-i", "sine=duration=6"],
      ...["-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac", "-use_editlist", "0", path],
    ]);
    const honest = new Uint8Array(readFileSync(path));
    const moov = childBox(honest, 0, honest.length, "moov");
    expect(moov.at + moov.size).toBe(honest.length);
    const udta = childBox(honest, moov.at + 8, moov.at + moov.size, "udta");
    expect(udta.at + udta.size).toBe(honest.length);
    // Without its udta, the movie ends with the audio trak (many muxers write none); mvhd then states 1 s.
    const bytes = honest.slice(0, udta.at);
    const view = new DataView(bytes.buffer);
    view.setUint32(moov.at, moov.size - udta.size);
    const mvhd = childBox(bytes, moov.at + 8, bytes.length, "mvhd");
    view.setUint32(mvhd.at + 24, view.getUint32(mvhd.at + 20));
    expect(ffprobeSeconds(bytes, "noudta.mp4")).toBeCloseTo(1, 2);
    const { memory, streamed } = await bothPaths(bytes, "video/mp4");
    expect(durationOf(memory)).toBeGreaterThan(6);
    expect(durationOf(streamed)).toBe(durationOf(memory));
  });

  it("mvhd after the tracks (box order in moov is free): the edit lists are read by its timescale on both paths", async () => {
    const path = join(dir, "av.mp4");
    execFileSync("ffmpeg", [
      ...["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=duration=3.1:size=160x120:rate=25"],
      ...["-f", "lavfi", "-i", "sine=frequency=440:duration=3.1:sample_rate=44100"],
      ...["-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", path],
    ]);
    const honest = new Uint8Array(readFileSync(path));
    const moov = childBox(honest, 0, honest.length, "moov");
    const mvhd = childBox(honest, moov.at + 8, moov.at + moov.size, "mvhd");
    expect(mvhd.at).toBe(moov.at + 8);
    const view = new DataView(honest.buffer);
    // The boxes after mvhd up to the last trak move before it (moov's size is unchanged: nothing else moves).
    let end = mvhd.at + mvhd.size;
    for (let at = end; at < moov.at + moov.size; at += view.getUint32(at)) {
      if (String.fromCharCode(...honest.subarray(at + 4, at + 8)) === "trak") end = at + view.getUint32(at);
    }
    const reordered = honest.slice();
    reordered.set(honest.subarray(mvhd.at + mvhd.size, end), mvhd.at);
    reordered.set(honest.subarray(mvhd.at, mvhd.at + mvhd.size), end - mvhd.size);
    expect(ffprobeSeconds(reordered, "reordered.mp4")).toBeCloseTo(3.12, 2);
    // 3.12: the video's 78 frames; the audio's samples run 3.123 s but its edit list (in mvhd's timescale) presents 3.1 s.
    const { memory, streamed } = await bothPaths(reordered, "video/mp4");
    expect(durationOf(memory)).toBe(3.12);
    expect(durationOf(streamed)).toBe(3.12);
  });

  it("a moov holding ~200,000 (empty) tracks: the in-memory inspector reports the movie, not a RangeError", async () => {
    const path = join(dir, "small.mp4");
    execFileSync("ffmpeg", [
      ...["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=duration=3:size=160x120:rate=25"],
      ...["-c:v", "libx264", "-pix_fmt", "yuv420p", path],
    ]);
    const honest = new Uint8Array(readFileSync(path));
    const moov = childBox(honest, 0, honest.length, "moov");
    expect(moov.at + moov.size).toBe(honest.length);
    // Under the per-level box limit (200,000), past what a spread into Math.max takes.
    const tracks = 199_990;
    const bytes = new Uint8Array(honest.length + tracks * 8);
    bytes.set(honest, 0);
    const view = new DataView(bytes.buffer);
    for (let i = 0; i < tracks; i++) {
      view.setUint32(honest.length + i * 8, 8);
      bytes.set([0x74, 0x72, 0x61, 0x6b], honest.length + i * 8 + 4);
    }
    view.setUint32(moov.at, moov.size + tracks * 8);
    const memory = new ByteSniffingInspector().inspect(bytes, "video/mp4");
    expect(JSON.stringify(memory)).not.toContain("RangeError");
    // The stored answer stays small: the extra tracks are named up to 8, then counted.
    expect(JSON.stringify(memory).length).toBeLessThan(4096);
    expect(JSON.stringify(memory)).toContain("and 199982 more");
    const { inspection: streamed } = await inspectStreamed(chunked(bytes, 65536), bytes.length, "video/mp4", "video");
    expect(durationOf(streamed)).toBe(3);
    if (memory.status === "ok") expect(memory.facts.duration_seconds).toBe(3);
  });
});

describe("MP4: an stts delta holding a negative DTS correction (legacy MOV writers)", () => {
  it("a 3.1 s M4A whose last delta is 0xFFFFFC00 (-1024) is not 27 h long: the delta counts 1, as FFmpeg reads it", async () => {
    const path = join(dir, "noedit.m4a");
    // No edit list: it would otherwise cut the track to its length and hide the delta.
    execFileSync("ffmpeg", [
      ...["-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=3.1:sample_rate=44100"],
      ...["-c:a", "aac", "-use_editlist", "0", path],
    ]);
    const bytes = new Uint8Array(readFileSync(path));
    const view = new DataView(bytes.buffer);
    let stts = -1;
    for (let i = 0; i + 4 <= bytes.length && stts < 0; i++) if (String.fromCharCode(...bytes.subarray(i, i + 4)) === "stts") stts = i + 4;
    const entries = view.getUint32(stts + 4);
    expect(entries).toBeGreaterThan(1);
    view.setUint32(stts + 8 + (entries - 1) * 8 + 4, 0xfffffc00);
    const probed = ffprobeSeconds(bytes, "negdelta.m4a");
    expect(probed).toBeLessThan(3.2);
    const { memory, streamed } = await bothPaths(bytes, "audio/mp4");
    expect(durationOf(memory)).toBeLessThan(3.2);
    expect(durationOf(memory)).toBeGreaterThanOrEqual(3.1);
    expect(durationOf(streamed)).toBe(durationOf(memory));
  });
});
