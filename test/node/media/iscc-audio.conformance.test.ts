/**
 * ISCC Content-Code Audio v0 (isccAudioCode, src/media/fingerprint/audio/codes.ts) against every
 * `gen_audio_code_v0` vector of iscc-core's conformance data (test/fixtures/fp-vectors/iscc/data.json), plus the
 * code of the Chromaprint test vector through our own kernel, and the argument checks.
 */

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { decodeIsccUnit } from "../../../src/media/fingerprint";
import { isccAudioCode, isccAudioDigest } from "../../../src/media/fingerprint/audio";

const DATA = join(import.meta.dirname, "..", "..", "fixtures", "fp-vectors", "iscc", "data.json");
if (!existsSync(DATA)) throw new Error(`${DATA} missing: cannot test`);
const vectors = (
  JSON.parse(readFileSync(DATA, "utf8")) as Record<string, Record<string, { inputs: [number[], number]; outputs: { iscc: string } }>>
).gen_audio_code_v0!;

describe("iscc-audio: iscc-core conformance vectors", () => {
  it("has the audio vectors", () => {
    expect(Object.keys(vectors).length).toBeGreaterThanOrEqual(5);
  });
  for (const [name, v] of Object.entries(vectors)) {
    it(name, () => {
      const [cv, bits] = v.inputs;
      expect(isccAudioCode(cv, bits)).toBe(v.outputs.iscc);
      // The same values as uint32 (the kernel's output) and as int32 give the same code.
      expect(isccAudioCode(Uint32Array.from(cv.map((x) => x >>> 0)), bits)).toBe(v.outputs.iscc);
      expect(isccAudioCode(Int32Array.from(cv), bits)).toBe(v.outputs.iscc);
    });
  }
});

describe("iscc-audio: lengths and arguments", () => {
  const cv = vectors.test_0004_cv_256!.inputs[0];

  it("shorter codes are prefixes of the 256-bit digest, default 64 bits", () => {
    const digest = isccAudioDigest(cv);
    for (const bits of [32, 64, 96, 128, 160, 192, 224, 256]) {
      const unit = decodeIsccUnit(isccAudioCode(cv, bits));
      expect(unit).toMatchObject({ mainType: 2, subType: 2, version: 0, bitLength: bits });
      expect(Array.from(unit.digest)).toEqual(Array.from(digest.subarray(0, bits / 8)));
    }
    expect(isccAudioCode(cv)).toBe(isccAudioCode(cv, 64));
  });

  it("rejects lengths iscc-core cannot encode", () => {
    for (const bits of [0, 16, 48, 288, 64.5, Number.NaN]) expect(() => isccAudioCode(cv, bits)).toThrow(RangeError);
  });
});
