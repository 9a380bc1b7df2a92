/**
 * #19: the digest a verification pixel memo is matched on (pixel-memo.ts jpegPixelBytesDigest): a JPEG's bytes
 * without its APP11 segments before the first scan. Whatever APP11 holds (C2PA's carrier, skipped by every decoder),
 * the digest is the same; any other byte a decoder reads changes it; anything this walk cannot follow to a scan gets
 * no digest (no memo).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { concatBytes } from "../../../src/platform/bytes.ts";
import { jpegPixelBytesDigest } from "../../../src/verifications/pixel-memo.ts";

const ROOT = join(import.meta.dirname, "..", "..", "..");
const JPEG = new Uint8Array(readFileSync(join(ROOT, "test", "fixtures", "media", "sample.jpg")));

const cat = (...parts: Uint8Array[]) => concatBytes(parts);
const segment = (marker: number, body: Uint8Array) =>
  cat(new Uint8Array([0xff, marker, (body.length + 2) >> 8, (body.length + 2) & 255]), body);
/** `jpeg` with `seg` inserted after SOI. */
const withSegment = (jpeg: Uint8Array, seg: Uint8Array) => cat(jpeg.subarray(0, 2), seg, jpeg.subarray(2));

describe("jpegPixelBytesDigest (#19)", () => {
  it("ignores APP11 segments before the scan, whatever they hold and however many", async () => {
    const plain = await jpegPixelBytesDigest(JPEG);
    expect(plain).toMatch(/^[0-9a-f]{64}$/);
    const store = segment(0xeb, new TextEncoder().encode("JP\0\0c2pa manifest store bytes"));
    expect(await jpegPixelBytesDigest(withSegment(JPEG, store))).toBe(plain);
    expect(await jpegPixelBytesDigest(withSegment(withSegment(JPEG, store), segment(0xeb, new Uint8Array(300))))).toBe(plain);
  });

  it("changes with any other segment, a byte of a table or of the scan", async () => {
    const plain = await jpegPixelBytesDigest(JPEG);
    expect(await jpegPixelBytesDigest(withSegment(JPEG, segment(0xfe, new Uint8Array([1, 2]))))).not.toBe(plain);
    expect(await jpegPixelBytesDigest(withSegment(JPEG, segment(0xec, new Uint8Array([1, 2]))))).not.toBe(plain); // APP12
    for (const at of [JPEG.indexOf(0xdb, 2) + 5, JPEG.length - 10]) {
      const changed = JPEG.slice();
      changed[at]! ^= 1;
      expect(await jpegPixelBytesDigest(changed), `byte ${at}`).not.toBe(plain);
    }
  });

  it("an APP11 after the first scan counts (only those before it are skipped)", async () => {
    const plain = await jpegPixelBytesDigest(JPEG);
    const eoi = JPEG.length - 2;
    const late = cat(JPEG.subarray(0, eoi), segment(0xeb, new Uint8Array([9, 9])), JPEG.subarray(eoi));
    expect(await jpegPixelBytesDigest(late)).not.toBe(plain);
  });

  it("no digest for what it cannot walk to a scan", async () => {
    expect(await jpegPixelBytesDigest(new Uint8Array([0x89, 0x50, 0x4e, 0x47]))).toBeNull();
    expect(await jpegPixelBytesDigest(JPEG.subarray(0, 20))).toBeNull();
    expect(await jpegPixelBytesDigest(cat(JPEG.subarray(0, 2), new Uint8Array([0xff, 0xeb, 0xff, 0xff])))).toBeNull();
    expect(await jpegPixelBytesDigest(cat(JPEG.subarray(0, 2), new Uint8Array([0x00, 0x01, 0x02])))).toBeNull();
  });
});
