/**
 * The DER and X.509 pieces the OCSP client (ocsp.ts, ocsp-verify.ts) and the development responder (src/dev/)
 * share: object identifiers, CRLReason names, and small asn1js/pkijs helpers.
 */
import * as asn1js from "asn1js";
import * as pkijs from "pkijs";
import { hex } from "../../platform/bytes";
import type { OcspCertId } from "./ocsp";

export const OID_SHA1 = "1.3.14.3.2.26";
export const OID_SHA256 = "2.16.840.1.101.3.4.2.1";
export const OID_SHA384 = "2.16.840.1.101.3.4.2.2";
export const OID_SHA512 = "2.16.840.1.101.3.4.2.3";
export const OID_AUTHORITY_INFO_ACCESS = "1.3.6.1.5.5.7.1.1";
export const OID_AD_OCSP = "1.3.6.1.5.5.7.48.1";
export const OID_OCSP_BASIC = "1.3.6.1.5.5.7.48.1.1";
export const OID_OCSP_NONCE = "1.3.6.1.5.5.7.48.1.2";
export const OID_KP_OCSP_SIGNING = "1.3.6.1.5.5.7.3.9";
export const OID_KEY_USAGE = "2.5.29.15";
export const OID_EXT_KEY_USAGE = "2.5.29.37";
export const OID_KEY_EC = "1.2.840.10045.2.1";
export const OID_KEY_RSA = "1.2.840.113549.1.1.1";
export const OID_RSA_PSS = "1.2.840.113549.1.1.10";
export const OID_ED25519 = "1.3.101.112";
export const OID_CURVE_P384 = "1.3.132.0.34";

/** CertID hash algorithms understood on both sides (the client sends SHA-1, as RFC 5019 §2.1.1 requires). */
export const HASH_BY_OID: Record<string, "SHA-1" | "SHA-256" | "SHA-384" | "SHA-512"> = {
  [OID_SHA1]: "SHA-1",
  [OID_SHA256]: "SHA-256",
  [OID_SHA384]: "SHA-384",
  [OID_SHA512]: "SHA-512",
};

/**
 * Signature algorithms accepted on responses and delegated responder certificates, with the key type each needs.
 * SHA-1 and MD5 based ones are absent on purpose: the nonce is chosen by the requester, so a responder signing
 * with a collision-prone hash signs partly attacker-chosen data.
 */
export const SIGNATURE_ALGORITHMS: Record<string, { keyOids: readonly string[] }> = {
  "1.2.840.10045.4.3.2": { keyOids: [OID_KEY_EC] }, // ecdsa-with-SHA256
  "1.2.840.10045.4.3.3": { keyOids: [OID_KEY_EC] }, // ecdsa-with-SHA384
  "1.2.840.10045.4.3.4": { keyOids: [OID_KEY_EC] }, // ecdsa-with-SHA512
  "1.2.840.113549.1.1.11": { keyOids: [OID_KEY_RSA] }, // sha256WithRSAEncryption
  "1.2.840.113549.1.1.12": { keyOids: [OID_KEY_RSA] }, // sha384WithRSAEncryption
  "1.2.840.113549.1.1.13": { keyOids: [OID_KEY_RSA] }, // sha512WithRSAEncryption
  [OID_RSA_PSS]: { keyOids: [OID_KEY_RSA, OID_RSA_PSS] }, // RSASSA-PSS (its hash is checked separately)
  [OID_ED25519]: { keyOids: [OID_ED25519] },
};

/** Tolerated clock difference for thisUpdate in the future and for a delegated responder's validity period. */
export const CLOCK_SKEW_MS = 5 * 60_000;
/** Bound on the certificates of a response examined as signer candidates (each costs a signature check). */
export const MAX_RESPONDER_CANDIDATES = 8;

/** CRLReason (RFC 5280 §5.3.1) names by code; 7 is unused. */
export const REVOCATION_REASONS = {
  0: "unspecified",
  1: "keyCompromise",
  2: "cACompromise",
  3: "affiliationChanged",
  4: "superseded",
  5: "cessationOfOperation",
  6: "certificateHold",
  8: "removeFromCRL",
  9: "privilegeWithdrawn",
  10: "aACompromise",
} as const;
export type RevocationReason = (typeof REVOCATION_REASONS)[keyof typeof REVOCATION_REASONS];

/** OCSPResponseStatus names (RFC 6960 §4.2.1), for diagnostics. */
export const RESPONSE_STATUS_NAMES: Record<number, string> = {
  0: "successful",
  1: "malformedRequest",
  2: "internalError",
  3: "tryLater",
  5: "sigRequired",
  6: "unauthorized",
};

// ---------------------------------------------------------------------------------------------------------------
// Helpers

export async function certIdOf(cert: pkijs.Certificate, issuer: pkijs.Certificate, hash: "SHA-1"): Promise<OcspCertId> {
  return {
    issuerNameHash: await digest(hash, derOf(issuer.subject.toSchema())),
    issuerKeyHash: await digest(hash, issuer.subjectPublicKeyInfo.subjectPublicKey.valueBlock.valueHexView),
    serialNumber: cert.serialNumber.valueBlock.valueHexView.slice(),
  };
}

export function certIdToPkijs(id: OcspCertId, hashOid: string): pkijs.CertID {
  return new pkijs.CertID({
    hashAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: hashOid, algorithmParams: new asn1js.Null() }),
    issuerNameHash: new asn1js.OctetString({ valueHex: id.issuerNameHash }),
    issuerKeyHash: new asn1js.OctetString({ valueHex: id.issuerKeyHash }),
    serialNumber: new asn1js.Integer({ valueHex: id.serialNumber }),
  });
}

export function asCertificate(cert: Uint8Array | pkijs.Certificate): pkijs.Certificate {
  if (cert instanceof pkijs.Certificate) return cert;
  const parsed = parseDer(cert);
  if (!(parsed instanceof asn1js.Sequence)) throw new Error("not a DER certificate");
  return new pkijs.Certificate({ schema: parsed });
}

/** One DER element spanning all of `bytes`, or null (trailing bytes are refused, not ignored). */
export function parseDer(bytes: Uint8Array): asn1js.AsnType | null {
  try {
    const parsed = asn1js.fromBER(bytes);
    if (parsed.offset === -1 || parsed.offset !== bytes.length || parsed.result.error) return null;
    return parsed.result;
  } catch {
    return null;
  }
}

/** The parsed extnValue of `oid` in `cert`, null when absent; unparsable values read as undefined. */
export function extensionValue(cert: pkijs.Certificate, oid: string): asn1js.AsnType | null | undefined {
  const ext = cert.extensions?.find((e) => e.extnID === oid);
  if (!ext) return null;
  return parseDer(ext.extnValue.valueBlock.valueHexView) ?? undefined;
}

export function spkiDer(cert: pkijs.Certificate): Uint8Array {
  return spkiDerOf(cert.subjectPublicKeyInfo);
}

export function spkiDerOf(spki: pkijs.PublicKeyInfo): Uint8Array {
  return derOf(spki.toSchema());
}

export function derOf(block: asn1js.BaseBlock): Uint8Array {
  return new Uint8Array(block.toBER(false));
}

export async function digest(hash: string, data: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest(hash, data));
}

export function validDate(date: Date | undefined): date is Date {
  return date instanceof Date && Number.isFinite(date.getTime());
}

export function wholeSeconds(date: Date): Date {
  return new Date(Math.floor(date.getTime() / 1000) * 1000);
}

export function trimLeadingZeros(bytes: Uint8Array): Uint8Array {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start++;
  return bytes.subarray(start);
}

export function normalizedSerialHex(bytes: Uint8Array): string {
  return hex(trimLeadingZeros(bytes));
}

/** A caller's serial key ("00AB:CD", "0x…") in `serialNumberHex` form. */
export function normalizeHexKey(serial: string): string {
  const digits = serial
    .toLowerCase()
    .replace(/^0x/, "")
    .replace(/[^0-9a-f]/g, "");
  const even = digits.length % 2 ? `0${digits}` : digits;
  const trimmed = even.replace(/^(00)+(?=..)/, "");
  return trimmed;
}

export function parseUrl(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

export function toArrayBuffer(bytes: Uint8Array): ArrayBuffer {
  return bytes.slice().buffer;
}
