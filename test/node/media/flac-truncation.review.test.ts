/**
 * Review of the frame-boundary truncation check (src/media/c2pa/flac.ts) and of the streamed inspection's facts
 * (src/uploads/large-inspection.ts).
 *
 * Pinned: a variable-blocksize FLAC whose block sizes change from frame to frame (review/mixed.flac, built from real
 * `flac` output by review/mixed.mjs: 8-bit and 16-bit block size codes, 192, 576·2^n and 2^n codes, block sizes 16 to
 * 65535, 1- to 4-byte coded sample numbers; `flac -t` passes) is accepted whole whatever the chunking, with an ID3v1
 * tag or zero bytes after it, and refused when cut after any frame. Also pinned: a false frame sync inside the last
 * frame whose CRC-16 closes at the end too (as every earlier frame start's does: whole frames are CRC-16 codewords)
 * and whose header ends before the total never makes a whole file refused; the refusal names the real last frame.
 *
 * Found: the streamed inspection's durations of WAV and MP4 were not what the in-memory inspector reports for the
 * same file: unrounded (a duration with more than 3 decimals cannot be priced: a metered tenant's job on it is refused
 * `svc.billing.not_priced`), and a WAV's taken from the header's byte rate, which can say anything (a lying byte rate
 * under-priced a large WAV), where the in-memory inspector counts sample frames.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { quote } from "../../../src/billing/pricing";
import { FlacScanner } from "../../../src/media/c2pa/flac";
import { ByteSniffingInspector } from "../../../src/media/inspect";
import { inspectStreamed } from "../../../src/uploads/large-inspection";
import { installDigestStream, largeMp4, largeWav, MiB, streamOf } from "./stream-support";

const REVIEW = join(import.meta.dirname, "..", "..", "fixtures", "audio", "flac-frames", "review");
const MIXED = new Uint8Array(readFileSync(join(REVIEW, "mixed.flac")));
const MIXED_FRAMES: { total: number; min: number; max: number; frames: { offset: number; end: number }[] } = JSON.parse(
  readFileSync(join(REVIEW, "frames.json"), "utf8"),
);

beforeAll(() => installDigestStream());

async function refusal(bytes: Uint8Array, size: number, options: { sign: boolean; totalSamples?: boolean }): Promise<string | null> {
  const scanner = new FlacScanner(bytes.length, options);
  try {
    for (let at = 0; at < bytes.length; at += size) await scanner.push(bytes.subarray(at, at + size));
    await scanner.finish();
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((a, p) => a + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};
const ID3V1 = (() => {
  const tag = new Uint8Array(128);
  tag.set([0x54, 0x41, 0x47]); // "TAG"
  return tag;
})();

describe("a variable-blocksize FLAC whose block sizes vary (real flac frames, review/mixed.flac)", () => {
  it("is what mixed.mjs documents: STREAMINFO's block sizes and total, every frame listed", () => {
    const info = MIXED.subarray(8, 42);
    expect([(info[0]! << 8) | info[1]!, (info[2]! << 8) | info[3]!]).toEqual([MIXED_FRAMES.min, MIXED_FRAMES.max]);
    expect((info[13]! & 15) * 2 ** 32 + new DataView(info.buffer, info.byteOffset).getUint32(14)).toBe(MIXED_FRAMES.total);
    expect(MIXED_FRAMES.frames.at(-1)!.end).toBe(MIXED_FRAMES.total);
    const sizes = new Set(MIXED_FRAMES.frames.map((f, i) => f.end - (i ? MIXED_FRAMES.frames[i - 1]!.end : 0)));
    expect(sizes.size).toBeGreaterThan(10);
    for (const { offset } of MIXED_FRAMES.frames) expect([MIXED[offset], MIXED[offset + 1]]).toEqual([0xff, 0xf9]);
  });

  it("whole: accepted in both modes whatever the chunking, also with an ID3v1 tag or zero bytes after it", async () => {
    for (const bytes of [MIXED, concat(MIXED, ID3V1), concat(MIXED, new Uint8Array(4096))]) {
      for (const size of [1, 5, 4096, bytes.length]) {
        expect(await refusal(bytes, size, { sign: true }), `chunks of ${size}`).toBeNull();
        expect(await refusal(bytes, size, { sign: false }), `verify mode, chunks of ${size}`).toBeNull();
      }
    }
  });

  it("cut after any frame: refused, naming the sample the last frame ends at (tagged or not)", async () => {
    const { frames, total } = MIXED_FRAMES;
    for (let k = 1; k < frames.length; k++) {
      const cut = MIXED.subarray(0, frames[k]!.offset);
      const expected = `the FLAC's last frame ends at sample ${frames[k - 1]!.end} of the ${total} its STREAMINFO states (truncated, or STREAMINFO overstates the length: flac -t fails such a file; re-encode it)`;
      for (const size of [3, 4096]) expect(await refusal(cut, size, { sign: true }), `cut after frame ${k}`).toBe(expected);
      expect(await refusal(concat(cut, ID3V1), 4096, { sign: true }), `cut after frame ${k}, ID3v1`).toBe(expected);
      expect(await refusal(concat(cut, new Uint8Array(100)), 4096, { sign: true }), `cut after frame ${k}, zeros`).toBe(expected);
      expect(await refusal(cut, 4096, { sign: false, totalSamples: false }), `verification, cut after frame ${k}`).toBeNull();
    }
  });
});

describe("a false frame sync inside the last frame whose CRC-16 also closes at the end", () => {
  const FIXED = new Uint8Array(readFileSync(join(REVIEW, "..", "fixed.flac")));
  const FIXED_FRAMES: number[] = JSON.parse(readFileSync(join(REVIEW, "..", "frames.json"), "utf8"))["fixed.flac"];
  const crc8 = (b: ArrayLike<number>) => {
    let c = 0;
    for (let i = 0; i < b.length; i++) {
      c ^= b[i]!;
      for (let k = 0; k < 8; k++) c = c & 0x80 ? ((c << 1) ^ 0x07) & 0xff : (c << 1) & 0xff;
    }
    return c;
  };
  const crc16 = (b: Uint8Array) => {
    let c = 0;
    for (const x of b) {
      c ^= x << 8;
      for (let k = 0; k < 8; k++) c = c & 0x8000 ? ((c << 1) ^ 0x8005) & 0xffff : (c << 1) & 0xffff;
    }
    return c;
  };
  /**
   * fixed.flac's first 24 frames (98304 samples), then a last frame (the scanner reads headers and CRCs, not
   * subframes) of frame number 24 and 32 samples whose body holds a well-formed header of frame 0 (256 samples). The
   * CRC-16 from that false sync to the end is 0 as well when the bytes before it are a CRC-16 codeword (CRC-16 with
   * initial 0 is linear: a byte's share depends only on its distance from the end), so two bytes after the real
   * header make them one: two whole last frames.
   */
  function withFalseSync(total: number): Uint8Array {
    const head = FIXED.subarray(0, FIXED_FRAMES[24]);
    const real = FIXED.subarray(FIXED_FRAMES[24]!); // the real last frame: its sample rate, channels and bit depth
    const ownHead = [0xff, 0xf8, 0x60 | (real[2]! & 0x0f), real[3]!, 24, 31];
    const prefix = new Uint8Array([...ownHead, crc8(ownHead), 0, 0]);
    const closing = crc16(prefix.subarray(0, 7));
    prefix.set([closing >> 8, closing & 0xff], 7);
    const falseHead = [0xff, 0xf8, 0x80 | (real[2]! & 0x0f), real[3]!, 0];
    const filler = Array.from({ length: 20 }, (_, i) => (i * 37) & 0x7f);
    const frame = new Uint8Array([...prefix, ...falseHead, crc8(falseHead), ...filler, 0, 0]);
    const c = crc16(frame.subarray(0, frame.length - 2));
    frame.set([c >> 8, c & 0xff], frame.length - 2);
    expect(crc16(frame), "the real last frame is whole").toBe(0);
    expect(crc16(frame.subarray(prefix.length)), "so is the false one").toBe(0);
    const out = concat(head, frame);
    out[8 + 13] = (out[8 + 13]! & 0xf0) | Math.floor(total / 2 ** 32);
    new DataView(out.buffer).setUint32(8 + 14, total % 2 ** 32);
    return out;
  }

  it("a file whose real last frame reaches the total: accepted (the false one, ending at 256, does not refuse it)", async () => {
    const bytes = withFalseSync(98304 + 32);
    for (const size of [1, 4096]) expect(await refusal(bytes, size, { sign: true }), `chunks of ${size}`).toBeNull();
  });

  it("one whose total is past both: refused, naming the real last frame's end", async () => {
    expect(await refusal(withFalseSync(98304 + 32 + 4096), 4096, { sign: true })).toBe(
      `the FLAC's last frame ends at sample 98336 of the ${98304 + 32 + 4096} its STREAMINFO states (truncated, or STREAMINFO overstates the length: flac -t fails such a file; re-encode it)`,
    );
  });
});

const priced = (duration: number | null) =>
  quote({ media_family: "audio", operation: "sign", width: null, height: null, duration_seconds: duration, frames_per_second: null });

describe("the streamed inspection's duration is the in-memory inspector's (and can be priced)", () => {
  it("a WAV whose length is not a whole millisecond", async () => {
    // 60 s and one sample frame at 48 kHz: 60.0000208… s.
    const wav = largeWav(48_000 * 4 * 60 + 4);
    const memory = new ByteSniffingInspector().inspect(wav, "audio/wav");
    if (memory.status !== "ok") throw new Error(memory.status);
    expect(memory.facts.duration_seconds).toBe(60);
    const { inspection } = await inspectStreamed(streamOf(wav), wav.length, "audio/wav", "audio");
    if (inspection.status !== "ok") throw new Error(inspection.status);
    expect(inspection.facts.duration_seconds).toBe(60);
    expect(priced(inspection.facts.duration_seconds).status).toBe("ok");
  });

  it("a WAV whose header's byte rate lies (the sample frames are counted, as the in-memory inspector does)", async () => {
    const wav = largeWav(48_000 * 4 * 60);
    // The byte rate says 100× the stream's: a 60 s recording would be inspected, and priced, as 0.6 s.
    new DataView(wav.buffer).setUint32(28, 48_000 * 4 * 100, true);
    const memory = new ByteSniffingInspector().inspect(wav, "audio/wav");
    if (memory.status !== "ok") throw new Error(memory.status);
    expect(memory.facts.duration_seconds).toBe(60);
    const { inspection } = await inspectStreamed(streamOf(wav), wav.length, "audio/wav", "audio");
    if (inspection.status !== "ok") throw new Error(inspection.status);
    expect(inspection.facts.duration_seconds).toBe(60);
  });

  it("an MP4: exactly the in-memory inspector's duration (rounded to milliseconds)", async () => {
    const mp4 = largeMp4(12 * MiB);
    // mvhd (version 0): a timescale of 600 and 1001 ticks, 1.668333… s.
    const mvhd = Buffer.from(mp4.buffer, mp4.byteOffset, 4096).indexOf("mvhd");
    expect(mp4[mvhd + 4]).toBe(0);
    const view = new DataView(mp4.buffer, mp4.byteOffset);
    view.setUint32(mvhd + 16, 600);
    view.setUint32(mvhd + 20, 1001);
    const memory = new ByteSniffingInspector().inspect(mp4, "video/mp4");
    if (memory.status !== "ok") throw new Error(memory.status);
    const { inspection } = await inspectStreamed(streamOf(mp4), mp4.length, "video/mp4", "video");
    if (inspection.status !== "ok") throw new Error(inspection.status);
    expect(memory.facts.duration_seconds).toBe(1.668);
    expect(inspection.facts.duration_seconds).toBe(1.668);
  });
});
