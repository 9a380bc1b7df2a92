/**
 * vPDQ (src/media/fingerprint/video/vpdq.ts) against ThreatExchange's vectors for doorknob-hd-no-bar.mp4
 * (test/fixtures/fp-vectors/vpdq: every frame's `frame,quality,pdq_hex,timestamp`, full size and 128x128):
 *
 * - Bit-exact, every frame, hash and quality, on upstream's frames: full size converted by libswscale's C path
 *   (`-cpuflags 0`: the x86 SIMD YUV->RGB rounds differently, as upstream's reference machine evidently did
 *   not), 128x128 by SWS_LANCZOS (the scaler of the vpdq version that wrote the 128x128 vectors, ad84a898).
 *   Then our encoded output is upstream's file, byte for byte.
 * - Upstream's regression rule (match-hashes-byline: frames with both qualities >= 50 at distance <= 31, all of
 *   them) with the current upstream scaler (SWS_AREA) and ffmpeg's default SIMD conversion: the frames a
 *   decoder following VPDQ_FRAME_SPEC gives.
 * - The matcher, the sampler, the serialisation and hostile serialised input.
 */

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { hammingDistance, pdqBitsFromHex } from "../../../src/media/fingerprint";
import {
  decodeVpdq,
  dedupeVpdq,
  encodeVpdq,
  framePdq,
  isVpdqMatch,
  type RgbFrame,
  VPDQ_FRAME_SPEC,
  VPDQ_MATCH,
  VPDQ_SECONDS_PER_HASH,
  type VpdqFrameHash,
  VpdqHasher,
  vpdqMatch,
} from "../../../src/media/fingerprint/video";
import { DOORKNOB, kernel, median, VECTORS, vpdqFrames } from "./video-fp.helpers";

const FULL_TEXT = readFileSync(join(VECTORS, "vpdq", "doorknob-hd-no-bar.txt"), "utf8");
const SMALL_TEXT = readFileSync(join(VECTORS, "vpdq", "doorknob-hd-no-bar-128x128.txt"), "utf8");

function decoded(text: string): VpdqFrameHash[] {
  const r = decodeVpdq(text);
  if (r.status !== "decoded") throw new Error(r.message);
  return r.hashes;
}
const UPSTREAM_FULL = decoded(FULL_TEXT);
const UPSTREAM_SMALL = decoded(SMALL_TEXT);

function hashAll(frames: RgbFrame[]): VpdqFrameHash[] {
  const h = new VpdqHasher(kernel, { secondsPerHash: 0, frameRate: 30 });
  for (const f of frames) h.push(f);
  const r = h.finish();
  if (r.status !== "computed") throw new Error(r.message);
  return r.hashes;
}

/** Per-frame comparison with upstream: distances, quality differences, and upstream's byline rule. */
function compare(ours: VpdqFrameHash[], upstream: VpdqFrameHash[]) {
  expect(ours.length).toBe(upstream.length);
  const distances = ours.map((h, i) => hammingDistance(h.bits, upstream[i]!.bits));
  const qualityDiffs = ours.map((h, i) => Math.abs(h.quality - upstream[i]!.quality));
  const compared = ours.map((h, i) => h.quality >= VPDQ_MATCH.quality && upstream[i]!.quality >= VPDQ_MATCH.quality);
  const comparedDistances = distances.filter((_, i) => compared[i]);
  return {
    exact: distances.filter((d, i) => d === 0 && qualityDiffs[i] === 0).length,
    maxDistance: Math.max(...distances),
    medianDistance: median(distances),
    compared: comparedDistances.length,
    comparedMax: Math.max(...comparedDistances),
    comparedMedian: median(comparedDistances),
    bylineMatched: comparedDistances.filter((d) => d <= VPDQ_MATCH.distance).length,
    maxQualityDiff: Math.max(...qualityDiffs),
    sameQuality: qualityDiffs.filter((d) => d === 0).length,
  };
}

describe("vPDQ against upstream's doorknob-hd-no-bar vectors", () => {
  it("full size, upstream's frames (libswscale C path): every frame bit-exact, and the file byte for byte", () => {
    const ours = hashAll(vpdqFrames(DOORKNOB, 1280, 720, "area", ["-cpuflags", "0"]));
    const c = compare(ours, UPSTREAM_FULL);
    console.log("vpdq full size, -cpuflags 0:", JSON.stringify(c));
    expect(c.exact).toBe(120);
    expect(encodeVpdq(ours)).toBe(FULL_TEXT);
  });

  it("128x128 by SWS_LANCZOS (the scaler that wrote the vectors): every frame bit-exact, the file byte for byte", () => {
    const ours = hashAll(vpdqFrames(DOORKNOB, 128, 128, "lanczos"));
    const c = compare(ours, UPSTREAM_SMALL);
    console.log("vpdq 128x128 lanczos:", JSON.stringify(c));
    expect(c.exact).toBe(120);
    expect(encodeVpdq(ours)).toBe(SMALL_TEXT);
  });

  it("VPDQ_FRAME_SPEC frames (SWS_AREA, today's upstream scaler; ffmpeg's SIMD conversion): upstream's regtest rule holds for every frame", () => {
    expect(VPDQ_FRAME_SPEC).toMatchObject({ width: 128, height: 128, fps: null, scaleFlags: "area" });
    const small = compare(hashAll(vpdqFrames(DOORKNOB, 128, 128, "area")), UPSTREAM_SMALL);
    const full = compare(hashAll(vpdqFrames(DOORKNOB, 1280, 720, "area")), UPSTREAM_FULL);
    console.log("vpdq 128x128 area vs upstream:", JSON.stringify(small));
    console.log("vpdq full size area (SIMD) vs upstream:", JSON.stringify(full));
    for (const c of [small, full]) {
      expect(c.compared).toBeGreaterThanOrEqual(55);
      expect(c.bylineMatched).toBe(c.compared);
      expect(c.comparedMax).toBeLessThanOrEqual(VPDQ_MATCH.distance);
      expect(c.maxQualityDiff).toBeLessThanOrEqual(10);
    }
    // the video matches itself across the two hashers, both ways, by upstream's matcher
    for (const [q, t] of [
      [UPSTREAM_SMALL, UPSTREAM_FULL],
      [UPSTREAM_FULL, UPSTREAM_SMALL],
    ] as const) {
      const m = vpdqMatch(q, t);
      expect(isVpdqMatch(m)).toBe(true);
    }
  });
});

describe("vPDQ hasher, matcher and serialisation", () => {
  const frames = vpdqFrames(DOORKNOB, 128, 128, "lanczos");

  it("samples one frame per secondsPerHash by index (upstream's frameMod) and stamps index / frameRate", () => {
    const h = new VpdqHasher(kernel, { frameRate: 30 });
    for (const f of frames) h.push(f);
    const r = h.finish();
    expect(r.status).toBe("computed");
    if (r.status !== "computed") return;
    expect(r.hashes.map((x) => x.frame)).toEqual([0, 30, 60, 90]);
    expect(r.hashes.map((x) => x.timestampSeconds)).toEqual([0, 1, 2, 3]);
    expect(encodeVpdq(r.hashes)).toBe(
      SMALL_TEXT.split("\n")
        .filter((_, i) => i % 30 === 0 && i < 120)
        .map((l) => `${l}\n`)
        .join(""),
    );
    // the index side's rate: every trunc(0.2 * 30) = 6th frame
    const dense = new VpdqHasher(kernel, { secondsPerHash: VPDQ_SECONDS_PER_HASH.index, frameRate: 30 });
    for (const f of frames) dense.push(f);
    const d = dense.finish();
    expect(d.status === "computed" && d.hashes.map((x) => x.frame)).toEqual(Array.from({ length: 20 }, (_, i) => i * 6));
    // without a frame rate: by timestamp, the same frames
    const byTime = new VpdqHasher(kernel, { secondsPerHash: 1 });
    for (const f of frames) byTime.push(f);
    const t = byTime.finish();
    expect(t.status === "computed" && t.hashes.map((x) => x.frame)).toEqual([0, 30, 60, 90]);
  });

  it("a bad frame, frames out of order, or no frame: failed, never a throw", () => {
    const cases: unknown[] = [
      null,
      { index: 0, timestampSeconds: 0, width: 128, height: 128, rgb: new Uint8Array(10) },
      { index: 0, timestampSeconds: 0, width: -1, height: 128, rgb: new Uint8Array(0) },
      { index: 0, timestampSeconds: 0, width: 1e9, height: 1e9, rgb: new Uint8Array(3) },
      { index: -1, timestampSeconds: 0, width: 1, height: 1, rgb: new Uint8Array(3) },
      { index: 0, timestampSeconds: 0, width: 2, height: 2, rgb: [1, 2, 3] },
    ];
    for (const bad of cases) {
      const h = new VpdqHasher(kernel, { secondsPerHash: 0, frameRate: 30 });
      h.push(bad as RgbFrame);
      h.push(frames[0]!);
      expect(h.finish().status).toBe("failed");
    }
    const h = new VpdqHasher(kernel, { secondsPerHash: 0, frameRate: 30 });
    h.push(frames[1]!);
    h.push(frames[0]!);
    expect(h.finish()).toMatchObject({ status: "failed", message: expect.stringContaining("not in order") });
    expect(new VpdqHasher(kernel).finish().status).toBe("failed");
    // a 4x4 frame hashes as upstream's PDQ does: zero, quality 0
    const tiny = framePdq(kernel, { index: 0, timestampSeconds: 0, width: 4, height: 4, rgb: new Uint8Array(48).fill(200) }, true);
    expect(tiny).toMatchObject({ status: "computed", quality: 0 });
    expect(tiny.status === "computed" && tiny.bits.every((b) => b === 0) && tiny.floats!.every((v) => v === 0)).toBe(true);
  });

  it("matches as upstream's brute matcher: dedupe, quality >= 50, distance <= 31, both directions", () => {
    const m = vpdqMatch(UPSTREAM_FULL, UPSTREAM_FULL);
    // 120 frames, quality < 50 dropped, exact repeats dropped
    const kept = dedupeVpdq(UPSTREAM_FULL).filter((h) => h.quality >= 50).length;
    expect(m).toEqual({ queryMatchPercent: 100, targetMatchPercent: 100, queryFrames: kept, targetFrames: kept });
    // one flipped bit past the distance: 32 bits off is no match, 31 is
    const base = UPSTREAM_FULL.find((h) => h.quality >= 50)!;
    const flip = (n: number): VpdqFrameHash => {
      const bits = base.bits.slice();
      for (let k = 0; k < n; k++) bits[k >> 3]! ^= 1 << (k & 7);
      return { ...base, bits };
    };
    expect(vpdqMatch([flip(31)], [base]).queryMatchPercent).toBe(100);
    expect(vpdqMatch([flip(32)], [base]).queryMatchPercent).toBe(0);
    // low quality frames take no part; nothing left: 0 %, not a match
    const low = { ...base, quality: 49 };
    expect(vpdqMatch([low], [base])).toEqual({ queryMatchPercent: 0, targetMatchPercent: 0, queryFrames: 0, targetFrames: 1 });
    expect(isVpdqMatch(vpdqMatch([low], [base]))).toBe(false);
    // dedupe keeps the first of exact repeats, in order
    expect(dedupeVpdq([base, flip(1), base, flip(1)]).map((h) => h.bits)).toEqual([base.bits, flip(1).bits]);
    // an unrelated video (upstream's hashes, bits inverted) does not match
    const inverted = UPSTREAM_FULL.map((h) => ({ ...h, bits: h.bits.map((b) => b ^ 0xff) }));
    expect(vpdqMatch(inverted, UPSTREAM_FULL).queryMatchPercent).toBe(0);
  });

  it("decodeVpdq: upstream files decode; hostile text is invalid, never a throw", () => {
    expect(UPSTREAM_FULL).toHaveLength(120);
    expect(UPSTREAM_FULL[1]).toEqual({
      frame: 1,
      quality: 100,
      bits: pdqBitsFromHex(FULL_TEXT.split("\n")[1]!.split(",")[2]!),
      timestampSeconds: 0.033,
    });
    expect(encodeVpdq(decoded(FULL_TEXT))).toBe(FULL_TEXT);
    expect(decodeVpdq("")).toEqual({ status: "decoded", hashes: [] });
    const line = FULL_TEXT.split("\n")[0]!;
    for (const bad of [
      "x",
      line.replace(",100,", ",101,"),
      line.replace(/,[0-9a-f]{64},/, ",abc,"),
      `${line}\n${line}`, // frame not increasing
      line.replace(/^0,/, "-1,"),
      `${line},extra`,
      "1,100,".padEnd(5_000_000, "f"),
      `${line}\n`.repeat(300_000),
      42 as unknown as string,
    ]) {
      expect(decodeVpdq(bad).status).toBe("invalid");
    }
  });
});
