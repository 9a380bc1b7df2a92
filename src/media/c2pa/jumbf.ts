/**
 * The signer's credentials of the ACTIVE manifest, read straight from C2PA-signed bytes: the c2pa-wasm reader
 * reports only the signing certificate's serial and issuer, while OCSP needs the DER certificates (and any
 * OCSP responses stapled to the signature).
 *
 *   extractManifestStore(bytes, mediaType) → the raw manifest store (the JUMBF superbox labelled "c2pa")
 *   parseJumbf(store)                      → its box tree
 *   activeManifestSignature(store, label?) → the COSE_Sign1 of the active manifest's claim signature
 *   signerCredentials(cose)                → x5chain (leaf first), stapled OCSP responses, algorithm
 *
 * Where the store sits (C2PA specification, "Embedding manifests into various file formats"; checked against
 * what c2pa-wasm 0.13.3 writes, see test/workers/jumbf.test.ts):
 *  - JPEG: APP11 segments, each "JP" (common identifier), En (box instance, 2 bytes), Z (packet sequence, 4
 *    bytes, from 1), then box bytes; the first packet has the superbox header (LBox, TBox, XLBox if LBox = 1) and
 *    its start, every later packet repeats that header before the next part (ISO/IEC 19566-5, JPEG 1 embedding).
 *  - PNG: a `caBX` chunk (chunk CRCs are not checked: the manifest's hard binding covers the bytes). GIF: an application extension "C2PA_GIF" whose data sub-blocks hold the store.
 *  - SVG: base64 text of a `<c2pa:manifest>` element.
 *  - Everything else (ISO BMFF `uuid` box, RIFF `C2PA` chunk of WebP/WAV/AVI, TIFF/DNG tag 52545, ID3 GEOB of
 *    MP3/FLAC, JPEG XL `jumb` box, PDF embedded file stream, ...): the store is stored whole, so it is found by
 *    scanning for the first complete `jumb` box whose description says "c2pa".
 *  - A `.c2pa` sidecar (media type application/c2pa, or bytes that start with the store box): the bytes are
 *    the store.
 * The container is recognized from its leading bytes; the media type only says "sidecar" (application/c2pa) or
 * "SVG" (a text format without a fixed signature).
 *
 * Invariants: no function here throws; each is linear in its input, allocates at most a copy of it, and bounds
 * recursion (JUMBF nesting ≤ MAX_JUMBF_DEPTH, CBOR nesting ≤ the decoder's depth limit). Results are discriminated
 * unions: `ok`, `not_found` (the input is readable but has no such thing), `malformed` (it is not readable).
 * Byte arrays in results may share the input's buffer unless stated otherwise.
 */
import { type CborItem, decodeCbor, isCborTag } from "../../platform/cbor";

export type NotFound = { status: "not_found"; message: string };
export type Malformed = { status: "malformed"; message: string };
export type Failure = NotFound | Malformed;

/** How the store was carried in the asset. */
export type ManifestStoreCarrier = "sidecar" | "jpeg-app11" | "png-cabx" | "gif-extension" | "svg-element" | "jumbf-scan";

export type ExtractManifestStoreResult = { status: "ok"; store: Uint8Array; carrier: ManifestStoreCarrier } | Failure;

/** A JUMBF box: the bytes of its content (after LBox/TBox/XLBox) and where it sits in the parsed buffer. */
export interface JumbfContentBox {
  kind: "content";
  /** TBox as four Latin-1 characters, e.g. "cbor", "json", "bidb", "uuid". */
  type: string;
  offset: number;
  length: number;
  payload: Uint8Array;
}

/** The description box (`jumd`) of a superbox. */
export interface JumbfDescription {
  /** Content type UUID, 16 bytes. */
  uuid: Uint8Array;
  /** The four leading ASCII characters of a C2PA/JUMBF-style UUID (e.g. "c2pa", "c2ma", "c2cs"), else null. */
  contentType: string | null;
  toggles: number;
  label: string | null;
  id: number | null;
  signature: Uint8Array | null;
}

/** A JUMBF superbox (`jumb`): its description and child boxes (the description box not among them). */
export interface JumbfSuperbox {
  kind: "superbox";
  type: "jumb";
  offset: number;
  length: number;
  description: JumbfDescription;
  children: JumbfBox[];
}

export type JumbfBox = JumbfSuperbox | JumbfContentBox;

export type ParseJumbfResult = { status: "ok"; root: JumbfSuperbox } | Malformed;

export type ActiveManifestSignatureResult =
  | { status: "ok" /** label of the manifest (its URN) */; manifestLabel: string /** COSE_Sign1 bytes (a copy) */; cose: Uint8Array }
  | Failure;

export type SignerCredentialsResult =
  | {
      status: "ok";
      /** DER certificates of x5chain, signer (leaf) first; copies. */
      chain: Uint8Array[];
      /** DER OCSPResponses of the unprotected `rVals.ocspVals`, in order; empty when none are stapled. */
      stapledOcsp: Uint8Array[];
      /** COSE algorithm of the protected header: its name when known (e.g. "ES256"), else "cose:<id>"; null if absent. */
      algorithm: string | null;
      /** Which header held x5chain. */
      chainHeader: "protected" | "unprotected";
    }
  | Failure;

/** Deepest JUMBF superbox nesting accepted (a C2PA store nests store > manifest > assertion store > assertion). */
export const MAX_JUMBF_DEPTH = 16;

const MEDIA_TYPE_SIDECAR = "application/c2pa";
/** ISO/IEC 19566-5 UUID suffix shared by the JUMBF/C2PA content types: 0011-0010-8000-00AA00389B71. */
const JUMBF_UUID_SUFFIX = [0x00, 0x11, 0x00, 0x10, 0x80, 0x00, 0x00, 0xaa, 0x00, 0x38, 0x9b, 0x71];
const TOGGLE_LABEL = 0x02;
const TOGGLE_ID = 0x04;
const TOGGLE_SIGNATURE = 0x08;
const TOGGLE_PRIVATE = 0x10;

const ok = <T extends object>(value: T) => ({ status: "ok" as const, ...value });
const notFound = (message: string): NotFound => ({ status: "not_found", message });
const malformed = (message: string): Malformed => ({ status: "malformed", message });

// ---------------------------------------------------------------------------------------------------------------
// Boxes

interface BoxHeader {
  type: string;
  /** Start of the box header. */
  start: number;
  /** Start of the content. */
  contentStart: number;
  /** End of the box (exclusive). */
  end: number;
}

function u32(b: Uint8Array, at: number): number {
  return b[at]! * 0x100_0000 + ((b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!);
}

function fourcc(b: Uint8Array, at: number): string {
  return String.fromCharCode(b[at]!, b[at + 1]!, b[at + 2]!, b[at + 3]!);
}

/** The box starting at `start` that must end by `limit`; an error text when it does not fit. */
function boxAt(b: Uint8Array, start: number, limit: number): BoxHeader | string {
  if (start + 8 > limit) return `box header at ${start} runs past the end`;
  const lbox = u32(b, start);
  const type = fourcc(b, start + 4);
  let header = 8;
  let size: number;
  if (lbox === 1) {
    if (start + 16 > limit) return `box ${type} at ${start}: XLBox runs past the end`;
    const hi = u32(b, start + 8);
    const lo = u32(b, start + 12);
    size = hi > 0x1f_ffff ? Number.MAX_SAFE_INTEGER : hi * 0x1_0000_0000 + lo;
    header = 16;
  } else if (lbox === 0) {
    size = limit - start;
  } else {
    size = lbox;
  }
  if (size < header) return `box ${type} at ${start}: length ${size} is shorter than its header`;
  if (size > limit - start) return `box ${type} at ${start}: length ${size} runs past the end (${limit - start} bytes left)`;
  return { type, start, contentStart: start + header, end: start + size };
}

/** Whether b[at..at+16) is "xxxx" + the JUMBF UUID suffix; returns the 4 characters. */
function jumbfUuidType(b: Uint8Array, at: number): string | null {
  for (let i = 0; i < 12; i++) if (b[at + 4 + i] !== JUMBF_UUID_SUFFIX[i]) return null;
  for (let i = 0; i < 4; i++) {
    const c = b[at + i]!;
    if (c < 0x20 || c > 0x7e) return null;
  }
  return fourcc(b, at);
}

const labelDecoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Parses a `jumd` box's content b[start, end). */
function parseDescription(b: Uint8Array, start: number, end: number): JumbfDescription | string {
  if (start + 17 > end) return `description box at ${start} is shorter than 17 bytes`;
  const uuid = b.subarray(start, start + 16);
  const toggles = b[start + 16]!;
  let at = start + 17;
  let label: string | null = null;
  let id: number | null = null;
  let signature: Uint8Array | null = null;
  if (toggles & TOGGLE_LABEL) {
    const nul = b.subarray(at, end).indexOf(0);
    if (nul < 0) return `description box at ${start}: label without its NUL terminator`;
    try {
      label = labelDecoder.decode(b.subarray(at, at + nul));
    } catch {
      return `description box at ${start}: label is not UTF-8`;
    }
    at += nul + 1;
  }
  if (toggles & TOGGLE_ID) {
    if (at + 4 > end) return `description box at ${start}: ID runs past the end`;
    id = u32(b, at);
    at += 4;
  }
  if (toggles & TOGGLE_SIGNATURE) {
    if (at + 32 > end) return `description box at ${start}: signature runs past the end`;
    signature = b.subarray(at, at + 32);
    at += 32;
  }
  if (toggles & TOGGLE_PRIVATE) {
    const box = boxAt(b, at, end);
    if (typeof box === "string") return `description box at ${start}: private box: ${box}`;
  }
  return { uuid, contentType: jumbfUuidType(b, start), toggles, label, id, signature };
}

/** The label of a manifest store's description box. */
const STORE_LABEL = "c2pa";

/** Whether the box at `box` is a `jumb` whose description box is that of a C2PA manifest store. */
function isManifestStoreBox(b: Uint8Array, box: BoxHeader): boolean {
  return box.type === "jumb" && isC2paDescriptionAt(b, box.contentStart, box.end);
}

/**
 * Whether b[at, limit) starts with a `jumd` box labelled "c2pa". Constant time (it reads a fixed number of
 * bytes), so that scanning candidates stays linear.
 */
function isC2paDescriptionAt(b: Uint8Array, at: number, limit = b.length): boolean {
  const desc = boxAt(b, at, limit);
  if (typeof desc === "string" || desc.type !== "jumd") return false;
  const label = desc.contentStart + 17;
  if (label + 5 > desc.end || (b[desc.contentStart + 16]! & TOGGLE_LABEL) === 0) return false;
  return b[label] === 0x63 && b[label + 1] === 0x32 && b[label + 2] === 0x70 && b[label + 3] === 0x61 && b[label + 4] === 0;
}

function isStoreDescription(d: JumbfDescription): boolean {
  return d.label === STORE_LABEL;
}

// ---------------------------------------------------------------------------------------------------------------
// parseJumbf

/**
 * Parses a JUMBF superbox (a manifest store) into its box tree. The input must be exactly one `jumb` box; every
 * superbox must start with its `jumd` description. Content boxes are not interpreted.
 */
export function parseJumbf(store: Uint8Array): ParseJumbfResult {
  try {
    const top = boxAt(store, 0, store.length);
    if (typeof top === "string") return malformed(top);
    if (top.type !== "jumb") return malformed(`not a JUMBF superbox (box type ${JSON.stringify(top.type)})`);
    if (top.end !== store.length) return malformed(`${store.length - top.end} bytes after the JUMBF superbox`);
    const root = parseSuperbox(store, top, 1);
    return typeof root === "string" ? malformed(root) : { status: "ok", root };
  } catch (error) {
    return malformed(`JUMBF parsing failed: ${String((error as Error)?.message ?? error)}`);
  }
}

function parseSuperbox(b: Uint8Array, box: BoxHeader, depth: number): JumbfSuperbox | string {
  if (depth > MAX_JUMBF_DEPTH) return `JUMBF nesting deeper than ${MAX_JUMBF_DEPTH} at ${box.start}`;
  const desc = boxAt(b, box.contentStart, box.end);
  if (typeof desc === "string") return desc;
  if (desc.type !== "jumd") return `superbox at ${box.start} does not start with a description box`;
  const description = parseDescription(b, desc.contentStart, desc.end);
  if (typeof description === "string") return description;
  const children: JumbfBox[] = [];
  for (let at = desc.end; at < box.end; ) {
    const child = boxAt(b, at, box.end);
    if (typeof child === "string") return child;
    if (child.type === "jumb") {
      const sub = parseSuperbox(b, child, depth + 1);
      if (typeof sub === "string") return sub;
      children.push(sub);
    } else {
      children.push({
        kind: "content",
        type: child.type,
        offset: child.start,
        length: child.end - child.start,
        payload: b.subarray(child.contentStart, child.end),
      });
    }
    at = child.end;
  }
  return { kind: "superbox", type: "jumb", offset: box.start, length: box.end - box.start, description, children };
}

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

// ---------------------------------------------------------------------------------------------------------------
// extractManifestStore

/**
 * The raw C2PA manifest store of an asset (or of a `.c2pa` sidecar). `not_found` when the asset has none;
 * `malformed` when its container or the store's carrier is broken before a complete store was found (a
 * container error after it does not matter), or when it holds two stores (C2PA allows one per asset).
 */
export function extractManifestStore(bytes: Uint8Array, mediaType: string): ExtractManifestStoreResult {
  try {
    return extract(bytes, mediaType.split(";")[0]!.trim().toLowerCase());
  } catch (error) {
    return malformed(`manifest store extraction failed: ${String((error as Error)?.message ?? error)}`);
  }
}

function extract(b: Uint8Array, mediaType: string): ExtractManifestStoreResult {
  const sidecar = b.length >= 8 && fourcc(b, 4) === "jumb";
  if (mediaType === MEDIA_TYPE_SIDECAR || sidecar) {
    const top = boxAt(b, 0, b.length);
    if (typeof top === "string") return malformed(`sidecar: ${top}`);
    if (!isManifestStoreBox(b, top)) return notFound("the sidecar is not a C2PA manifest store");
    if (top.end !== b.length) return malformed(`sidecar: ${b.length - top.end} bytes after the manifest store`);
    return ok({ store: b, carrier: "sidecar" as const });
  }
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return fromJpeg(b);
  if (b.length >= 8 && u32(b, 0) === 0x89504e47 && u32(b, 4) === 0x0d0a1a0a) return fromPng(b);
  if (b.length >= 6 && fourcc(b, 0) === "GIF8" && (b[4] === 0x37 || b[4] === 0x39) && b[5] === 0x61) return fromGif(b);
  if (mediaType === "image/svg+xml" || looksLikeXml(b)) return fromSvg(b);
  return fromScan(b);
}

type JpegPacket = { z: number; data: Uint8Array /** the APP11 segment, marker included */; segment: [number, number] };

/** JPEG: the APP11 JUMBF packets of the box instance whose superbox is the C2PA store, in sequence order. */
function fromJpeg(b: Uint8Array): ExtractManifestStoreResult {
  const { instances, walkError, sawScan } = walkJpegApp11(b);
  let found: { en: number; packets: JpegPacket[] } | null = null;
  for (const instance of c2paInstances(instances)) {
    if (found) return malformed("JPEG holds more than one C2PA manifest store");
    found = instance;
  }
  if (!found) {
    if (walkError && !sawScan) return malformed(`JPEG: ${walkError}`);
    return notFound("no C2PA manifest store in the JPEG's APP11 segments");
  }
  return reassembleJumbfPackets(found.packets);
}

/** The APP11 box instances whose first packet starts a C2PA store superbox. */
function c2paInstances(instances: Map<number, JpegPacket[]>): { en: number; packets: JpegPacket[] }[] {
  const out: { en: number; packets: JpegPacket[] }[] = [];
  for (const [en, packets] of instances) {
    const first = packets.find((p) => p.z === 1);
    if (!first) continue;
    // The first packet holds the superbox header (whose length is the whole store's) and the description box.
    const d = first.data;
    if (d.length < 8 || fourcc(d, 4) !== "jumb") continue;
    if (!isC2paDescriptionAt(d, u32(d, 0) === 1 ? 16 : 8)) continue;
    out.push({ en, packets });
  }
  return out;
}

/**
 * Every C2PA manifest store instance of a JPEG (C2PA allows one; a file may carry more when something was added),
 * each with its store (or why it cannot be reassembled) and the byte ranges of its APP11 segments, so a caller
 * can read each one on its own. Never throws.
 */
export function jpegManifestStoreInstances(b: Uint8Array): { store: ExtractManifestStoreResult; segments: [number, number][] }[] {
  try {
    if (!(b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff)) return [];
    return c2paInstances(walkJpegApp11(b).instances).map((i) => ({
      store: reassembleJumbfPackets(i.packets),
      segments: i.packets.map((p) => p.segment),
    }));
  } catch {
    return [];
  }
}

/**
 * Every C2PA manifest store of a JPEG (APP11 instances) or PNG (`caBX` chunks), each with the byte ranges that
 * carry it: see jpegManifestStoreInstances. Other containers: none (their readers report a second store as
 * malformed). Never throws.
 */
export function manifestStoreInstances(b: Uint8Array): { store: ExtractManifestStoreResult; segments: [number, number][] }[] {
  if (b.length >= 8 && u32(b, 0) === 0x89504e47 && u32(b, 4) === 0x0d0a1a0a) {
    const out: { store: ExtractManifestStoreResult; segments: [number, number][] }[] = [];
    for (let pos = 8; pos + 12 <= b.length; ) {
      const length = u32(b, pos);
      if (length > b.length - pos - 12) break;
      const type = fourcc(b, pos + 4);
      if (type === "caBX")
        out.push({ store: checkedStore(b.subarray(pos + 8, pos + 8 + length), "png-cabx"), segments: [[pos, pos + 12 + length]] });
      pos += 12 + length;
      if (type === "IEND") break;
    }
    return out;
  }
  return jpegManifestStoreInstances(b);
}

/** Walks a JPEG's marker segments, collecting APP11 JUMBF packets by box instance (En). */
function walkJpegApp11(b: Uint8Array): { instances: Map<number, JpegPacket[]>; walkError: string | null; sawScan: boolean } {
  // En → packets (Z, payload after the 8-byte CI/En/Z prefix)
  const instances = new Map<number, JpegPacket[]>();
  let pos = 2;
  let sawScan = false;
  let walkError: string | null = null;
  walk: while (pos < b.length) {
    if (b[pos] !== 0xff) {
      walkError = `marker expected at ${pos}`;
      break;
    }
    while (pos < b.length && b[pos] === 0xff) pos++; // fill bytes
    if (pos >= b.length) {
      walkError = "truncated marker";
      break;
    }
    const marker = b[pos++]!;
    if (marker === 0xd9) break; // EOI
    if (marker === 0xd8 || marker === 0x00) {
      walkError = `unexpected marker 0x${marker.toString(16)} at ${pos - 1}`;
      break;
    }
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) continue; // RSTn, TEM: no length
    if (pos + 2 > b.length) {
      walkError = "truncated segment length";
      break;
    }
    const length = (b[pos]! << 8) | b[pos + 1]!;
    if (length < 2 || pos + length > b.length) {
      walkError = `segment at ${pos - 2} runs past the end`;
      break;
    }
    const start = pos + 2;
    const end = pos + length;
    if (marker === 0xeb && end - start >= 8 && b[start] === 0x4a && b[start + 1] === 0x50) {
      const en = (b[start + 2]! << 8) | b[start + 3]!;
      const z = u32(b, start + 4);
      let packets = instances.get(en);
      if (!packets) instances.set(en, (packets = []));
      packets.push({ z, data: b.subarray(start + 8, end), segment: [pos - 2, end] });
    }
    pos = end;
    if (marker === 0xda) {
      sawScan = true;
      // Entropy-coded data: FF 00 is a stuffed byte, FF D0–D7 restart markers, FF FF fill; any other marker ends it.
      for (;;) {
        const ff = b.indexOf(0xff, pos);
        if (ff < 0 || ff + 1 >= b.length) break walk; // no EOI: truncated after the headers
        const next = b[ff + 1]!;
        if (next === 0x00 || (next >= 0xd0 && next <= 0xd7)) {
          pos = ff + 2;
          continue;
        }
        if (next === 0xff) {
          pos = ff + 1;
          continue;
        }
        pos = ff;
        break;
      }
    }
  }

  return { instances, walkError, sawScan };
}

function reassembleJumbfPackets(packets: { z: number; data: Uint8Array }[]): ExtractManifestStoreResult {
  const sorted = [...packets].sort((x, y) => x.z - y.z);
  for (let i = 0; i < sorted.length; i++) {
    if (sorted[i]!.z !== i + 1) return malformed(`JPEG APP11 packet sequence is broken (expected ${i + 1}, found ${sorted[i]!.z})`);
  }
  const first = sorted[0]!.data;
  const lbox = u32(first, 0);
  const declared = lbox === 1 ? (first.length >= 16 ? u32(first, 8) * 0x1_0000_0000 + u32(first, 12) : -1) : lbox;
  const parts: Uint8Array[] = [first];
  let total = first.length;
  for (const packet of sorted.slice(1)) {
    // Each later packet repeats the superbox header (LBox, TBox and, when LBox = 1, XLBox) before its part.
    const d = packet.data;
    if (d.length < 8) return malformed(`JPEG APP11 packet ${packet.z} is shorter than its box header`);
    const header = u32(d, 0) === 1 ? 16 : 8;
    if (d.length < header || u32(d, 0) !== lbox || fourcc(d, 4) !== "jumb") {
      return malformed(`JPEG APP11 packet ${packet.z} does not repeat the superbox header`);
    }
    parts.push(d.subarray(header));
    total += d.length - header;
  }
  if (lbox !== 0 && declared !== total) {
    return malformed(`JPEG APP11 packets hold ${total} bytes of a ${declared}-byte manifest store`);
  }
  if (parts.length === 1) return checkedStore(first, "jpeg-app11");
  const store = new Uint8Array(total);
  let o = 0;
  for (const p of parts) {
    store.set(p, o);
    o += p.length;
  }
  return checkedStore(store, "jpeg-app11");
}

/** PNG: the `caBX` chunk. */
function fromPng(b: Uint8Array): ExtractManifestStoreResult {
  let store: Uint8Array | null = null;
  for (let pos = 8; pos < b.length; ) {
    if (pos + 12 > b.length) {
      if (store) break;
      return malformed(`PNG chunk at ${pos} is truncated`);
    }
    const length = u32(b, pos);
    const type = fourcc(b, pos + 4);
    if (length > b.length - pos - 12) {
      if (store) break;
      return malformed(`PNG chunk ${type} at ${pos} runs past the end`);
    }
    if (type === "caBX") {
      if (store) return malformed("PNG holds more than one caBX chunk");
      store = b.subarray(pos + 8, pos + 8 + length);
    }
    pos += 12 + length;
    if (type === "IEND") break;
  }
  if (!store) return notFound("no caBX chunk in the PNG");
  return checkedStore(store, "png-cabx");
}

/** GIF: the application extension "C2PA_GIF" (auth code 3 bytes), its data sub-blocks concatenated. */
function fromGif(b: Uint8Array): ExtractManifestStoreResult {
  if (b.length < 13) return malformed("GIF header is truncated");
  let pos = 13;
  const screenFlags = b[10]!;
  if (screenFlags & 0x80) pos += 3 * (1 << ((screenFlags & 0x07) + 1));
  let store: Uint8Array | null = null;
  const fail = (message: string): ExtractManifestStoreResult =>
    store ? checkedStore(store, "gif-extension") : malformed(`GIF: ${message}`);
  /** Skips data sub-blocks from `at`; returns the position after the terminator, or -1 when truncated. */
  const skipSubBlocks = (at: number): number => {
    while (at < b.length) {
      const n = b[at]!;
      if (n === 0) return at + 1;
      at += 1 + n;
    }
    return -1;
  };
  while (pos < b.length) {
    const introducer = b[pos]!;
    if (introducer === 0x3b) break; // trailer
    if (introducer === 0x21) {
      if (pos + 2 > b.length) return fail("truncated extension");
      const label = b[pos + 1]!;
      if (
        label === 0xff &&
        pos + 3 + 11 <= b.length &&
        b[pos + 2] === 11 &&
        fourcc(b, pos + 3) === "C2PA" &&
        fourcc(b, pos + 7) === "_GIF"
      ) {
        if (store) return malformed("GIF holds more than one C2PA extension");
        const dataStart = pos + 14;
        const after = skipSubBlocks(dataStart);
        if (after < 0) return malformed("GIF: the C2PA extension is truncated");
        // Sub-block lengths total at most the extension's size: one copy, sized before allocating.
        let total = 0;
        for (let at = dataStart; b[at] !== 0; at += 1 + b[at]!) total += b[at]!;
        const out = new Uint8Array(total);
        let o = 0;
        for (let at = dataStart; b[at] !== 0; at += 1 + b[at]!) {
          out.set(b.subarray(at + 1, at + 1 + b[at]!), o);
          o += b[at]!;
        }
        store = out;
        pos = after;
        continue;
      }
      const after = skipSubBlocks(pos + 2);
      if (after < 0) return fail("truncated extension");
      pos = after;
    } else if (introducer === 0x2c) {
      if (pos + 10 > b.length) return fail("truncated image descriptor");
      const flags = b[pos + 9]!;
      pos += 10;
      if (flags & 0x80) pos += 3 * (1 << ((flags & 0x07) + 1));
      pos += 1; // LZW minimum code size
      const after = pos <= b.length ? skipSubBlocks(pos) : -1;
      if (after < 0) return fail("truncated image data");
      pos = after;
    } else {
      return fail(`unexpected block 0x${introducer.toString(16)} at ${pos}`);
    }
  }
  if (!store) return notFound("no C2PA application extension in the GIF");
  return checkedStore(store, "gif-extension");
}

/** SVG: the base64 content of the `<c2pa:manifest>` element. */
function fromSvg(b: Uint8Array): ExtractManifestStoreResult {
  const open = indexOfAscii(b, "<c2pa:manifest", 0);
  if (open < 0) return notFound("no c2pa:manifest element in the SVG");
  let contentStart = -1;
  for (let i = open + 14; i < b.length; i++) {
    if (b[i] === 0x3e) {
      contentStart = i + 1;
      break;
    }
    if (b[i] === 0x3c) break;
  }
  if (contentStart < 0 || b[contentStart - 2] === 0x2f) return malformed("SVG: c2pa:manifest element has no content");
  const close = indexOfAscii(b, "</c2pa:manifest", contentStart);
  if (close < 0) return malformed("SVG: c2pa:manifest element is not closed");
  if (indexOfAscii(b, "<c2pa:manifest", close) >= 0) return malformed("SVG holds more than one c2pa:manifest element");
  const store = decodeBase64(b.subarray(contentStart, close));
  if (!store) return malformed("SVG: c2pa:manifest content is not base64");
  return checkedStore(store, "svg-element");
}

/** Other containers: the first complete `jumb` box whose description is the C2PA store's. */
function fromScan(b: Uint8Array): ExtractManifestStoreResult {
  const J = 0x6a;
  for (let i = b.indexOf(J, 4); i >= 0 && i + 4 <= b.length; i = b.indexOf(J, i + 1)) {
    if (b[i + 1] !== 0x75 || b[i + 2] !== 0x6d || b[i + 3] !== 0x62) continue; // "umb"
    const box = boxAt(b, i - 4, b.length);
    if (typeof box === "string" || !isManifestStoreBox(b, box)) continue;
    return ok({ store: b.subarray(box.start, box.end), carrier: "jumbf-scan" as const });
  }
  return notFound("no C2PA manifest store found");
}

/** A store taken from a carrier must be exactly one C2PA store superbox. */
function checkedStore(store: Uint8Array, carrier: ManifestStoreCarrier): ExtractManifestStoreResult {
  const top = boxAt(store, 0, store.length);
  if (typeof top === "string") return malformed(`${carrier}: ${top}`);
  if (!isManifestStoreBox(store, top)) return malformed(`${carrier}: the carried data is not a C2PA manifest store`);
  if (top.end !== store.length) return malformed(`${carrier}: ${store.length - top.end} bytes after the manifest store`);
  return ok({ store, carrier });
}

function looksLikeXml(b: Uint8Array): boolean {
  let i = b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? 3 : 0;
  while (i < b.length && i < 1024 && (b[i] === 0x20 || b[i] === 0x09 || b[i] === 0x0a || b[i] === 0x0d)) i++;
  return b[i] === 0x3c && (b[i + 1] === 0x3f || b[i + 1] === 0x73 || b[i + 1] === 0x21); // "<?", "<s", "<!"
}

function indexOfAscii(b: Uint8Array, needle: string, from: number): number {
  const first = needle.charCodeAt(0);
  outer: for (let i = b.indexOf(first, from); i >= 0 && i + needle.length <= b.length; i = b.indexOf(first, i + 1)) {
    for (let j = 1; j < needle.length; j++) if (b[i + j] !== needle.charCodeAt(j)) continue outer;
    return i;
  }
  return -1;
}

const BASE64_VALUES = (() => {
  const table = new Int16Array(256).fill(-1);
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  for (let i = 0; i < alphabet.length; i++) table[alphabet.charCodeAt(i)] = i;
  return table;
})();

/** Standard base64 with optional padding; XML whitespace is skipped. Null when not base64. */
function decodeBase64(text: Uint8Array): Uint8Array | null {
  const out = new Uint8Array(Math.floor((text.length * 3) / 4) + 3);
  let o = 0;
  let acc = 0;
  let bits = 0;
  let padding = 0;
  for (const c of text) {
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) continue;
    if (c === 0x3d) {
      padding++;
      continue;
    }
    const v = BASE64_VALUES[c]!;
    if (v < 0 || padding > 0) return null;
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  if (padding > 2 || bits >= 6) return null;
  return out.subarray(0, o);
}
