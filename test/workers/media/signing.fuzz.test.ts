import { describe, expect, it } from "vitest";
import { mediaInspector, mediaServices } from "../../../src/media";
import { prng } from "../../support/prng";
import { fixture, testEnv } from "../support/helpers";

function mutate(input: Uint8Array, rand: () => number): Uint8Array {
  const out = new Uint8Array(input);
  const flips = 1 + Math.floor(rand() * 8);
  for (let i = 0; i < flips; i++) {
    const at = Math.floor(rand() * out.length);
    out[at] = out[at]! ^ (1 << Math.floor(rand() * 8));
  }
  return rand() < 0.2 ? out.slice(0, Math.floor(rand() * out.length)) : out;
}

const CASES: [string, string][] = [
  ["sample.jpg", "image/jpeg"],
  ["sample.png", "image/png"],
  ["sample.webp", "image/webp"],
  ["sample.gif", "image/gif"],
  ["sample.tif", "image/tiff"],
  ["sample.mp3", "audio/mpeg"],
  ["sample.wav", "audio/wav"],
  ["sample.mp4", "video/mp4"],
  ["sample.heic", "image/heic"],
  ["sample.svg", "image/svg+xml"],
];

describe("fuzz: mutated files through inspection and signing", () => {
  it("never throws; whatever inspection accepts either signs into a valid manifest or fails cleanly", async () => {
    const { signer, reader } = await mediaServices(testEnv);
    const inspector = mediaInspector();
    const rand = prng(3);
    const tally = { mutations: 0, inspected_ok: 0, signed: 0, failed: 0 };
    for (let i = 0; i < 2000; i++) {
      const [name, type] = CASES[i % CASES.length]!;
      const bytes = mutate(fixture(name), rand);
      tally.mutations++;
      const inspection = inspector.inspect(bytes, type);
      if (inspection.status !== "ok") continue;
      tally.inspected_ok++;
      if (tally.inspected_ok > 250) continue; // signing costs ~20 ms; 250 signed mutations bound the run time
      const result = await signer.signEmbedded({
        bytes,
        plan: { title: name, media_type: type, intent: { kind: "opened" }, assertions: [] },
      });
      expect(["signed", "failed", "unsupported_media_type"], `case ${i}`).toContain(result.status);
      if (result.status === "signed") {
        tally.signed++;
        const verdict = await reader.read({ bytes: result.bytes, mediaType: type });
        expect(verdict.status, `case ${i}`).toBe("read");
      } else {
        tally.failed++;
      }
    }
    console.log(JSON.stringify({ fuzz: "signing", ...tally }));
    expect(tally.signed).toBeGreaterThan(0);
  }, 120_000);
});
