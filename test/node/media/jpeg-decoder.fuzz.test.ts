import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { JpegStreamDecoder } from "../../../src/media/codecs/jpeg-decoder.ts";
import type { DecodeScale } from "../../../src/media/types.ts";
import { prng } from "../../support/prng.ts";

// Hostile-input fuzzing of our JPEG decoder (wasm/jpegdec): seeded mutations of every fixture (byte flips,
// truncations, segment length edits, marker insertions, header field edits, segment drops and duplicates). Each
// input must end in a typed result without a throw; a decoded one hands out exactly its declared rows, each of
// width * 4 bytes. One decoder instance serves every input, and a known file decoded between them must keep its
// pixels (a hostile file must not corrupt the instance's tables or arena for the next one). Time is bounded by
// counting: rows handed out never exceed the declared height, and the whole run fits well inside the timeout.

const Module = WebAssembly.Module as unknown as new (bytes: Uint8Array) => WebAssembly.Module;
const MODULE = new Module(readFileSync(new URL("../../../wasm/build/jpegdec.wasm", import.meta.url)));
const JPEGDEC = join(import.meta.dirname, "..", "..", "fixtures", "jpegdec");
const MEDIA = join(import.meta.dirname, "..", "..", "fixtures", "media");
const MAX = 4_000_000;
const STATUSES = ["decoded", "failed", "unsupported", "too_large"];

const load = (path: string) => new Uint8Array(readFileSync(path));
const FIXTURES = [
  ...readdirSync(JPEGDEC)
    .filter((n) => n.endsWith(".jpg"))
    .sort()
    .map((n) => ({ name: n, bytes: load(join(JPEGDEC, n)), big: false })),
  ...["sample.jpg", "sample-1mp.jpg", "photo-bridge.jpg"].map((n) => ({ name: n, bytes: load(join(MEDIA, n)), big: n !== "sample.jpg" })),
];

interface Segment {
  at: number; // offset of 0xFF
  marker: number;
  length: number; // the length field (0 for markers without one)
}

/** The marker segments up to the first SOS (and that SOS), plus any marker after it found by a scan. */
function segments(b: Uint8Array): Segment[] {
  const out: Segment[] = [];
  let p = 2;
  while (p + 4 <= b.length && b[p] === 0xff) {
    const marker = b[p + 1]!;
    const length = (b[p + 2]! << 8) | b[p + 3]!;
    out.push({ at: p, marker, length });
    if (marker === 0xda || length < 2) break;
    p += 2 + length;
  }
  for (let i = p + 2; i + 1 < b.length; i++)
    if (b[i] === 0xff && b[i + 1] !== 0 && !(b[i + 1]! >= 0xd0 && b[i + 1]! <= 0xd7) && b[i + 1] !== 0xff) {
      const length = i + 3 < b.length ? (b[i + 2]! << 8) | b[i + 3]! : 0;
      out.push({ at: i, marker: b[i + 1]!, length });
    }
  return out;
}

function splice(b: Uint8Array, at: number, remove: number, insert: ArrayLike<number>): Uint8Array {
  const out = new Uint8Array(b.length - remove + insert.length);
  out.set(b.subarray(0, at));
  out.set(insert, at);
  out.set(b.subarray(at + remove), at + insert.length);
  return out;
}

/** One seeded mutation (sometimes two) of `base`. */
function mutate(base: Uint8Array, rand: () => number): Uint8Array {
  const int = (n: number) => Math.floor(rand() * n);
  const pick = <T>(xs: readonly T[]) => xs[int(xs.length)]!;
  let b: Uint8Array = base.slice();
  const rounds = 1 + (rand() < 0.25 ? 1 : 0);
  for (let round = 0; round < rounds; round++) {
    const segs = segments(b);
    const seg = segs.length > 0 ? pick(segs) : null;
    switch (int(9)) {
      case 0: // byte flips anywhere
        for (let j = 0, n = 1 + int(8); j < n; j++) {
          const i = int(b.length);
          b[i] = rand() < 0.5 ? b[i]! ^ (1 << int(8)) : int(256);
        }
        break;
      case 1: // truncation
        b = b.subarray(0, int(b.length)).slice();
        break;
      case 2: // a segment's length field
        if (seg && seg.at + 3 < b.length) {
          const len = pick([0, 1, 2, 3, seg.length - 1, seg.length + 1, seg.length + 17, 0xffff, int(0x10000)]) & 0xffff;
          b[seg.at + 2] = len >> 8;
          b[seg.at + 3] = len & 255;
        }
        break;
      case 3: {
        // a marker inserted anywhere (some with a plausible payload)
        const m = pick([0xd0, 0xd3, 0xd7, 0xd9, 0xd8, 0xda, 0xc4, 0xdb, 0xdd, 0xc0, 0xc2, 0xfe, 0x00, 0xff, 0x01]);
        const payload =
          m === 0xdd
            ? [0x00, 0x04, int(256) & 3, int(256)]
            : m === 0xda
              ? [0x00, 0x08, 0x01, pick([1, 2, 3, 0]), int(256), int(64), int(64), int(256)]
              : m === 0xfe || m === 0xc4 || m === 0xdb || m === 0xc0 || m === 0xc2
                ? [0x00, pick([0, 1, 2, 3, 4, 19, 67])]
                : [];
        b = splice(b, int(b.length + 1), 0, [0xff, m, ...payload]);
        break;
      }
      case 4: // a header field: SOF sizes, component count and factors, SOS fields, table counts
        if (seg && seg.at + 4 < b.length) {
          const i = seg.at + 4 + int(Math.min(24, Math.max(1, seg.length - 2)));
          if (i < b.length)
            b[i] = pick([0, 1, 2, 3, 4, 5, 15, 16, 0x11, 0x22, 0x44, 0x41, 0x14, 0x55, 0x0f, 0xf0, 63, 64, 127, 128, 254, 255, int(256)]);
        }
        break;
      case 5: // a segment removed
        if (seg && seg.marker !== 0xda) b = splice(b, seg.at, Math.min(b.length - seg.at, 2 + seg.length), []);
        break;
      case 6: // a segment duplicated
        if (seg && seg.length >= 2 && seg.at + 2 + seg.length <= b.length) {
          const copy = b.slice(seg.at, seg.at + 2 + seg.length);
          b = splice(b, pick([seg.at, seg.at + 2 + seg.length]), 0, copy);
        }
        break;
      case 7: {
        // a Huffman table's code counts redistributed (same total, so the segment still holds its values)
        const dhts = segs.filter((s) => s.marker === 0xc4 && s.at + 21 <= b.length);
        if (dhts.length > 0) {
          const d = pick(dhts).at + 5;
          let total = 0;
          for (let l = 0; l < 16; l++) total += b[d + l]!;
          b.fill(0, d, d + 16);
          const l = int(rand() < 0.5 ? 3 : 16);
          b[d + l] = Math.min(255, total);
          if (total > 255 && l < 15) b[d + l + 1] = total - 255;
        }
        break;
      }
      default:
        {
          // a run of bytes in the scan data replaced by 0xFF, zeros or noise
          const at = int(b.length);
          const n = 1 + int(32);
          const v = pick([0xff, 0x00, -1]);
          for (let i = at; i < Math.min(b.length, at + n); i++) b[i] = v < 0 ? int(256) : v;
        }
        break;
    }
  }
  return b;
}

/** Decodes through the streaming API, counting what it hands out. */
function run(decoder: JpegStreamDecoder, bytes: Uint8Array, scale: DecodeScale) {
  let opened: { width: number; height: number } | null = null;
  let rows = 0;
  let calls = 0;
  let badRun = "";
  const result = decoder.stream(bytes, scale, MAX, (width, height) => {
    opened = { width, height };
    return {
      restart: () => {
        rows = 0;
      },
      rows: (data, count) => {
        calls++;
        if (count < 1 || data.length !== count * width * 4) badRun ||= `run of ${count} rows in ${data.length} bytes`;
        rows += count;
        if (rows > height) badRun ||= `${rows} rows of ${height}`;
      },
    };
  });
  return { result, opened: opened as { width: number; height: number } | null, rows, calls, badRun };
}

describe("JpegStreamDecoder fuzz (seeded mutations of every fixture)", () => {
  it("2,000 hostile mutations: typed results, consistent sizes, no state carried into the next decode", () => {
    const decoder = new JpegStreamDecoder(MODULE);
    const witness = FIXTURES.find((f) => f.name === "baseline-420-restart-3-mcus.jpg")!.bytes;
    const reference = new JpegStreamDecoder(MODULE).decode(witness, 1, MAX);
    expect(reference.status).toBe("decoded");
    const referencePixels = reference.status === "decoded" ? reference.image.data : new Uint8Array();
    const rand = prng(0x19fe);
    const tally: Record<string, number> = {};
    for (let n = 0; n < 2000; n++) {
      const fixture = FIXTURES[n % FIXTURES.length]!;
      const bytes = mutate(fixture.bytes, rand);
      const scale = fixture.big ? 8 : ([1, 2, 4, 8] as const)[n % 4]!;
      const what = `#${n} ${fixture.name} (scale ${scale})`;
      const { result, opened, rows, calls, badRun } = run(decoder, bytes, scale);
      expect(STATUSES, what).toContain(result.status);
      expect(typeof (result as { message?: unknown }).message === "string" || result.status === "decoded", what).toBe(true);
      tally[result.status] = (tally[result.status] ?? 0) + 1;
      expect(badRun, what).toBe("");
      if (result.status === "decoded") {
        expect(opened, what).toEqual({ width: result.width, height: result.height });
        expect(result.width, what).toBeGreaterThan(0);
        expect(result.height, what).toBeGreaterThan(0);
        expect(rows, what).toBe(result.height);
        expect(calls, what).toBeLessThanOrEqual(result.height);
        const header = decoder.header(bytes);
        expect(header.status, what).toBe("ready");
        if (header.status === "ready") {
          expect(result.width, what).toBe(Math.ceil(header.width / scale));
          expect(result.height, what).toBe(Math.ceil(header.height / scale));
        }
      }
      // a refusal at one scale is one at full size too (every scale entropy-decodes the whole file): the codec
      // relies on it to send a file a RowSource read refused straight to MozJPEG (image-codec.ts)
      if ((result.status === "failed" || result.status === "unsupported") && scale !== 1) {
        const whole = new JpegStreamDecoder(MODULE).decode(bytes, 1, MAX);
        expect(["failed", "unsupported"], `${what}: at full size`).toContain(whole.status);
      }
      if (n % 50 === 49) {
        const again = decoder.decode(witness, 1, MAX);
        expect(again.status, `witness after ${what}`).toBe("decoded");
        if (again.status === "decoded") expect(Buffer.compare(again.image.data, referencePixels), `witness pixels after ${what}`).toBe(0);
      }
    }
    // the mutations reach every outcome, not just the header checks
    expect(tally.decoded ?? 0).toBeGreaterThan(100);
    expect(tally.failed ?? 0).toBeGreaterThan(100);
  });
});
