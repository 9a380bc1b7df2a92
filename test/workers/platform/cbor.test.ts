/**
 * The strict CBOR decoder (src/platform/cbor.ts) against RFC 8949: the examples of Appendix A, the not
 * well-formed encodings of Appendix F, the validity rules it enforces (UTF-8, duplicate keys), and its bounds
 * (depth, lengths beyond the input) that keep hostile input cheap.
 */
import { describe, expect, it } from "vitest";
import { type CborItem, decodeCbor } from "../../../src/platform/cbor";
import { prng, randomBytes } from "../../support/prng";

const hexBytes = (hex: string) => Uint8Array.from(hex.replace(/\s/g, "").match(/../g) ?? [], (h) => parseInt(h, 16));
const enc = (s: string) => new TextEncoder().encode(s);

function decode(hex: string): CborItem {
  const r = decodeCbor(hexBytes(hex));
  if (r.status !== "ok") throw new Error(`${hex}: ${r.message} at ${r.offset}`);
  expect(r.length).toBe(hexBytes(hex).length);
  return r.value;
}

const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => a + i);

describe("RFC 8949 Appendix A examples", () => {
  it.each<[string, CborItem]>([
    ["00", 0],
    ["01", 1],
    ["0a", 10],
    ["17", 23],
    ["1818", 24],
    ["1819", 25],
    ["1864", 100],
    ["1903e8", 1000],
    ["1a000f4240", 1000000],
    ["1b000000e8d4a51000", 1000000000000],
    ["1bffffffffffffffff", 18446744073709551615n],
    ["c249010000000000000000", { tag: 2, value: hexBytes("010000000000000000") }],
    ["3bffffffffffffffff", -18446744073709551616n],
    ["c349010000000000000000", { tag: 3, value: hexBytes("010000000000000000") }],
    ["20", -1],
    ["29", -10],
    ["3863", -100],
    ["3903e7", -1000],
    ["f90000", 0],
    ["f93c00", 1],
    ["fb3ff199999999999a", 1.1],
    ["f93e00", 1.5],
    ["f97bff", 65504],
    ["fa47c35000", 100000],
    ["fa7f7fffff", 3.4028234663852886e38],
    ["fb7e37e43c8800759c", 1.0e300],
    ["f90001", 5.960464477539063e-8],
    ["f90400", 0.00006103515625],
    ["f9c400", -4],
    ["fbc010666666666666", -4.1],
    ["f97c00", Infinity],
    ["f9fc00", -Infinity],
    ["fa7f800000", Infinity],
    ["faff800000", -Infinity],
    ["fb7ff0000000000000", Infinity],
    ["fbfff0000000000000", -Infinity],
    ["f4", false],
    ["f5", true],
    ["f6", null],
    ["f7", undefined],
    ["f0", { simple: 16 }],
    ["f8ff", { simple: 255 }],
    ["c074323031332d30332d32315432303a30343a30305a", { tag: 0, value: "2013-03-21T20:04:00Z" }],
    ["c11a514b67b0", { tag: 1, value: 1363896240 }],
    ["c1fb41d452d9ec200000", { tag: 1, value: 1363896240.5 }],
    ["d74401020304", { tag: 23, value: hexBytes("01020304") }],
    ["d818456449455446", { tag: 24, value: hexBytes("6449455446") }],
    ["d82076687474703a2f2f7777772e6578616d706c652e636f6d", { tag: 32, value: "http://www.example.com" }],
    ["40", new Uint8Array(0)],
    ["4401020304", hexBytes("01020304")],
    ["60", ""],
    ["6161", "a"],
    ["6449455446", "IETF"],
    ["62225c", '"\\'],
    ["62c3bc", "\u00fc"],
    ["63e6b0b4", "\u6c34"],
    ["64f0908591", "\ud800\udd51"],
    ["80", []],
    ["83010203", [1, 2, 3]],
    ["8301820203820405", [1, [2, 3], [4, 5]]],
    ["98190102030405060708090a0b0c0d0e0f101112131415161718181819", range(1, 25)],
    ["a0", new Map()],
    [
      "a201020304",
      new Map([
        [1, 2],
        [3, 4],
      ]),
    ],
    [
      "a26161016162820203",
      new Map<CborItem, CborItem>([
        ["a", 1],
        ["b", [2, 3]],
      ]),
    ],
    ["826161a161626163", ["a", new Map([["b", "c"]])]],
    ["a56161614161626142616361436164614461656145", new Map(["a", "b", "c", "d", "e"].map((k) => [k, k.toUpperCase()]))],
    ["5f42010243030405ff", hexBytes("0102030405")],
    ["7f657374726561646d696e67ff", "streaming"],
    ["9fff", []],
    ["9f018202039f0405ffff", [1, [2, 3], [4, 5]]],
    ["9f01820203820405ff", [1, [2, 3], [4, 5]]],
    ["83018202039f0405ff", [1, [2, 3], [4, 5]]],
    ["83019f0203ff820405", [1, [2, 3], [4, 5]]],
    ["9f0102030405060708090a0b0c0d0e0f101112131415161718181819ff", range(1, 25)],
    [
      "bf61610161629f0203ffff",
      new Map<CborItem, CborItem>([
        ["a", 1],
        ["b", [2, 3]],
      ]),
    ],
    ["826161bf61626163ff", ["a", new Map([["b", "c"]])]],
    [
      "bf6346756ef563416d7421ff",
      new Map<CborItem, CborItem>([
        ["Fun", true],
        ["Amt", -2],
      ]),
    ],
  ])("%s", (hex, expected) => {
    expect(decode(hex)).toStrictEqual(expected);
  });

  it("signed zero and NaN", () => {
    expect(Object.is(decode("f98000"), -0)).toBe(true);
    expect(Object.is(decode("f90000"), 0)).toBe(true);
    for (const nan of ["f97e00", "fa7fc00000", "fb7ff8000000000000"]) expect(decode(nan)).toBeNaN();
  });

  it("integers: safe ones as numbers, the rest as bigints, at both edges of 2^53", () => {
    expect(decode("1b001fffffffffffff")).toBe(Number.MAX_SAFE_INTEGER);
    expect(decode("1b0020000000000000")).toBe(2n ** 53n);
    expect(decode("3b001ffffffffffffe")).toBe(Number.MIN_SAFE_INTEGER);
    expect(decode("3b001fffffffffffff")).toBe(-(2n ** 53n));
    expect(decode("db0020000000000000f6")).toStrictEqual({ tag: 2n ** 53n, value: null });
    // Non-preferred (longer) encodings are well-formed and accepted.
    expect(decode("1b0000000000000001")).toBe(1);
  });

  it("maps keep non-string keys (COSE labels) in order", () => {
    const map = decode("a3012618214201026" + "36b6964617" + "8") as Map<CborItem, CborItem>;
    expect(map.get(1)).toBe(-7);
    expect(map.get(33)).toStrictEqual(hexBytes("0102"));
    expect(map.get("kid")).toBe("x");
    expect([...map.keys()]).toStrictEqual([1, 33, "kid"]);
  });
});

describe("RFC 8949 Appendix F: not well-formed", () => {
  it.each([
    // End of input in a head
    "18",
    "19",
    "1a",
    "1b",
    "1901",
    "1a0102",
    "1b01020304050607",
    "38",
    "58",
    "78",
    "98",
    "9a01ff00",
    "b8",
    "d8",
    "f8",
    "f900",
    "fa0000",
    "fb000000",
    // Definite-length strings with short data
    "41",
    "61",
    "5affffffff00",
    "5bffffffffffffffff010203",
    "7affffffff00",
    "7b7fffffffffffffff010203",
    // Definite-length maps and arrays not closed with enough items
    "81",
    "818181818181818181",
    "8200",
    "a1",
    "a20102",
    "a100",
    "a2000000",
    // Tag number not followed by tag content
    "c0",
    // Indefinite-length strings not closed by a break
    "5f4100",
    "7f6100",
    // Indefinite-length maps and arrays not closed by a break
    "9f",
    "9f0102",
    "bf",
    "bf01020102",
    "819f",
    "9f8000",
    "9f9f9f9f9fffffffff",
    "9f819f819f9fffffff",
    // Reserved additional information values
    "1c",
    "1d",
    "1e",
    "3c",
    "3d",
    "3e",
    "5c",
    "5d",
    "5e",
    "7c",
    "7d",
    "7e",
    "9c",
    "9d",
    "9e",
    "bc",
    "bd",
    "be",
    "dc",
    "dd",
    "de",
    "fc",
    "fd",
    "fe",
    // Reserved two-byte encodings of simple values
    "f800",
    "f801",
    "f818",
    "f81f",
    // Indefinite-length string chunks not of the correct type
    "5f00ff",
    "5f21ff",
    "5f6100ff",
    "5f80ff",
    "5fa0ff",
    "5fc000ff",
    "5fe0ff",
    "7f4100ff",
    // Indefinite-length string chunks not definite length
    "5f5f4100ffff",
    "7f7f6100ffff",
    // Break occurring on its own outside of an indefinite-length item
    "ff",
    // Break occurring in a definite-length array or map or a tag
    "81ff",
    "8200ff",
    "a1ff",
    "a1ff00",
    "a100ff",
    "a20000ff",
    "9f81ff",
    "9f829f819f9fffffffff",
    // Break in an indefinite-length map that would lead to an odd number of items (break in a value position)
    "bf00ff",
    "bf000000ff",
    // Major type 0, 1, 6 with additional information 31
    "1f",
    "3f",
    "df",
  ])("%s is malformed", (hex) => {
    const r = decodeCbor(hexBytes(hex));
    expect(r.status).toBe("malformed");
    if (r.status === "malformed") {
      expect(r.message).toBeTruthy();
      expect(r.offset).toBeGreaterThanOrEqual(0);
      expect(r.offset).toBeLessThanOrEqual(hex.length / 2);
    }
  });
});

describe("validity and bounds", () => {
  it("text strings must be UTF-8 (also each chunk of an indefinite one); a BOM is kept as a character", () => {
    expect(decodeCbor(hexBytes("62c328")).status).toBe("malformed");
    expect(decodeCbor(hexBytes("63eda080")).status).toBe("malformed"); // an encoded surrogate
    expect(decodeCbor(hexBytes("7f61c361bcff")).status).toBe("malformed"); // a code point split over chunks
    expect(decode("7f62c3bc62c3bcff")).toBe("üü");
    expect(decode("63efbbbf")).toBe("\ufeff");
  });

  it("duplicate map keys are malformed, compared by value", () => {
    for (const hex of [
      "a201020103",
      "a2616101616102",
      "a2410001410002",
      "bf0102010300ff",
      "a2f6f6f601",
      "a21bffffffffffffffff001bffffffffffffffff01",
    ]) {
      expect(decodeCbor(hexBytes(hex)).status, hex).toBe("malformed");
    }
    expect(decodeCbor(hexBytes("a2010220 02")).status).toBe("ok"); // 1 and -1 differ
    expect(decodeCbor(hexBytes("a2616101410102")).status).toBe("ok"); // "a" and h'61' differ
  });

  it("trailing bytes are malformed unless allowed, and then the item's length is reported", () => {
    const bytes = hexBytes("8301020300ff");
    const strict = decodeCbor(bytes);
    expect(strict).toMatchObject({ status: "malformed", offset: 4 });
    expect(decodeCbor(bytes, { allowTrailing: true })).toStrictEqual({ status: "ok", value: [1, 2, 3], length: 4 });
    expect(decodeCbor(new Uint8Array(0))).toMatchObject({ status: "malformed", offset: 0 });
  });

  it("byte strings are copies, not views of the input", () => {
    const input = hexBytes("4401020304");
    const value = decode("4401020304") as Uint8Array;
    const again = (decodeCbor(input) as { value: Uint8Array }).value;
    input[1] = 0xff;
    expect(again).toStrictEqual(hexBytes("01020304"));
    expect(value.buffer.byteLength).toBe(4);
  });

  it("nesting beyond the depth limit is malformed (arrays, maps, tags, indefinite items)", () => {
    const deep = (prefix: string, n: number, tail: string) => {
      const unit = hexBytes(prefix);
      const out = new Uint8Array(unit.length * n + tail.length / 2);
      for (let i = 0; i < n; i++) out.set(unit, i * unit.length);
      out.set(hexBytes(tail), unit.length * n);
      return out;
    };
    expect(decodeCbor(deep("81", 64, "00")).status).toBe("ok");
    expect(decodeCbor(deep("81", 65, "00")).status).toBe("malformed");
    expect(decodeCbor(deep("81", 10, "00"), { maxDepth: 5 }).status).toBe("malformed");
    for (const [prefix, tail] of [
      ["81", "00"],
      ["a100", "00"],
      ["c6", "00"],
      ["9f", ""],
      ["bf00", ""],
    ] as const) {
      const input = deep(prefix, 200_000, tail);
      const started = performance.now();
      const r = decodeCbor(input);
      expect(r.status, prefix).toBe("malformed");
      // Stopped at the depth limit, not walked 200,000 levels down: 1 s still tells the two apart, where 50 ms failed
      // whenever a loaded CI machine held the isolate off the CPU for a moment.
      expect(performance.now() - started).toBeLessThan(1_000);
    }
  });

  it("lengths and counts beyond the remaining bytes are refused before anything is allocated", () => {
    for (const hex of [
      "5bffffffffffffffff",
      "5b0000000100000000",
      "7b001fffffffffffff00",
      "9bffffffffffffffff00",
      "9affffffff00",
      "bbffffffffffffffff0000",
      "ba7fffffff0000",
      `990400${"00".repeat(1023)}`, // 1024 items, 1024 bytes left
    ]) {
      expect(decodeCbor(hexBytes(hex)).status, hex).toBe("malformed");
    }
    expect(decodeCbor(hexBytes(`990400${"00".repeat(1024)}`)).status).toBe("ok");
    // A map of n pairs needs 2n bytes.
    expect(decodeCbor(hexBytes(`a3${"0000".repeat(2)}00`)).status).toBe("malformed");
  });

  it("never throws on random or mutated input, and stays fast", () => {
    const rand = prng(42);
    const seeds = [
      "bf6346756ef563416d7421ff",
      "d28443a10126a10442313154546869732069732074686520636f6e74656e742e58406520bbaf",
      "9f018202039f0405ffff",
    ].map(hexBytes);
    const started = performance.now();
    for (let i = 0; i < 5000; i++) {
      let bytes: Uint8Array;
      if (i % 2 === 0) {
        bytes = randomBytes(rand, 1 + Math.floor(rand() * 64));
      } else {
        bytes = seeds[i % seeds.length]!.slice();
        for (let k = 0; k < 3; k++) bytes[Math.floor(rand() * bytes.length)] = Math.floor(rand() * 256);
        bytes = bytes.subarray(0, Math.floor(rand() * (bytes.length + 1)));
      }
      const r = decodeCbor(bytes);
      expect(["ok", "malformed"]).toContain(r.status);
    }
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
