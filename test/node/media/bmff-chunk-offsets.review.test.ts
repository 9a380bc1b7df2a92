/**
 * A chunk offset past the end of the file: the in-memory inspection refuses it ("sample data lies beyond the end of the
 * file"), the streamed one (large uploads) accepted it, so the two paths disagreed on acceptance for the same bytes.
 * The offsets are not billed (FFmpeg plays less of such a file, never more), but both paths must refuse the same files.
 * From real ffmpeg output: an MP4 (moov last, stco) and an M4A with faststart, one offset patched; a co64 table near
 * 2^64; a fragmented file keeps its offsets unchecked on both paths.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ByteSniffingInspector } from "../../../src/media/inspect";
import type { InspectionResult } from "../../../src/media/types";
import { inspectStreamed } from "../../../src/uploads/large-inspection";
import { boxList, ffmpegFile } from "./bmff-support";
import { installDigestStream, streamOf } from "./stream-support";

const dir = mkdtempSync(join(tmpdir(), "bmff-offsets-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(() => installDigestStream());

const VIDEO = ["-f", "lavfi", "-i", "testsrc=duration=2:size=160x120:rate=25"];
const AUDIO = ["-f", "lavfi", "-i", "sine=frequency=440:duration=2:sample_rate=44100"];
const AV = [...VIDEO, ...AUDIO, "-c:v", "libx264", "-pix_fmt", "yuv420p", "-g", "25", "-c:a", "aac", "-shortest"];

function verdict(r: InspectionResult): string {
  return r.status === "ok" ? `ok ${r.facts.duration_seconds}` : r.status === "codec_unsupported" ? "ok (codec)" : "refused";
}

async function verdicts(bytes: Uint8Array, type: string): Promise<string[]> {
  const out = [verdict(new ByteSniffingInspector().inspect(bytes, type))];
  for (const part of [3, 4096, 1 << 20]) {
    const { inspection } = await inspectStreamed(streamOf(bytes, part), bytes.length, type, type.startsWith("video") ? "video" : "audio");
    out.push(verdict(inspection));
  }
  return out;
}

/** `b` with the last entry of its `index`th stco set to `value(file length)`. */
function offsetPatched(b: Uint8Array, index: number, value: (length: number) => number): Uint8Array {
  const out = b.slice();
  const v = new DataView(out.buffer);
  const [, at] = boxList(out).filter(([t]) => t === "stco")[index]!;
  const count = v.getUint32(at + 12);
  v.setUint32(at + 16 + (count - 1) * 4, value(out.length));
  return out;
}

/** `b` (moov last) with its `index`th stco rewritten as a co64 of the same offsets, the last set to `last`. */
function asCo64(b: Uint8Array, index: number, last: bigint): Uint8Array {
  const [, at, size] = boxList(b).filter(([t]) => t === "stco")[index]!;
  const v = new DataView(b.buffer, b.byteOffset);
  const count = v.getUint32(at + 12);
  const box = new Uint8Array(16 + count * 8);
  const w = new DataView(box.buffer);
  w.setUint32(0, box.length);
  box.set([0x63, 0x6f, 0x36, 0x34], 4);
  w.setUint32(12, count);
  for (let i = 0; i < count; i++) w.setBigUint64(16 + i * 8, i === count - 1 ? last : BigInt(v.getUint32(at + 16 + i * 4)));
  const out = new Uint8Array(b.length - size + box.length);
  out.set(b.subarray(0, at));
  out.set(box, at);
  out.set(b.subarray(at + size), at + box.length);
  const o = new DataView(out.buffer);
  // Its containers (moov, trak, mdia, minf, stbl) grow with it; moov is the last box, so no offset moves.
  for (const [t, a, s] of boxList(b))
    if (["moov", "trak", "mdia", "minf", "stbl"].includes(t) && a < at && a + s > at) o.setUint32(a, s + box.length - size);
  return out;
}

describe("chunk offsets past the end of the file: both paths refuse the same files", () => {
  let mp4: Uint8Array;
  let m4a: Uint8Array;
  beforeAll(() => {
    mp4 = ffmpegFile(dir, "a.mp4", AV);
    m4a = ffmpegFile(dir, "b.m4a", [...AUDIO, "-c:a", "aac", "-movflags", "+faststart"]);
  }, 120_000); // ffmpeg runs: a hang guard, not a limit

  it("the valid files are accepted alike", async () => {
    for (const [b, type] of [
      [mp4, "video/mp4"],
      [m4a, "audio/mp4"],
    ] as const) {
      const [memory, ...streamed] = await verdicts(b, type);
      expect(memory).toMatch(/^ok /);
      for (const s of streamed) expect(s).toBe(memory);
    }
  });

  it.each([
    ["the video track's last stco offset at the file's length", () => offsetPatched(mp4, 0, (n) => n), "video/mp4"],
    ["the audio track's last stco offset at 2^32 - 1", () => offsetPatched(mp4, 1, () => 0xffff_ffff), "video/mp4"],
    ["a faststart M4A's last stco offset one past the end", () => offsetPatched(m4a, 0, (n) => n + 1), "audio/mp4"],
    ["a co64 whose last offset is 2^64 - 1", () => asCo64(mp4, 1, 0xffff_ffff_ffff_ffffn), "video/mp4"],
  ])("%s", async (_name, make, type) => {
    const b = make();
    expect(await verdicts(b, type)).toEqual(["refused", "refused", "refused", "refused"]);
  });

  it("a co64 table whose offsets lie inside the file is accepted alike", async () => {
    const b = asCo64(mp4, 1, BigInt(boxList(mp4).find(([t]) => t === "mdat")![1] + 16));
    const [memory, ...streamed] = await verdicts(b, "video/mp4");
    expect(memory).toMatch(/^ok /);
    for (const s of streamed) expect(s).toBe(memory);
  });
});

describe("a seeded sweep over the chunk offset tables", () => {
  it("in-memory and streamed inspection agree on 300 files with stco/co64 words mutated", async () => {
    const sources: [Uint8Array, string][] = [
      [ffmpegFile(dir, "s.mp4", AV), "video/mp4"],
      [ffmpegFile(dir, "s.m4a", [...AUDIO, "-c:a", "aac", "-movflags", "+faststart"]), "audio/mp4"],
    ];
    sources.push([asCo64(sources[0]![0], 0, BigInt(boxList(sources[0]![0]).find(([t]) => t === "mdat")![1] + 16)), "video/mp4"]);
    let seed = 0x0ff5e7;
    const random = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed / 2 ** 32;
    };
    const tally = { ok: 0, refused: 0 };
    for (let i = 0; i < 300; i++) {
      const [source, type] = sources[i % sources.length]!;
      const out = source.slice();
      const view = new DataView(out.buffer);
      const tables = boxList(out).filter(([t]) => t === "stco" || t === "co64");
      const [, at, size] = tables[Math.floor(random() * tables.length)]!;
      const offset = 8 + Math.floor(random() * ((size - 12) / 4 + 1)) * 4;
      const old = view.getUint32(at + offset);
      const choices = [0, 1, out.length, out.length - 1, 0x0020_0000, 0xffff_ffff, old + 1, old - 1, old * 2];
      view.setUint32(at + offset, choices[Math.floor(random() * choices.length)]! >>> 0);
      const [memory, ...streamed] = await verdicts(out, type);
      for (const s of streamed) expect(s, `file ${i}: word ${offset - 8} of a table`).toBe(memory);
      tally[memory === "refused" ? "refused" : "ok"]++;
    }
    expect(tally.ok).toBeGreaterThan(30);
    expect(tally.refused).toBeGreaterThan(30);
  }, 300_000);
});
