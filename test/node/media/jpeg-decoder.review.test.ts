/**
 * #19 review of the decoder's speed-ups (coefficient buffers no longer zeroed up front but cleared by a DC first
 * scan or before a component's first scan; per-block AC flags; the bit buffer in locals; branch-free correction
 * bits): progressive and multi-scan files built to reach the edge paths (test/fixtures/jpegdec/review/README.md:
 * non-interleaved and partial DC scans, DC and AC successive approximation down to Al 6, chroma scanned before
 * luma, components only ever DC-coded, restart intervals of 1 and 3 blocks, every sampling from 4:4:4 to 4:1:1 and
 * chroma sampled finer than luma, 1x1 to 29x70 images) and the variants review-corpus.ts derives from each (cuts
 * mid-scan, scans dropped, duplicated or reordered, rewritten SOS parameters, flipped bytes, a missing RST).
 * Checked at every scale: (1) a kernel whose memory an earlier image left full of arbitrary bytes decodes every
 * variant byte for byte as a fresh one (the same status when it fails), so nothing of an earlier image leaks into a
 * later one; (2) the real pool (JpegStreamDecoder, an idle kernel reused) after large noisy decodes, finished or
 * failed mid-scan, gives the fresh output; (3) every variant decodes as the decoder before these changes
 * (c7febe9) did: golden-c7febe9.json; (4) the unmodified files match MozJPEG.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import decodeJpeg, { init as initDecode } from "@jsquash/jpeg/decode";
import { beforeAll, describe, expect, it } from "vitest";
import { JpegStreamDecoder } from "../../../src/media/codecs/jpeg-decoder.ts";
import type { DecodeScale } from "../../../src/media/types.ts";
import {
  decodeOn,
  digest,
  dirtyWith,
  instantiate,
  LOG2_SCALES,
  REVIEW_DIR,
  ROOT,
  record,
  reviewFiles,
  rng,
  variants,
} from "./jpeg-decoder.review-corpus.ts";

const Module = WebAssembly.Module as unknown as new (bytes: Uint8Array) => WebAssembly.Module;
const WASM = readFileSync(join(ROOT, "wasm", "build", "jpegdec.wasm"));
const MODULE = new Module(WASM);
// @ts-expect-error -- a JavaScript module without declarations (the benchmarks' seeded images and MozJPEG)
const images = await import("../../../bench/lib/images.mjs");
const FILES = reviewFiles();
const GOLDEN = JSON.parse(readFileSync(join(REVIEW_DIR, "golden-c7febe9.json"), "utf8")) as Record<string, string>;
const SCALES: DecodeScale[] = [1, 2, 4, 8];

/**
 * The digest of a variant decoded at a scale by a freshly instantiated kernel. The reuse test and the golden test
 * both compare against exactly this value; it is computed once per variant and scale (on demand, so either test also
 * runs alone) instead of once in each: a quarter of the file's time.
 */
const freshDigests = new Map<string, string>();
function freshDigest(v: Uint8Array, log2: number): string {
  const key = `${createHash("sha256").update(v).digest("hex")}@${log2}`;
  let d = freshDigests.get(key);
  if (d === undefined) {
    d = digest(decodeOn(instantiate(MODULE), v, log2));
    freshDigests.set(key, d);
  }
  return d;
}

async function noisyJpeg(width: number, height: number, options: object): Promise<Uint8Array> {
  const img = images.makeImage("noise", width, height, 23);
  const frame = { data: new Uint8ClampedArray(img.data.buffer, img.data.byteOffset, img.data.length), width, height };
  return new Uint8Array(await images.jpegEnc.default(frame, options));
}
// a progressive 4:4:4 q98 of noise: every coefficient buffer byte and AC flag of the kernel written
const NOISY = await noisyJpeg(480, 360, { quality: 98, progressive: true, auto_subsample: false, chroma_subsample: 1 });
const NOISY_420 = await noisyJpeg(333, 251, { quality: 97, progressive: true, auto_subsample: false, chroma_subsample: 2 });

beforeAll(async () => {
  const require = createRequire(import.meta.url);
  const pkg = dirname(require.resolve("@jsquash/jpeg/package.json"));
  await (initDecode as (m: unknown) => Promise<unknown>)(new Module(readFileSync(join(pkg, "codec/dec/mozjpeg_dec.wasm"))));
});

describe("JPEG decoder review: nothing of an earlier image survives into a later one (#19)", () => {
  it("the corpus is there: progressive and multi-scan files, most of their variants decodable", () => {
    expect(FILES.length).toBeGreaterThanOrEqual(250);
    let decoded = 0;
    let all = 0;
    for (const [name, bytes] of FILES.slice(0, 40))
      for (const [, v] of variants(name, bytes)) {
        all++;
        if (typeof decodeOn(instantiate(MODULE), v, 0) !== "string") decoded++;
      }
    // both outcomes are exercised: decodes and failures mid-scan
    expect(decoded).toBeGreaterThan(all / 3);
    expect(decoded).toBeLessThan(all);
  });

  it.each(FILES)("%s and its variants: a kernel full of arbitrary bytes decodes as a fresh one, at every scale", (name, bytes) => {
    const k = instantiate(MODULE);
    const end = dirtyWith(k, NOISY);
    const r = rng(bytes.length);
    const junk = [
      new Uint8Array(4096).map(() => Math.floor(r() * 256)),
      // coefficients 0x0101 and flags 1 everywhere; then flags 0 beside nonzero coefficients
      new Uint8Array(4096).fill(1),
      new Uint8Array(4096).map((_, i) => (i % 3 === 0 ? 0 : 0x7f)),
    ];
    const bad: string[] = [];
    let j = 0;
    for (const [vname, v] of variants(name, bytes))
      for (const s of LOG2_SCALES) {
        const fresh = freshDigest(v, s);
        const scribble = { end, bytes: junk[j++ % junk.length] as Uint8Array };
        const reused = digest(decodeOn(k, v, s, scribble));
        if (reused !== fresh) bad.push(`${vname} at 1/${1 << s}: fresh ${fresh}, reused ${reused}`);
      }
    expect(bad).toEqual([]);
  });

  it.each(FILES)("%s and its variants decode as the decoder before #19's changes did (golden-c7febe9.json)", (name, bytes) => {
    // record() digests what the decode returns; a digest (a string) passes through it unchanged.
    const got = record(name, bytes, freshDigest);
    expect(got.combined, got.lines.join("\n")).toBe(GOLDEN[name]);
  });

  it.each(FILES)("%s and its variants: AC scans decoded row by row give what decoding every scan first gives", (name, bytes) => {
    // keepCoefficients(1): every scan into the whole coefficient buffer first (the path a source read `again` takes)
    const k = instantiate(MODULE);
    const bad: string[] = [];
    for (const [vname, v] of variants(name, bytes))
      for (const s of LOG2_SCALES) {
        const kept = digest(decodeOn(k, v, s, undefined, true));
        const rows = freshDigest(v, s);
        if (kept !== rows) bad.push(`${vname} at 1/${1 << s}: every scan first ${kept}, row by row ${rows}`);
      }
    expect(bad).toEqual([]);
  });

  it("the real pool: an idle kernel dirtied by large noisy decodes (finished, or failed mid-scan) decodes as a fresh one", () => {
    const reused = new JpegStreamDecoder(MODULE);
    const truncated = NOISY.subarray(0, Math.floor(NOISY.length * 0.6));
    const dirtiers = [NOISY, NOISY_420, truncated];
    const bad: string[] = [];
    let i = 0;
    for (const [name, bytes] of FILES)
      for (const scale of SCALES) {
        const d = dirtiers[i++ % dirtiers.length] as Uint8Array;
        const dirt = reused.decode(d, scale === 1 ? 2 : 1, 50_000_000);
        expect(dirt.status).toBe(d === truncated ? "failed" : "decoded");
        const fresh = new JpegStreamDecoder(new Module(WASM)).decode(bytes, scale, 50_000_000);
        const again = reused.decode(bytes, scale, 50_000_000);
        const a = fresh.status === "decoded" ? digest(fresh.image.data) : fresh.status;
        const b = again.status === "decoded" ? digest(again.image.data) : again.status;
        if (a !== b) bad.push(`${name} at 1/${scale}: fresh ${a}, pooled ${b}`);
      }
    expect(bad).toEqual([]);
  });

  it("a source read at one scale and again at another (coefficients kept: rewind) gives the fresh decodes", () => {
    const bad: string[] = [];
    for (const [name, bytes] of FILES.filter(([n]) => n.startsWith("p-")).slice(0, 60)) {
      const decoder = new JpegStreamDecoder(MODULE);
      const src = decoder.source(bytes, 50_000_000);
      if (src.status !== "ready") throw new Error(`${name}: ${src.status}`);
      for (const scale of [8, 1, 2, 4] as DecodeScale[]) {
        const rows: Uint8Array[] = [];
        const r = src.source.read({ restart: () => rows.splice(0), rows: (data) => rows.push(data.slice()) }, scale);
        expect(r.status).toBe("read");
        const fresh = new JpegStreamDecoder(new Module(WASM)).decode(bytes, scale, 50_000_000);
        if (fresh.status !== "decoded") throw new Error(`${name}: ${fresh.status}`);
        if (digest(Buffer.concat(rows)) !== digest(fresh.image.data)) bad.push(`${name} at 1/${scale}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it.each(FILES)("%s at full size against MozJPEG: PSNR >= 40 dB", async (_name, bytes) => {
    const ours = new JpegStreamDecoder(MODULE).decode(bytes, 1, 50_000_000);
    if (ours.status !== "decoded") throw new Error(`${ours.status}: ${ours.message}`);
    const m = await decodeJpeg(bytes.slice().buffer as ArrayBuffer);
    expect([m.width, m.height]).toEqual([ours.image.width, ours.image.height]);
    let se = 0;
    let maxDiff = 0;
    for (let i = 0; i < m.data.length; i++) {
      if (i % 4 === 3) continue;
      const d = Math.abs((m.data[i] ?? 0) - (ours.image.data[i] ?? 0));
      se += d * d;
      maxDiff = Math.max(maxDiff, d);
    }
    const psnr = se === 0 ? 99 : 10 * Math.log10((255 * 255) / (se / ((m.data.length * 3) / 4)));
    expect(psnr, `max difference ${maxDiff}`).toBeGreaterThanOrEqual(40);
  });
});
