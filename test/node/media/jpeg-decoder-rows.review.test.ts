/**
 * h42 review of the progressive decoder's row-by-row AC scans (wasm/jpegdec: start() decodes the DC scans and notes
 * each AC scan, whose rows are decoded as the MCU rows are transformed; `keepCoefficients` keeps the old
 * every-scan-first decode for a source read `again`). Checked: (1) seeded progressive files written by
 * jpeg-decoder-rows.review-gen.ts (any sampling, sizes 1x1 to 320x240, DC interleaved or not, spectral selection
 * and successive approximation from Al up to 13, component scans interleaved, scans out of causal order, a restart
 * interval per scan, Huffman slots redefined between scans, DQT after scans, long EOB runs across MCU rows and
 * restart intervals) and damaged mutants of each (cuts, flipped bytes, markers inside scan data, RSTs removed, DRI
 * changed, scans swapped/dropped/duplicated, SOS parameters rewritten, unsupported markers after damaged scans)
 * decode at every scale as the decoder before the change did: rows-golden-f0c14db.json, recorded from f0c14db's
 * build by jpeg-decoder-rows.review-record.ts (one kernel for all, as here); (2) the same on a kernel left
 * mid-image by an abandoned decode before every decode, every-scan-first (`keepCoefficients`) and a rewind at
 * another scale; (3) findings.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { JpegStreamDecoder } from "../../../src/media/codecs/jpeg-decoder.ts";
import { prng } from "../../support/prng.ts";
import { decodeOn, digest, instantiate, type Kernel, LOG2_SCALES, REVIEW_DIR, ROOT, readRows } from "./jpeg-decoder.review-corpus.ts";
import { SEEDS, seedCases, seedDigest } from "./jpeg-decoder-rows.review-gen.ts";

const Module = WebAssembly.Module as unknown as new (bytes: Uint8Array) => WebAssembly.Module;
const MODULE = new Module(readFileSync(join(ROOT, "wasm", "build", "jpegdec.wasm")));
const GOLDEN = JSON.parse(readFileSync(join(REVIEW_DIR, "rows-golden-f0c14db.json"), "utf8")) as Record<string, string>;

const seg = (marker: number, body: number[]) => [0xff, marker, (body.length + 2) >> 8, (body.length + 2) & 255, ...body];

describe("row-by-row AC scans decode as every scan first did (f0c14db)", () => {
  it(`${SEEDS.length} seeded progressive files and ${SEEDS.length * 10} mutants, every scale, one kernel`, () => {
    const k = instantiate(MODULE);
    const bad: string[] = [];
    for (const seed of SEEDS) {
      const got = seedDigest(k, seed);
      if (got.combined !== GOLDEN[seed]) bad.push(`seed ${seed}: ${got.combined}, f0c14db ${GOLDEN[seed]}\n  ${got.lines.join("\n  ")}`);
    }
    expect(bad).toEqual([]);
  });

  it("the same on a kernel an abandoned decode left mid-image before each decode", () => {
    const k = instantiate(MODULE);
    const rand = prng(4242);
    let last: Uint8Array | null = null;
    // the previous case read a few rows (its deferred scans part way through), then dropped
    const dirty = (kernel: Kernel) => {
      if (!last) return;
      const ptr = kernel.inputAlloc(last.length);
      new Uint8Array(kernel.memory.buffer, ptr, last.length).set(last);
      if (kernel.header() !== 0) return;
      if (rand() < 0.3) kernel.keepCoefficients(1);
      if (kernel.start(Math.floor(rand() * 4), 50_000_000) !== 0) return;
      for (let i = 0, n = Math.floor(rand() * 3); i < n; i++) kernel.next();
    };
    const bad: string[] = [];
    for (const seed of SEEDS.filter((s) => s % 4 === 0)) {
      const cases = seedCases(seed);
      let i = 0;
      const got = seedDigest(k, seed, (kernel) => {
        dirty(kernel);
        last = cases[Math.floor(i++ / LOG2_SCALES.length)]![1];
      });
      if (got.combined !== GOLDEN[seed]) bad.push(`seed ${seed}: ${got.combined}, f0c14db ${GOLDEN[seed]}`);
    }
    expect(bad).toEqual([]);
  });

  it("every scan first (a source read `again`), and a rewind at another scale, give the row-by-row output", () => {
    const k = instantiate(MODULE);
    const bad: string[] = [];
    for (const seed of SEEDS.filter((s) => s % 3 === 0))
      for (const [name, v] of seedCases(seed))
        for (const s of LOG2_SCALES) {
          const rows = digest(decodeOn(k, v, s));
          const kept = digest(decodeOn(k, v, s, undefined, true));
          if (kept !== rows) bad.push(`seed ${seed} ${name} 1/${1 << s}: every scan first ${kept}, row by row ${rows}`);
          if (rows.length !== 16) continue;
          const s2 = (s + 1 + (seed % 3)) % 4;
          const want = digest(decodeOn(k, v, s2));
          for (const keep of [false, true]) {
            decodeOn(k, v, s, undefined, keep);
            const again = k.rewind(s2) === 0 ? digest(readRows(k)) : "rewind refused";
            if (again !== want)
              bad.push(`seed ${seed} ${name} 1/${1 << s} then 1/${1 << s2}${keep ? " kept" : ""}: ${again}, want ${want}`);
          }
        }
    expect(bad).toEqual([]);
  });
});

/**
 * A 4000 x 3000 grey progressive file: a DC scan, an AC scan (band 1..5) of all end-of-band runs, then `tail`; with
 * `damaged`, the AC scan's data is cut short (it runs out of bits in its first block row).
 */
function dcAcThen(tail: number[], damaged = false): Uint8Array {
  const w = 4000;
  const h = 3000;
  const blocks = (w / 8) * (h / 8);
  const dqt = seg(0xdb, [0, ...new Array(64).fill(1)]);
  const sof = seg(0xc2, [8, h >> 8, h & 255, w >> 8, w & 255, 1, 1, 0x11, 0]);
  // DC table 0: one code (0) for category 0; AC table 0: one code (0) for EOB0 (a run of one block)
  const dht = seg(0xc4, [0x00, 1, ...new Array(15).fill(0), 0, 0x10, 1, ...new Array(15).fill(0), 0]);
  const dc = [...seg(0xda, [1, 1, 0x00, 0, 0, 0x00]), ...new Array(Math.ceil(blocks / 8)).fill(0)];
  const ac = [...seg(0xda, [1, 1, 0x00, 1, 5, 0x00]), ...new Array(damaged ? 10 : Math.ceil(blocks / 8)).fill(0)];
  return Uint8Array.from([0xff, 0xd8, ...dqt, ...sof, ...dht, ...dc, ...ac, ...tail, 0xff, 0xd9]);
}

/** W x H, `nc` components 1x1: a DC scan of zero differences, then `nAc` AC scans of each, one end-of-band run each. */
function narrowRuns(w: number, h: number, nc: number, nAc: number): Uint8Array {
  const blocks = Math.ceil(w / 8) * Math.ceil(h / 8);
  const ids = Array.from({ length: nc }, (_, i) => i + 1);
  const dqt = seg(0xdb, [0, ...new Array(64).fill(1)]);
  const sof = seg(0xc2, [8, h >> 8, h & 255, w >> 8, w & 255, nc, ...ids.flatMap((id) => [id, 0x11, 0])]);
  // DC table 0: one code (0) for category 0; AC table 0: EOB0..EOB14, 4 bits each
  const dht = seg(0xc4, [
    0x00,
    1,
    ...new Array(15).fill(0),
    0,
    0x10,
    0,
    0,
    0,
    15,
    ...new Array(12).fill(0),
    ...Array.from({ length: 15 }, (_, r) => r << 4),
  ]);
  const bits: number[] = [];
  const put = (v: number, n: number) => {
    for (let i = n - 1; i >= 0; i--) bits.push((v >> i) & 1);
  };
  for (let left = blocks; left > 0; ) {
    const run = Math.min(left, 32767);
    const r = 31 - Math.clz32(run);
    put(r, 4);
    put(run & ((1 << r) - 1), r);
    left -= run;
  }
  while (bits.length % 8) bits.push(1);
  const ac: number[] = [];
  for (let i = 0; i < bits.length; i += 8) {
    const b = bits.slice(i, i + 8).reduce((x, y) => (x << 1) | y, 0);
    ac.push(b, ...(b === 0xff ? [0] : []));
  }
  const out = [0xff, 0xd8, ...dqt, ...sof, ...dht, ...seg(0xda, [nc, ...ids.flatMap((id) => [id, 0]), 0, 0, 0])];
  out.push(...new Array(Math.ceil((blocks * nc) / 8)).fill(0));
  for (let s = 0; s < nAc; s++) for (const id of ids) out.push(...seg(0xda, [1, id, 0x00, 1 + (s % 63), 1 + (s % 63), 0]), ...ac);
  return Uint8Array.from([...out, 0xff, 0xd9]);
}

function startOn(k: Kernel, bytes: Uint8Array, keep = false): number {
  const ptr = k.inputAlloc(bytes.length);
  new Uint8Array(k.memory.buffer, ptr, bytes.length).set(bytes);
  const h = k.header();
  if (h !== 0) return h;
  if (keep) k.keepCoefficients(1);
  return k.start(3, 50_000_000);
}

describe("findings", () => {
  // Finding 1 (DoS, low): start() fell back to decoding every scan again into the whole coefficient buffer when a
  // marker after the scans was unsupported (SOF3, DNL, arithmetic, the 101st scan): the DC scans were decoded twice
  // (a file of MAX_SCANS DC scans then SOF3 cost ~1.7x its time before the change) and the kernel grew by the whole
  // buffer (24 MB here: past the pool's bound, so the next decode instantiated a new kernel). Memory is the
  // deterministic witness of that second decode.
  const UNSUPPORTED_TAILS: [string, number[]][] = [
    ["SOF3", seg(0xc3, [])],
    ["DNL", seg(0xdc, [0, 8])],
    // 99 DC refinement scans (a zero bit a block) after the two: the 101st scan is one too many
    ["the 101st scan", Array.from({ length: 99 }, () => [...seg(0xda, [1, 1, 0x00, 0, 0, 0x10]), ...new Array(23_438).fill(0)]).flat()],
  ];
  it.each(UNSUPPORTED_TAILS)(
    "an unsupported %s after the scans: unsupported, without decoding every scan again into a whole buffer",
    (_, tail) => {
      const k = instantiate(MODULE);
      const kept = instantiate(MODULE);
      expect(startOn(k, dcAcThen(tail))).toBe(1);
      expect(startOn(kept, dcAcThen(tail), true)).toBe(1);
      // the whole buffer alone is 187,500 blocks x 128 bytes = 24 MB; the DC array and one MCU row are 0.4 MB
      expect((k as unknown as { memoryBytes(): number }).memoryBytes()).toBeLessThan(8 * 1024 * 1024);
    },
  );

  it.each(UNSUPPORTED_TAILS)("an AC scan cut short before an unsupported %s: corrupt, as every scan first says", (_, tail) => {
    const k = instantiate(MODULE);
    const kept = instantiate(MODULE);
    expect(startOn(kept, dcAcThen(tail, true), true)).toBe(2);
    expect(startOn(k, dcAcThen(tail, true))).toBe(2);
  });

  // Finding 2 (DoS, low): each MCU row resumed every AC scan of each component, even one whose end-of-band run
  // covered the row: a narrow, tall file of MAX_SCANS such scans (4.5 KB, 8 x 65535) took twice its time before the
  // change; such a scan now just moves its run on (no timing here: that it decodes as every scan first does).
  it("a narrow, tall file of 99 AC scans each one end-of-band run: the rows every scan first gives", () => {
    const k = instantiate(MODULE);
    const bytes = narrowRuns(8, 65535, 3, 33);
    for (const s of [0, 3]) expect(digest(decodeOn(k, bytes, s))).toBe(digest(decodeOn(k, bytes, s, undefined, true)));
    expect(digest(decodeOn(k, bytes, 3))).toMatch(/^[0-9a-f]{16}$/);
  });

  it("the pool: a decode failing late in a deferred scan reports the scan data's failure, and the kernel then decodes the next file as a fresh one", () => {
    const decoder = new JpegStreamDecoder(MODULE);
    const good = dcAcThen([]);
    const bad = dcAcThen([], true);
    const fresh = (bytes: Uint8Array) =>
      new JpegStreamDecoder(new Module(readFileSync(join(ROOT, "wasm", "build", "jpegdec.wasm")))).decode(bytes, 8, 50_000_000);
    const want = fresh(good);
    expect(want.status).toBe("decoded");
    const failed = decoder.decode(bad, 8, 50_000_000);
    expect(failed).toEqual({ status: "failed", message: "The JPEG is corrupt or truncated (scan data)." });
    const after = decoder.decode(good, 8, 50_000_000);
    expect(after.status).toBe("decoded");
    if (after.status === "decoded" && want.status === "decoded") expect(digest(after.image.data)).toBe(digest(want.image.data));
  });
});
