/**
 * Review of the pixel levers (#19, h43-photo): PdqFingerprinter.compute's `iscc` feeds ISCC from PDQ's staging
 * chunks, addresses in PDQ's kernel. An ISCC fingerprinter of another kernel (another module instance) must not read
 * its own memory at those addresses and report that as a computed code: it is computed on its own (or not fed).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { IsccImageFingerprinter, PdqFingerprinter, queryWindowFactor } from "../../../src/media/fingerprint";
import { goldenImage } from "./fingerprint.simd-golden.cases";

const ROOT = join(import.meta.dirname, "..", "..", "..");
const Module = WebAssembly.Module as unknown as new (bytes: Uint8Array) => WebAssembly.Module;
const bytes = readFileSync(join(ROOT, "wasm", "build", "fingerprint.wasm"));
const moduleA = new Module(bytes);
const moduleB = new Module(bytes);

describe("PDQ's pass feeding ISCC (review)", () => {
  it("never reports a code fed from another kernel's memory: the result is the ISCC fingerprinter's own code", () => {
    const pdq = new PdqFingerprinter(moduleA);
    const iscc = new IsccImageFingerprinter(moduleB);
    const same = new IsccImageFingerprinter(moduleA);
    for (const [w, h, seed] of [
      [300, 200, 1],
      [1056, 663, 2],
    ] as const) {
      const image = goldenImage(w, h, "photo", seed);
      const want = iscc.compute(image);
      expect(want.status).toBe("computed");
      // dirty the other kernel's memory with another image's pass, as a previous request would
      iscc.compute(goldenImage(w, h, "photo", seed + 10));
      const k = queryWindowFactor(w, h);
      const got = pdq.compute(image, { ...(k > 1 ? { plane: k } : {}), iscc });
      expect(got.status).toBe("computed");
      if (got.iscc) expect(got.iscc, `${w}x${h}`).toEqual(want);
      // the same kernel still feeds it, bit for bit
      const fed = pdq.compute(image, { ...(k > 1 ? { plane: k } : {}), iscc: same });
      expect(fed.iscc, `${w}x${h}`).toEqual(same.compute(image));
    }
  });
});
