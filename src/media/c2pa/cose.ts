/**
 * COSE_Sign1 (RFC 9052, CBOR tag 18) as C2PA wants it for a claim signature, built for the c2pa-wasm signer
 * callback (which hands over the claim bytes and expects the complete, padded COSE structure back).
 *
 * A tiny deterministic CBOR encoder of our own is used instead of cbor-x: the exact byte length matters (the
 * result must fill the reserved signature box to the byte) and the protected header bytes are signed, so every
 * length and key must encode in its shortest form, predictably.
 */

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

/** A CBOR value of the subset COSE needs. Maps are entry lists so their order is ours. */
export type CborValue =
  | number
  | string
  | Uint8Array
  | null
  | CborValue[]
  | { map: [CborValue, CborValue][] }
  | { tag: number; value: CborValue };

/** Encodes `value` as CBOR with shortest-form lengths (RFC 8949 §4.2.1 preferred serialization). */
export function encodeCbor(value: CborValue): Uint8Array {
  const out = new ByteSink();
  writeCbor(out, value);
  return out.bytes();
}

function writeCbor(out: ByteSink, value: CborValue): void {
  if (value === null) {
    out.push(0xf6);
  } else if (typeof value === "number") {
    if (!Number.isSafeInteger(value)) throw new Error("CBOR: only safe integers are supported");
    if (value >= 0) writeHead(out, 0, value);
    else writeHead(out, 1, -1 - value);
  } else if (typeof value === "string") {
    const utf8 = new TextEncoder().encode(value);
    writeHead(out, 3, utf8.length);
    out.append(utf8);
  } else if (value instanceof Uint8Array) {
    writeHead(out, 2, value.length);
    out.append(value);
  } else if (Array.isArray(value)) {
    writeHead(out, 4, value.length);
    for (const item of value) writeCbor(out, item);
  } else if ("map" in value) {
    writeHead(out, 5, value.map.length);
    for (const [k, v] of value.map) {
      writeCbor(out, k);
      writeCbor(out, v);
    }
  } else {
    writeHead(out, 6, value.tag);
    writeCbor(out, value.value);
  }
}

function writeHead(out: ByteSink, major: number, n: number): void {
  const m = major << 5;
  if (n < 24) out.push(m | n);
  else if (n < 0x100) out.push(m | 24, n);
  else if (n < 0x10000) out.push(m | 25, n >> 8, n & 0xff);
  else if (n < 0x100000000) out.push(m | 26, (n >>> 24) & 0xff, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff);
  else {
    const hi = Math.floor(n / 0x100000000);
    out.push(m | 27, (hi >>> 24) & 0xff, (hi >> 16) & 0xff, (hi >> 8) & 0xff, hi & 0xff);
    out.push((n >>> 24) & 0xff, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff);
  }
}

/** Size in bytes of the CBOR head for a length `n`. */
function headSize(n: number): number {
  if (n < 24) return 1;
  if (n < 0x100) return 2;
  if (n < 0x10000) return 3;
  if (n < 0x100000000) return 5;
  return 9;
}

class ByteSink {
  private chunks: Uint8Array[] = [];
  private small: number[] = [];
  private length = 0;
  push(...bytes: number[]): void {
    for (const b of bytes) this.small.push(b);
  }
  append(bytes: Uint8Array): void {
    this.flushSmall();
    this.chunks.push(bytes);
    this.length += bytes.length;
  }
  bytes(): Uint8Array {
    this.flushSmall();
    const out = new Uint8Array(this.length);
    let offset = 0;
    for (const c of this.chunks) {
      out.set(c, offset);
      offset += c.length;
    }
    return out;
  }
  private flushSmall(): void {
    if (this.small.length === 0) return;
    this.chunks.push(Uint8Array.from(this.small));
    this.length += this.small.length;
    this.small = [];
  }
}

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
      if (n >= 0 && headSize(n) === head) {
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
