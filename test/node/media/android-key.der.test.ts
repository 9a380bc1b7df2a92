import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseCertificate, pemCertificates } from "../../../src/media/attestation/android-key-der";

/** Only the canonical DER of a certificate is read: BER variants of the same signed bytes are refused. */
describe("Android key attestation certificates: canonical DER only", () => {
  const pem = readFileSync(
    join(import.meta.dirname, "..", "..", "fixtures", "capture", "android", "chains", "blueline-sdk28-TEE_EC_NONE.pem"),
    "utf8",
  );
  const leaf = pemCertificates(pem)[0]!;

  it("reads the certificate as given", () => {
    expect(() => parseCertificate(leaf)).not.toThrow();
  });

  it("refuses the outer SEQUENCE tagged as a SET, and a non-minimal outer length", () => {
    const asSet = leaf.slice();
    asSet[0] = 0x31;
    expect(() => parseCertificate(asSet)).toThrow(/canonical DER/);
    // 30 82 LL LL → 30 83 00 LL LL: the same length, written in one byte more.
    expect(leaf[1]).toBe(0x82);
    const longForm = new Uint8Array(leaf.length + 1);
    longForm.set([0x30, 0x83, 0x00, leaf[2]!, leaf[3]!]);
    longForm.set(leaf.subarray(4), 5);
    expect(() => parseCertificate(longForm)).toThrow(/canonical DER/);
  });
});
