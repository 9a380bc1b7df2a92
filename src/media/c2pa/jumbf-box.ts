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

export const MEDIA_TYPE_SIDECAR = "application/c2pa";
/** ISO/IEC 19566-5 UUID suffix shared by the JUMBF/C2PA content types: 0011-0010-8000-00AA00389B71. */
export const JUMBF_UUID_SUFFIX = [0x00, 0x11, 0x00, 0x10, 0x80, 0x00, 0x00, 0xaa, 0x00, 0x38, 0x9b, 0x71];
export const TOGGLE_LABEL = 0x02;
export const TOGGLE_ID = 0x04;
export const TOGGLE_SIGNATURE = 0x08;
export const TOGGLE_PRIVATE = 0x10;

export const ok = <T extends object>(value: T) => ({ status: "ok" as const, ...value });
export const notFound = (message: string): NotFound => ({ status: "not_found", message });
export const malformed = (message: string): Malformed => ({ status: "malformed", message });

// ---------------------------------------------------------------------------------------------------------------
// Boxes

export interface BoxHeader {
  type: string;
  /** Start of the box header. */
  start: number;
  /** Start of the content. */
  contentStart: number;
  /** End of the box (exclusive). */
  end: number;
}

export function u32(b: Uint8Array, at: number): number {
  return b[at]! * 0x100_0000 + ((b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!);
}

export function fourcc(b: Uint8Array, at: number): string {
  return String.fromCharCode(b[at]!, b[at + 1]!, b[at + 2]!, b[at + 3]!);
}

/** The box starting at `start` that must end by `limit`; an error text when it does not fit. */
export function boxAt(b: Uint8Array, start: number, limit: number): BoxHeader | string {
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
export function jumbfUuidType(b: Uint8Array, at: number): string | null {
  for (let i = 0; i < 12; i++) if (b[at + 4 + i] !== JUMBF_UUID_SUFFIX[i]) return null;
  for (let i = 0; i < 4; i++) {
    const c = b[at + i]!;
    if (c < 0x20 || c > 0x7e) return null;
  }
  return fourcc(b, at);
}

export const labelDecoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Parses a `jumd` box's content b[start, end). */
export function parseDescription(b: Uint8Array, start: number, end: number): JumbfDescription | string {
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
export const STORE_LABEL = "c2pa";

/** Whether the box at `box` is a `jumb` whose description box is that of a C2PA manifest store. */
export function isManifestStoreBox(b: Uint8Array, box: BoxHeader): boolean {
  return box.type === "jumb" && isC2paDescriptionAt(b, box.contentStart, box.end);
}

/**
 * Whether b[at, limit) starts with a `jumd` box labelled "c2pa". Constant time (it reads a fixed number of
 * bytes), so that scanning candidates stays linear.
 */
export function isC2paDescriptionAt(b: Uint8Array, at: number, limit = b.length): boolean {
  const desc = boxAt(b, at, limit);
  if (typeof desc === "string" || desc.type !== "jumd") return false;
  const label = desc.contentStart + 17;
  if (label + 5 > desc.end || (b[desc.contentStart + 16]! & TOGGLE_LABEL) === 0) return false;
  return b[label] === 0x63 && b[label + 1] === 0x32 && b[label + 2] === 0x70 && b[label + 3] === 0x61 && b[label + 4] === 0;
}

export function isStoreDescription(d: JumbfDescription): boolean {
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

export function parseSuperbox(b: Uint8Array, box: BoxHeader, depth: number): JumbfSuperbox | string {
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
