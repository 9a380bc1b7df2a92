/**
 * #19: the exact lookups sent in the pixel-memo read's batch stand for a verification's own lookups only when they
 * are those very lookups (verify-service.ts speculativeImageFacts): the same algorithms, values and limits, in the
 * same order, nothing more, and no PDQ lookup called for (an exact ISCC hit). Otherwise it answers null, adding no
 * warning, and the verification looks up after the memo read as before.
 */
import { describe, expect, it } from "vitest";
import { SVC_IMAGE_WATERMARK } from "../../../src/catalog/algorithms.ts";
import type { ImageServices } from "../../../src/media/types.ts";
import type { ImagePixelFacts } from "../../../src/verifications/pixel-facts.ts";
import { speculativeImageFacts } from "../../../src/verifications/verify-service.ts";

/** Only what the lookups' plan reads of the pipeline: which fingerprinters it has. */
const image = {
  fingerprinters: new Map([
    ["iscc-image", {}],
    ["pdq", {}],
  ]),
} as unknown as ImageServices;

const PAYLOAD = "0123456789abcdef";
const ISCC = "aa".repeat(8);
const PDQ = "5c".repeat(32);

function facts(over: Partial<ImagePixelFacts & { status: "decoded" }> = {}): ImagePixelFacts {
  return {
    status: "decoded",
    watermark: { status: "detected", payload: PAYLOAD, confidence: 0.97 },
    pdq: { status: "computed", bits: PDQ, quality: 100 },
    iscc: { status: "computed", bits: ISCC, quality: null },
    windows: [],
    ...over,
  };
}

const own = { publication_id: "pub_own", manifest_label: "urn:c2pa:own" };
const other = { publication_id: "pub_other", manifest_label: "urn:c2pa:other" };
const wm = (bitsHex = PAYLOAD, limit = 1) => ({ algorithm: SVC_IMAGE_WATERMARK, bitsHex, limit });
const iscc = (bitsHex = ISCC, limit = 10) => ({ algorithm: "iscc-image", bitsHex, limit });

describe("speculativeImageFacts", () => {
  it("the very lookups, ISCC found: the signals, with the warnings of the plan", () => {
    const warnings: string[] = [];
    const out = speculativeImageFacts(image, facts(), { keys: [wm(), iscc()], rows: [[own], [own, other]], state: null }, warnings);
    expect(out?.watermark).toEqual({
      present: true,
      payload_valid: true,
      match: {
        kind: "watermark",
        algorithm: SVC_IMAGE_WATERMARK,
        publication_id: "pub_own",
        manifest_id: "urn:c2pa:own",
        distance: 0,
        score: 0.97,
      },
    });
    expect(out?.fingerprint?.candidates?.map((c) => c.publication_id)).toEqual(["pub_own", "pub_other"]);
    expect(warnings).toEqual([]);
  });

  it("any other lookup than the plan's: null, and no warning", () => {
    const cases = [
      { keys: [wm("fedcba9876543210"), iscc()], rows: [[own], [own]] }, // another payload
      { keys: [wm(), iscc("bb".repeat(8))], rows: [[own], [own]] }, // another code
      { keys: [wm(PAYLOAD, 2), iscc()], rows: [[own], [own]] }, // another limit
      { keys: [wm(), iscc(ISCC, 9)], rows: [[own], [own]] },
      { keys: [null, iscc()], rows: [[], [own]] }, // the watermark not looked up
      { keys: [wm(), null], rows: [[own], []] }, // the code not looked up
      { keys: [{ ...wm(), algorithm: "svc-wm-other" }, iscc()], rows: [[own], [own]] },
    ];
    for (const c of cases) {
      const warnings: string[] = [];
      expect(speculativeImageFacts(image, facts(), { ...c, state: null }, warnings), JSON.stringify(c.keys)).toBeNull();
      expect(warnings).toEqual([]);
    }
    // A lookup sent that the plan does not make (no mark detected): not the same lookups either.
    expect(
      speculativeImageFacts(
        image,
        facts({ watermark: { status: "not_detected" } }),
        { keys: [wm(), iscc()], rows: [[own], [own]], state: null },
        [],
      ),
    ).toBeNull();
  });

  it("no exact ISCC hit while PDQ would be looked up: null (PDQ is not in the memo's batch)", () => {
    expect(speculativeImageFacts(image, facts(), { keys: [wm(), iscc()], rows: [[own], []], state: null }, [])).toBeNull();
    // No ISCC fingerprinter: PDQ is looked up whatever the watermark found.
    const noIscc = { fingerprinters: new Map([["pdq", {}]]) } as unknown as ImageServices;
    expect(speculativeImageFacts(noIscc, facts({ iscc: null }), { keys: [wm(), null], rows: [[own], []], state: null }, [])).toBeNull();
  });

  it("a featureless image (PDQ quality low, no ISCC code): the watermark lookup alone stands, with its warnings", () => {
    const warnings: string[] = [];
    const flat = facts({ pdq: { status: "computed", bits: PDQ, quality: 10 }, iscc: null });
    const out = speculativeImageFacts(image, flat, { keys: [wm(), null], rows: [[own], []], state: null }, warnings);
    expect(out?.watermark?.match?.publication_id).toBe("pub_own");
    expect(out?.fingerprint).toEqual({ match: null });
    expect(warnings.length).toBe(2); // the ISCC code not looked up, and PDQ not looked up
  });

  it("facts not decoded: null", () => {
    expect(
      speculativeImageFacts(image, { status: "not_decoded", message: "x" }, { keys: [null, null], rows: [[], []], state: null }, []),
    ).toBeNull();
  });
});
