import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tiffBounds } from "../../../src/media/codecs/tiff-bounds";
import { nodeImageCodec } from "../../support/node-codec";

/**
 * Hostile TIFF directories (#22): utif2 trusts each entry's 32-bit count and follows next-directory offsets without
 * noticing a cycle, so a 2 KB file could take seconds and hundreds of MiB (or never end). The codec refuses such a
 * file before utif2 reads it; a well-formed TIFF decodes as before.
 */
const TIFF = new Uint8Array(readFileSync(join(import.meta.dirname, "..", "..", "fixtures", "media", "sample.tif")));
const view = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
const little = String.fromCharCode(TIFF[0]!, TIFF[1]!) === "II";
const firstIfd = view(TIFF).getUint32(4, little);
const entries = view(TIFF).getUint16(firstIfd, little);
const nextOffsetAt = firstIfd + 2 + entries * 12;

function withU32(at: number, value: number): Uint8Array {
  const bytes = TIFF.slice();
  view(bytes).setUint32(at, value, little);
  return bytes;
}

describe("TIFF directories are bounded before utif2 reads them", () => {
  it("the fixture is bounded and decodes", async () => {
    expect(tiffBounds(TIFF)).toEqual({ bounded: true });
    expect((await nodeImageCodec().decode(TIFF, "image/tiff")).status).toBe("decoded");
  });

  it("an entry claiming 2^24 or 2^32 values is refused at once, not read for seconds", async () => {
    for (const count of [0x00ffffff, 0xfffffff0]) {
      for (let e = 0; e < entries; e++) {
        const bad = withU32(firstIfd + 2 + e * 12 + 4, count);
        expect(tiffBounds(bad).bounded, `entry ${e}`).toBe(false);
      }
      const t0 = performance.now();
      const decoded = await nodeImageCodec().decode(withU32(firstIfd + 2 + 4, count), "image/tiff");
      expect(decoded.status).toBe("failed");
      expect(performance.now() - t0).toBeLessThan(1000);
    }
  });

  it("a directory chain that loops, or a directory beyond the file, is refused", async () => {
    expect(tiffBounds(withU32(nextOffsetAt, firstIfd))).toMatchObject({ bounded: false, reason: expect.stringContaining("twice") });
    expect(tiffBounds(withU32(4, TIFF.length + 100)).bounded).toBe(false);
    expect(tiffBounds(withU32(4, 0xfffffff0)).bounded).toBe(false);
    expect(tiffBounds(TIFF.slice(0, 6)).bounded).toBe(false);
    expect((await nodeImageCodec().decode(withU32(nextOffsetAt, firstIfd), "image/tiff")).status).toBe("failed");
  });

  it("a sub-directory (SubIFDs) that points at its own directory is refused", () => {
    // Rewrite the first entry as tag 330 (SubIFDs), one LONG value: the first directory's own offset.
    const bytes = TIFF.slice();
    const v = view(bytes);
    const at = firstIfd + 2;
    v.setUint16(at, 330, little);
    v.setUint16(at + 2, 4, little);
    v.setUint32(at + 4, 1, little);
    v.setUint32(at + 8, firstIfd, little);
    expect(tiffBounds(bytes)).toMatchObject({ bounded: false, reason: expect.stringContaining("twice") });
  });

  it("every single-byte corruption of the header and first directory answers without throwing", () => {
    for (let at = 0; at < Math.min(TIFF.length, nextOffsetAt + 4); at++)
      for (const value of [0x00, 0xff]) {
        const bytes = TIFF.slice();
        bytes[at] = value;
        expect(() => tiffBounds(bytes)).not.toThrow();
      }
  });
});
