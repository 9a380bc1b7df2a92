/**
 * Hostile review of chunk-demuxed audio counted by its chunks (`stsc` × `stco`, isobmff-timing.ts). FFmpeg repairs an
 * invalid `stsc` entry (first chunk not above the previous one's or below its index + 1, samples per chunk or
 * description index 0) before building its index: a non-last one takes the next entry's samples per chunk from the
 * chunk before the next one's first. Each run read as written instead (a run whose next first chunk is not above its
 * own counted nothing) billed a PCM MOV FFmpeg plays 3 s as 2.085 s; a run of 0 samples per chunk (or description 0)
 * billed 0.021 s where FFmpeg plays 0.042 s. From a real ffmpeg PCM MOV (moov last), its one chunk re-indexed as 144
 * chunks of 1,000 samples (valid, billed what it plays), then those `stsc` runs patched invalid, the counts and stated
 * lengths 1.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ByteSniffingInspector } from "../../../src/media/inspect";
import { inspectStreamed } from "../../../src/uploads/large-inspection";
import { decoded } from "./bmff-support";
import { installDigestStream, streamOf } from "./stream-support";

const dir = mkdtempSync(join(tmpdir(), "bmff-stsc-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(() => installDigestStream());

const CONTAINERS = new Set(["moov", "trak", "mdia", "minf", "stbl", "edts"]);
/** Every box: [type, offset, size, ancestors' offsets]. */
function all(b: Uint8Array): [string, number, number, number[]][] {
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const out: [string, number, number, number[]][] = [];
  const walk = (start: number, end: number, up: number[]) => {
    for (let at = start; at + 8 <= end; ) {
      const size = v.getUint32(at);
      const type = String.fromCharCode(...b.subarray(at + 4, at + 8));
      out.push([type, at, size, up]);
      if (CONTAINERS.has(type)) walk(at + 8, at + size, [...up, at]);
      if (size < 8) break;
      at += size;
    }
  };
  walk(0, b.length, []);
  return out;
}
const be32 = (n: number) => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));
const full = (type: string, body: number[]) => [...be32(body.length + 12), ...ascii(type), 0, 0, 0, 0, ...body];

/** `b` with its (only) track's `type` box replaced by `box`; its ancestors resized (moov is the last box). */
function replaced(b: Uint8Array, type: string, box: number[]): Uint8Array {
  const found = all(b).find((x) => x[0] === type);
  if (!found) throw new Error(`no ${type}`);
  const [, at, size, up] = found;
  const out = new Uint8Array(b.length - size + box.length);
  out.set(b.subarray(0, at));
  out.set(box, at);
  out.set(b.subarray(at + size), at + box.length);
  const v = new DataView(out.buffer);
  for (const a of up) v.setUint32(a, v.getUint32(a) + box.length - size);
  return out;
}
const stsc = (runs: [number, number, number][]) => full("stsc", [...be32(runs.length), ...runs.flatMap((r) => r.flatMap(be32))]);

async function both(bytes: Uint8Array): Promise<number[]> {
  const out: number[] = [];
  const memory = new ByteSniffingInspector().inspect(bytes, "video/quicktime");
  expect(memory.status).toBe("ok");
  if (memory.status === "ok") out.push(memory.facts.duration_seconds ?? 0);
  for (const part of [7, 65536]) {
    const { inspection } = await inspectStreamed(streamOf(bytes, part), bytes.length, "video/quicktime", "audio");
    expect(inspection.status, `parts of ${part}`).toBe("ok");
    if (inspection.status === "ok") out.push(inspection.facts.duration_seconds ?? 0);
  }
  return out;
}

/** 3 s of 16-bit mono PCM at 48 kHz in 144 chunks of 1,000 samples (2,000 bytes) each; no edit list. */
function pcm144(): Uint8Array {
  const name = join(dir, "pcm.mov");
  execFileSync("ffmpeg", [
    "-v",
    "error",
    "-y",
    "-f",
    "lavfi",
    "-i",
    "sine=frequency=440:duration=3:sample_rate=48000",
    "-c:a",
    "pcm_s16le",
    name,
  ]);
  let b: Uint8Array = new Uint8Array(readFileSync(name));
  const v = new DataView(b.buffer);
  const stco = all(b).find((x) => x[0] === "stco")!;
  const base = v.getUint32(stco[1] + 16);
  b = replaced(b, "stco", full("stco", [...be32(144), ...Array.from({ length: 144 }, (_, i) => be32(base + i * 2000)).flat()]));
  b = replaced(b, "stsc", stsc([[1, 1000, 1]]));
  const edts = all(b).find((x) => x[0] === "edts");
  if (edts) b.set(ascii("free"), edts[1] + 4);
  return b;
}

/** The counts FFmpeg ignores for chunk-demuxed audio (stts's, stsz's) and the stated lengths, 1. */
function countsOne(source: Uint8Array): Uint8Array {
  const b = source.slice();
  const v = new DataView(b.buffer);
  const at = (type: string) => all(b).find((x) => x[0] === type)![1];
  v.setUint32(at("stts") + 16, 1);
  v.setUint32(at("stsz") + 16, 1);
  v.setUint32(at("mdhd") + 24, 1);
  v.setUint32(at("mvhd") + 24, 1);
  v.setUint32(at("tkhd") + 28, 1);
  return b;
}

describe("chunk-demuxed audio whose stsc FFmpeg repairs", () => {
  it("the valid re-indexed file is billed what it plays", async () => {
    const b = pcm144();
    const seconds = decoded(dir, b, "valid");
    expect(seconds).toBeCloseTo(3, 3);
    for (const figure of await both(countsOne(b))) expect(figure).toBeCloseTo(seconds, 3);
  }, 60_000);

  // [name, runs, the least FFmpeg plays]
  const INVALID: [string, [number, number, number][], number][] = [
    // A run of 0 samples per chunk: FFmpeg gives it the next run's 1,000 from chunk 143 (its packet count then
    // covers chunks 143 and 144: the first two chunks play, 2,000 samples).
    [
      "a run of 0 samples per chunk",
      [
        [1, 0, 1],
        [144, 1000, 1],
      ],
      0.04,
    ],
    // A description index of 0: the same repair.
    [
      "a run of description index 0",
      [
        [1, 1, 0],
        [144, 1000, 1],
      ],
      0.04,
    ],
    // A middle run whose first chunk is below the one before: FFmpeg replaces it by the next run's (all 144 play).
    [
      "a middle run whose first chunk goes back",
      [
        [1, 1000, 1],
        [100, 1000, 1],
        [50, 1, 1],
        [144, 1000, 1],
      ],
      2.9,
    ],
  ];
  for (const [name, runs, least] of INVALID) {
    it(`${name}: billed at least what FFmpeg plays, on both paths`, async () => {
      const b = countsOne(replaced(pcm144(), "stsc", stsc(runs)));
      const seconds = decoded(dir, b, name.replaceAll(" ", "-"));
      expect(seconds).toBeGreaterThan(least);
      for (const figure of await both(b)) expect(figure, `${figure} billed, ${seconds} played`).toBeGreaterThanOrEqual(seconds - 0.0005);
    }, 60_000);
  }
});
