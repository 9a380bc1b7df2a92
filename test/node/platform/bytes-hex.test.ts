import { describe, expect, it } from "vitest";
import { fromHex, hex } from "../../../src/platform/bytes";

// The spellings hex and fromHex had before their lookup tables (#19): the tables must change no output and no refusal.
const reference = {
  hex: (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join(""),
  fromHex(text: string): Uint8Array {
    if (!/^(?:[0-9a-f]{2})*$/.test(text)) throw new RangeError("not lowercase hex of even length");
    return Uint8Array.from({ length: text.length >> 1 }, (_, i) => parseInt(text.slice(i * 2, i * 2 + 2), 16));
  },
};

/** A deterministic byte stream (xorshift), so a failure reproduces. */
function bytesFrom(seed: number, length: number): Uint8Array {
  let x = seed | 1;
  return Uint8Array.from({ length }, () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return x & 255;
  });
}

describe("hex and fromHex", () => {
  it("spell and read every byte value as before, at every length", () => {
    const all = Uint8Array.from({ length: 256 }, (_, b) => b);
    expect(hex(all)).toBe(reference.hex(all));
    expect(hex(all.buffer)).toBe(reference.hex(all));
    expect(fromHex(reference.hex(all))).toEqual(all);
    for (let n = 0; n < 200; n++) {
      const bytes = bytesFrom(n + 1, n % 41);
      expect(hex(bytes)).toBe(reference.hex(bytes));
      expect(fromHex(hex(bytes))).toEqual(bytes);
    }
  });

  it("refuse exactly what was refused before: odd lengths, capitals, signs, spaces, prefixes, non-ASCII", () => {
    const spellings = ["", "0", "00", "0g", "g0", "00FF", "Ff", "+1", "-1", " 1", "1 ", "0x00", "\u0130\u0130", "é0", "0\u0000", "ːa"];
    // Every one-character change of a valid spelling, over the ASCII range and a few beyond it.
    const base = "09af";
    for (let i = 0; i < base.length; i++)
      for (const code of [...Array.from({ length: 128 }, (_, c) => c), 0x130, 0x660, 0xff10, 0xff41])
        spellings.push(base.slice(0, i) + String.fromCharCode(code) + base.slice(i + 1));
    for (const text of spellings) {
      let expected: Uint8Array | "refused";
      try {
        expected = reference.fromHex(text);
      } catch {
        expected = "refused";
      }
      if (expected === "refused") expect(() => fromHex(text), JSON.stringify(text)).toThrow(RangeError);
      else expect(fromHex(text), JSON.stringify(text)).toEqual(expected);
    }
  });
});
