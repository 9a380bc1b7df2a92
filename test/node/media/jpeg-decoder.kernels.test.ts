/**
 * #19: JpegStreamDecoder reuses an idle kernel instance of its module (one per isolate, only while its memory is at
 * most 24 MB) instead of instantiating one per decode; and the progressive refinement path (nonzero masks) decodes
 * every byte as the per-position walk did. Checked: a second decoder reuses the first one's kernel; a kernel grown
 * past the bound, or one whose call threw, is not reused; a decode started from inside another's sink gets its
 * own kernel; interleaved sources still read their own pixels; reduced and full decodes of progressive files are
 * byte-identical to the digests recorded with the build before.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { JpegStreamDecoder } from "../../../src/media/codecs/jpeg-decoder.ts";
import { readWholeImage } from "../../../src/media/codecs/rows.ts";
import type { DecodeScale, RgbaImage } from "../../../src/media/types.ts";

const ROOT = join(import.meta.dirname, "..", "..", "..");
const Module = WebAssembly.Module as unknown as new (bytes: Uint8Array) => WebAssembly.Module;
const WASM = readFileSync(join(ROOT, "wasm", "build", "jpegdec.wasm"));
const fixture = (name: string) => new Uint8Array(readFileSync(join(ROOT, "test", "fixtures", "jpegdec", name)));
const MAX = 50_000_000;

/** Counts the kernels made from `module` while `run` runs. */
function kernelsMade(module: WebAssembly.Module, run: () => void): number {
  let made = 0;
  const Original = WebAssembly.Instance;
  (WebAssembly as { Instance: unknown }).Instance = new Proxy(Original, {
    construct(target, args: [WebAssembly.Module, WebAssembly.Imports?]) {
      if (args[0] === module) made++;
      return Reflect.construct(target, args);
    },
  });
  try {
    run();
  } finally {
    (WebAssembly as { Instance: unknown }).Instance = Original;
  }
  return made;
}

function decoded(decoder: JpegStreamDecoder, bytes: Uint8Array, scale: DecodeScale = 1): RgbaImage {
  const r = decoder.decode(bytes, scale, MAX);
  if (r.status !== "decoded") throw new Error(`${r.status}: ${r.message}`);
  return r.image;
}

const digest = (image: RgbaImage) => createHash("sha256").update(image.data).digest("hex").slice(0, 16);

describe("JpegStreamDecoder kernels", () => {
  it("a decode reuses the idle kernel another decoder of the same module left", () => {
    const module = new Module(WASM);
    const bytes = fixture("progressive-420.jpg");
    const reference = digest(decoded(new JpegStreamDecoder(new Module(WASM)), bytes));
    expect(kernelsMade(module, () => decoded(new JpegStreamDecoder(module), bytes))).toBe(1);
    let again = "";
    expect(kernelsMade(module, () => (again = digest(decoded(new JpegStreamDecoder(module), bytes))))).toBe(0);
    expect(again).toBe(reference);
    // header, source and stream take it too
    expect(
      kernelsMade(module, () => {
        const d = new JpegStreamDecoder(module);
        expect(d.header(bytes).status).toBe("ready");
        const src = d.source(bytes, MAX);
        if (src.status !== "ready") throw new Error(src.message);
        expect(src.source.read({ restart: () => {}, rows: () => {} }, 2).status).toBe("read");
      }),
    ).toBe(0);
  });

  it("a kernel grown past 24 MB is not kept", () => {
    const module = new Module(WASM);
    const small = fixture("progressive-420.jpg");
    const big = bigBuffered(); // 25.9 MB of coefficients alone
    decoded(new JpegStreamDecoder(module), small); // an idle kernel exists now
    expect(kernelsMade(module, () => decoded(new JpegStreamDecoder(module), big, 8))).toBe(0); // it takes the idle one
    // ... which grew past the bound: not given back, so the next decode makes a new one
    expect(kernelsMade(module, () => decoded(new JpegStreamDecoder(module), small))).toBe(1);
  });

  it("a progressive file's AC scans are decoded row by row: no whole coefficient buffer, the kernel stays pooled", () => {
    const module = new Module(WASM);
    const small = fixture("progressive-420.jpg");
    const big = bigProgressive(); // 25.9 MB of coefficients if every scan were decoded first
    const reference = digest(decoded(new JpegStreamDecoder(new Module(WASM)), small));
    decoded(new JpegStreamDecoder(module), small);
    for (const scale of [8, 2, 1] as const) expect(kernelsMade(module, () => decoded(new JpegStreamDecoder(module), big, scale))).toBe(0);
    // the kernel stayed under the bound (a DC array of 2 bytes a block, one MCU row of coefficients): kept
    let again = "";
    expect(kernelsMade(module, () => (again = digest(decoded(new JpegStreamDecoder(module), small))))).toBe(0);
    expect(again).toBe(reference);
  });

  it("a source read twice, its first read saying `again` or not, reads what decode reads at each scale", () => {
    const module = new Module(WASM);
    for (const name of [
      "progressive-420.jpg",
      "progressive-422-restart.jpg",
      "gray-progressive-restart.jpg",
      "sequential-non-interleaved.jpg",
    ]) {
      const bytes = fixture(name);
      const fresh = new JpegStreamDecoder(new Module(WASM));
      const want = [2, 1].map((s) => digest(decoded(fresh, bytes, s as DecodeScale)));
      for (const again of [false, true]) {
        const src = new JpegStreamDecoder(module).source(bytes, MAX);
        if (src.status !== "ready") throw new Error(src.message);
        const first = readWholeImage({ ...src.source, read: (sink, scale) => src.source.read(sink, scale, { again }) }, 2);
        const second = readWholeImage(src.source, 1);
        if (first.status !== "read" || second.status !== "read") throw new Error(`${name}: not read`);
        expect([digest(first.image), digest(second.image)], `${name}, again ${again}`).toEqual(want);
      }
    }
  });

  it("a kernel whose call threw is not reused; the next decode is still right", () => {
    const module = new Module(WASM);
    const bytes = fixture("progressive-444.jpg");
    const reference = digest(decoded(new JpegStreamDecoder(new Module(WASM)), bytes));
    const throwing = new JpegStreamDecoder(module).stream(bytes, 1, MAX, () => ({
      restart: () => {},
      rows: () => {
        throw new Error("sink failed");
      },
    }));
    expect(throwing.status).toBe("failed");
    let next = "";
    expect(kernelsMade(module, () => (next = digest(decoded(new JpegStreamDecoder(module), bytes))))).toBe(1);
    expect(next).toBe(reference);
  });

  it("a decode started inside another's sink runs on a kernel of its own; both images are right", () => {
    const module = new Module(WASM);
    const outer = fixture("progressive-422-restart.jpg");
    const inner = fixture("progressive-444.jpg");
    const reference = new JpegStreamDecoder(new Module(WASM));
    const parts: Uint8Array[] = [];
    let innerDigest = "";
    const r = new JpegStreamDecoder(module).stream(outer, 2, MAX, () => ({
      restart: () => parts.splice(0),
      rows: (rows) => {
        parts.push(rows.slice());
        if (!innerDigest) innerDigest = digest(decoded(new JpegStreamDecoder(module), inner, 4));
      },
    }));
    expect(r.status).toBe("decoded");
    expect(Buffer.concat(parts).equals(Buffer.from(decoded(reference, outer, 2).data))).toBe(true);
    expect(innerDigest).toBe(digest(decoded(reference, inner, 4)));
  });

  it("two sources read in turn each read their own pixels (a rewind only of its own coefficients)", () => {
    const module = new Module(WASM);
    const a = fixture("progressive-444.jpg");
    const b = fixture("progressive-440.jpg");
    const reference = new JpegStreamDecoder(new Module(WASM));
    const open = (bytes: Uint8Array) => {
      const s = new JpegStreamDecoder(module).source(bytes, MAX);
      if (s.status !== "ready") throw new Error(s.message);
      return s.source;
    };
    const read = (src: ReturnType<typeof open>, scale: DecodeScale) => {
      const parts: Uint8Array[] = [];
      expect(src.read({ restart: () => parts.splice(0), rows: (d) => parts.push(d.slice()) }, scale).status).toBe("read");
      return Buffer.concat(parts);
    };
    const sa = open(a);
    const sb = open(b);
    for (const [src, bytes, scale] of [
      [sa, a, 1],
      [sa, a, 2],
      [sb, b, 1],
      [sa, a, 4],
      [sb, b, 2],
    ] as const)
      expect(read(src, scale).equals(Buffer.from(decoded(reference, bytes, scale).data))).toBe(true);
  });
});

/**
 * A 2400 x 1800 three-component progressive JPEG holding only its DC scan (every difference 0): a flat grey image,
 * and still 2 bytes of coefficients per sample for the decoder.
 */
function bigProgressive(): Uint8Array {
  const w = 2400;
  const h = 1800;
  const seg = (marker: number, body: number[]) => [0xff, marker, (body.length + 2) >> 8, (body.length + 2) & 255, ...body];
  const dqt = seg(0xdb, [0, ...new Array(64).fill(1)]);
  const sof2 = seg(0xc2, [8, h >> 8, h & 255, w >> 8, w & 255, 3, 1, 0x11, 0, 2, 0x11, 0, 3, 0x11, 0]);
  // DC table 0: one code of length 1 for category 0 (every DC difference is 0)
  const dht = seg(0xc4, [0x00, 1, ...new Array(15).fill(0), 0]);
  const sos = seg(0xda, [3, 1, 0x00, 2, 0x00, 3, 0x00, 0, 0, 0x00]);
  // 3 x 300 x 225 blocks, one bit (code 0) each, packed in zero bytes
  const blocks = 3 * (w / 8) * (h / 8);
  const data = new Array(Math.ceil(blocks / 8)).fill(0);
  return Uint8Array.from([0xff, 0xd8, ...dqt, ...sof2, ...dht, ...sos, ...data, 0xff, 0xd9]);
}

/** A 2400 x 1800 sequential 4:4:4 file whose components come in three scans (buffered: every scan decoded first). */
function bigBuffered(): Uint8Array {
  const w = 2400;
  const h = 1800;
  const seg = (marker: number, body: number[]) => [0xff, marker, (body.length + 2) >> 8, (body.length + 2) & 255, ...body];
  const dqt = seg(0xdb, [0, ...new Array(64).fill(1)]);
  const sof0 = seg(0xc0, [8, h >> 8, h & 255, w >> 8, w & 255, 3, 1, 0x11, 0, 2, 0x11, 0, 3, 0x11, 0]);
  // DC table 0: one code of length 1 for category 0; AC table 0: one code of length 1 for end of block
  const dht = seg(0xc4, [0x00, 1, ...new Array(15).fill(0), 0, 0x10, 1, ...new Array(15).fill(0), 0]);
  // each block two bits (code 0, code 0), packed in zero bytes
  const data = new Array(Math.ceil(((w / 8) * (h / 8) * 2) / 8)).fill(0);
  const scans = [1, 2, 3].flatMap((id) => [...seg(0xda, [1, id, 0x00, 0, 63, 0x00]), ...data]);
  return Uint8Array.from([0xff, 0xd8, ...dqt, ...sof0, ...dht, ...scans, 0xff, 0xd9]);
}

describe("progressive refinement through nonzero masks (#19)", () => {
  // SHA-256 (first 16 hex) of the RGBA at 1/1, 1/2, 1/4 and 1/8, recorded with the build before the masks.
  it.each([
    ["progressive-420.jpg", "f4e53347f59592b7 9d9e621d5c227e2d b4edc9b694111d46 362039de75d6f376"],
    ["progressive-422-restart.jpg", "edb7a6a42506968c d469e0feb2162f85 2ec51c99f3b1edc1 52c83bf544f343a2"],
    ["progressive-440.jpg", "8816f74aa5d8fc88 83d3f00cc22812c0 10c50588bd424412 7594c79032b5a4b4"],
    ["progressive-444.jpg", "7e349969f2413d70 04f0f85e63e4f2a7 576d00918190f032 f44f43186a5c0daf"],
    ["gray-progressive-restart.jpg", "ba28c6131b81da57 3191e21734cff9db 8082de450a0f80e9 2d5c0ee58f065d37"],
    ["tiny-17x9-progressive.jpg", "dd8c602367642d3d 1658498d54e88dc0 5eb919151898f309 06f53a86c3abecde"],
    ["sequential-non-interleaved.jpg", "f4e53347f59592b7 9d9e621d5c227e2d b4edc9b694111d46 362039de75d6f376"],
  ])("%s decodes byte for byte as before at every scale", (name, digests) => {
    const decoder = new JpegStreamDecoder(new Module(WASM));
    const bytes = fixture(name);
    expect(([1, 2, 4, 8] as const).map((s) => digest(decoded(decoder, bytes, s))).join(" ")).toBe(digests);
  });
});
