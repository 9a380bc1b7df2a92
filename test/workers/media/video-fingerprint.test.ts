/**
 * Our video fingerprints inside workerd, with the fingerprint kernel loaded as workerd code loads it (the
 * `.wasm` imported as a module): frames of upstream's doorknob-hd-no-bar.mp4 made by upstream's own ffmpeg
 * invocations, stored as PNG tile sheets (test/fixtures/fp-vectors/{vpdq,tmk}/*-frames-*.png, see the README
 * there), decoded by the service's PNG codec. vPDQ must give upstream's hashes for those frames bit for bit,
 * and TMK+PDQF a .tmk file byte-identical to upstream's (its SHA-256). Node has the full suites
 * (test/node/media/vpdq-conformance.test.ts, tmk-conformance.test.ts).
 */

import type { ImportGlobFunction } from "vite/types/importGlob.d.ts";
import { describe, expect, it } from "vitest";
import { imageCodec } from "../../../src/media/codecs/workerd";
import { FingerprintKernel } from "../../../src/media/fingerprint";
import {
  encodeTmk,
  encodeVpdq,
  type RgbFrame,
  TmkPdqfHasher,
  tmkScores,
  VpdqHasher,
  vpdqMatch,
} from "../../../src/media/fingerprint/video";
import fingerprintModule from "../../../wasm/build/fingerprint.wasm";

declare global {
  interface ImportMeta {
    glob: ImportGlobFunction;
  }
}

const INLINED = import.meta.glob("../../fixtures/fp-vectors/{vpdq,tmk}/*-frames-*.png", {
  query: "?inline",
  import: "default",
  eager: true,
}) as Record<string, string>;

/** The frames of a tile sheet, row by row (`count` tiles of `size` x `size`). */
async function framesOf(name: string, size: number, count: number, rate: number, step = 1): Promise<RgbFrame[]> {
  const entry = Object.entries(INLINED).find(([path]) => path.endsWith(`/${name}`));
  if (!entry) throw new Error(`fixture ${name} missing`);
  const bytes = Uint8Array.from(atob(entry[1].slice(entry[1].indexOf(",") + 1)), (c) => c.charCodeAt(0));
  const r = await imageCodec.decode(bytes, "image/png");
  if (r.status !== "decoded") throw new Error(`${name}: ${r.status}`);
  const { width, data } = r.image;
  const perRow = width / size;
  return Array.from({ length: count }, (_, i) => {
    const rgb = new Uint8Array(size * size * 3);
    const x0 = (i % perRow) * size;
    const y0 = Math.floor(i / perRow) * size;
    for (let y = 0; y < size; y++)
      for (let x = 0; x < size; x++) for (let c = 0; c < 3; c++) rgb[(y * size + x) * 3 + c] = data[((y0 + y) * width + x0 + x) * 4 + c]!;
    return { index: i * step, timestampSeconds: (i * step) / rate, width: size, height: size, rgb };
  });
}

/** upstream's vpdq/sample-hashes/doorknob-hd-no-bar-128x128.txt, frames 0, 30, 60, 90: what its 1-second sampling keeps. */
const UPSTREAM_128 = [
  "0,100,d2d9998c25266273d29cbdac89cb52d226248dbbce99726c38660f93c799f07c,0.000",
  "30,78,c8feb0dc73910f830fc6f07cf039ef030f861998f8717cf80fce00070003fffe,1.000",
  "60,1,45a434b77888c7b72ef2ac3601928790765eea5541c22bcc53f1cf0eefc37278,2.000",
  "90,29,56aa57aa5552aaaaa555a955aa955555556a55aa556a554aaaaa5555ab55aa95,3.000",
];

/** SHA-256 of upstream's tmk/sample-hashes/doorknob-hd-no-bar.tmk. */
const UPSTREAM_TMK_SHA256 = "34ff0ccbdfbca36c3a76913783b6ecfb3d1ed2c0c00ef36c95fd4e236c45efe7";

describe("video fingerprints in workerd", () => {
  it("vPDQ of the 128x128 frames 0, 30, 60, 90, sampled once a second: upstream's lines (hash, quality, time) exactly", async () => {
    expect(fingerprintModule).toBeInstanceOf(WebAssembly.Module);
    const frames = await framesOf("doorknob-hd-no-bar-frames-128x128-every30.png", 128, 4, 30, 30);
    const h = new VpdqHasher(fingerprintModule, { secondsPerHash: 1, frameRate: 30 });
    for (const f of frames) h.push(f);
    const r = h.finish();
    expect(r.status).toBe("computed");
    if (r.status !== "computed") return;
    expect(encodeVpdq(r.hashes).trimEnd().split("\n")).toEqual(UPSTREAM_128);
    expect(vpdqMatch(r.hashes, r.hashes)).toMatchObject({ queryMatchPercent: 100, queryFrames: 2 });
  });

  it("TMK+PDQF of the 62 frames at 15 fps: upstream's .tmk byte for byte, in a small kernel memory", async () => {
    const frames = await framesOf("doorknob-hd-no-bar-frames-64x64-15fps.png", 64, 62, 15);
    // The kernel instance is shared by every test of this workerd and its memory never shrinks: another file's PDQ
    // windows on a large plane (their row cache, up to ≈ 4 MiB more) may have grown it already, so TMK is held to not
    // growing it past the larger of that and 8 MiB.
    const before = FingerprintKernel.of(fingerprintModule).memoryBytes();
    const h = new TmkPdqfHasher(fingerprintModule);
    for (const f of frames) h.push(f);
    const r = h.finish();
    expect(r.status).toBe("computed");
    if (r.status !== "computed") return;
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", encodeTmk(r.features)));
    expect(Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("")).toBe(UPSTREAM_TMK_SHA256);
    const s = tmkScores(r.features, r.features);
    expect(s.status === "scored" && s.level1 > 0.999999 && s.level2 > 0.999999).toBe(true);
    expect(FingerprintKernel.of(fingerprintModule).memoryBytes()).toBeLessThanOrEqual(Math.max(before, 8 << 20));
  });
});
