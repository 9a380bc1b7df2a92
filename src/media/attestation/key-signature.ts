import { derEcdsaToRaw } from "./app-attest-x509";

/*
 * A signature by a key the device attested earlier (Android key attestation): how an admission proves it comes from
 * the enrolled device, since each admission's own attestation is of a fresh key. The app signs with the enrolled
 * KeyStore key using SHA256withECDSA (EC keys, DER signature) or SHA256withRSA (PKCS #1 v1.5).
 */

const EC_CURVES = [
  { namedCurve: "P-256", size: 32 },
  { namedCurve: "P-384", size: 48 },
] as const;

/**
 * Whether `signature` is a valid SHA-256 signature of `data` by the key `spki`. Invariant: never throws; false for
 * any key type other than EC P-256/P-384 and RSA, and for any signature that is not canonical DER (EC).
 */
export async function verifyKeySignature(spki: Uint8Array, data: Uint8Array, signature: Uint8Array): Promise<boolean> {
  const key = spki as Uint8Array<ArrayBuffer>;
  const message = data as Uint8Array<ArrayBuffer>;
  for (const { namedCurve, size } of EC_CURVES) {
    let imported: CryptoKey;
    try {
      imported = await crypto.subtle.importKey("spki", key, { name: "ECDSA", namedCurve }, false, ["verify"]);
    } catch {
      continue;
    }
    const raw = derEcdsaToRaw(signature, size);
    if (!raw) return false;
    try {
      return await crypto.subtle.verify({ name: "ECDSA", hash: "SHA-256" }, imported, raw, message);
    } catch {
      return false;
    }
  }
  try {
    const rsa = await crypto.subtle.importKey("spki", key, { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" }, false, ["verify"]);
    return await crypto.subtle.verify("RSASSA-PKCS1-v1_5", rsa, signature as Uint8Array<ArrayBuffer>, message);
  } catch {
    return false;
  }
}
