import { describe, expect, it } from "vitest";
import { decideVerdict, type ManifestFacts, type SoftBindingMatch, type VerdictInput } from "../../../src/verifications/verdict.ts";
import { STATUS_CODES, STATUS_VOCABULARY } from "../../../src/verifications/vocabulary.ts";

const TRUSTED_SUCCESS = [
  "timeStamp.validated",
  "timeStamp.trusted",
  "signingCredential.trusted",
  "claimSignature.insideValidity",
  "claimSignature.validated",
  "assertion.hashedURI.match",
  "assertion.dataHash.match",
];

function read(overrides: Partial<Extract<ManifestFacts, { state: "read" }>> = {}): ManifestFacts {
  return {
    state: "read",
    active_manifest_label: "urn:c2pa:one",
    validation_state: "Trusted",
    success_codes: TRUSTED_SUCCESS,
    informational_codes: [],
    failure_codes: [],
    ingredient_failure_codes: [],
    ...overrides,
  };
}

const match = (
  kind: "watermark" | "fingerprint",
  manifest_id: string | null = "urn:c2pa:one",
  publication_id = "pub_aaaaaaaaaaaaaaaa",
): SoftBindingMatch => ({
  kind,
  algorithm: kind === "watermark" ? "svc-wm-tiledss-1" : "iscc-image",
  publication_id,
  manifest_id,
  distance: 0,
  score: 1,
});

function input(overrides: Partial<VerdictInput> = {}): VerdictInput {
  return {
    manifest: read(),
    ocsp: "good",
    durable: { watermark: null, fingerprint: null },
    anchor_match: null,
    warnings: [],
    ...overrides,
  };
}

describe("decideVerdict", () => {
  it("the vocabulary has 16 codes, each fully defined; hard failures prove nothing and have no confidence", () => {
    expect(STATUS_CODES).toHaveLength(16);
    for (const code of ["verified_manifest_and_watermark_match", "manifest_tampered", "watermark_only", "fingerprint_match_only"])
      expect(STATUS_CODES).toContain(code);
    for (const code of STATUS_CODES) {
      const def = STATUS_VOCABULARY[code];
      expect(def.code).toBe(code);
      expect(def.user_explanation.length).toBeGreaterThan(40);
      expect(def.does_not_prove.length).toBeGreaterThan(0);
      if (def.overall === "invalid") {
        expect(def.proves).toEqual([]);
        expect(def.confidence_rule).toBeNull();
      }
    }
  });

  const cases: [string, VerdictInput, string, (number | null)?][] = [
    [
      "trusted manifest + watermark of the same publication",
      input({
        durable: {
          watermark: { present: true, payload_valid: true, match: match("watermark") },
          fingerprint: { match: match("fingerprint") },
        },
        anchor_match: true,
      }),
      "verified_manifest_and_watermark_match",
      1,
    ],
    [
      "trusted manifest + fingerprint",
      input({
        durable: { watermark: { present: false, payload_valid: false, match: null }, fingerprint: { match: match("fingerprint") } },
      }),
      "verified_manifest_and_fingerprint_match",
    ],
    ["trusted manifest alone", input(), "verified_manifest", 0.7],
    ["trusted manifest, OCSP unavailable", input({ ocsp: "unavailable" }), "verified_manifest", 0.65],
    [
      "watermark points elsewhere",
      input({
        durable: { watermark: { present: true, payload_valid: true, match: match("watermark", "urn:c2pa:other") }, fingerprint: null },
      }),
      "conflicting_provenance",
      null,
    ],
    [
      "untrusted signer",
      input({
        manifest: read({
          validation_state: "Valid",
          success_codes: TRUSTED_SUCCESS.filter((c) => c !== "signingCredential.trusted"),
          failure_codes: ["signingCredential.untrusted"],
        }),
      }),
      "valid_manifest_untrusted_signer",
    ],
    ["revoked by OCSP", input({ ocsp: "revoked" }), "signer_revoked", null],
    [
      "revoked by a stapled response",
      input({ manifest: read({ validation_state: "Invalid", failure_codes: ["signingCredential.ocsp.revoked"] }) }),
      "signer_revoked",
      null,
    ],
    [
      "expired without timestamp",
      input({
        manifest: read({
          validation_state: "Invalid",
          success_codes: ["claimSignature.validated"],
          failure_codes: ["signingCredential.expired"],
        }),
      }),
      "signer_certificate_expired",
      null,
    ],
    [
      "claim signature mismatch",
      input({ manifest: read({ validation_state: "Invalid", success_codes: [], failure_codes: ["claimSignature.mismatch"] }) }),
      "manifest_tampered",
      null,
    ],
    [
      "assertion hash mismatch",
      input({ manifest: read({ validation_state: "Invalid", failure_codes: ["assertion.hashedURI.mismatch"] }) }),
      "manifest_tampered",
      null,
    ],
    [
      "asset bytes changed",
      input({ manifest: read({ validation_state: "Invalid", failure_codes: ["assertion.dataHash.mismatch"] }) }),
      "asset_tampered",
      null,
    ],
    [
      "BMFF asset changed",
      input({ manifest: read({ validation_state: "Invalid", failure_codes: ["assertion.bmffHash.mismatch"] }) }),
      "asset_tampered",
      null,
    ],
    ["ingredient fails", input({ manifest: read({ ingredient_failure_codes: ["ingredient.manifest.missing"] }) }), "ingredient_invalid"],
    [
      "unsupported algorithm",
      input({ manifest: read({ validation_state: "Invalid", failure_codes: ["algorithm.unsupported"] }) }),
      "unsupported_manifest",
      null,
    ],
    [
      "unclassified failure",
      input({ manifest: read({ validation_state: "Invalid", failure_codes: ["something.new"] }) }),
      "unsupported_manifest",
      null,
    ],
    ["unreadable store", input({ manifest: { state: "unreadable", message: "bad jumbf" } }), "unsupported_manifest", null],
    ["remote manifest", input({ manifest: { state: "remote", url: "https://example.com/m.c2pa" } }), "remote_manifest_unavailable", null],
    [
      "stripped copy with watermark",
      input({
        manifest: { state: "absent" },
        durable: { watermark: { present: true, payload_valid: true, match: match("watermark") }, fingerprint: { match: null } },
      }),
      "watermark_only",
      0.8,
    ],
    [
      "stripped copy, fingerprint only",
      input({
        manifest: { state: "absent" },
        durable: {
          watermark: { present: false, payload_valid: false, match: null },
          fingerprint: { match: { ...match("fingerprint"), score: 0.5, distance: 15 } },
        },
      }),
      "fingerprint_match_only",
      0.625,
    ],
    [
      "unregistered watermark",
      input({
        manifest: { state: "absent" },
        durable: { watermark: { present: true, payload_valid: true, match: null }, fingerprint: { match: null } },
      }),
      "durable_credential_unresolved",
      null,
    ],
    [
      "nothing",
      input({
        manifest: { state: "absent" },
        durable: { watermark: { present: false, payload_valid: false, match: null }, fingerprint: { match: null } },
      }),
      "no_provenance_found",
      null,
    ],
    // #13.8: a fingerprint is no evidence the signer put in the file: similar content elsewhere never downgrades.
    [
      "fingerprint points elsewhere (same content published again)",
      input({
        durable: {
          watermark: { present: false, payload_valid: false, match: null },
          fingerprint: { match: match("fingerprint", "urn:c2pa:other", "pub_bbbbbbbbbbbbbbbb") },
        },
      }),
      "verified_manifest",
      0.7,
    ],
    [
      "fingerprint candidates: the own publication among others",
      input({
        durable: {
          watermark: null,
          fingerprint: {
            match: match("fingerprint", "urn:c2pa:other", "pub_bbbbbbbbbbbbbbbb"),
            candidates: [match("fingerprint", "urn:c2pa:other", "pub_bbbbbbbbbbbbbbbb"), match("fingerprint")],
          },
        },
      }),
      "verified_manifest_and_fingerprint_match",
    ],
    // #13.7: signed bytes changed so the engine could not even parse the store.
    [
      "store altered beyond parsing",
      input({
        manifest: {
          state: "tampered",
          message: "the claim signature does not verify over the claim bytes",
          active_manifest_label: null,
          signature_valid: false,
        },
      }),
      "manifest_tampered",
      null,
    ],
  ];

  for (const [name, facts, status, confidence] of cases) {
    it(`${name} → ${status}`, () => {
      const verdict = decideVerdict(facts);
      expect(verdict.status, verdict.developer_explanation).toBe(status);
      if (confidence !== undefined) expect(verdict.confidence).toBe(confidence);
      expect(verdict.proves).toEqual(STATUS_VOCABULARY[verdict.status].proves);
      expect(verdict.developer_explanation).toContain(status);
      expect(verdict).toEqual(decideVerdict(facts)); // deterministic
    });
  }

  it("#13.8 related publications: other fingerprint matches are listed apart, never in matches; a payload check without a watermark does not apply", () => {
    const own = match("fingerprint");
    const other = match("fingerprint", "urn:c2pa:other", "pub_bbbbbbbbbbbbbbbb");
    const v = decideVerdict(
      input({
        durable: {
          watermark: { present: false, payload_valid: false, match: null },
          fingerprint: { match: other, candidates: [other, own] },
        },
      }),
    );
    expect(v.matches).toEqual([own]);
    expect(v.related).toEqual([other]);
    expect(v.signals.fingerprint_match).toBe(true);
    expect(v.signals.watermark_present).toBe(false);
    expect(v.signals.watermark_payload_valid).toBeUndefined();
  });

  it("no manifest: identical content published twice ties on the fingerprint; the publication the watermark names is the match, the other is related", () => {
    const marked = match("watermark", "urn:c2pa:two", "pub_cccccccccccccccc");
    const first = match("fingerprint", "urn:c2pa:one", "pub_aaaaaaaaaaaaaaaa");
    const second = match("fingerprint", "urn:c2pa:two", "pub_cccccccccccccccc");
    const absent = { state: "absent" } as ManifestFacts;
    const v = decideVerdict(
      input({
        manifest: absent,
        durable: {
          watermark: { present: true, payload_valid: true, match: marked },
          fingerprint: { match: first, candidates: [first, second] },
        },
      }),
    );
    expect(v.status).toBe("watermark_only");
    expect(v.matches).toEqual([marked, second]);
    expect(v.related).toEqual([first]);
    // without a watermark match the nearest stays the match
    const bare = decideVerdict(
      input({ manifest: absent, durable: { watermark: null, fingerprint: { match: first, candidates: [first, second] } } }),
    );
    expect(bare.matches).toEqual([first]);
    expect(bare.related).toEqual([second]);
  });

  it("a tampered manifest carries only the computed signals, confidence null and empty proves (SPEC)", () => {
    const v = decideVerdict(
      input({
        manifest: read({ validation_state: "Invalid", success_codes: [], failure_codes: ["claimSignature.mismatch"] }),
        ocsp: "not_checked",
      }),
    );
    expect(v.signals).toMatchObject({ c2pa_manifest_present: true, c2pa_signature_valid: false });
    expect(v.signals.watermark_present).toBeUndefined();
    expect(v.confidence).toBeNull();
    expect(v.proves).toEqual([]);
  });

  it("the developer explanation names the underlying C2PA codes", () => {
    const v = decideVerdict(input({ manifest: read({ validation_state: "Invalid", failure_codes: ["assertion.dataHash.mismatch"] }) }));
    expect(v.developer_explanation).toContain("assertion.dataHash.mismatch");
    expect(v.developer_explanation).toContain("validation_state Invalid");
  });
});
