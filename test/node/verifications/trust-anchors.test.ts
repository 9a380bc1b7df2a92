import { describe, expect, it } from "vitest";
import { C2PA_TRUST_LIST_PEM, C2PA_TSA_TRUST_LIST_PEM } from "../../../src/verifications/trust/c2pa-trust-list.ts";
import { verificationTrustAnchors } from "../../../src/verifications/trust/index.ts";

const count = (pem: string | null) => (pem?.match(/-----BEGIN CERTIFICATE-----/g) ?? []).length;

describe("verification trust anchors", () => {
  it("bundle the official C2PA signer trust list with the deployment's own anchors; the TSA list is not added", () => {
    expect(count(C2PA_TRUST_LIST_PEM)).toBeGreaterThanOrEqual(20);
    expect(count(C2PA_TSA_TRUST_LIST_PEM)).toBeGreaterThanOrEqual(10);
    const own = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";
    expect(count(verificationTrustAnchors({ SVC_TRUST_ANCHORS_PEM: own }))).toBe(count(C2PA_TRUST_LIST_PEM) + 1);
    expect(count(verificationTrustAnchors({ SVC_TRUST_ANCHORS_PEM: own, SVC_C2PA_TRUST_LIST: "off" }))).toBe(1);
    expect(verificationTrustAnchors({ SVC_C2PA_TRUST_LIST: "off" })).toBeNull();
    // The TSA list is not added: only what the signer list itself contains is a signer anchor.
    expect(count(verificationTrustAnchors({}))).toBe(count(C2PA_TRUST_LIST_PEM));
  });

  it("the same configuration gives the same bundle object; a changed one gives its own bundle at once (kept per isolate)", () => {
    const a = "-----BEGIN CERTIFICATE-----\nMIIA\n-----END CERTIFICATE-----\n";
    const b = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";
    const first = verificationTrustAnchors({ SVC_TRUST_ANCHORS_PEM: a });
    expect(verificationTrustAnchors({ SVC_TRUST_ANCHORS_PEM: `${a}` })).toBe(first);
    const other = verificationTrustAnchors({ SVC_TRUST_ANCHORS_PEM: b });
    expect(other).toContain("MIIB");
    expect(other).not.toContain("MIIA");
    expect(verificationTrustAnchors({ SVC_TRUST_ANCHORS_PEM: b, SVC_C2PA_TRUST_LIST: "off" })).toBe(`${b.trim()}\n`);
    expect(verificationTrustAnchors({ SVC_TRUST_ANCHORS_PEM: a })).toEqual(first);
    expect(verificationTrustAnchors({ SVC_C2PA_TRUST_LIST: "off" })).toBeNull();
  });
});
