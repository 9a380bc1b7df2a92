/**
 * The active manifest's claim signature (COSE_Sign1) in a manifest store, and the signer's credentials in it:
 * x5chain, stapled OCSP responses, algorithm. See jumbf.ts for the whole.
 */
import { type CborItem, decodeCbor, isCborTag } from "../../platform/cbor";
import {
  type ActiveManifestSignatureResult,
  isStoreDescription,
  type JumbfContentBox,
  type JumbfSuperbox,
  malformed,
  notFound,
  parseJumbf,
  type SignerCredentialsResult,
} from "./jumbf-box";

// ---------------------------------------------------------------------------------------------------------------
// activeManifestSignature

/** Content types of a manifest superbox: standard manifest, update manifest. */
const MANIFEST_TYPES = new Set(["c2ma", "c2um"]);
const SIGNATURE_LABEL = "c2pa.signature";

/**
 * The COSE_Sign1 of the active manifest of a store: the `cbor` box of its `c2pa.signature` superbox. The
 * active manifest is the one labelled `activeLabel` (its URN; a JUMBF URI `self#jumbf=/c2pa/<urn>` is accepted
 * too) or, without a label, the LAST manifest superbox of the store (C2PA: the active manifest is the last one).
 */
export function activeManifestSignature(store: Uint8Array, activeLabel?: string | null): ActiveManifestSignatureResult {
  const parsed = parseJumbf(store);
  if (parsed.status !== "ok") return parsed;
  const root = parsed.root;
  if (!isStoreDescription(root.description)) return notFound("the JUMBF superbox is not a C2PA manifest store");
  const manifests = root.children.filter(
    (c): c is JumbfSuperbox => c.kind === "superbox" && c.description.contentType !== null && MANIFEST_TYPES.has(c.description.contentType),
  );
  if (manifests.length === 0) return notFound("the manifest store has no manifest");
  let manifest: JumbfSuperbox;
  if (activeLabel) {
    const label = labelOfUri(activeLabel);
    const matches = manifests.filter((m) => m.description.label === label);
    if (matches.length === 0) return notFound(`no manifest labelled ${JSON.stringify(label)}`);
    if (matches.length > 1) return malformed(`several manifests labelled ${JSON.stringify(label)}`);
    manifest = matches[0]!;
  } else {
    manifest = manifests[manifests.length - 1]!;
  }
  const manifestLabel = manifest.description.label;
  if (!manifestLabel) return malformed("the active manifest has no label");
  const signatures = manifest.children.filter((c): c is JumbfSuperbox => c.kind === "superbox" && c.description.label === SIGNATURE_LABEL);
  if (signatures.length === 0) return notFound(`manifest ${manifestLabel} has no ${SIGNATURE_LABEL} box`);
  if (signatures.length > 1) return malformed(`manifest ${manifestLabel} has several ${SIGNATURE_LABEL} boxes`);
  const content = signatures[0]!.children.filter((c): c is JumbfContentBox => c.kind === "content" && c.type === "cbor");
  if (content.length !== 1)
    return malformed(`${SIGNATURE_LABEL} of ${manifestLabel} must hold exactly one cbor box (has ${content.length})`);
  return { status: "ok", manifestLabel, cose: content[0]!.payload.slice() };
}

/** "self#jumbf=/c2pa/urn:…" (or "…/c2pa/urn:…/…") → "urn:…"; anything else is taken as the label itself. */
function labelOfUri(label: string): string {
  const m = /^(?:self#jumbf=)?\/?c2pa\/([^/]+)/.exec(label);
  return m ? m[1]! : label;
}

// ---------------------------------------------------------------------------------------------------------------
// signerCredentials

const COSE_SIGN1_TAG = 18;
const HEADER_ALG = 1;
const HEADER_X5CHAIN = 33;
const COSE_ALGORITHM_NAMES: Record<number, string> = {
  [-7]: "ES256",
  [-35]: "ES384",
  [-36]: "ES512",
  [-37]: "PS256",
  [-38]: "PS384",
  [-39]: "PS512",
  [-8]: "Ed25519",
  [-257]: "RS256",
  [-258]: "RS384",
  [-259]: "RS512",
};

/**
 * The certificate chain and stapled OCSP responses of a COSE_Sign1 (tag 18, or the untagged 4-array).
 * x5chain (label 33, or the legacy text label "x5chain") is a bstr (one certificate) or an array of bstr, leaf
 * first. It is read from the protected header, else the unprotected one (older C2PA versions put it there); both
 * at once is malformed, as for c2pa-rs. Stapled OCSP responses are the bstr entries of the unprotected
 * `rVals: { ocspVals: [...] }` (C2PA "OCSP stapling"); a differently shaped rVals is ignored, as c2pa-rs does.
 * Certificates are not parsed: the caller checks they are X.509.
 */
export function signerCredentials(coseBytes: Uint8Array): SignerCredentialsResult {
  try {
    return credentialsOf(coseBytes);
  } catch (error) {
    return malformed(`COSE parsing failed: ${String((error as Error)?.message ?? error)}`);
  }
}

function credentialsOf(coseBytes: Uint8Array): SignerCredentialsResult {
  const decoded = decodeCbor(coseBytes);
  if (decoded.status !== "ok") return malformed(`COSE_Sign1 is not CBOR: ${decoded.message} (at ${decoded.offset})`);
  let sign1: CborItem = decoded.value;
  if (isCborTag(sign1)) {
    if (sign1.tag !== COSE_SIGN1_TAG) return malformed(`CBOR tag ${sign1.tag} is not COSE_Sign1 (18)`);
    sign1 = sign1.value;
  }
  if (!Array.isArray(sign1) || sign1.length !== 4) return malformed("COSE_Sign1 is not an array of 4 items");
  const [protectedBytes, unprotected] = sign1;
  if (!(protectedBytes instanceof Uint8Array)) return malformed("COSE protected header is not a byte string");
  if (!(unprotected instanceof Map)) return malformed("COSE unprotected header is not a map");
  let protectedHeader = new Map<CborItem, CborItem>();
  if (protectedBytes.length > 0) {
    const p = decodeCbor(protectedBytes);
    if (p.status !== "ok") return malformed(`COSE protected header is not CBOR: ${p.message} (at ${p.offset})`);
    if (!(p.value instanceof Map)) return malformed("COSE protected header is not a map");
    protectedHeader = p.value;
  }

  const fromProtected = x5chainOf(protectedHeader);
  const fromUnprotected = x5chainOf(unprotected);
  if (typeof fromProtected === "string") return malformed(`protected ${fromProtected}`);
  if (typeof fromUnprotected === "string") return malformed(`unprotected ${fromUnprotected}`);
  if (fromProtected && fromUnprotected) return malformed("x5chain is in both the protected and the unprotected header");
  const chain = fromProtected ?? fromUnprotected;
  if (!chain) return notFound("the COSE_Sign1 has no x5chain");

  const alg = protectedHeader.get(HEADER_ALG);
  let algorithm: string | null = null;
  if (typeof alg === "number") algorithm = COSE_ALGORITHM_NAMES[alg] ?? `cose:${alg}`;
  else if (typeof alg === "string") algorithm = alg;
  else if (alg !== undefined) return malformed("COSE alg is neither an integer nor a text string");

  return {
    status: "ok",
    chain,
    stapledOcsp: stapledOcspOf(unprotected),
    algorithm,
    chainHeader: fromProtected ? "protected" : "unprotected",
  };
}

/** x5chain of a header map: certificates, null when absent, or an error text. */
function x5chainOf(header: Map<CborItem, CborItem>): Uint8Array[] | null | string {
  const byLabel = header.get(HEADER_X5CHAIN);
  const byName = header.get("x5chain");
  if (byLabel !== undefined && byName !== undefined) return 'header has x5chain under both 33 and "x5chain"';
  const value = byLabel ?? byName;
  if (value === undefined) return null;
  if (value instanceof Uint8Array) return value.length > 0 ? [value] : "x5chain certificate is empty";
  if (!Array.isArray(value) || value.length === 0) return "x5chain is neither a byte string nor a non-empty array";
  const certs: Uint8Array[] = [];
  for (const cert of value) {
    if (!(cert instanceof Uint8Array) || cert.length === 0) return "x5chain array holds something other than a certificate";
    certs.push(cert);
  }
  return certs;
}

function stapledOcspOf(unprotected: Map<CborItem, CborItem>): Uint8Array[] {
  const rVals = unprotected.get("rVals");
  if (!(rVals instanceof Map)) return [];
  const values = rVals.get("ocspVals");
  if (!Array.isArray(values)) return [];
  return values.filter((v): v is Uint8Array => v instanceof Uint8Array && v.length > 0);
}
