import { describe, expect, it } from "vitest";
import { expectDifferentBytes, expectSameBytes, firstDifference } from "../../support/same-bytes";

describe("test/support/same-bytes (the byte comparison the audio tests use instead of toEqual)", () => {
  it("finds the first differing byte anywhere in a large array, and fails on kind, length or one byte", () => {
    const a = new Uint8Array(3_000_001).map((_, i) => i * 31);
    expect(firstDifference(a, a.slice())).toBe(-1);
    expectSameBytes(a, a.slice());
    for (const at of [0, 1, 63, 64, 1_500_000, 3_000_000]) {
      const b = a.slice();
      b[at]! ^= 1;
      expect(firstDifference(a, b)).toBe(at);
      expect(() => expectSameBytes(b, a)).toThrow(/first differing byte/);
      expectDifferentBytes(a, b);
    }
    expect(() => expectSameBytes(a.subarray(1), a)).toThrow(/length/);
    expect(() => expectSameBytes(new Int16Array(2), new Uint8Array(4))).toThrow(/kind/);
    expect(() => expectSameBytes(undefined, a)).toThrow(/present/);
    expect(() => expectDifferentBytes(a, a.slice())).toThrow(/some byte differs/);
    // Stricter than toEqual on floats: -0 and 0 are different bytes.
    expect(() => expectSameBytes(Float32Array.of(-0), Float32Array.of(0))).toThrow();
  });
});
