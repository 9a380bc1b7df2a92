/**
 * Review of the ISO BMFF timing (inspect/isobmff-timing.ts) both upload paths feed: files patched to bill less than
 * FFmpeg plays them, measured by both the in-memory inspector and the streamed inspection of large uploads.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ByteSniffingInspector } from "../../../src/media/inspect";
import { inspectStreamed } from "../../../src/uploads/large-inspection";
import { boxList, ffmpegFile } from "./bmff-support";
import { installDigestStream, streamOf } from "./stream-support";

const dir = mkdtempSync(join(tmpdir(), "bmff-timing-review-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(() => installDigestStream());

const ffmpeg = (name: string, args: string[]) => ffmpegFile(dir, name, args);

/** The stated durations (mvhd, tkhd, mdhd, all version 0 here) patched to 1 tick. */
function statedPatched(b: Uint8Array): DataView {
  const view = new DataView(b.buffer, b.byteOffset);
  for (const [type, at] of boxList(b)) {
    if (type === "mvhd" || type === "mdhd") view.setUint32(at + 8 + 16, 1);
    if (type === "tkhd") view.setUint32(at + 8 + 20, 1);
  }
  return view;
}

/** Every box with the offsets of the containers holding it (outermost first). */
function boxPaths(b: Uint8Array): [string, number, number, number[]][] {
  const view = new DataView(b.buffer, b.byteOffset);
  const out: [string, number, number, number[]][] = [];
  const walk = (start: number, end: number, path: number[]) => {
    for (let at = start; at + 8 <= end; ) {
      const size = view.getUint32(at);
      const type = String.fromCharCode(...b.subarray(at + 4, at + 8));
      out.push([type, at, size, path]);
      if (["moov", "trak", "mdia", "minf", "stbl", "edts", "moof", "traf"].includes(type)) walk(at + 8, at + size, [...path, at]);
      at += size;
    }
  };
  walk(0, b.length, []);
  return out;
}

/**
 * `b` (its `moov` after `mdat`: no chunk offset moves) with its first `type` box followed by a copy of itself, the
 * first then patched by `patch` (its offset given); the containers' sizes grown.
 */
function duplicated(b: Uint8Array, type: string, patch: (view: DataView, at: number) => void): Uint8Array {
  const [, at, size, path] = boxPaths(b).find(([t]) => t === type)!;
  const out = new Uint8Array(b.length + size);
  out.set(b.subarray(0, at + size));
  out.set(b.subarray(at, at + size), at + size);
  out.set(b.subarray(at + size), at + 2 * size);
  const view = new DataView(out.buffer);
  for (const p of path) view.setUint32(p, view.getUint32(p) + size);
  patch(view, at);
  return out;
}

/** What FFmpeg plays: decoding the whole file, the time it reaches. */
function played(bytes: Uint8Array, name: string): number {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  const out = execFileSync("ffprobe", ["-v", "error", "-show_entries", "packet=pts_time,duration_time", "-of", "csv=p=0", path]).toString();
  let end = 0;
  for (const line of out.trim().split("\n")) {
    const [pts, duration] = line.split(",").map(Number);
    end = Math.max(end, pts! + duration!);
  }
  return end;
}

async function bothDurations(bytes: Uint8Array, type: string): Promise<number[]> {
  const memory = new ByteSniffingInspector().inspect(bytes, type);
  const out = [memory.status === "ok" ? (memory.facts.duration_seconds ?? -1) : -1];
  for (const chunk of [5, 4096]) {
    const kind = type.startsWith("video") ? "video" : "audio";
    const { inspection } = await inspectStreamed(streamOf(bytes, chunk), bytes.length, type, kind);
    out.push(inspection.status === "ok" ? (inspection.facts.duration_seconds ?? -1) : -1);
  }
  return out;
}

describe("samples stts leaves untimed", () => {
  it("an stts entry's sample count patched to 1 (stated durations too) still bills what FFmpeg plays", async () => {
    const bytes = ffmpeg("v10.mp4", [
      ...["-f", "lavfi", "-i", "testsrc=duration=10:size=160x120:rate=25"],
      ...["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-use_editlist", "0"],
    ]);
    const view = statedPatched(bytes);
    const [, stts] = boxList(bytes).find(([t]) => t === "stts")!;
    expect(view.getUint32(stts + 12)).toBe(1);
    expect(view.getUint32(stts + 16)).toBe(250);
    view.setUint32(stts + 16, 1);
    expect(played(bytes, "stts-short.mp4")).toBeCloseTo(10, 1);
    for (const d of await bothDurations(bytes, "video/mp4")) expect(d).toBeCloseTo(10, 1);
  });
});

describe("duplicated timing boxes (FFmpeg reads the last)", () => {
  const video = () =>
    ffmpeg("e10.mp4", [
      ...["-f", "lavfi", "-i", "testsrc=duration=10:size=160x120:rate=25"],
      ...["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"],
    ]);

  it("a first elst cut to 40 ms before the real one bills the 10 s FFmpeg plays", async () => {
    const source = video();
    statedPatched(source);
    const bytes = duplicated(source, "elst", (view, at) => view.setUint32(at + 16, 40));
    expect(played(bytes, "elst-twice.mp4")).toBeCloseTo(10, 1);
    for (const d of await bothDurations(bytes, "video/mp4")) expect(d).toBeCloseTo(10, 1);
  });

  it("a first stts of 1-tick deltas before the real one bills the 10 s FFmpeg plays", async () => {
    const source = video();
    statedPatched(source);
    const bytes = duplicated(source, "stts", (view, at) => view.setUint32(at + 20, 1));
    expect(played(bytes, "stts-twice.mp4")).toBeCloseTo(10, 1);
    for (const d of await bothDurations(bytes, "video/mp4")) expect(d).toBeCloseTo(10, 1);
  });
});

describe("duplicated header boxes (FFmpeg reads the last)", () => {
  it("a first mvhd with a 1000 times larger timescale (edits read shorter) bills the 10 s FFmpeg plays", async () => {
    const source = ffmpeg("m10.mp4", [
      ...["-f", "lavfi", "-i", "testsrc=duration=10:size=160x120:rate=25"],
      ...["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"],
    ]);
    statedPatched(source);
    const bytes = duplicated(source, "mvhd", (view, at) => view.setUint32(at + 8 + 12, view.getUint32(at + 8 + 12) * 1000));
    expect(played(bytes, "mvhd-twice.mp4")).toBeCloseTo(10, 1);
    for (const d of await bothDurations(bytes, "video/mp4")) expect(d).toBeCloseTo(10, 1);
  });

  it("a second tfhd in a track fragment (a longer default duration read by FFmpeg) is refused on both paths", async () => {
    const source = ffmpeg("t10.m4a", [
      ...["-f", "lavfi", "-i", "sine=frequency=440:duration=10:sample_rate=44100"],
      ...["-c:a", "aac", "-movflags", "frag_keyframe+empty_moov", "-frag_duration", "20000000"],
    ]);
    const bytes = duplicated(source, "tfhd", () => {});
    expect(new ByteSniffingInspector().inspect(bytes, "audio/mp4").status).toBe("corrupt");
    for (const chunk of [5, 4096]) {
      const { inspection } = await inspectStreamed(streamOf(bytes, chunk), bytes.length, "audio/mp4", "audio");
      expect(inspection.status).toBe("corrupt");
    }
  });
});

describe("edit lists presenting more than the media once", () => {
  it("an edit list repeating its one segment 3 times bills the 30 s FFmpeg plays (not the 10 s of media)", async () => {
    const source = ffmpeg("r10.mp4", [
      ...["-f", "lavfi", "-i", "testsrc=duration=10:size=160x120:rate=25"],
      ...["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"],
    ]);
    statedPatched(source);
    const [, at, size, path] = boxPaths(source).find(([t]) => t === "elst")!;
    const view = new DataView(source.buffer, source.byteOffset);
    expect(view.getUint32(at + 12)).toBe(1);
    const entry = source.slice(at + 16, at + 28);
    const bytes = new Uint8Array(source.length + 24);
    bytes.set(source.subarray(0, at + size));
    bytes.set(entry, at + size);
    bytes.set(entry, at + size + 12);
    bytes.set(source.subarray(at + size), at + size + 24);
    const out = new DataView(bytes.buffer);
    for (const p of [...path, at]) out.setUint32(p, out.getUint32(p) + 24);
    out.setUint32(at + 12, 3);
    expect(played(bytes, "elst-repeated.mp4")).toBeCloseTo(30, 1);
    for (const d of await bothDurations(bytes, "video/mp4")) expect(d).toBeCloseTo(30, 1);
  });

  it("one segment stating far more than the media still bills the media (FFmpeg stops at its end)", async () => {
    const bytes = ffmpeg("l10.mp4", [
      ...["-f", "lavfi", "-i", "testsrc=duration=10:size=160x120:rate=25"],
      ...["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"],
    ]);
    statedPatched(bytes);
    const [, at] = boxPaths(bytes).find(([t]) => t === "elst")!;
    new DataView(bytes.buffer, bytes.byteOffset).setUint32(at + 16, 0x7fff_ffff);
    expect(played(bytes, "elst-long.mp4")).toBeCloseTo(10, 1);
    for (const d of await bothDurations(bytes, "video/mp4")) expect(d).toBeCloseTo(10, 1);
  });
});

describe("structure inside the fragments both paths read alike", () => {
  const box = (type: string, body: Uint8Array) => {
    const out = new Uint8Array(8 + body.length);
    new DataView(out.buffer).setUint32(0, out.length);
    out.set(
      [...type].map((c) => c.charCodeAt(0)),
      4,
    );
    out.set(body, 8);
    return out;
  };
  const words = (...n: number[]) => {
    const b = new Uint8Array(n.length * 4);
    n.forEach((x, i) => new DataView(b.buffer).setUint32(i * 4, x));
    return b;
  };
  /** sample-fragmented.m4a up to its moov, then one moof whose traf holds a tfhd (track 1, 1024 a sample) and `truns`. */
  function withTraf(truns: number, zeroLast = false): Uint8Array {
    const source = new Uint8Array(readFileSync(join(__dirname, "../../fixtures/media/sample-fragmented.m4a")));
    const [, moov, moovSize] = boxList(source).find(([t]) => t === "moov")!;
    const tfhd = box("tfhd", words(0x2_0008, 1, 1024));
    const trun = box("trun", words(0, 1));
    const body = new Uint8Array(tfhd.length + truns * trun.length);
    body.set(tfhd);
    for (let i = 0; i < truns; i++) body.set(trun, tfhd.length + i * trun.length);
    if (zeroLast) new DataView(body.buffer).setUint32(body.length - trun.length, 0);
    const moof = box("moof", new Uint8Array([...box("mfhd", words(0, 1)), ...box("traf", body)]));
    const out = new Uint8Array(moov + moovSize + moof.length);
    out.set(source.subarray(0, moov + moovSize));
    out.set(moof, moov + moovSize);
    return out;
  }
  async function statuses(bytes: Uint8Array): Promise<string[]> {
    const out = [new ByteSniffingInspector().inspect(bytes, "audio/mp4").status as string];
    for (const chunk of [5, 65536])
      out.push((await inspectStreamed(streamOf(bytes, chunk), bytes.length, "audio/mp4", "audio")).inspection.status);
    return out;
  }

  it("a last trun of size 0 (read to the traf's end by FFmpeg and in memory, skipped when streamed) is refused on both", async () => {
    expect(await statuses(withTraf(3))).toEqual(["ok", "ok", "ok"]);
    expect(await statuses(withTraf(3, true))).toEqual(["corrupt", "corrupt", "corrupt"]);
  });

  it("a traf of more boxes than the in-memory reader takes in one level is refused on both (was taken when streamed)", async () => {
    expect(await statuses(withTraf(199_990))).toEqual(["ok", "ok", "ok"]);
    expect(await statuses(withTraf(200_010))).toEqual(["corrupt", "corrupt", "corrupt"]);
  }, 60_000);
});
