/**
 * #19: a reused kernel's coefficient buffer holds the last image's coefficients; the decoder zeroes a component's
 * buffer before its first scan, or lets that scan clear each block as it writes the DC (a DC first scan that
 * visits every block), instead of zeroing every buffer up front. Checked: after a large noisy decode has dirtied
 * the kernel, every progressive and multi-scan fixture, and files whose scans break the usual order (an AC scan
 * before its DC scan, a non-interleaved DC scan over a padded block grid, a component no scan names), decode on
 * that kernel byte for byte as on a fresh one, at every scale.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { JpegStreamDecoder } from "../../../src/media/codecs/jpeg-decoder.ts";
import type { DecodeScale } from "../../../src/media/types.ts";
import { concatBytes } from "../../../src/platform/bytes.ts";
import { splitScans } from "./jpeg-decoder.review-corpus.ts";

const ROOT = join(import.meta.dirname, "..", "..", "..");
const Module = WebAssembly.Module as unknown as new (bytes: Uint8Array) => WebAssembly.Module;
const WASM = readFileSync(join(ROOT, "wasm", "build", "jpegdec.wasm"));
const fixture = (name: string) => new Uint8Array(readFileSync(join(ROOT, "test", "fixtures", "jpegdec", name)));
// @ts-expect-error -- a JavaScript module without declarations (the benchmarks' seeded images and MozJPEG)
const images = await import("../../../bench/lib/images.mjs");
const SCALES: DecodeScale[] = [1, 2, 4, 8];

function pixels(decoder: JpegStreamDecoder, bytes: Uint8Array, scale: DecodeScale): Buffer {
  const r = decoder.decode(bytes, scale, 50_000_000);
  if (r.status !== "decoded") throw new Error(`${r.status}: ${r.message}`);
  return Buffer.from(r.image.data);
}

/** The file's segments before the first SOS, its scans (the review corpus's split), and an EOI to end it. */
function scans(bytes: Uint8Array): { head: Uint8Array; scans: Uint8Array[]; tail: Uint8Array } {
  const split = splitScans(bytes);
  if (!split) throw new Error("no scan");
  return { ...split, tail: Uint8Array.of(0xff, 0xd9) };
}
function nth(list: Uint8Array[], i: number): Uint8Array {
  const s = list[i];
  if (!s) throw new Error(`no scan ${i}`);
  return s;
}

describe("JPEG decoder: a reused kernel's coefficients never leak into the next image (#19)", async () => {
  const img = images.makeImage("noise", 2000, 1500, 11);
  const frame = { data: new Uint8ClampedArray(img.data.buffer, img.data.byteOffset, img.data.length), width: 2000, height: 1500 };
  const noisy = new Uint8Array(await images.jpegEnc.default(frame, { quality: 95, auto_subsample: false, chroma_subsample: 1 }));

  const prog = fixture("progressive-420.jpg");
  const s420 = scans(prog);
  const seq = fixture("sequential-non-interleaved.jpg");
  const sSeq = scans(seq);
  const cases: [string, Uint8Array][] = [
    ...[
      "progressive-420.jpg",
      "progressive-422-restart.jpg",
      "progressive-440.jpg",
      "progressive-444.jpg",
      "gray-progressive-restart.jpg",
    ].map((n) => [n, fixture(n)] as [string, Uint8Array]),
    ["tiny-17x9-progressive.jpg (a padded block grid)", fixture("tiny-17x9-progressive.jpg")],
    ["sequential-non-interleaved.jpg", seq],
    // the first AC scan moved before the DC scan: its component is zeroed then, and the DC scan clears nothing
    ["an AC scan before the DC scan", concatBytes([s420.head, nth(s420.scans, 1), nth(s420.scans, 0), ...s420.scans.slice(2), s420.tail])],
    // the last component's scan dropped: that component reads as zeros
    ["a component no scan names", concatBytes([sSeq.head, ...sSeq.scans.slice(0, -1), sSeq.tail])],
  ];

  it.each(cases)("%s", (_name, bytes) => {
    const module = new Module(WASM);
    const reused = new JpegStreamDecoder(module);
    for (const scale of SCALES) {
      const fresh = pixels(new JpegStreamDecoder(new Module(WASM)), bytes, scale);
      // dirty the idle kernel of `module` with another image's coefficients, then decode on it
      pixels(reused, noisy, scale === 1 ? 2 : 1);
      expect(pixels(reused, bytes, scale).equals(fresh)).toBe(true);
    }
  });
});
