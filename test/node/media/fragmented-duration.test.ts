/**
 * A fragmented MP4 (`mvex` in `moov`, its samples in `moof/traf/trun`) is billed on what its fragments carry: the sum
 * of each track's `trun` sample durations (tfhd/trex defaults for samples without their own), from `tfdt` where
 * present, as a floor under what `mvhd`/`mehd`/`mdhd` state. Before, only the stated figures counted: ffmpeg's
 * `-movflags frag_keyframe` states its first fragment (1 s of a 3.2 s file) and `empty_moov` states nothing. Both upload
 * paths (in-memory inspector, streamed inspection of large uploads) feed one MovieTiming (inspect/isobmff-timing.ts).
 * Real ffmpeg output, compared with ffprobe; then patched hostile variants.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ByteSniffingInspector } from "../../../src/media/inspect";
import type { InspectionResult } from "../../../src/media/types";
import { inspectStreamed } from "../../../src/uploads/large-inspection";
import { boxList, ffmpegFile } from "./bmff-support";
import { installDigestStream, streamOf } from "./stream-support";

const dir = mkdtempSync(join(tmpdir(), "fragmented-duration-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(() => installDigestStream());

const VIDEO = ["-f", "lavfi", "-i", "testsrc=duration=3.1:size=160x120:rate=25"];
const AUDIO = ["-f", "lavfi", "-i", "sine=frequency=440:duration=3.1:sample_rate=44100"];
const AV = [...VIDEO, ...AUDIO, "-c:v", "libx264", "-pix_fmt", "yuv420p", "-g", "25", "-c:a", "aac", "-shortest"];

/** ffmpeg output of `args` (inputs and codecs) muxed with `mux` into `name`. */
function ffmpeg(name: string, args: string[], mux: string[]): Uint8Array {
  return ffmpegFile(dir, name, [...args, ...mux]);
}

function ffprobeSeconds(b: Uint8Array, name: string): number {
  const path = join(dir, `probe-${name}`);
  writeFileSync(path, b);
  return Number(execFileSync("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", path]).toString().trim());
}

/** Both upload paths: the in-memory inspector as `declared`, the streamed inspection as `streamedAs` (in parts of `chunk`). */
async function bothPaths(bytes: Uint8Array, declared: string, streamedAs: string, chunk = 4096) {
  const memory = new ByteSniffingInspector().inspect(bytes, declared);
  const kind = streamedAs.startsWith("video") ? "video" : "audio";
  const { inspection: streamed } = await inspectStreamed(streamOf(bytes, chunk), bytes.length, streamedAs, kind);
  return { memory, streamed };
}

function durationOf(result: InspectionResult): number | null {
  expect(result.status, JSON.stringify(result)).toBe("ok");
  return result.status === "ok" ? result.facts.duration_seconds : null;
}

const offsetsOf = (b: Uint8Array, type: string) => boxList(b).filter(([t]) => t === type);

/** The real fragmented files: [name, how ffmpeg muxed it, declared type, the streamed type, one frame in seconds]. */
const REAL: [string, () => Uint8Array, string, string, number][] = [
  [
    "frag_keyframe+empty_moov",
    () => ffmpeg("a.mp4", AV, ["-movflags", "frag_keyframe+empty_moov"]),
    "video/x-bmff-based",
    "video/mp4",
    1 / 25,
  ],
  // The moov holds the first fragment's samples and mvhd states only them (1.009 s).
  ["frag_keyframe (samples in moov)", () => ffmpeg("b.mp4", AV, ["-movflags", "frag_keyframe"]), "video/x-bmff-based", "video/mp4", 1 / 25],
  ["+dash (sidx, default-base-is-moof)", () => ffmpeg("c.mp4", AV, ["-movflags", "+dash"]), "video/x-bmff-based", "video/mp4", 1 / 25],
  ["+cmaf", () => ffmpeg("d.mp4", AV, ["-movflags", "+cmaf"]), "video/x-bmff-based", "video/mp4", 1 / 25],
  [
    "separate_moof, 0.2 s fragments",
    () => ffmpeg("e.mp4", AV, ["-movflags", "frag_keyframe+empty_moov+separate_moof", "-frag_duration", "200000"]),
    "video/x-bmff-based",
    "video/mp4",
    1 / 25,
  ],
  [
    "M4A (AAC only), 0.1 s fragments",
    () => ffmpeg("f.m4a", [...AUDIO, "-c:a", "aac"], ["-movflags", "frag_keyframe+empty_moov", "-frag_duration", "100000"]),
    "audio/mp4",
    "audio/mp4",
    1024 / 44100,
  ],
  [
    "MOV (QuickTime) fragmented",
    () => ffmpeg("g.mov", AV, ["-f", "mov", "-movflags", "frag_keyframe+empty_moov"]),
    "video/quicktime",
    "video/quicktime",
    1 / 25,
  ],
];

describe("real fragmented files: the fragments' duration, as ffprobe reports it", () => {
  it.each(REAL)("%s: within a frame of ffprobe, the same on both paths", async (_name, make, declared, streamedAs, frame) => {
    const bytes = make();
    expect(offsetsOf(bytes, "moof").length).toBeGreaterThan(1);
    expect(offsetsOf(bytes, "mvex").length).toBe(1);
    const probed = ffprobeSeconds(bytes, `${_name.length}.mp4`);
    expect(probed).toBeGreaterThan(3);
    for (const chunk of [5, 4096]) {
      const { memory, streamed } = await bothPaths(bytes, declared, streamedAs, chunk);
      const seconds = durationOf(memory)!;
      expect(Math.abs(seconds - probed), `${seconds} vs ffprobe ${probed}`).toBeLessThanOrEqual(frame);
      expect(durationOf(streamed)).toBe(seconds);
    }
  });
});

describe("patched stated lengths: the fragments still count", () => {
  it("frag_keyframe: mvhd and every mdhd patched to 0.5 s still report the fragments' 3.18 s (ffprobe: 3.2)", async () => {
    const honest = ffmpeg("h.mp4", AV, ["-movflags", "frag_keyframe"]);
    const patched = honest.slice();
    const view = new DataView(patched.buffer);
    for (const [type, at] of boxList(patched)) {
      if (type !== "mvhd" && type !== "mdhd") continue;
      expect(patched[at + 8]).toBe(0);
      view.setUint32(at + 24, Math.round(0.5 * view.getUint32(at + 20)));
    }
    // ffprobe reads the fragments too; the inspection billed mvhd's figure (honest: 1.009 s, its first fragment).
    expect(ffprobeSeconds(patched, "half.mp4")).toBeCloseTo(3.2, 2);
    for (const bytes of [honest, patched]) {
      const { memory, streamed } = await bothPaths(bytes, "video/x-bmff-based", "video/mp4");
      expect(durationOf(memory)).toBe(3.18);
      expect(durationOf(streamed)).toBe(3.18);
    }
  });

  it("an M4A whose every tfdt is patched to 0 (a timeline that goes back) still reports the sum of its samples", async () => {
    const honest = ffmpeg("i.m4a", [...AUDIO, "-c:a", "aac"], ["-movflags", "frag_keyframe+empty_moov", "-frag_duration", "500000"]);
    const expected = durationOf(new ByteSniffingInspector().inspect(honest, "audio/mp4"))!;
    expect(expected).toBeGreaterThan(3.1);
    const patched = honest.slice();
    const tfdts = offsetsOf(patched, "tfdt");
    expect(tfdts.length).toBeGreaterThan(3);
    for (const [, at, size] of tfdts) patched.fill(0, at + 12, at + size);
    const { memory, streamed } = await bothPaths(patched, "audio/mp4", "audio/mp4");
    expect(durationOf(memory)).toBe(expected);
    expect(durationOf(streamed)).toBe(expected);
  });

  it("a gap in the tfdt timeline (a later fragment's tfdt moved 10 s on) counts as players present it", async () => {
    const honest = ffmpeg("j.m4a", [...AUDIO, "-c:a", "aac"], ["-movflags", "frag_keyframe+empty_moov", "-frag_duration", "500000"]);
    const patched = honest.slice();
    const view = new DataView(patched.buffer);
    const [, at] = offsetsOf(patched, "tfdt").at(-1)!;
    expect(patched[at + 8]).toBe(1);
    view.setBigUint64(at + 12, view.getBigUint64(at + 12) + 441000n);
    const probed = ffprobeSeconds(patched, "gap.m4a");
    expect(probed).toBeGreaterThan(13);
    const { memory, streamed } = await bothPaths(patched, "audio/mp4", "audio/mp4");
    expect(Math.abs(durationOf(memory)! - probed)).toBeLessThanOrEqual(1024 / 44100);
    expect(durationOf(streamed)).toBe(durationOf(memory));
  });
});

describe("hostile fragments: bounded, linear, and the same decision on both paths", () => {
  /** An empty_moov M4A: moov, then moof/mdat pairs. */
  const m4a = () => ffmpeg("k.m4a", [...AUDIO, "-c:a", "aac"], ["-movflags", "frag_keyframe+empty_moov", "-frag_duration", "1000000"]);

  it("a trun claiming 2^32 - 1 samples without per-sample fields: counted by multiplication, not walked", async () => {
    const bytes = m4a();
    const view = new DataView(bytes.buffer);
    const [, at] = offsetsOf(bytes, "trun")[0]!;
    const tfhd = offsetsOf(bytes, "tfhd")[0]![1];
    // tfhd states a default duration (flag 0x08) of 1024; the trun keeps only its data offset (flag 0x01).
    expect(view.getUint32(tfhd + 8) & 8).toBe(8);
    view.setUint32(at + 8, 0x000001);
    view.setUint32(at + 12, 0xffff_ffff);
    const started = performance.now();
    const { memory, streamed } = await bothPaths(bytes, "audio/mp4", "audio/mp4");
    expect(performance.now() - started).toBeLessThan(4000); // a hang guard: ~10 ms
    // 2^32 - 1 samples of 1024 ticks at 44.1 kHz: about 100 million seconds (over the 4 h envelope: not priced).
    expect(durationOf(memory)).toBeGreaterThan(9.9e7);
    expect(durationOf(streamed)).toBe(durationOf(memory));
  });

  it("a trun whose sample count overruns its box is refused on both paths (was: ignored)", async () => {
    const bytes = m4a();
    const view = new DataView(bytes.buffer);
    const [, at] = offsetsOf(bytes, "trun")[0]!;
    view.setUint32(at + 12, view.getUint32(at + 12) + 1);
    const { memory, streamed } = await bothPaths(bytes, "audio/mp4", "audio/mp4");
    expect(memory).toMatchObject({ status: "corrupt", message: expect.stringContaining("trun entries overrun the box") });
    expect(streamed).toMatchObject({ status: "corrupt", message: expect.stringContaining("trun entries overrun the box") });
  });

  it("a tfdt beyond 2^53 and a tfhd too short for its flags are refused on both paths", async () => {
    const huge = m4a();
    const [, tfdt] = offsetsOf(huge, "tfdt")[1]!;
    new DataView(huge.buffer).setUint32(tfdt + 12, 0xffff_0000);
    const short = m4a();
    const [, tfhd] = offsetsOf(short, "tfhd")[0]!;
    new DataView(short.buffer).setUint32(tfhd + 8, 0x3f); // every optional field announced: more than its 20-byte body
    for (const bytes of [huge, short]) {
      const { memory, streamed } = await bothPaths(bytes, "audio/mp4", "audio/mp4");
      expect(memory.status).toBe("corrupt");
      expect(streamed.status).toBe("corrupt");
    }
  });

  it("20,000 fragments (a moof repeated, every tfdt 0): the sum of all of them, in linear time on both paths", async () => {
    const honest = m4a();
    const list = boxList(honest);
    const [, moofAt, moofSize] = list.find(([t]) => t === "moof")!;
    const head = honest.subarray(0, moofAt);
    const moof = honest.slice(moofAt, moofAt + moofSize);
    // One fragment alone, for its duration.
    const one = durationOf(new ByteSniffingInspector().inspect(new Uint8Array([...head, ...moof]), "audio/mp4"))!;
    expect(one).toBeGreaterThan(1);
    const n = 20_000;
    const bytes = new Uint8Array(head.length + n * moof.length);
    bytes.set(head, 0);
    for (let i = 0; i < n; i++) bytes.set(moof, head.length + i * moof.length);
    const started = performance.now();
    const { memory, streamed } = await bothPaths(bytes, "audio/mp4", "audio/mp4", 65536);
    expect(performance.now() - started).toBeLessThan(20_000); // a hang guard
    // `one` is rounded to milliseconds: n of them within n/2 ms.
    expect(Math.abs(durationOf(memory)! - one * n)).toBeLessThanOrEqual(n * 0.0005);
    expect(durationOf(streamed)).toBe(durationOf(memory));
  });

  it("a fragmented movie declaring more tracks than are kept is refused on both paths, not measured partly", async () => {
    const honest = m4a();
    const [, moovAt, moovSize] = offsetsOf(honest, "moov")[0]!;
    // 1,100 empty trak boxes appended inside moov (moov precedes every moof; the fragments' data is moof-relative or
    // absolute: growing moov moves them, which the duration does not read).
    const extra = 1100 * 8;
    const bytes = new Uint8Array(honest.length + extra);
    bytes.set(honest.subarray(0, moovAt + moovSize), 0);
    for (let i = 0; i < 1100; i++) bytes.set([0, 0, 0, 8, 0x74, 0x72, 0x61, 0x6b], moovAt + moovSize + i * 8);
    bytes.set(honest.subarray(moovAt + moovSize), moovAt + moovSize + extra);
    new DataView(bytes.buffer).setUint32(moovAt, moovSize + extra);
    const { memory, streamed } = await bothPaths(bytes, "audio/mp4", "audio/mp4");
    expect(memory).toMatchObject({ status: "corrupt", message: expect.stringContaining("more than 1024 tracks") });
    expect(streamed).toMatchObject({ status: "corrupt", message: expect.stringContaining("more than 1024 tracks") });
  });
});
