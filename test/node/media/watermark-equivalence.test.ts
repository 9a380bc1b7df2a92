/**
 * Equivalence of the watermark detector across optimisations: the fast subset of the seeded equivalence set
 * (watermark-equivalence.cases.mjs: generated and real photographs, marked at each strength and attacked with JPEG,
 * resizes, crops, brightness and small rotations, plus unmarked images) must keep the outcome recorded in
 * test/fixtures/watermark-equivalence.json (detected with the same payload, or not_detected) and the decision
 * margins: no false positive, no wrong payload. The whole set: `node test/node/media/watermark-equivalence.mjs`.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { RgbaImage } from "../../../src/media/types";
import { WasmWatermarker } from "../../../src/media/watermark";
import { equivalenceCases, outcome } from "./watermark-equivalence.cases.mjs";

const ROOT = join(import.meta.dirname, "..", "..", "..");
const WASM = join(ROOT, "wasm", "build", "watermark.wasm");
if (!existsSync(WASM)) throw new Error(`${WASM} missing: run \`node scripts/build-wasm.mjs\` first`);
const wm = new WasmWatermarker(new (WebAssembly.Module as unknown as new (b: Uint8Array) => WebAssembly.Module)(readFileSync(WASM)));

interface Recorded {
  id: string;
  fast: boolean;
  status: string;
  payload: string | null;
}
const recorded = new Map(
  (JSON.parse(readFileSync(join(ROOT, "test", "fixtures", "watermark-equivalence.json"), "utf8")) as { cases: Recorded[] }).cases.map(
    (c) => [c.id, c],
  ),
);

describe("watermark: the detector's outcomes on the equivalence set", () => {
  it("the fast subset keeps every recorded outcome (same detections and payloads, no false positive)", async () => {
    const embed = (image: RgbaImage, payload: Uint8Array, strength: "subtle" | "balanced" | "robust") => {
      const e = wm.embed({ image, payload, strength });
      return e.status === "embedded" ? e.image : null;
    };
    let cases = 0;
    let detected = 0;
    for await (const c of equivalenceCases(embed, { only: "fast" })) {
      const want = recorded.get(c.id);
      expect(want, c.id).toBeDefined();
      const got = outcome(wm, c.image);
      expect({ id: c.id, status: got.status, payload: got.payload }).toEqual({ id: c.id, status: want?.status, payload: want?.payload });
      if (c.payload === undefined) expect(got.status, c.id).toBe("not_detected");
      else if (got.status === "detected") expect(got.payload, c.id).toBe(c.payload);
      if (got.status === "detected") detected++;
      cases++;
    }
    // the subset covers marked (most detected) and unmarked images
    expect(cases).toBeGreaterThanOrEqual(60);
    expect(detected).toBeGreaterThanOrEqual(30);
  }, 300_000);
});
