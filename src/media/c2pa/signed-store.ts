/**
 * What the signer reads back from its own output: the active manifest's label in a manifest store, and whether
 * bytes already carry a store (a small reader of its own; jumbf.ts is the strict one for untrusted input).
 */

/**
 * Label of the active (last) manifest of a JUMBF manifest store: the store superbox ("jumb" labelled "c2pa")
 * holds one "jumb" per manifest, each starting with a "jumd" description box whose label is the manifest URN.
 */
export function activeManifestLabel(store: Uint8Array): string | null {
  const top = readBox(store, 0);
  if (top?.type !== "jumb") return null;
  let last: string | null = null;
  let offset = top.contentStart;
  let first = true;
  while (offset < top.end) {
    const box = readBox(store, offset, top.end);
    if (!box) break;
    if (first) {
      first = false; // the store's own description box
    } else if (box.type === "jumb") {
      const desc = readBox(store, box.contentStart, box.end);
      if (desc?.type === "jumd") last = jumdLabel(store, desc.contentStart, desc.end) ?? last;
    }
    offset = box.end;
  }
  return last;
}

function readBox(buf: Uint8Array, offset: number, limit = buf.length) {
  if (offset + 8 > limit) return null;
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  let size = view.getUint32(offset);
  const type = String.fromCharCode(buf[offset + 4]!, buf[offset + 5]!, buf[offset + 6]!, buf[offset + 7]!);
  let header = 8;
  if (size === 1) {
    if (offset + 16 > limit) return null;
    size = Number(view.getBigUint64(offset + 8));
    header = 16;
  } else if (size === 0) {
    size = limit - offset;
  }
  if (size < header || offset + size > limit) return null;
  return { type, contentStart: offset + header, end: offset + size };
}

/** jumd: 16-byte type UUID, 1 toggles byte, then (if toggles bit 1) a NUL-terminated UTF-8 label. */
function jumdLabel(buf: Uint8Array, start: number, end: number): string | null {
  const toggles = buf[start + 16];
  if (toggles === undefined || (toggles & 0x02) === 0) return null;
  const labelStart = start + 17;
  let i = labelStart;
  while (i < end && buf[i] !== 0) i++;
  return new TextDecoder().decode(buf.subarray(labelStart, i));
}

/** JUMBF description box type of a C2PA manifest store: "c2pa" + 0011-0010-8000-00AA00389B71. */
const MANIFEST_STORE_UUID = new Uint8Array([
  0x63, 0x32, 0x70, 0x61, 0x00, 0x11, 0x00, 0x10, 0x80, 0x00, 0x00, 0xaa, 0x00, 0x38, 0x9b, 0x71,
]);

/** Whether the bytes contain a C2PA manifest store (a cheap scan; a false positive only costs a slower path). */
export function containsManifestStore(bytes: Uint8Array): boolean {
  const n = MANIFEST_STORE_UUID.length;
  for (let i = bytes.indexOf(0x63); i >= 0 && i + n <= bytes.length; i = bytes.indexOf(0x63, i + 1)) {
    let j = 1;
    while (j < n && bytes[i + j] === MANIFEST_STORE_UUID[j]) j++;
    if (j === n) return true;
  }
  return false;
}
