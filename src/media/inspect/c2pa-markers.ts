/**
 * Where a C2PA manifest store sits in each container (C2PA specification, "Embedding manifests into
 * various file formats", cross-checked against the c2pa-rs asset handlers). Detection is best effort: it
 * finds the carrier and checks its label, it does not parse or validate the store.
 *
 * - JPEG: APP11 segments holding JUMBF (`JP` common identifier) whose superbox description is `c2pa`.
 * - PNG: a `caBX` chunk.
 * - RIFF (WebP, WAV, AVI): a top-level `C2PA` chunk.
 * - ISOBMFF (MP4, MOV, HEIF, AVIF): a top-level `uuid` box with the C2PA UUID below, purpose `manifest`.
 * - JPEG XL container: a top-level `jumb` box whose description label is `c2pa`.
 * - GIF: an application extension with identifier `C2PA_GIF`.
 * - TIFF/DNG: IFD tag 52545 (0xCD41).
 * - MP3, FLAC (c2pa-rs prepends an ID3v2 tag to FLAC): an ID3v2 `GEOB` frame with a C2PA MIME type.
 * - SVG: a `<c2pa:manifest>` element.
 * - PDF: an embedded file with `/AFRelationship /C2PA_Manifest`.
 * - ZIP-based: the member `META-INF/content_credential.c2pa`.
 * - OpenType: a `C2PA` table.
 */

/** `uuid` box extended type for the C2PA box in ISOBMFF. */
export const C2PA_BMFF_UUID = Uint8Array.of(0xd8, 0xfe, 0xc3, 0xd6, 0x1b, 0x0e, 0x48, 0x3c, 0x92, 0x97, 0x58, 0x28, 0x87, 0x7e, 0xc4, 0x81);

/** JUMBF content type UUID of a C2PA manifest store superbox ("c2pa" + ISO 19566-5 suffix). */
export const C2PA_STORE_JUMBF_UUID = Uint8Array.of(
  0x63,
  0x32,
  0x70,
  0x61,
  0x00,
  0x11,
  0x00,
  0x10,
  0x80,
  0x00,
  0x00,
  0xaa,
  0x00,
  0x38,
  0x9b,
  0x71,
);

/**
 * Whether b[start, end) begins with a JUMBF description box (`jumd`) of a C2PA manifest store: its type
 * UUID is the store UUID, or its label is `c2pa`.
 */
export function isC2paJumbfContent(b: Uint8Array, start: number, end: number): boolean {
  const stop = Math.min(end, b.length);
  if (start < 0 || start + 25 > stop) return false;
  if (b[start + 4] !== 0x6a || b[start + 5] !== 0x75 || b[start + 6] !== 0x6d || b[start + 7] !== 0x64) return false; // 'jumd'
  let uuid = true;
  for (let i = 0; i < 16; i++) if (b[start + 8 + i] !== C2PA_STORE_JUMBF_UUID[i]) uuid = false;
  if (uuid) return true;
  const toggles = b[start + 24]!;
  if ((toggles & 0x03) !== 0x03) return false;
  const label = start + 25;
  return (
    label + 5 <= stop && b[label] === 0x63 && b[label + 1] === 0x32 && b[label + 2] === 0x70 && b[label + 3] === 0x61 && b[label + 4] === 0
  );
}

/**
 * Whether b[start, end) is a whole JUMBF superbox (`jumb`) of a C2PA manifest store (box header included).
 */
export function isC2paJumbfBox(b: Uint8Array, start: number, end: number): boolean {
  if (start < 0 || start + 8 > Math.min(end, b.length)) return false;
  if (b[start + 4] !== 0x6a || b[start + 5] !== 0x75 || b[start + 6] !== 0x6d || b[start + 7] !== 0x62) return false; // 'jumb'
  const size = ((b[start]! << 24) >>> 0) + ((b[start + 1]! << 16) | (b[start + 2]! << 8) | b[start + 3]!);
  const header = size === 1 ? 16 : 8;
  return isC2paJumbfContent(b, start + header, end);
}
