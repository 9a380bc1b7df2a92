/**
 * #19: the 18 PDQ window hashes (pdqRegionHashes) stay bit for bit what they were before the windows shared work
 * (commit 1c3dd3b recorded pdq-regions.golden.json): real photographs decoded by mozjpeg (a pinned package, so a
 * change of our own decoder cannot move the inputs), both full size and reduced to the verification plane, and
 * seeded generated images (odd sizes, transparency, a uniform border, a tall and a wide one). The inputs' SHA-256
 * is recorded too, so a changed input is told apart from a changed hash.
 * `PDQ_REGIONS_GOLDEN_WRITE=1` rewrites the file (only ever from the code the golden is meant to pin).
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import decodeJpeg, { init as initDecode } from "@jsquash/jpeg/decode";
import { beforeAll, describe, expect, it } from "vitest";
import { PdqFingerprinter, pdqHex, pdqRegionHashes, pixelPlane } from "../../../src/media/fingerprint";
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
      expect(g.regions).toHaveLength(18);
    }
  }, 60_000);
});
