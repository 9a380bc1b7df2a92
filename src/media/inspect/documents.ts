import { corrupt, indexOf, latin1, startsWith, u16le, u32le, u64le } from "./bytes";
import { type Detection, detection } from "./detection";

// ---- PDF

/** Acrobat accepts the header anywhere in the first 1024 bytes; so do we. */
export function isPdf(b: Uint8Array): boolean {
  return indexOf(b, "%PDF-", 0, Math.min(b.length, 1024 + 5)) >= 0;
}

/**
 * PDF: header, and an end-of-file marker in the last 1 KiB (a cut-off PDF loses it). The object structure is
 * not parsed; a C2PA manifest is an embedded file with AFRelationship /C2PA_Manifest, found by a byte search.
 */
export function parsePdf(b: Uint8Array): Detection {
  if (indexOf(b, "%%EOF", Math.max(0, b.length - 1024)) < 0) corrupt("PDF without %%EOF at the end");
  const c2pa = indexOf(b, "/C2PA_Manifest") >= 0;
  return detection("application/pdf", "pdf", { has_c2pa_manifest: c2pa });
}

// ---- ZIP and ZIP-based packages

export function isZip(b: Uint8Array): boolean {
  return startsWith(b, [0x50, 0x4b, 0x03, 0x04]) || startsWith(b, [0x50, 0x4b, 0x05, 0x06]);
}

const MAX_NAME = 1024;
const MAX_ENTRIES = 100_000;

interface Entry {
  name: string;
  method: number;
  compressedSize: number;
  localHeader: number;
}

/** End of central directory: searched backwards over the last 64 KiB + 22 bytes (the comment's maximum). */
function centralDirectory(b: Uint8Array): { offset: number; size: number; count: number } {
  const floor = Math.max(0, b.length - 22 - 0xffff);
  for (let p = b.length - 22; p >= floor; p--) {
    if (b[p] !== 0x50 || b[p + 1] !== 0x4b || b[p + 2] !== 0x05 || b[p + 3] !== 0x06) continue;
    const commentLength = u16le(b, p + 20);
    if (p + 22 + commentLength > b.length) continue;
    let count = u16le(b, p + 10);
    let size = u32le(b, p + 12);
    let offset = u32le(b, p + 16);
    if (count === 0xffff || size === 0xffffffff || offset === 0xffffffff) {
      // ZIP64: the locator sits just before the classic record.
      const locator = p - 20;
      if (locator < 0 || !startsWith(b, [0x50, 0x4b, 0x06, 0x07], locator)) corrupt("ZIP64 locator missing");
      const record = u64le(b, locator + 8);
      if (!startsWith(b, [0x50, 0x4b, 0x06, 0x06], record)) corrupt("ZIP64 end record missing");
      count = u64le(b, record + 32);
      size = u64le(b, record + 40);
      offset = u64le(b, record + 48);
    }
    if (offset + size > p) corrupt("ZIP central directory overruns the file");
    return { offset, size, count };
  }
  corrupt("ZIP end of central directory not found (truncated?)");
}

function entries(b: Uint8Array): Entry[] {
  const cd = centralDirectory(b);
  const out: Entry[] = [];
  let pos = cd.offset;
  const end = cd.offset + cd.size;
  if (cd.count > cd.size / 46) corrupt("ZIP entry count exceeds the central directory");
  for (let i = 0; i < cd.count; i++) {
    if (pos + 46 > end || !startsWith(b, [0x50, 0x4b, 0x01, 0x02], pos)) corrupt("ZIP central directory entry malformed");
    const nameLength = u16le(b, pos + 28);
    const extra = u16le(b, pos + 30);
    const comment = u16le(b, pos + 32);
    const next = pos + 46 + nameLength + extra + comment;
    if (next > end) corrupt("ZIP central directory entry overruns the directory");
    const localHeader = u32le(b, pos + 42);
    if (localHeader !== 0xffffffff && localHeader + 30 > cd.offset) corrupt("ZIP local header lies outside the archive");
    // Names beyond the first MAX_ENTRIES are validated but not kept: classification needs only a few.
    if (out.length < MAX_ENTRIES) {
      out.push({
        name: latin1(b, pos + 46, pos + 46 + nameLength, MAX_NAME),
        method: u16le(b, pos + 10),
        compressedSize: u32le(b, pos + 20),
        localHeader,
      });
    }
    pos = next;
  }
  return out;
}

/** The stored bytes of an entry (only used for the short, uncompressed `mimetype` member). */
function storedContent(b: Uint8Array, e: Entry, max: number): string | null {
  if (e.method !== 0 || e.localHeader === 0xffffffff || !startsWith(b, [0x50, 0x4b, 0x03, 0x04], e.localHeader)) return null;
  const data = e.localHeader + 30 + u16le(b, e.localHeader + 26) + u16le(b, e.localHeader + 28);
  if (data + e.compressedSize > b.length) corrupt("ZIP member overruns the file");
  return latin1(b, data, data + e.compressedSize, max);
}

const MIMETYPES: Record<string, string> = {
  "application/epub+zip": "application/epub+zip",
  "application/vnd.oasis.opendocument.text": "application/vnd.oasis.opendocument.text",
};
const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

/**
 * ZIP: the central directory is read (names only). Packages are told apart by their members: EPUB and ODF
 * by a first, stored `mimetype` member; OOXML by `[Content_Types].xml` plus `word/` (DOCX) or a `.fdseq`
 * part (OpenXPS); PyTorch checkpoints by `data.pkl`; Keras 3 by `config.json` + `model.weights.h5`.
 * Anything else is a generic `application/x-zip-based` file.
 */
export function parseZip(b: Uint8Array): Detection {
  const list = entries(b);
  const names = new Set(list.map((e) => e.name));
  const c2pa = names.has("META-INF/content_credential.c2pa");
  let mediaType = "application/x-zip-based";
  const first = list[0];
  const mimetype = first?.name === "mimetype" ? storedContent(b, first, 128) : null;
  if (mimetype !== null && MIMETYPES[mimetype.trim()]) mediaType = MIMETYPES[mimetype.trim()]!;
  else if (names.has("[Content_Types].xml")) {
    if (list.some((e) => e.name.startsWith("word/"))) mediaType = DOCX;
    else if (list.some((e) => e.name.toLowerCase().endsWith(".fdseq"))) mediaType = "application/oxps";
  } else if (list.some((e) => e.name === "data.pkl" || e.name.endsWith("/data.pkl"))) mediaType = "application/x-pytorch";
  else if (names.has("config.json") && names.has("model.weights.h5")) mediaType = "application/x-keras";
  const also = mediaType === "application/x-zip-based" ? [] : ["application/x-zip-based"];
  return detection(mediaType, "zip", { has_c2pa_manifest: c2pa }, also);
}
