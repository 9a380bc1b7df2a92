import * as asn1js from "asn1js";
import * as pkijs from "pkijs";
import { hex } from "../../platform/bytes";
import { type CborItem, decodeCbor, isCborTag } from "../../platform/cbor";
import { sigStructure } from "./cose";
import { type JumbfBox, type JumbfSuperbox, parseJumbf } from "./jumbf-box";
import { activeManifestSignature, signerCredentials } from "./jumbf-signature";

/*
 * Our own integrity check of a manifest store, byte for byte: does the active manifest's claim signature verify
 * over the claim bytes, and does every assertion the claim references hash to what the claim says? It settles
 * what the reference engine cannot say when it refuses a store outright (a flipped bit that makes the claim or an
 * assertion unparseable): the signed bytes changed → tampered; the signed bytes are exactly what the signer
 * wrote → the engine's refusal is about a form it does not support. It also catches changes the engine misses
 * because it re-serializes parsed boxes before hashing them.
 */

/** Result of the byte-level check; `unknown`: the check itself cannot decide (an algorithm we do not implement). */
export type StoreIntegrity =
  | { status: "intact"; manifestLabel: string }
  | { status: "tampered"; reason: string; signatureValid: boolean }
  | { status: "unknown"; reason: string };

const MANIFEST_TYPES = new Set(["c2ma", "c2um"]);
const CLAIM_LABELS = new Set(["c2pa.claim", "c2pa.claim.v2"]);
const HASHES: Record<string, string> = { sha256: "SHA-256", sha384: "SHA-384", sha512: "SHA-512" };

/** COSE algorithm id → WebCrypto verification parameters (RFC 9053; C2PA §13.2 allowed list). */
type ImportParams = Parameters<typeof crypto.subtle.importKey>[2];
type VerifyParams = Parameters<typeof crypto.subtle.verify>[0];
const COSE_VERIFY: Record<number, { import: ImportParams; verify: VerifyParams }> = {
  [-7]: { import: { name: "ECDSA", namedCurve: "P-256" }, verify: { name: "ECDSA", hash: "SHA-256" } },
  [-35]: { import: { name: "ECDSA", namedCurve: "P-384" }, verify: { name: "ECDSA", hash: "SHA-384" } },
  [-36]: { import: { name: "ECDSA", namedCurve: "P-521" }, verify: { name: "ECDSA", hash: "SHA-512" } },
  [-37]: { import: { name: "RSA-PSS", hash: "SHA-256" }, verify: { name: "RSA-PSS", saltLength: 32 } },
  [-38]: { import: { name: "RSA-PSS", hash: "SHA-384" }, verify: { name: "RSA-PSS", saltLength: 48 } },
  [-39]: { import: { name: "RSA-PSS", hash: "SHA-512" }, verify: { name: "RSA-PSS", saltLength: 64 } },
  [-8]: { import: { name: "Ed25519" }, verify: { name: "Ed25519" } },
};

const tampered = (reason: string, signatureValid = false): StoreIntegrity => ({ status: "tampered", reason, signatureValid });

function superboxes(box: JumbfSuperbox): JumbfSuperbox[] {
  return box.children.filter((c): c is JumbfSuperbox => c.kind === "superbox");
}

function contentOf(box: JumbfSuperbox, type: string): Uint8Array | null {
  const found = box.children.filter((c: JumbfBox) => c.kind === "content" && c.type === type);
  return found.length === 1 && found[0]!.kind === "content" ? found[0]!.payload : null;
}

const field = (map: CborItem, key: string): CborItem => (map instanceof Map ? map.get(key) : undefined);

/** The claim's references to assertions: v1 `assertions`, v2 `created_assertions` + `gathered_assertions`. */
function assertionRefs(claim: CborItem): { url: string; hash: Uint8Array; alg: string | null }[] | null {
  const lists = ["assertions", "created_assertions", "gathered_assertions"].map((k) => field(claim, k)).filter((v) => v !== undefined);
  if (lists.length === 0 || lists.some((l) => !Array.isArray(l))) return null;
  const refs: { url: string; hash: Uint8Array; alg: string | null }[] = [];
  for (const item of (lists as CborItem[][]).flat()) {
    const url = field(item, "url");
    const hash = field(item, "hash");
    const alg = field(item, "alg");
    if (typeof url !== "string" || !(hash instanceof Uint8Array)) return null;
    refs.push({ url, hash, alg: typeof alg === "string" ? alg : null });
  }
  return refs;
}

/** The assertion superbox a hashed URI names (`self#jumbf=c2pa.assertions/x` or `self#jumbf=/c2pa/<urn>/c2pa.assertions/x`). */
function resolve(manifest: JumbfSuperbox, manifestLabel: string, url: string): JumbfSuperbox | null {
  const m = /^self#jumbf=(.*)$/.exec(url);
  if (!m) return null;
  let path = m[1]!;
  const absolute = `/c2pa/${manifestLabel}/`;
  if (path.startsWith(absolute)) path = path.slice(absolute.length);
  else if (path.startsWith("/")) return null; // another manifest's box: not one of ours to hash here
  let box: JumbfSuperbox = manifest;
  for (const part of path.split("/")) {
    const matches: JumbfSuperbox[] = superboxes(box).filter((b) => b.description.label === part);
    if (matches.length !== 1) return null;
    box = matches[0]!;
  }
  return box;
}

async function verifyClaimSignature(cose: Uint8Array, claim: Uint8Array): Promise<"valid" | "invalid" | "unsupported"> {
  const decoded = decodeCbor(cose);
  if (decoded.status !== "ok") return "invalid";
  const sign1 = isCborTag(decoded.value) ? decoded.value.value : decoded.value;
  if (!Array.isArray(sign1) || sign1.length !== 4) return "invalid";
  const [protectedBytes, , , signature] = sign1;
  if (!(protectedBytes instanceof Uint8Array) || !(signature instanceof Uint8Array)) return "invalid";
  const header = decodeCbor(protectedBytes);
  if (header.status !== "ok" || !(header.value instanceof Map)) return "invalid";
  const alg = header.value.get(1);
  const params = typeof alg === "number" ? COSE_VERIFY[alg] : undefined;
  if (!params) return "unsupported";
  const credentials = signerCredentials(cose);
  if (credentials.status !== "ok") return "invalid";
  const key = await signerKey(credentials.chain[0]!, alg as number, params.import);
  if (!key) return "unsupported"; // a key WebCrypto cannot load: not ours to judge
  const data = sigStructure(protectedBytes, claim);
  try {
    if (await crypto.subtle.verify(params.verify, key, signature, data)) return "valid";
    // Some signers write ECDSA signatures DER-encoded rather than COSE's fixed-size r || s: accept either.
    const size = ECDSA_SIZES[alg as number];
    const raw = size ? rawEcdsaSignature(signature, size) : null;
    return raw && (await crypto.subtle.verify(params.verify, key, raw, data)) ? "valid" : "invalid";
  } catch {
    return "invalid";
  }
}

/**
 * The signer's public key, imported from its leaf certificate. Parsing the certificate and importing the key cost
 * more than the signature check itself, and one signer signs many files, so keys are kept per isolate.
 * Invariant: the entry is a pure function of its key (the COSE algorithm and the SHA-256 of the exact certificate
 * bytes), so a hit gives what the import would give; null means WebCrypto cannot load that key. Public data only
 * (a certificate's key), bounded to KEY_CACHE_MAX entries, oldest first out.
 */
const keyCache = new Map<string, Promise<CryptoKey | null>>();
const KEY_CACHE_MAX = 256;

async function signerKey(certDer: Uint8Array, alg: number, params: ImportParams): Promise<CryptoKey | null> {
  const id = `${alg}:${hex(new Uint8Array(await crypto.subtle.digest("SHA-256", certDer)))}`;
  let key = keyCache.get(id);
  if (!key) {
    key = importSignerKey(certDer, params);
    if (keyCache.size >= KEY_CACHE_MAX) keyCache.delete(keyCache.keys().next().value!);
    keyCache.set(id, key);
  }
  return key;
}

async function importSignerKey(certDer: Uint8Array, params: ImportParams): Promise<CryptoKey | null> {
  try {
    const cert = pkijs.Certificate.fromBER(certDer);
    const info = cert.subjectPublicKeyInfo;
    // WebCrypto loads RSA keys only under rsaEncryption; an id-RSASSA-PSS key holds the same RSAPublicKey.
    if (info.algorithm.algorithmId === OID_RSA_PSS) {
      info.algorithm = new pkijs.AlgorithmIdentifier({ algorithmId: OID_RSA_ENCRYPTION, algorithmParams: new asn1js.Null() });
    }
    const spki = new Uint8Array(info.toSchema().toBER(false));
    return await crypto.subtle.importKey("spki", spki, params, false, ["verify"]);
  } catch {
    return null;
  }
}

const OID_RSA_PSS = "1.2.840.113549.1.1.10";
const OID_RSA_ENCRYPTION = "1.2.840.113549.1.1.1";
/** Bytes of r (and of s) per ECDSA COSE algorithm. */
const ECDSA_SIZES: Record<number, number> = { [-7]: 32, [-35]: 48, [-36]: 66 };

/** DER `SEQUENCE { INTEGER r, INTEGER s }` → r || s, each left-padded to `size`; null when it is not that. */
export function rawEcdsaSignature(der: Uint8Array, size: number): Uint8Array | null {
  const parsed = asn1js.fromBER(der.slice().buffer as ArrayBuffer);
  if (parsed.offset === -1 || parsed.offset !== der.length || !(parsed.result instanceof asn1js.Sequence)) return null;
  const items = parsed.result.valueBlock.value;
  if (items.length !== 2 || !items.every((i) => i instanceof asn1js.Integer)) return null;
  const out = new Uint8Array(2 * size);
  for (const [k, item] of items.entries()) {
    let v = new Uint8Array((item as asn1js.Integer).valueBlock.valueHexView);
    while (v.length > size && v[0] === 0) v = v.subarray(1);
    if (v.length > size) return null;
    out.set(v, (k + 1) * size - v.length);
  }
  return out;
}

/**
 * Byte-level integrity of the active manifest (the one labelled `activeLabel`, else the last) of `store`.
 * Invariant: never throws; `tampered` only when signed bytes provably differ from what was signed (or the
 * structure that carries them is broken), `intact` only when the signature and every referenced assertion hash
 * verified.
 */
export async function checkStoreIntegrity(store: Uint8Array, activeLabel?: string | null): Promise<StoreIntegrity> {
  try {
    const parsed = parseJumbf(store);
    if (parsed.status !== "ok") return tampered(`the manifest store's box structure is broken: ${parsed.message}`);
    const manifests = superboxes(parsed.root).filter(
      (c) => c.description.contentType !== null && MANIFEST_TYPES.has(c.description.contentType),
    );
    if (manifests.length === 0) return tampered("the manifest store holds no manifest");
    const manifest =
      (activeLabel ? manifests.find((m) => m.description.label === activeLabel) : undefined) ?? manifests[manifests.length - 1]!;
    const label = manifest.description.label;
    if (!label) return tampered("the active manifest has no label");
    const claimBoxes = superboxes(manifest).filter((b) => CLAIM_LABELS.has(b.description.label ?? ""));
    const claimBytes = claimBoxes.length === 1 ? contentOf(claimBoxes[0]!, "cbor") : null;
    if (!claimBytes) return tampered(`manifest ${label} has no single claim box`);
    const signature = activeManifestSignature(store, label);
    if (signature.status !== "ok") return tampered(`manifest ${label}: ${signature.message}`);
    const verified = await verifyClaimSignature(signature.cose, claimBytes);
    if (verified === "unsupported")
      return { status: "unknown", reason: "the claim signature uses an algorithm or key this check does not implement" };
    if (verified === "invalid") return tampered("the claim signature does not verify over the claim bytes");
    // The claim is exactly what was signed; every assertion it references must hash to what it says.
    const claim = decodeCbor(claimBytes);
    if (claim.status !== "ok") return { status: "unknown", reason: "the signed claim is not CBOR this check can read" };
    const refs = assertionRefs(claim.value);
    if (!refs) return { status: "unknown", reason: "the signed claim lists its assertions in a form this check cannot read" };
    const claimAlg = field(claim.value, "alg");
    for (const ref of refs) {
      const hash = HASHES[ref.alg ?? (typeof claimAlg === "string" ? claimAlg : "sha256")];
      if (!hash) return { status: "unknown", reason: `assertion hash algorithm ${ref.alg ?? String(claimAlg)} is not implemented here` };
      if (/^self#jumbf=\/c2pa\//.test(ref.url) && !ref.url.startsWith(`self#jumbf=/c2pa/${label}/`)) continue; // another manifest's box
      const box = resolve(manifest, label, ref.url);
      if (!box) return tampered(`the assertion ${ref.url} the claim references is missing`, true);
      // C2PA hashes an assertion's superbox without its own box header: the description box and content boxes.
      const start = box.offset + (readU32(store, box.offset) === 1 ? 16 : 8);
      const actual = new Uint8Array(await crypto.subtle.digest(hash, store.subarray(start, box.offset + box.length)));
      if (!sameBytes(actual, ref.hash)) return tampered(`the assertion ${ref.url} does not match its hash in the claim`, true);
    }
    return { status: "intact", manifestLabel: label };
  } catch (error) {
    return { status: "unknown", reason: `integrity check failed: ${String((error as Error)?.message ?? error)}` };
  }
}

function readU32(b: Uint8Array, at: number): number {
  return ((b[at]! << 24) >>> 0) + ((b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!);
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
