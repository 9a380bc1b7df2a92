/*
 * Certificate and signature helpers for the App Attest verifier (app-attest.ts): parsing DER and PEM strictly, the
 * walk from the attestation leaf to a configured root, Apple's nonce extension, the P-256 key of the leaf, and DER
 * ECDSA signatures for WebCrypto. pkijs + asn1js (not @peculiar/x509: its tsyringe needs Reflect metadata, which
 * workerd does not have).
 */
import * as asn1js from "asn1js";
import * as pkijs from "pkijs";
import { concatBytes, equalBytes, fromBase64 } from "../../platform/bytes";

const OID_EC_PUBLIC_KEY = "1.2.840.10045.2.1";
const OID_P256 = "1.2.840.10045.3.1.7";
const OID_P384 = "1.3.132.0.34";
const OID_BASIC_CONSTRAINTS = "2.5.29.19";
/** Apple's App Attest nonce extension: SEQUENCE { [1] EXPLICIT OCTET STRING }. */
export const OID_APPLE_NONCE = "1.2.840.113635.100.8.2";

/** The certificate signature algorithms an App Attest chain uses (Apple signs with ECDSA on P-256/P-384). */
const SIGNATURE_HASH: Record<string, "SHA-256" | "SHA-384"> = {
  "1.2.840.10045.4.3.2": "SHA-256",
  "1.2.840.10045.4.3.3": "SHA-384",
};

/** The fixed DER prefix of a P-256 SubjectPublicKeyInfo; the 65-byte uncompressed point follows. */
const P256_SPKI_PREFIX = Uint8Array.from([
  0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01, 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07,
  0x03, 0x42, 0x00,
]);

/** A certificate parsed from exactly its DER bytes (kept, for byte comparisons with configured roots). */
export interface ParsedCert {
  der: Uint8Array;
  cert: pkijs.Certificate;
}

/** Parses one DER certificate; null when the bytes are not exactly one well-formed certificate. Never throws. */
export function parseCertificate(der: Uint8Array): ParsedCert | null {
  try {
    const asn = asn1js.fromBER(der);
    if (asn.offset !== der.length || asn.result.error) return null;
    const cert = new pkijs.Certificate({ schema: asn.result });
    // asn1js is lenient (an off-by-one outer length, a SET tag for the SEQUENCE): only the unsigned envelope around
    // the signed TBS could differ, so require the canonical DER re-encoding. One certificate, one byte string.
    if (!equalBytes(new Uint8Array(cert.toSchema(true).toBER(false)), der)) return null;
    return { der, cert };
  } catch {
    return null;
  }
}

/** Every certificate of a PEM bundle; null when any block does not parse (a misconfigured root is not ignored). */
export function parsePemCertificates(pem: string): ParsedCert[] | null {
  const out: ParsedCert[] = [];
  for (const m of pem.matchAll(/-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g)) {
    const der = fromBase64(m[1]!.replace(/\s+/g, ""));
    const parsed = der && parseCertificate(der);
    if (!parsed) return null;
    out.push(parsed);
  }
  return out;
}

function isCa(cert: pkijs.Certificate): boolean {
  const ext = cert.extensions?.find((e) => e.extnID === OID_BASIC_CONSTRAINTS);
  return (ext?.parsedValue as pkijs.BasicConstraints | undefined)?.cA === true;
}

function validAt(cert: pkijs.Certificate, now: Date): boolean {
  const t = now.getTime();
  return cert.notBefore.value.getTime() <= t && t <= cert.notAfter.value.getTime();
}

/** Whether `issuer`'s key signed `cert` (ECDSA with the hash its algorithm names); never throws. */
async function signedBy(cert: pkijs.Certificate, issuer: pkijs.Certificate): Promise<boolean> {
  try {
    const hash = SIGNATURE_HASH[cert.signatureAlgorithm.algorithmId];
    if (!hash || cert.signature.algorithmId !== cert.signatureAlgorithm.algorithmId) return false;
    const spki = issuer.subjectPublicKeyInfo;
    if (spki.algorithm.algorithmId !== OID_EC_PUBLIC_KEY) return false;
    const curveOid = (spki.algorithm.algorithmParams as asn1js.ObjectIdentifier | undefined)?.valueBlock?.toString();
    const namedCurve = curveOid === OID_P256 ? "P-256" : curveOid === OID_P384 ? "P-384" : null;
    if (!namedCurve || cert.signatureValue.valueBlock.unusedBits !== 0) return false;
    const raw = derEcdsaToRaw(cert.signatureValue.valueBlock.valueHexView, namedCurve === "P-256" ? 32 : 48);
    if (!raw) return false;
    const key = await crypto.subtle.importKey("spki", spkiDer(spki), { name: "ECDSA", namedCurve }, false, ["verify"]);
    return await crypto.subtle.verify({ name: "ECDSA", hash }, key, raw, cert.tbsView);
  } catch {
    return false;
  }
}

function spkiDer(spki: pkijs.PublicKeyInfo): Uint8Array<ArrayBuffer> {
  return new Uint8Array(spki.toSchema().toBER(false));
}

/**
 * Walks `chain` (leaf first) to one of `roots`: each certificate is valid at `now`, names its issuer's subject, and
 * is signed by it; every issuer is a CA; the last one is signed by a configured root (valid at `now`), or is
 * byte-identical to one. Returns null when the chain holds, else why not. Never throws.
 */
export async function verifyChain(chain: ParsedCert[], roots: ParsedCert[], now: Date): Promise<string | null> {
  if (chain.length === 0) return "empty certificate chain";
  for (let i = 0; i < chain.length; i++) {
    const { cert, der } = chain[i]!;
    if (!validAt(cert, now)) return `certificate ${i} is not valid at the verification time`;
    // A chain may carry the configured root itself: it ends there (its place was checked by the step before).
    if (roots.some((r) => equalBytes(r.der, der))) return i === 0 ? "the leaf is a root certificate" : null;
    const next = chain[i + 1];
    if (next) {
      if (!isCa(next.cert)) return `certificate ${i + 1} is not a CA`;
      if (!cert.issuer.isEqual(next.cert.subject)) return `certificate ${i} does not name certificate ${i + 1} as issuer`;
      if (!(await signedBy(cert, next.cert))) return `certificate ${i} is not signed by certificate ${i + 1}`;
      continue;
    }
    for (const root of roots) {
      if (!cert.issuer.isEqual(root.cert.subject) || !isCa(root.cert) || !validAt(root.cert, now)) continue;
      if (await signedBy(cert, root.cert)) return null;
    }
    return "the chain does not end at a configured root";
  }
  return "the chain does not end at a configured root";
}

/** The 32-byte value of Apple's nonce extension of `cert`, or null when absent or not of the expected form. */
export function appleNonce(cert: pkijs.Certificate): Uint8Array | null {
  const matches = cert.extensions?.filter((e) => e.extnID === OID_APPLE_NONCE) ?? [];
  if (matches.length !== 1) return null;
  try {
    const value = matches[0]!.extnValue.valueBlock.valueHexView;
    const asn = asn1js.fromBER(value);
    if (asn.offset !== value.length || !(asn.result instanceof asn1js.Sequence)) return null;
    const items = asn.result.valueBlock.value;
    const tagged = items[0];
    if (items.length !== 1 || !tagged || tagged.idBlock.tagClass !== 3 || tagged.idBlock.tagNumber !== 1) return null;
    const inner = (tagged as asn1js.Constructed).valueBlock.value;
    const octets = inner?.[0];
    if (inner?.length !== 1 || !(octets instanceof asn1js.OctetString) || octets.valueBlock.isConstructed) return null;
    const nonce = octets.valueBlock.valueHexView;
    return nonce.length === 32 ? new Uint8Array(nonce) : null;
  } catch {
    return null;
  }
}

/** The 65-byte uncompressed point (0x04‖X‖Y) of `cert`'s key when it is an EC P-256 key, else null. */
export function p256Point(cert: pkijs.Certificate): Uint8Array | null {
  const spki = cert.subjectPublicKeyInfo;
  if (spki.algorithm.algorithmId !== OID_EC_PUBLIC_KEY) return null;
  const params = spki.algorithm.algorithmParams;
  if (!(params instanceof asn1js.ObjectIdentifier) || params.valueBlock.toString() !== OID_P256) return null;
  if (spki.subjectPublicKey.valueBlock.unusedBits !== 0) return null;
  const point = spki.subjectPublicKey.valueBlock.valueHexView;
  return point.length === 65 && point[0] === 0x04 ? new Uint8Array(point) : null;
}

/** The DER SubjectPublicKeyInfo of a P-256 uncompressed point (one canonical encoding). */
export function p256Spki(point: Uint8Array): Uint8Array<ArrayBuffer> {
  return concatBytes([P256_SPKI_PREFIX, point]);
}

/**
 * DER ECDSA-Sig-Value (SEQUENCE { INTEGER r, INTEGER s }) to WebCrypto's raw r‖s of `size` bytes each; null for
 * anything else (long-form lengths, trailing bytes, negative or oversized integers). Never throws.
 */
export function derEcdsaToRaw(der: Uint8Array, size: number): Uint8Array<ArrayBuffer> | null {
  let o = 0;
  const length = (): number | null => {
    const first = der[o++];
    if (first === undefined) return null;
    if (first < 0x80) return first;
    if (first !== 0x81) return null; // two-byte lengths never occur below 256 bytes
    const n = der[o++];
    return n !== undefined && n >= 0x80 ? n : null;
  };
  if (der[o++] !== 0x30) return null;
  const total = length();
  if (total === null || o + total !== der.length) return null;
  const out = new Uint8Array(size * 2);
  for (let k = 0; k < 2; k++) {
    if (der[o++] !== 0x02) return null;
    const n = length();
    if (n === null || n === 0 || o + n > der.length) return null;
    let int = der.subarray(o, o + n);
    o += n;
    if (int[0]! & 0x80) return null; // negative
    if (int.length > 1 && int[0] === 0 && !(int[1]! & 0x80)) return null; // not minimal
    if (int[0] === 0 && int.length > 1) int = int.subarray(1);
    if (int.length > size) return null;
    out.set(int, k * size + size - int.length);
  }
  return o === der.length ? out : null;
}
