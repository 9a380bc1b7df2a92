/**
 * #19: the PDQ kernel's row cache (wasm/fingerprint/pdq.ts): windows of the same left edge and width read the rows
 * they share out of the first row filter from the cache instead of filtering them again. Every window's hash must
 * be computeWindow's (its own pushes, no plane, no cache) bit for bit, in whatever order the windows come: the
 * verification's query windows and the published windows through computeWindows, and the kernel driven directly in
 * orders computeWindows never uses (a window starting above the cached rows, so queued rows go first; adjacent,
 * disjoint and nested windows; rows too long for the kernel's row queue).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FingerprintKernel, PDQ_QUERY_WINDOWS, PDQ_REGIONS, PdqFingerprinter, pdqHex, regionWindow } from "../../../src/media/fingerprint";
import type { RgbaImage } from "../../../src/media/types";
import { goldenImage } from "./fingerprint.simd-golden.cases";

const ROOT = join(import.meta.dirname, "..", "..", "..");
const Module = WebAssembly.Module as unknown as new (bytes: Uint8Array) => WebAssembly.Module;
const module = new Module(readFileSync(join(ROOT, "wasm", "build", "fingerprint.wasm")));
const pdq = new PdqFingerprinter(module);

type Win = { x: number; y: number; w: number; h: number };

const alone = (image: RgbaImage, { x, y, w, h }: Win) => {
  const r = pdq.computeWindow(image, x, y, w, h);
  if (r.status !== "computed") throw new Error(`window ${x},${y} ${w}x${h}: ${r.status}`);
  return `${pdqHex(r.bits)}:${r.quality}`;
};

/** The kernel's hashes of `windows` over one luma plane of `image`, in exactly this order. */
function inOrder(image: RgbaImage, windows: Win[]): string[] {
  const e = FingerprintKernel.of(module).exports;
  const k = FingerprintKernel.of(module);
  const chunk = 1 << 16;
  const staging = e.pdqLumaBegin(image.width, image.height, chunk) >>> 0;
  expect(staging).toBeGreaterThan(0);
  for (let at = 0; at < image.data.length; at += chunk) {
    const n = Math.min(chunk, image.data.length - at);
    k.bytes().set(image.data.subarray(at, at + n), staging);
    e.pdqLumaPush(n);
  }
  return windows.map(({ x, y, w, h }) => {
    const q = e.pdqWindow(x, y, w, h);
    expect(q).toBeGreaterThanOrEqual(0);
    const at = k.address(e.PDQ_HASH);
    return `${pdqHex(k.bytes().slice(at, at + 32))}:${q}`;
  });
}

describe("PDQ window row cache", () => {
  it("computeWindows gives computeWindow's hashes for the query and the published windows", () => {
    for (const [w, h, kind, seed] of [
      [1056, 663, "photo", 1],
      [640, 400, "alpha", 2],
      [333, 997, "bordered", 3],
    ] as const) {
      const image = goldenImage(w, h, kind, seed);
      for (const set of [PDQ_QUERY_WINDOWS, PDQ_REGIONS]) {
        const windows = set.map((r) => regionWindow(r, w, h));
        const got = pdq.computeWindows(image, windows).map((r) => (r.status === "computed" ? `${pdqHex(r.bits)}:${r.quality}` : r.status));
        expect(got, `${w}x${h} ${kind}`).toEqual(windows.map((win) => alone(image, win)));
      }
    }
  }, 60_000);

  it("any order of windows in the kernel gives each window's own hash", () => {
    const image = goldenImage(301, 203, "photo", 7);
    const windows: Win[] = [
      { x: 5, y: 60, w: 290, h: 100 }, // fills the cache with rows 60..159
      { x: 5, y: 13, w: 290, h: 120 }, // starts above them: 47 rows queued, then the cached ones
      { x: 5, y: 150, w: 290, h: 53 }, // overlaps the bottom and goes past it
      { x: 5, y: 0, w: 290, h: 13 }, // adjacent above
      { x: 5, y: 40, w: 290, h: 50 }, // nested: every row cached
      { x: 5, y: 0, w: 289, h: 203 }, // another width: the cache starts over
      { x: 6, y: 0, w: 289, h: 203 }, // another left edge
      { x: 6, y: 100, w: 289, h: 30 },
      { x: 0, y: 0, w: 301, h: 203 }, // the whole image
      { x: 6, y: 150, w: 289, h: 7 }, // short: shorter than the row queue
      { x: 7, y: 7, w: 64, h: 64 }, // 64 x 64: the unfiltered path leaves the cache alone
      { x: 6, y: 155, w: 289, h: 9 },
    ];
    expect(inOrder(image, windows)).toEqual(windows.map((win) => alone(image, win)));
    // the reverse order too
    const back = [...windows].reverse();
    expect(inOrder(image, back)).toEqual(back.map((win) => alone(image, win)));
  });

  it("rows too long for the row queue go through one at a time, cached alike", () => {
    const image = goldenImage(8200, 30, "photo", 9);
    const windows: Win[] = [
      { x: 0, y: 10, w: 8200, h: 20 },
      { x: 0, y: 0, w: 8200, h: 25 },
      { x: 3, y: 2, w: 8197, h: 28 },
    ];
    expect(inOrder(image, windows)).toEqual(windows.map((win) => alone(image, win)));
  });

  it("a plane hashed with pdqBegin in between has no cache left", () => {
    const image = goldenImage(200, 150, "photo", 11);
    const first: Win = { x: 10, y: 0, w: 180, h: 100 };
    const second: Win = { x: 10, y: 50, w: 180, h: 100 };
    expect(inOrder(image, [first])).toEqual([alone(image, first)]);
    pdq.compute(goldenImage(120, 90, "noise", 12)); // overwrites the plane and the cache
    // a new plane of another image: nothing of the old cache may be read
    const other = goldenImage(200, 150, "noise", 13);
    expect(inOrder(other, [first, second])).toEqual([alone(other, first), alone(other, second)]);
  });
});
