/**
 * #19: the PDQ window hashes (pdqRegionHashes) stay bit for bit what they were before the windows shared work
 * (commit 1c3dd3b recorded pdq-regions.golden.json with windows 0-17; #20 added 18-29, the quarter-offset windows,
 * leaving the first 18 of every image as they were): real photographs decoded by mozjpeg (a pinned package, so a
 * change of our own decoder cannot move the inputs), both full size and reduced to the verification plane, and
 * seeded generated images (odd sizes, transparency, a uniform border, a tall and a wide one). The inputs' SHA-256
 * is recorded too, so a changed input is told apart from a changed hash.
 * computeWindows (one luma plane for all windows) is also checked against computeWindow window by window, on
 * windows of every shape (a 64x64 one: the kernel's unfiltered path), and against bad input and a missing plane.
 * `PDQ_REGIONS_GOLDEN_WRITE=1` rewrites the file (only ever from the code the golden is meant to pin).
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import decodeJpeg, { init as initDecode } from "@jsquash/jpeg/decode";
import { beforeAll, describe, expect, it } from "vitest";
import {
  FingerprintKernel,
  PDQ_REGION_MAX_PIXELS,
  PDQ_REGIONS,
  PdqFingerprinter,
  pdqHex,
  pdqRegionHashes,
  pixelPlane,
  regionWindow,
} from "../../../src/media/fingerprint";
import type { RgbaImage } from "../../../src/media/types";
import { goldenImage } from "./fingerprint.simd-golden.cases";

const ROOT = join(import.meta.dirname, "..", "..", "..");
const Module = WebAssembly.Module as unknown as new (bytes: Uint8Array) => WebAssembly.Module;
const module = new Module(readFileSync(join(ROOT, "wasm", "build", "fingerprint.wasm")));
const pdq = new PdqFingerprinter(module);
const GOLDEN = join(import.meta.dirname, "pdq-regions.golden.json");

interface Golden {
  name: string;
  width: number;
  height: number;
  sha256: string;
  /** "region:hex:quality" per window, in region order. */
  regions: string[];
}

beforeAll(async () => {
  const pkg = join(ROOT, "node_modules", "@jsquash", "jpeg");
  await (initDecode as (m: unknown) => Promise<unknown>)(new Module(readFileSync(join(pkg, "codec/dec/mozjpeg_dec.wasm"))));
});

async function photo(file: string): Promise<RgbaImage> {
  const bytes = readFileSync(join(ROOT, "test", "fixtures", "media", file));
  const d = await decodeJpeg(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) as ArrayBuffer);
  return { width: d.width, height: d.height, data: new Uint8Array(d.data.buffer, d.data.byteOffset, d.data.length) };
}

async function inputs(): Promise<[string, RgbaImage][]> {
  const out: [string, RgbaImage][] = [];
  for (const file of ["photo-bridge.jpg", "sample-1mp.jpg", "photo-aitzgorri-900x675.jpg"]) {
    const image = await photo(file);
    out.push([`${file} full`, image], [`${file} plane`, pixelPlane(module, image).image]);
  }
  const generated: [number, number, string][] = [
    [40, 40, "noise"],
    [41, 997, "photo"],
    [129, 97, "alpha"],
    [333, 211, "photo"],
    [517, 1203, "bordered"],
    [640, 400, "alpha"],
    [1056, 663, "photo"],
    [1283, 130, "noise"],
  ];
  for (const [w, h, kind] of generated) out.push([`${w}x${h} ${kind}`, goldenImage(w, h, kind, w * 7919 + h)]);
  return out;
}

function record(name: string, image: RgbaImage): Golden {
  const r = pdqRegionHashes(pdq, image);
  if (r.status !== "computed") throw new Error(`${name}: ${r.status}`);
  return {
    name,
    width: image.width,
    height: image.height,
    sha256: createHash("sha256").update(image.data).digest("hex"),
    regions: r.regions.map((g) => `${g.region}:${pdqHex(g.bits)}:${g.quality}`),
  };
}

describe("PDQ window hashes: golden", () => {
  it("every window of every image hashes as recorded", async () => {
    const got = (await inputs()).map(([name, image]) => record(name, image));
    if (process.env.PDQ_REGIONS_GOLDEN_WRITE === "1") writeFileSync(GOLDEN, `${JSON.stringify(got, null, 1)}\n`);
    expect(existsSync(GOLDEN)).toBe(true);
    const want = JSON.parse(readFileSync(GOLDEN, "utf8")) as Golden[];
    expect(got.map((g) => g.name)).toEqual(want.map((g) => g.name));
    for (const [i, g] of got.entries()) {
      const w = want[i]!;
      expect([g.name, g.width, g.height, g.sha256], "the input itself changed").toEqual([w.name, w.width, w.height, w.sha256]);
      expect(g.regions, g.name).toEqual(w.regions);
      expect(g.regions).toHaveLength(PDQ_REGIONS.length);
      expect(PDQ_REGIONS).toHaveLength(30);
    }
  }, 60_000);
});

describe("computeWindows", () => {
  it("is computeWindow for each window, bit for bit, also for odd windows", () => {
    const image = goldenImage(333, 211, "alpha", 5);
    const windows = [
      ...PDQ_REGIONS.map((r) => regionWindow(r, image.width, image.height)),
      { x: 0, y: 0, w: 333, h: 211 },
      { x: 7, y: 9, w: 64, h: 64 }, // exactly 64x64: no filter
      { x: 100, y: 3, w: 4, h: 100 }, // under 5 px: zero hash, quality 0
      { x: 1, y: 2, w: 331, h: 5 },
    ];
    const got = pdq.computeWindows(image, windows);
    expect(got).toEqual(windows.map(({ x, y, w, h }) => pdq.computeWindow(image, x, y, w, h)));
    expect(got.every((r) => r.status === "computed")).toBe(true);
  });

  it("fails windows outside the image and bad images with a status, never a throw", () => {
    const image = goldenImage(100, 80, "photo", 9);
    const got = pdq.computeWindows(image, [
      { x: 50, y: 0, w: 51, h: 80 },
      { x: 0, y: 0, w: 100, h: 80 },
      { x: 0.5, y: 0, w: 10, h: 10 },
      { x: 0, y: -1, w: 10, h: 10 },
    ]);
    expect(got.map((r) => r.status)).toEqual(["failed", "computed", "failed", "failed"]);
    expect(got[1]).toEqual(pdq.compute(image));
    const truncated = { width: 100, height: 80, data: image.data.subarray(0, 1000) };
    expect(pdq.computeWindows(truncated, [{ x: 0, y: 0, w: 10, h: 10 }])[0]!.status).toBe("failed");
    expect(pdq.computeWindows(null as unknown as RgbaImage, [{ x: 0, y: 0, w: 10, h: 10 }])[0]!.status).toBe("failed");
    expect(pdq.computeWindows(image, [])).toEqual([]);
  });

  it("the kernel hashes no window without a complete luma plane", () => {
    const e = FingerprintKernel.of(module).exports as unknown as Record<string, (...a: number[]) => number>;
    pdq.compute(goldenImage(50, 50, "photo", 3)); // its work area replaces any plane
    expect(e.pdqWindow!(0, 0, 10, 10)).toBe(-1);
    const staging = e.pdqLumaBegin!(20, 20, 1024);
    expect(staging).toBeGreaterThan(0);
    e.pdqLumaPush!(1024); // 256 of 400 pixels
    expect(e.pdqWindow!(0, 0, 10, 10)).toBe(-1);
    e.pdqLumaPush!(1024);
    expect(e.pdqWindow!(0, 0, 10, 10)).toBeGreaterThanOrEqual(0);
    expect(e.pdqWindow!(11, 0, 10, 10)).toBe(-1);
  });

  it("keeps the kernel's memory bounded on the largest image that gets windows", () => {
    const image = goldenImage(2048, PDQ_REGION_MAX_PIXELS / 2048, "photo", 11);
    expect(pdqRegionHashes(pdq, image).status).toBe("computed");
    // the luma plane (4 bytes a pixel, 8 MiB here), one 1 MiB chunk and a window's few rows
    expect(FingerprintKernel.of(module).memoryBytes()).toBeLessThan(12 * 2 ** 20);
  }, 60_000);
});
