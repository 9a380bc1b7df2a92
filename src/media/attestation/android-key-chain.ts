/*
 * Signature checks for the Android attestation chain walk, on WebCrypto alone (runs in workerd and Node).
 * Issuer keys seen in real chains: RSA 1024..4096 and EC P-256/P-384; signature algorithms RSA PKCS#1 v1.5 and
 * ECDSA with SHA-256/384/512. SHA-1 and anything else is refused.
 */
import * as asn1js from "asn1js";
import { AndroidKeyFormatError } from "./android-key-der";

const RSA_SIGNATURES: Record<string, string> = {
  "1.2.840.113549.1.1.11": "SHA-256",
  "1.2.840.113549.1.1.12": "SHA-384",
  "1.2.840.113549.1.1.13": "SHA-512",
};
const ECDSA_SIGNATURES: Record<string, string> = {
  "1.2.840.10045.4.3.2": "SHA-256",
  "1.2.840.10045.4.3.3": "SHA-384",
  "1.2.840.10045.4.3.4": "SHA-512",
};
const CURVES: Record<string, { name: string; size: number }> = {
  "1.2.840.10045.3.1.7": { name: "P-256", size: 32 },
  "1.3.132.0.34": { name: "P-384", size: 48 },
  "1.3.132.0.35": { name: "P-521", size: 66 },
};
const RSA_KEY = "1.2.840.113549.1.1.1";
const EC_KEY = "1.2.840.10045.2.1";

function spkiAlgorithm(spki: Uint8Array): { key: string; curve?: string } {
  const parsed = asn1js.fromBER(spki);
  const alg = (parsed.result as asn1js.Sequence).valueBlock?.value?.[0] as asn1js.Sequence | undefined;
  const [id, params] = alg?.valueBlock?.value ?? [];
  if (!(id instanceof asn1js.ObjectIdentifier)) throw new AndroidKeyFormatError("issuer key: bad SubjectPublicKeyInfo");
  return { key: id.valueBlock.toString(), curve: params instanceof asn1js.ObjectIdentifier ? params.valueBlock.toString() : undefined };
}

/** DER ECDSA-Sig-Value → the fixed-width r‖s WebCrypto verifies. */
function ecdsaRaw(der: Uint8Array, size: number): Uint8Array<ArrayBuffer> {
  const parsed = asn1js.fromBER(der);
  const seq = parsed.result as asn1js.Sequence;
  const parts = seq.valueBlock?.value;
  if (parsed.offset !== der.byteLength || parts?.length !== 2) throw new AndroidKeyFormatError("ECDSA signature: malformed");
  const out = new Uint8Array(size * 2);
  parts.forEach((part, i) => {
    if (!(part instanceof asn1js.Integer)) throw new AndroidKeyFormatError("ECDSA signature: malformed");
    let v = part.valueBlock.valueHexView;
    while (v.length > 0 && v[0] === 0) v = v.subarray(1);
    if (v.length > size) throw new AndroidKeyFormatError("ECDSA signature: component too long");
    out.set(v, i * size + size - v.length);
  });
  return out;
}

function ab(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return new Uint8Array(bytes);
}

/**
 * Whether `signature` over `signed` verifies under the issuer's SPKI with the named algorithm. Invariant: true only
 * for a supported algorithm whose key type matches the issuer key; unsupported combinations are false, not errors.
 */
export async function verifySignedBy(
  algorithmOid: string,
  signed: Uint8Array,
  signature: Uint8Array,
  issuerSpki: Uint8Array,
): Promise<boolean> {
  const { key, curve } = spkiAlgorithm(issuerSpki);
  try {
    const rsaHash = RSA_SIGNATURES[algorithmOid];
    if (rsaHash && key === RSA_KEY) {
      const k = await crypto.subtle.importKey("spki", ab(issuerSpki), { name: "RSASSA-PKCS1-v1_5", hash: rsaHash }, false, ["verify"]);
      return await crypto.subtle.verify("RSASSA-PKCS1-v1_5", k, ab(signature), ab(signed));
    }
    const ecHash = ECDSA_SIGNATURES[algorithmOid];
    const c = curve ? CURVES[curve] : undefined;
    if (ecHash && key === EC_KEY && c) {
      const k = await crypto.subtle.importKey("spki", ab(issuerSpki), { name: "ECDSA", namedCurve: c.name }, false, ["verify"]);
      return await crypto.subtle.verify({ name: "ECDSA", hash: ecHash }, k, ecdsaRaw(signature, c.size), ab(signed));
    }
    return false;
  } catch (e) {
    if (e instanceof AndroidKeyFormatError) throw e;
    return false; // a key WebCrypto refuses to import cannot vouch for anything
  }
}
