import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ByteSniffingInspector } from "../../../src/media/inspect";
import type { InspectionResult } from "../../../src/media/types";
import { inspectStreamed } from "../../../src/uploads/large-inspection";
import { boxList, ffmpegFile } from "./bmff-support";
import { installDigestStream, streamOf } from "./stream-support";

const dir = mkdtempSync(join(tmpdir(), "bmff-differential-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(() => installDigestStream());

const VIDEO = ["-f", "lavfi", "-i", "testsrc=duration=2:size=160x120:rate=25"];
const AUDIO = ["-f", "lavfi", "-i", "sine=frequency=440:duration=2:sample_rate=44100"];
const AV = [...VIDEO, ...AUDIO, "-c:v", "libx264", "-pix_fmt", "yuv420p", "-g", "25", "-c:a", "aac", "-shortest"];

const ffmpeg = (name: string, args: string[]) => ffmpegFile(dir, name, args);

/** The verdict both paths must share: refused or not, and the duration. */
function verdict(r: InspectionResult): string {
  return r.status === "ok" ? `ok ${r.facts.duration_seconds}` : r.status === "codec_unsupported" ? "ok (codec)" : "refused";
}

/** [name, bytes, type declared in memory, type streamed] (a fragmented video/mp4 is outside the in-memory contract). */
let files: [string, Uint8Array, string, string][] = [];
// Five ffmpeg runs: seconds on a loaded 2-core machine, past vitest's 10 s hook default (a hang guard only).
beforeAll(() => {
  files = [
    ["MP4 with edit lists", ffmpeg("a.mp4", AV), "video/mp4", "video/mp4"],
    ["M4A, faststart", ffmpeg("b.m4a", [...AUDIO, "-c:a", "aac", "-movflags", "+faststart"]), "audio/mp4", "audio/mp4"],
    [
      "fragmented M4A",
      ffmpeg("c.m4a", [...AUDIO, "-c:a", "aac", "-movflags", "frag_keyframe+empty_moov", "-frag_duration", "500000"]),
      "audio/mp4",
      "audio/mp4",
    ],
    ["frag_keyframe MP4", ffmpeg("d.mp4", [...AV, "-movflags", "frag_keyframe"]), "video/x-bmff-based", "video/mp4"],
    // Its stts deltas 1 tick: chunk-demuxed, held to its bytes (stsc, stco, stsz).
    ["AC-3 M4A in chunk form", chunkForm(ffmpeg("e.mp4", [...AUDIO, "-ac", "2", "-c:a", "ac3", "-b:a", "640k"])), "audio/mp4", "audio/mp4"],
  ];
}, 120_000);

/** `b` with every `stts` delta 1 tick (one entry of 1 tick for constant-duration audio: FFmpeg's chunk form). */
function chunkForm(b: Uint8Array): Uint8Array {
  const out = b.slice();
  const view = new DataView(out.buffer);
  for (const [type, at] of boxList(out)) {
    if (type !== "stts") continue;
    for (let i = 0; i < view.getUint32(at + 12); i++) view.setUint32(at + 20 + i * 8, 1);
  }
  return out;
}

async function both(bytes: Uint8Array, declared: string, streamedAs: string, chunk: number) {
  const memory = new ByteSniffingInspector().inspect(bytes, declared);
  const kind = streamedAs.startsWith("video") ? "video" : "audio";
  const { inspection: streamed } = await inspectStreamed(streamOf(bytes, chunk), bytes.length, streamedAs, kind);
  return { memory, streamed };
}

describe("overrunning edit lists and sample tables: refused on both paths", () => {
  /** `file` with the 32-bit word at `offset` into the body of its `index`th `type` box set to `value(old)`. */
  function patched(
    file: number,
    type: string,
    index: number,
    offset: number,
    value: (old: number) => number,
  ): [Uint8Array, string, string] {
    const [, bytes, declared, streamedAs] = files[file]!;
    const out = bytes.slice();
    const view = new DataView(out.buffer);
    const [, at] = boxList(out).filter(([t]) => t === type)[index]!;
    view.setUint32(at + 8 + offset, value(view.getUint32(at + 8 + offset)));
    return [out, declared, streamedAs];
  }

  it.each([
    ["an elst entry count one past its box", () => patched(0, "elst", 0, 4, (n) => n + 1)],
    ["an elst count of 2^32 - 1", () => patched(0, "elst", 1, 4, () => 0xffff_ffff)],
    ["an elst read as version 1 (20-byte entries) in a box sized for version 0", () => patched(0, "elst", 0, 0, () => 0x0100_0000)],
    ["an stts entry count one past its box", () => patched(0, "stts", 0, 4, (n) => n + 1)],
    ["an stts count of 2^31 in an M4A", () => patched(1, "stts", 0, 4, () => 0x8000_0000)],
    [
      "an mvhd read as version 1 (32 bytes of fields) in a version 0 box too short for them",
      () => patched(1, "mvhd", 0, 0, () => 0x0100_0000),
    ],
    ["an mdhd version 1 whose duration's high word is past 2^53", () => patched(1, "mdhd", 0, 0, () => 0x0100_0000)],
    // The chunk tables the AC-3/E-AC-3 byte floor reads (it and the in-memory reader refused stco; streamed, it was not read).
    ["an stsc entry count one past its box", () => patched(0, "stsc", 0, 4, (n) => n + 1)],
    ["an stsc count of 2^32 - 1 in an M4A", () => patched(1, "stsc", 0, 4, () => 0xffff_ffff)],
    ["an stco entry count one past its box", () => patched(0, "stco", 1, 4, (n) => n + 1)],
  ])("%s", async (_name, make) => {
    const [bytes, declared, streamedAs] = make();
    for (const chunk of [3, 4096]) {
      const { memory, streamed } = await both(bytes, declared, streamedAs, chunk);
      expect(memory.status, JSON.stringify(memory)).toBe("corrupt");
      expect(streamed.status, `chunks of ${chunk}: ${JSON.stringify(streamed)}`).toBe("corrupt");
    }
  });
});

describe("a seeded sweep over every word of the boxes the duration reads", () => {
  const TIMED = new Set(["mvhd", "mehd", "trex", "tkhd", "mdhd", "stts", "elst", "tfhd", "tfdt", "trun", "stsz", "stsc"]);
  const CHUNKS = [1, 3, 8, 4096, 65536];

  it("in-memory and streamed inspection agree on 1,200 mutated files (refusal, and the duration otherwise)", async () => {
    let seed = 0x5eed;
    const random = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed / 2 ** 32;
    };
    const tally = { ok: 0, refused: 0 };
    for (let i = 0; i < 1200; i++) {
      const [name, bytes, declared, streamedAs] = files[i % files.length]!;
      const targets = boxList(bytes).filter(([t]) => TIMED.has(t));
      const out = bytes.slice();
      const view = new DataView(out.buffer);
      const changes: string[] = [];
      // Now and then a box takes another timing leaf's type (a second stts, a trun before its tfhd, an mvhd in a track).
      if (random() < 0.2) {
        const [, at] = targets[Math.floor(random() * targets.length)]!;
        const type = [...TIMED][Math.floor(random() * TIMED.size)]!;
        out.set(
          [...type].map((c) => c.charCodeAt(0)),
          at + 4,
        );
        changes.push(`renamed ${type}`);
      }
      for (let k = 1 + Math.floor(random() * 2); k > 0; k--) {
        const [type, at, size] = targets[Math.floor(random() * targets.length)]!;
        if (size < 12) continue;
        const offset = 8 + Math.floor(random() * ((size - 8 - 4) / 4 + 1)) * 4;
        const old = view.getUint32(at + offset);
        const choices = [0, 1, 2, 0x0100_0000, 0xffff_ffff, 0x8000_0000, old + 1, old - 1, old * 2, Math.floor(random() * 2 ** 32)];
        const value = choices[Math.floor(random() * choices.length)]! >>> 0;
        view.setUint32(at + offset, value);
        changes.push(`${type}+${offset - 8}=${value.toString(16)}`);
      }
      // Part size 1 only now and then (the sweep stays quick); every other size often.
      const chunk = i % 40 === 0 ? 1 : CHUNKS[1 + Math.floor(random() * (CHUNKS.length - 1))]!;
      const { memory, streamed } = await both(out, declared, streamedAs, chunk);
      const expected = verdict(memory);
      expect(
        verdict(streamed),
        `${name} #${i} [${changes.join(", ")}] parts of ${chunk}: ${JSON.stringify(streamed)} vs ${JSON.stringify(memory)}`,
      ).toBe(expected);
      tally[expected === "refused" ? "refused" : "ok"]++;
    }
    // The sweep is worth something only if it reaches both outcomes often.
    expect(tally.ok).toBeGreaterThan(200);
    expect(tally.refused).toBeGreaterThan(100);
  }, 120_000);
});
