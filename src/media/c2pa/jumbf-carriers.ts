/**
 * Where a manifest store sits in an asset (JPEG APP11, PNG caBX, GIF, SVG, a sidecar, or whole in any other
 * container): extractManifestStore and the instance lists of the verifier. See jumbf.ts for the whole.
 */
import {
  boxAt,
  type ExtractManifestStoreResult,
  fourcc,
  isC2paDescriptionAt,
  isManifestStoreBox,
  type ManifestStoreCarrier,
  MEDIA_TYPE_SIDECAR,
  malformed,
  notFound,
  ok,
  u32,
} from "./jumbf-box";

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
    // As the engine reads them (c2pa-rs): APP11 segments before the first scan only, whatever their CI; a store
    // only one of the two readers sees would be checked (integrity, OCSP, anchoring, signer) in place of the one
    // the engine verified.
    if (marker === 0xeb && !sawScan && end - start >= 8) {
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
