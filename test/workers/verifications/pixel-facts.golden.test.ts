import { describe, expect, it } from "vitest";
import { imageServices } from "../../../src/media";
import { hex } from "../../../src/platform/bytes";
import { measureImagePixels, PIXEL_FACTS_VERSION } from "../../../src/verifications/pixel-facts";
import { fixture } from "../support/helpers";
import { texturedRgba } from "../support/verify-helpers";

/*
 * #19: the verification pixel memo (pixel-memo.ts) trusts facts measured at publication only under the same
 * PIXEL_FACTS_VERSION. This pins the pixel stage's outputs on fixed inputs (in workerd, the production pipeline) to
 * that version: a change to a kernel, the decode or a constant that changes any output fails here until the version
 * is bumped (and the new digests recorded under it), so memos of the old pipeline are never used.
 */

/** PIXEL_FACTS_VERSION → input name → SHA-256 of the JSON of its facts. */
const GOLDEN: Record<number, Record<string, string>> = {
  1: {
    "photo-bridge.jpg": "2b724c3abfabc9bcc083416ff82d8a7d18f2cd5f18738a1233bd186c99256537",
    "sample-1mp.jpg": "0b4bf48258756190759f2315a48b8ec2fedc81ed3800d4edb214d7322934fcb9",
    "sample.jpg": "9a2ec759b4287c133a4872983bed7d89f19f9d0386bd38d23ceb6badd637d1c2",
    "sample.png": "4731c5886fc2ef31fb6680acf1ca2465c40b4baedd79f935c62e9c8cc58943b4",
    "marked-800x600.png": "e5bcb9b1bce89caee9db311b68f3e237159556590cf0251ac418991214aec77e",
    "not-an-image": "928a48befbaf3a6e9bd1d81e01709c9e23e68c6cf0246d95a6b7097e687cca57",
  },
};

async function inputs(): Promise<[string, Uint8Array, string][]> {
  const image = await imageServices();
  const w = 800;
  const h = 600;
  const marked = image.watermarker.embed({
    image: { width: w, height: h, data: texturedRgba(w, h) },
    payload: new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]),
    strength: "balanced",
  });
  if (marked.status !== "embedded") throw new Error("embed");
  const png = await image.codec.encode(marked.image, "image/png", new Uint8Array());
  if (png.status !== "encoded") throw new Error("encode");
  return [
    ["photo-bridge.jpg", fixture("photo-bridge.jpg"), "image/jpeg"],
    ["sample-1mp.jpg", fixture("sample-1mp.jpg"), "image/jpeg"],
    ["sample.jpg", fixture("sample.jpg"), "image/jpeg"],
    ["sample.png", fixture("sample.png"), "image/png"],
    ["marked-800x600.png", png.bytes, "image/png"],
    ["not-an-image", new Uint8Array([0xff, 0xd8, 0xff, 0xdb, 0, 3, 0]), "image/jpeg"],
  ];
}

describe("pixel facts golden (#19)", () => {
  it("the pixel stage's outputs on fixed inputs are the ones recorded for PIXEL_FACTS_VERSION", async () => {
    const image = await imageServices();
    const got: Record<string, string> = {};
    const facts: Record<string, unknown> = {};
    for (const [name, bytes, mediaType] of await inputs()) {
      const f = await measureImagePixels(image, bytes, mediaType);
      facts[name] = f;
      got[name] = hex(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(JSON.stringify(f))));
    }
    // The inputs exercise every kind of fact: a detected mark, none, a small image, PNG and JPEG, a failed decode.
    expect(facts["marked-800x600.png"]).toMatchObject({ watermark: { status: "detected", payload: "0102030405060708" } });
    expect(facts["photo-bridge.jpg"]).toMatchObject({ status: "decoded", watermark: { status: "not_detected" } });
    expect((facts["photo-bridge.jpg"] as { windows: string[] }).windows.length).toBeGreaterThan(0);
    expect(facts["sample.jpg"]).toMatchObject({ watermark: { status: "small" } });
    expect(facts["not-an-image"]).toMatchObject({ status: "not_decoded" });
    expect(
      got,
      `The pixel stage's outputs changed: bump PIXEL_FACTS_VERSION (pixel-facts.ts) and record these under it: ${JSON.stringify(got)}`,
    ).toEqual(GOLDEN[PIXEL_FACTS_VERSION]);
  });
});
