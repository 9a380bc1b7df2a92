/**
 * Our Chromaprint kernel inside workerd, loaded as workerd code loads it (the `.wasm` imported as a module, no
 * compilation from bytes): the upstream vectors must come out exactly as in Node (test/node/media/
 * chromaprint.conformance.test.ts has the full suite), streamed in small writes, with the kernel's memory small.
 */

import type { ImportGlobFunction } from "vite/types/importGlob.d.ts";
import { describe, expect, it } from "vitest";
import { Chromaprinter, chromaprintHash, encodeChromaprint, isccAudioCode } from "../../../src/media/fingerprint/audio";
import chromaprintModule from "../../../wasm/build/chromaprint.wasm";

declare global {
  interface ImportMeta {
    /** Vite's import.meta.glob, declared as vite/client does (vite/client is not in this project's types). */
    glob: ImportGlobFunction;
  }
}

/** The PCM vectors (WAV copies: Vite inlines only known asset types, not .raw), inlined by Vite as base64 data URLs (only this file loads them). */
const INLINED = import.meta.glob("../../fixtures/fp-vectors/chromaprint/*.wav", {
  query: "?inline",
  import: "default",
  eager: true,
}) as Record<string, string>;

function vector(name: string): Int16Array {
  const entry = Object.entries(INLINED).find(([path]) => path.endsWith(`/${name}`));
  if (!entry) throw new Error(`vector ${name} missing`);
  const url = entry[1];
  const bytes = Uint8Array.from(atob(url.slice(url.indexOf(",") + 1)), (c) => c.charCodeAt(0));
  // Canonical 44-byte WAV header (these files are written so), then s16le samples.
  expect(String.fromCharCode(...bytes.subarray(36, 40))).toBe("data");
  return new Int16Array(bytes.slice(44).buffer);
}

/** fpcalc -raw for test.mp3 (tests/data/test.mp3.fpcalc.out upstream). */
const FPCALC_TEST_MP3 = [
  4152350079, 4152350591, 4152358911, 4152227839, 4118410719, 4118664669, 4110276061, 4110284287, 4101895679, 4118672895, 4118409599,
  4118664575, 4152350071, 4152358263, 4160746871, 4160747351, 4160739159, 4152219487, 4152227711, 3615356287, 4152219007, 4152219007,
  4152358271, 4152358239, 4118803807, 4118664543, 4118664703, 4118664703, 4118673407, 4118804447, 3581933535, 3581933535, 3615487359,
  3623744895, 3623744895, 4160615807, 4118672767, 4118402431, 4118664575, 4152226175, 4152226303, 4152358365, 4152358365, 4286567933,
  4286436733, 4152227197, 4118672765, 4118672765, 4127061375, 4127053151, 4127052287, 4127060479, 4127060479, 4118671871, 4118803935,
  4118795743, 4118803807, 4118803831, 4118672759,
];

describe("chromaprint in workerd", () => {
  it("imports the kernel as a module and reproduces upstream's TestFp vector, in 4 KiB writes", () => {
    expect(chromaprintModule).toBeInstanceOf(WebAssembly.Module);
    const samples = vector("test_stereo_44100.wav");
    const cp = new Chromaprinter(chromaprintModule);
    cp.start(44100, 1);
    for (let off = 0; off < samples.length; off += 2048) cp.write(samples.subarray(off, off + 2048));
    const raw = cp.finish();
    expect(cp.state).toBe("idle");
    expect(encodeChromaprint(raw)).toBe("AQAAC0kkZUqYREkUnFAXHk8uuMZl6EfO4zu-4ABKFGESWIIMEQE");
    expect(chromaprintHash(raw)).toBe(3732003127);
    expect(isccAudioCode(raw, 64)).toMatch(/^ISCC:EIA/);
    expect(cp.memoryBytes()).toBeLessThan(2 << 20);
  });

  it("test.mp3 as fpcalc fed it: fpcalc's raw values", () => {
    const cp = new Chromaprinter(chromaprintModule);
    const r = cp.fingerprint(vector("test.mp3.swr11025.wav"), 11025, 1);
    expect(r.status === "computed" && Array.from(r.raw)).toEqual(FPCALC_TEST_MP3);
  });

  it("bad input gives a status, not a throw", () => {
    const cp = new Chromaprinter(chromaprintModule);
    expect(cp.fingerprint(new Int16Array(5), 0, 1).status).toBe("failed");
    expect(cp.fingerprint(new Int16Array(1), 44100, 2)).toEqual({ status: "computed", raw: new Uint32Array(0), truncated: false });
  });
});
