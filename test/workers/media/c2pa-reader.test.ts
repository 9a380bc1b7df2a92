/**
 * The manifest reader of the publish step (src/media/c2pa/reader.ts) and POST /v1/verify over a JPEG whose APP11
 * segment is not a valid JUMBF: the engine answers `C2pa(JumbfNotFound)`, which means "no manifest", not a failure.
 */
import { describe, expect, it } from "vitest";
import { ensureC2paEngine } from "../../../src/media/c2pa/engine-workerd";
import { C2paManifestReader } from "../../../src/media/c2pa/reader";
import { concatBytes } from "../../../src/platform/bytes";
import { fixture, json, testEnv } from "../support/helpers";
import { verifyFile } from "../support/verify-helpers";

/** sample.jpg with an APP11 (JPEG XT / JUMBF) segment right after SOI whose content is no JUMBF box. */
function jpegWithBogusApp11(): Uint8Array {
  const jpeg = fixture("sample.jpg");
  // "JP", box instance 1, packet sequence 1, then a box header that names no JUMBF superbox.
  const payload = new Uint8Array([
    0x4a, 0x50, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x10, 0x78, 0x78, 0x78, 0x78, 1, 2, 3, 4, 5, 6, 7, 8,
  ]);
  const length = payload.length + 2;
  const segment = concatBytes([new Uint8Array([0xff, 0xeb, length >> 8, length & 0xff]), payload]);
  return concatBytes([jpeg.subarray(0, 2), segment, jpeg.subarray(2)]);
}

describe("a JPEG with an APP11 segment that is not JUMBF", () => {
  it("the reader answers no_manifest (C2pa(JumbfNotFound) is not-found, not a failure)", async () => {
    const reader = new C2paManifestReader(testEnv.SVC_TRUST_ANCHORS_PEM ?? null, ensureC2paEngine);
    expect(await reader.read({ bytes: jpegWithBogusApp11(), mediaType: "image/jpeg" })).toEqual({ status: "no_manifest" });
  });

  it("POST /v1/verify answers a verdict: no provenance found", async () => {
    const res = await verifyFile(jpegWithBogusApp11(), { name: "bogus.jpg" });
    const body = await json(res);
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body.status, body.developer_explanation).toBe("no_provenance_found");
  });
});
