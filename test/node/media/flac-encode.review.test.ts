/**
 * Review (#20, rev-media): our FLAC encoder (src/media/codecs/audio/flac-encode.ts) on hand-made edge signals the
 * conformance test does not build: full-scale 24-bit stereo whose side channel needs all 25 bits, a noise burst
 * that forces a large Rice parameter, a last block of 1 sample, fewer than 16 samples in all, odd channel counts
 * at 4 bits, rates without a frame-header code. Each output must pass `flac -t` (libFLAC: CRCs, MD5) and FFmpeg must
 * decode exactly the samples given. Signals are generated here (a seeded LCG).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { encodeFlac } from "../../../src/media/codecs/audio/flac-encode";

const work = mkdtempSync(join(tmpdir(), "svc-flac-review-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function check(samples: Int32Array, channels: number, bits: number, rate: number): void {
  const out = encodeFlac({ samples, channels, bitsPerSample: bits, sampleRate: rate });
  if (out.status !== "encoded") throw new Error(out.message);
  const file = join(work, `${crypto.randomUUID()}.flac`);
  writeFileSync(file, out.bytes);
  execFileSync("flac", ["-t", "-s", file], { stdio: ["ignore", "pipe", "pipe"] });
  const raw = execFileSync("/usr/bin/ffmpeg", ["-v", "error", "-i", file, "-f", "s32le", "-"], { maxBuffer: 1 << 28 });
  const s32 = new Int32Array(raw.buffer, raw.byteOffset, raw.byteLength / 4);
  const got = Int32Array.from(s32, (v) => ((v >> (32 - Math.max(bits, 8))) >> Math.max(0, 8 - bits)) << 0);
  expect(got.length).toBe(samples.length);
  let first = -1;
  for (let i = 0; i < got.length && first < 0; i++) if (got[i] !== samples[i]) first = i;
  expect(first).toBe(-1);
}

function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe("review: FLAC encoder edge signals", () => {
  it("24-bit stereo at full scale, left +max and right -min alternating (a 25-bit side channel), and noise bursts", () => {
    const frames = 4096 * 2 + 7;
    const max = 2 ** 23 - 1;
    const min = -(2 ** 23);
    const x = new Int32Array(frames * 2);
    const rnd = lcg(1);
    for (let i = 0; i < frames; i++) {
      const flip = (i >> 3) & 1;
      if (i < 4096) {
        x[2 * i] = flip ? max : min;
        x[2 * i + 1] = flip ? min : max;
      } else {
        x[2 * i] = Math.floor(min + rnd() * (max - min + 1));
        x[2 * i + 1] = i % 97 === 0 ? max : Math.floor(rnd() * 64) - 32;
      }
    }
    check(x, 2, 24, 96_000);
  });

  it("16-bit stereo: a silent block with one full-scale click (a huge Rice quotient), -32768/32767 edges", () => {
    const frames = 4096 + 1;
    const x = new Int32Array(frames * 2);
    x[2 * 1000] = 32767;
    x[2 * 1000 + 1] = -32768;
    x[2 * 1001] = -32768;
    x[2 * 1001 + 1] = 32767;
    x[2 * 4096] = -32768;
    check(x, 2, 16, 44_100);
  });

  it("fewer than 16 samples, and a stream whose length is 1 past a block", () => {
    const rnd = lcg(2);
    check(
      Int32Array.from({ length: 5 * 2 }, () => Math.floor(rnd() * 65536) - 32768),
      2,
      16,
      44_100,
    );
    check(
      Int32Array.from({ length: 4097 }, () => Math.floor(rnd() * 200) - 100),
      1,
      16,
      8_000,
    );
  });

  it("odd layouts: 3, 5 and 7 channels at 12 bits, at a rate with no header code (50 kHz) and at 1 Hz", () => {
    const rnd = lcg(3);
    for (const channels of [3, 5, 7]) {
      const x = Int32Array.from(
        { length: 5000 * channels },
        (_, i) => Math.round(2000 * Math.sin(i / (7 + channels))) + Math.floor(rnd() * 9) - 4,
      );
      check(x, channels, 12, 50_000);
    }
    check(
      Int32Array.from({ length: 4000 }, () => Math.floor(rnd() * 4096) - 2048),
      1,
      12,
      1,
    );
  });
});
