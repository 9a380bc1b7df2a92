import { describe, expect, it } from "vitest";
import { imageServices } from "../../../src/media";
import { hex } from "../../../src/platform/bytes";
import { PDQ_MIN_QUALITY } from "../../../src/soft-bindings/repo";
import { measureImagePixels, PIXEL_FACTS_VERSION } from "../../../src/verifications/pixel-facts";
import { verifyPixels } from "../../../src/verifications/verify-pixels";
import { fixture } from "../support/helpers";
import { texturedRgba } from "../support/verify-helpers";

/*
 * #19: the verification pixel memo (pixel-memo.ts) trusts facts measured at publication only under the same
 * PIXEL_FACTS_VERSION. This pins the pixel stage's outputs on fixed inputs (in workerd, the production pipeline) to
 * that version: a change to a kernel, the decode or a constant that changes any output fails here until the version
 * is bumped (and the new digests recorded under it), so memos of the old pipeline are never used. Memos are only made
 * of JPEGs, so most inputs are JPEGs on the paths a memo takes: baseline and progressive, read at full size and
 * reduced in the DCT domain with a detected mark, featureless (ISCC skipped, no windows). verify-service.ts applies
 * PDQ_MIN_QUALITY again to a memo's facts (which hash is looked up, the featureless warning): it is pinned here too.
 */

const PROGRESSIVE = import.meta.glob("../../fixtures/jpegdec/progressive-420.jpg", {
  query: "?inline",
  import: "default",
  eager: true,
}) as Record<string, string>;

function inlined(all: Record<string, string>): Uint8Array {
  const url = Object.values(all)[0];
  if (!url) throw new Error("fixture not inlined");
  return Uint8Array.from(atob(url.slice(url.indexOf(",") + 1)), (c) => c.charCodeAt(0));
}

/** The JPEG's frame marker (0xc0 baseline, 0xc2 progressive), or null. */
function sofMarker(bytes: Uint8Array): number | null {
  let i = 2;
  while (i + 4 <= bytes.length && bytes[i] === 0xff) {
    const m = bytes[i + 1]!;
    if (m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc) return m;
    i += 2 + ((bytes[i + 2]! << 8) | bytes[i + 3]!);
  }
  return null;
}

/** PIXEL_FACTS_VERSION → input name → SHA-256 of the JSON of its facts. */
const GOLDEN: Record<number, Record<string, string>> = {
  1: {
    "photo-bridge.jpg": "2b724c3abfabc9bcc083416ff82d8a7d18f2cd5f18738a1233bd186c99256537",
    "sample-1mp.jpg": "0b4bf48258756190759f2315a48b8ec2fedc81ed3800d4edb214d7322934fcb9",
    "sample.jpg": "9a2ec759b4287c133a4872983bed7d89f19f9d0386bd38d23ceb6badd637d1c2",
    "sample.png": "4731c5886fc2ef31fb6680acf1ca2465c40b4baedd79f935c62e9c8cc58943b4",
    "marked-800x600.png": "e5bcb9b1bce89caee9db311b68f3e237159556590cf0251ac418991214aec77e",
    "not-an-image": "928a48befbaf3a6e9bd1d81e01709c9e23e68c6cf0246d95a6b7097e687cca57",
    "progressive-420.jpg": "da9d3aa4a825664efe7af4c90ad34f312719007377f21ae048e2ce5fe504a5a5",
    "marked-1600x1200.jpg": "bf5d21a57789ed2eea1771bfda950cdd522b597f31d4d54778a98d722a6cc6ce",
    "flat-800x600.jpg": "a096aedc0962529f47e8d8ca7c30af8d9186a588e463296708327fcafdd16335",
    PDQ_MIN_QUALITY: "50",
  },
};

async function markedImage(w: number, h: number) {
  const image = await imageServices();
  const marked = image.watermarker.embed({
    image: { width: w, height: h, data: texturedRgba(w, h) },
    payload: new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]),
    strength: "balanced",
  });
  if (marked.status !== "embedded") throw new Error("embed");
  return marked.image;
}

async function encoded(pixels: { width: number; height: number; data: Uint8Array }, mediaType: string) {
  const out = await (await imageServices()).codec.encode(pixels, mediaType, new Uint8Array());
  if (out.status !== "encoded") throw new Error("encode");
  return out.bytes.slice(); // its own copy: the encoder may reuse its output buffer
}

async function inputs(): Promise<[string, Uint8Array, string][]> {
  const png = await encoded(await markedImage(800, 600), "image/png");
  const markedJpeg = await encoded(await markedImage(1600, 1200), "image/jpeg");
  const flat = await encoded({ width: 800, height: 600, data: new Uint8Array(800 * 600 * 4).fill(128) }, "image/jpeg");
  return [
    ["photo-bridge.jpg", fixture("photo-bridge.jpg"), "image/jpeg"],
    ["sample-1mp.jpg", fixture("sample-1mp.jpg"), "image/jpeg"],
    ["sample.jpg", fixture("sample.jpg"), "image/jpeg"],
    ["sample.png", fixture("sample.png"), "image/png"],
    ["marked-800x600.png", png, "image/png"],
    ["not-an-image", new Uint8Array([0xff, 0xd8, 0xff, 0xdb, 0, 3, 0]), "image/jpeg"],
    ["progressive-420.jpg", inlined(PROGRESSIVE), "image/jpeg"],
    ["marked-1600x1200.jpg", markedJpeg, "image/jpeg"],
    ["flat-800x600.jpg", flat, "image/jpeg"],
  ];
}

describe("pixel facts golden (#19)", () => {
  it("the pixel stage's outputs on fixed inputs are the ones recorded for PIXEL_FACTS_VERSION", async () => {
    const image = await imageServices();
    const got: Record<string, string> = {};
    const facts: Record<string, unknown> = {};
    const list = await inputs();
    for (const [name, bytes, mediaType] of list) {
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
    // The JPEG paths a memo takes: progressive; reduced in the DCT domain with a detected mark; featureless.
    const byName = new Map(list.map(([name, bytes]) => [name, bytes]));
    expect(sofMarker(byName.get("progressive-420.jpg")!)).toBe(0xc2);
    expect(facts["progressive-420.jpg"]).toMatchObject({ status: "decoded", pdq: { status: "computed" } });
    const reduced = await verifyPixels(image, byName.get("marked-1600x1200.jpg")!, "image/jpeg");
    expect(reduced.status === "decoded" && reduced.pixels.plane.factor).toBeGreaterThanOrEqual(2);
    expect(facts["marked-1600x1200.jpg"]).toMatchObject({ watermark: { status: "detected", payload: "0102030405060708" } });
    expect((facts["marked-1600x1200.jpg"] as { windows: string[] }).windows.length).toBeGreaterThan(0);
    expect(facts["flat-800x600.jpg"]).toMatchObject({ status: "decoded", pdq: { status: "computed" }, iscc: null, windows: [] });
    expect((facts["flat-800x600.jpg"] as { pdq: { quality: number } }).pdq.quality).toBeLessThan(PDQ_MIN_QUALITY);
    // The quality gate verify-service.ts re-applies to a memo's facts is part of what the version pins.
    got.PDQ_MIN_QUALITY = String(PDQ_MIN_QUALITY);
    expect(
      got,
      `The pixel stage's outputs changed: bump PIXEL_FACTS_VERSION (pixel-facts.ts) and record these under it: ${JSON.stringify(got)}`,
    ).toEqual(GOLDEN[PIXEL_FACTS_VERSION]);
  });
});
