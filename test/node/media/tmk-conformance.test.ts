/**
 * TMK+PDQF (src/media/fingerprint/video/tmk.ts) against ThreatExchange's doorknob-hd-no-bar.tmk (made by
 * tmk-hash-video with ffmpeg 4.1): our features of the same video, from frames made by upstream's very ffmpeg
 * command, must score level 1 and level 2 >= 0.99 against upstream's (they agree to float rounding: see the
 * figures logged; here the file is byte-identical), our .tmk bytes must decode to what we encoded, upstream's file must decode, and hostile
 * .tmk bytes must give a clean result.
 */

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  decodeTmk,
  encodeTmk,
  isTmkMatch,
  TMK_DECODE_LIMITS,
  TMK_FOURIER_COEFFICIENTS,
  TMK_FRAME_SPEC,
  TMK_MATCH,
  TMK_PERIODS,
  type TmkFeatures,
  TmkPdqfHasher,
  tmkScores,
} from "../../../src/media/fingerprint/video";
import { prng, randomBytes } from "../../support/prng";
import { DOORKNOB, kernel, tmkFrames, VECTORS } from "./video-fp.helpers";

const UPSTREAM_BYTES = new Uint8Array(readFileSync(join(VECTORS, "tmk", "doorknob-hd-no-bar.tmk")));

function upstream(): TmkFeatures {
  const r = decodeTmk(UPSTREAM_BYTES);
  if (r.status !== "decoded") throw new Error(r.message);
  return r.features;
}

/** The video's frames by upstream's command, made once. */
let framesMade: ReturnType<typeof tmkFrames> | null = null;
const doorknobFrames = () => {
  framesMade ??= tmkFrames(DOORKNOB);
  return framesMade;
};

function ours(frames = doorknobFrames()): TmkFeatures {
  const h = new TmkPdqfHasher(kernel);
  for (const f of frames) h.push(f);
  const r = h.finish();
  if (r.status !== "computed") throw new Error(r.message);
  return r.features;
}

function maxAbsDiff(a: Float32Array, b: Float32Array): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
}

describe("TMK+PDQF against upstream's doorknob-hd-no-bar.tmk", () => {
  it("upstream's file decodes: TMK1/FVEC/PDQF, 15 fps, Poullot's 4 periods and 32 coefficients, dimension 256", () => {
    const f = upstream();
    expect(f.framesPerSecond).toBe(15);
    expect(Array.from(f.periods)).toEqual([...TMK_PERIODS]);
    // our coefficients, computed from the Bessel series, are upstream's table to the last f32 bit
    expect(f.fourierCoefficients).toEqual(TMK_FOURIER_COEFFICIENTS);
    expect(f.pureAverage).toHaveLength(256);
    expect(f.frameFeatureCount).toBe(62);
    expect(encodeTmk(f)).toEqual(UPSTREAM_BYTES);
    const self = tmkScores(f, f);
    expect(self.status === "scored" && Math.abs(self.level1 - 1) < 1e-6 && Math.abs(self.level2 - 1) < 1e-6).toBe(true);
  });

  it("our features of the video score >= 0.99 on both levels against upstream's (figures logged)", () => {
    expect(TMK_FRAME_SPEC).toMatchObject({ width: 64, height: 64, fps: 15, scaleFlags: "bicubic" });
    const mine = ours();
    const theirs = upstream();
    const s = tmkScores(mine, theirs);
    expect(s.status).toBe("scored");
    if (s.status !== "scored") return;
    const diffs = {
      frames: mine.frameFeatureCount,
      level1: s.level1,
      level2: s.level2,
      pureAverageMaxAbsDiff: maxAbsDiff(mine.pureAverage, theirs.pureAverage),
      cosMaxAbsDiff: maxAbsDiff(mine.cos, theirs.cos),
      sinMaxAbsDiff: maxAbsDiff(mine.sin, theirs.sin),
      identicalBytes: encodeTmk(mine).every((b, i) => b === UPSTREAM_BYTES[i]),
    };
    console.log("tmk ours vs upstream:", JSON.stringify(diffs));
    expect(mine.frameFeatureCount).toBe(theirs.frameFeatureCount);
    expect(s.level1).toBeGreaterThanOrEqual(0.99);
    expect(s.level2).toBeGreaterThanOrEqual(0.99);
    expect(isTmkMatch(s)).toBe(true);
    expect(diffs.pureAverageMaxAbsDiff).toBeLessThan(1e-3);
    // in fact the frames (Debian's ffmpeg 5.1 vs upstream's 4.1) and the f32 arithmetic agree to the bit
    expect(diffs.identicalBytes).toBe(true);
  });

  it("encodeTmk / decodeTmk round trip, and the layout is upstream's (32-byte header, 263 344 bytes)", () => {
    const mine = ours();
    const bytes = encodeTmk(mine);
    expect(bytes.length).toBe(UPSTREAM_BYTES.length);
    expect(bytes.subarray(0, 32)).toEqual(UPSTREAM_BYTES.subarray(0, 32));
    const back = decodeTmk(bytes);
    expect(back).toEqual({ status: "decoded", features: mine });
  });

  it("an unrelated video scores below upstream's thresholds; incompatible features are reported, not scored", () => {
    const mine = ours();
    // the video reversed in time and mirrored: other frames, other order
    const frames = [...doorknobFrames()].reverse();
    const mirrored = frames.map((f, i) => {
      const rgb = new Uint8Array(f.rgb.length);
      for (let y = 0; y < 64; y++)
        for (let x = 0; x < 64; x++) for (let c = 0; c < 3; c++) rgb[(y * 64 + x) * 3 + c] = 255 - f.rgb[(x * 64 + y) * 3 + c]!;
      return { ...f, index: i, rgb };
    });
    const other = tmkScores(mine, ours(mirrored));
    console.log("tmk vs transposed negative of itself:", JSON.stringify(other));
    expect(isTmkMatch(other)).toBe(false);
    expect(tmkScores(mine, { ...mine, framesPerSecond: 30 }).status).toBe("incompatible");
    expect(tmkScores(mine, { ...mine, periods: Int32Array.of(1, 2, 3, 4) }).status).toBe("incompatible");
    expect(tmkScores(mine, { ...mine, cos: new Float32Array(3) }).status).toBe("incompatible");
    expect(TMK_MATCH).toEqual({ level1: 0.7, level2: 0.7 });
  });

  it("hostile .tmk bytes: truncated, wrong header, huge counts, non-finite values: a clean result, never a throw", () => {
    const withInt = (at: number, v: number) => {
      const b = UPSTREAM_BYTES.slice();
      new DataView(b.buffer).setInt32(at, v, true);
      return b;
    };
    const cases: [string, Uint8Array, string][] = [
      ["empty", new Uint8Array(0), "invalid"],
      ["header only", UPSTREAM_BYTES.slice(0, 32), "invalid"],
      ["truncated", UPSTREAM_BYTES.slice(0, UPSTREAM_BYTES.length - 1), "invalid"],
      ["trailing byte", Uint8Array.of(...UPSTREAM_BYTES.subarray(0, 64), 0), "invalid"],
      ["wrong project magic", Uint8Array.from(UPSTREAM_BYTES, (b, i) => (i === 0 ? 0x58 : b)), "invalid"],
      ["a feature file, not FVEC", Uint8Array.from(UPSTREAM_BYTES, (b, i) => (i >= 4 && i < 8 ? "FEAT".charCodeAt(i - 4) : b)), "invalid"],
      ["another algorithm", Uint8Array.from(UPSTREAM_BYTES, (b, i) => (i >= 8 && i < 12 ? "XXXX".charCodeAt(i - 8) : b)), "unsupported"],
      ["fps 0", withInt(12, 0), "invalid"],
      ["2^31-1 periods", withInt(16, 0x7fffffff), "invalid"],
      ["negative coefficients count", withInt(20, -5), "invalid"],
      ["huge dimension", withInt(24, 1 << 30), "invalid"],
      ["dimension 0", withInt(24, 0), "invalid"],
      ["negative frame count", withInt(28, -1), "invalid"],
      ["a period of 2^31-1 (scoring would never end)", withInt(32, 0x7fffffff), "invalid"],
      [
        "a NaN value",
        (() => {
          const b = UPSTREAM_BYTES.slice();
          new DataView(b.buffer).setFloat32(UPSTREAM_BYTES.length - 4, Number.NaN, true);
          return b;
        })(),
        "invalid",
      ],
      ["over the size limit", new Uint8Array(TMK_DECODE_LIMITS.maxBytes + 1), "invalid"],
    ];
    for (const [name, bytes, status] of cases) {
      const r = decodeTmk(bytes);
      expect(r.status, name).toBe(status);
    }
    expect(decodeTmk("TMK1" as unknown as Uint8Array).status).toBe("invalid");
    // random bytes and random corruptions of the header
    const rand = prng(20);
    for (let i = 0; i < 300; i++) {
      const b = i % 2 ? randomBytes(rand, Math.floor(rand() * 2000)) : UPSTREAM_BYTES.slice();
      if (i % 2 === 0) for (let k = 0; k < 4; k++) b[Math.floor(rand() * 48)] = Math.floor(rand() * 256);
      expect(() => decodeTmk(b)).not.toThrow();
    }
  });

  it("the hasher: a frame of the wrong size, a bad frame, no frame, or a push after finish: failed, never a throw", () => {
    const frames = doorknobFrames().slice(0, 3);
    const bad = [
      { ...frames[0]!, width: 32, height: 32, rgb: new Uint8Array(32 * 32 * 3) },
      { ...frames[0]!, rgb: new Uint8Array(5) },
      null,
    ];
    for (const f of bad) {
      const h = new TmkPdqfHasher(kernel);
      h.push(frames[0]!);
      h.push(f as never);
      expect(h.finish().status).toBe("failed");
    }
    expect(new TmkPdqfHasher(kernel).finish().status).toBe("failed");
    const h = new TmkPdqfHasher(kernel);
    h.push(frames[0]!);
    expect(h.finish().status).toBe("computed");
    h.push(frames[1]!);
    expect(h.finish().status).toBe("failed");
  });
});
