/** The JPEG sniffer (inspect/jpeg.ts) skips entropy-coded data to the next marker as a byte-by-byte walk would. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseJpeg } from "../../../src/media/inspect/jpeg";

const seg = (marker: number, body: number[]) => [0xff, marker, (body.length + 2) >> 8, (body.length + 2) & 255, ...body];
const SOF0 = seg(0xc0, [8, 0, 16, 0, 24, 1, 1, 0x11, 0]);
const SOS = seg(0xda, [1, 1, 0, 0, 63, 0]);

/** Where a byte-by-byte walk of the scan from `pos` ends (at the marker after it), or null: truncated. */
function walkScan(b: number[], pos: number): number | null {
  for (;;) {
    if (pos + 1 >= b.length) return null;
    if (b[pos] === 0xff) {
      const next = b[pos + 1]!;
      if (next === 0x00 || (next >= 0xd0 && next <= 0xd7) || next === 0xff) {
        pos += next === 0xff ? 1 : 2;
        continue;
      }
      return pos;
    }
    pos++;
  }
}

/** Scan data over an alphabet rich in 0xFF, stuffed zeros, restart markers and fill bytes (xorshift32). */
function scanData(seed: number, length: number): number[] {
  const alphabet = [0x12, 0x00, 0xff, 0xff, 0xd0, 0xd7, 0xd8, 0x7f, 0xfe];
  let x = seed;
  return Array.from({ length }, () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return alphabet[(x >>> 0) % alphabet.length]!;
  });
}

function outcome(b: Uint8Array): string {
  try {
    const d = parseJpeg(b);
    return `ok ${JSON.stringify(d)}`;
  } catch (error) {
    return `corrupt ${(error as Error).message}`;
  }
}

describe("parseJpeg's scan skipping", () => {
  it("reads the real fixtures", () => {
    for (const name of ["sample.jpg", "sample-1mp.jpg", "photo-bridge.jpg"]) {
      const b = new Uint8Array(readFileSync(join(import.meta.dirname, "../../fixtures/media", name)));
      expect(outcome(b)).toMatch(/^ok /);
    }
  });

  it("ends each scan where a byte-by-byte walk ends it, or finds it truncated alike", () => {
    for (let seed = 1; seed <= 400; seed++) {
      const data = scanData(seed, 1 + (seed % 37));
      const head = [0xff, 0xd8, ...SOF0, ...SOS];
      const file = [...head, ...data, 0xff, 0xd9];
      const end = walkScan(file, head.length);
      const got = outcome(Uint8Array.from(file));
      if (end === null) expect(got).toBe("corrupt JPEG scan data truncated");
      else if (end === file.length - 2) expect(got).toMatch(/^ok /);
      else expect(got).not.toBe("corrupt JPEG scan data truncated"); // a marker inside the data ends the scan there
      // Truncated anywhere inside the scan: truncated, as the walk says.
      const cut = file.slice(0, head.length + (seed % data.length));
      if (walkScan(cut, head.length) === null) expect(outcome(Uint8Array.from(cut))).toBe("corrupt JPEG scan data truncated");
    }
  });
});
