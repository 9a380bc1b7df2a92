/**
 * COSE_Sign1 (RFC 9052, CBOR tag 18) as C2PA wants it for a claim signature, built for the c2pa-wasm signer
 * callback (which hands over the claim bytes and expects the complete, padded COSE structure back).
 *
 * CBOR comes from platform/cbor.ts (its deterministic encoder: the exact byte length and the signed protected
 * header bytes depend on shortest-form encoding).
 */
import { type CborValue, cborHeadSize, encodeCbor } from "../../platform/cbor-encode";

/** COSE algorithms the signer supports, with their IANA COSE algorithm ids. */
export type CoseAlgorithm = "ES256" | "ES384" | "Ed25519";

export const COSE_ALGORITHM_IDS: Readonly<Record<CoseAlgorithm, number>> = { ES256: -7, ES384: -35, Ed25519: -8 };

/** Names c2pa-rs parses as its `SigningAlg` (the `alg` of a c2pa-wasm SignerDefinition). */
export const C2PA_ALGORITHM_NAMES: Readonly<Record<CoseAlgorithm, string>> = {
  ES256: "es256",
  ES384: "es384",
  Ed25519: "ed25519",
};

const HEADER_ALG = 1;
const HEADER_X5CHAIN = 33;

/** The serialized protected header {1: alg, 33: x5chain}; a single certificate is a bstr, several an array. */
export function protectedHeaderBytes(algorithm: CoseAlgorithm, certChainDer: readonly Uint8Array[]): Uint8Array {
  if (certChainDer.length === 0) throw new Error("COSE: the x5chain needs at least the signer certificate");
  const x5chain: CborValue = certChainDer.length === 1 ? certChainDer[0]! : [...certChainDer];
  return encodeCbor({
    map: [
      [HEADER_ALG, COSE_ALGORITHM_IDS[algorithm]],
      [HEADER_X5CHAIN, x5chain],
    ],
  });
}

/** Sig_structure for COSE_Sign1 with a detached payload: ["Signature1", protected, h'', payload]. */
export function sigStructure(protectedHeader: Uint8Array, payload: Uint8Array): Uint8Array {
  return encodeCbor(["Signature1", protectedHeader, new Uint8Array(0), payload]);
}

/**
 * What a C2PA v2 time-stamp (`sigTst2`) covers, as c2pa-rs computes it: the CBOR of
 * ["CounterSignature", protected, h'', bstr(cbor(bstr(signature)))]. The TSA's message imprint is the SHA-256
 * of these bytes.
 */
export function sigTst2Data(protectedHeader: Uint8Array, signature: Uint8Array): Uint8Array {
  return encodeCbor(["CounterSignature", protectedHeader, new Uint8Array(0), encodeCbor(signature)]);
}

/** Inputs of one COSE_Sign1. */
export interface CoseSign1Request {
  algorithm: CoseAlgorithm;
  /** DER certificates, signer first; never the trust anchor. */
  certChainDer: readonly Uint8Array[];
  /** The bytes signed (the C2PA claim); detached, so not repeated in the output. */
  payload: Uint8Array;
  /** Raw signature over the Sig_structure: r||s for ECDSA, 64 bytes for Ed25519. */
  sign: (toBeSigned: Uint8Array) => Promise<Uint8Array>;
  /** RFC 3161 TimeStampToken (CMS ContentInfo DER) over `sigTst2Data`; omitted when absent. */
  timestamp?: ((sigTst2Data: Uint8Array) => Promise<Uint8Array>) | undefined;
  /** Exact size of the output (the reserved signature box). */
  reserveSize: number;
}

/**
 * Builds a tagged COSE_Sign1 of EXACTLY `reserveSize` bytes. Invariant: the result is complete (protected
 * header with alg and x5chain, unprotected `sigTst2` when a timestamp was asked for, detached payload) and is
 * padded through an unprotected `pad` bstr (plus `pad2` for the few sizes one pad cannot hit); it throws when
 * the content alone exceeds `reserveSize`.
 */
export async function buildCoseSign1(request: CoseSign1Request): Promise<Uint8Array> {
  const protectedHeader = protectedHeaderBytes(request.algorithm, request.certChainDer);
  const signature = await request.sign(sigStructure(protectedHeader, request.payload));
  const unprotected: [CborValue, CborValue][] = [];
  if (request.timestamp) {
    const token = await request.timestamp(sigTst2Data(protectedHeader, signature));
    unprotected.push(["sigTst2", { map: [["tstTokens", [{ map: [["val", token]] }]]] }]);
  }
  return padToSize(protectedHeader, unprotected, signature, request.reserveSize);
}

function encodeSign1(protectedHeader: Uint8Array, unprotected: [CborValue, CborValue][], signature: Uint8Array) {
  return encodeCbor({ tag: 18, value: [protectedHeader, { map: unprotected }, null, signature] });
}

function padToSize(protectedHeader: Uint8Array, unprotected: [CborValue, CborValue][], signature: Uint8Array, size: number): Uint8Array {
  const unpadded = encodeSign1(protectedHeader, unprotected, signature);
  if (unpadded.length === size) return unpadded;
  for (const extra of [[], [["pad2", new Uint8Array(0)]]] as [CborValue, CborValue][][]) {
    const entries = [...unprotected, ...extra];
    // With an empty pad the length is base + 1 (a one-byte bstr head); a pad of n bytes adds headSize(n) + n.
    const base = encodeSign1(protectedHeader, [...entries, ["pad", new Uint8Array(0)]], signature).length - 1;
    const need = size - base;
    for (const head of [1, 2, 3, 5]) {
      const n = need - head;
      if (n >= 0 && cborHeadSize(n) === head) {
        const out = encodeSign1(protectedHeader, [...entries, ["pad", new Uint8Array(n)]], signature);
        if (out.length === size) return out;
      }
    }
  }
  throw new Error(`COSE: signature of ${unpadded.length} bytes does not fit the reserved ${size} bytes`);
}

/**
 * A `sign` function for `buildCoseSign1` backed by a WebCrypto private key (which may be non-extractable).
 * WebCrypto ECDSA already yields the fixed-size r||s form COSE requires.
 */
export function webCryptoSigner(algorithm: CoseAlgorithm, key: CryptoKey): (data: Uint8Array) => Promise<Uint8Array> {
  const params: { name: string; hash?: string } =
    algorithm === "Ed25519" ? { name: "Ed25519" } : { name: "ECDSA", hash: algorithm === "ES384" ? "SHA-384" : "SHA-256" };
  return async (data) => new Uint8Array(await crypto.subtle.sign(params, key, data));
}
