/**
 * What a JPEG re-encode must carry over from its source: the metadata segments (EXIF, ICC profile, XMP) and
 * roughly its quality. Pure byte work on the marker structure; never throws (a malformed source yields nothing).
 */

const SOI = 0xd8;
const SOS = 0xda;
const APP0 = 0xe0;
const APP1 = 0xe1;
const APP2 = 0xe2;
const DQT = 0xdb;

interface Segment {
  marker: number;
  /** The whole segment: FF, marker, length, payload. */
  bytes: Uint8Array;
  payload: Uint8Array;
}

/** The segments before the first SOS (the header); stops quietly at anything malformed. */
function headerSegments(jpeg: Uint8Array): Segment[] {
  const out: Segment[] = [];
  if (jpeg.length < 4 || jpeg[0] !== 0xff || jpeg[1] !== SOI) return out;
  let i = 2;
  while (i + 4 <= jpeg.length) {
    if (jpeg[i] !== 0xff) return out;
    const marker = jpeg[i + 1]!;
    if (marker === 0xff) {
      i++; // fill byte
      continue;
    }
    if (marker === SOS) return out;
    const length = (jpeg[i + 2]! << 8) | jpeg[i + 3]!;
    if (length < 2 || i + 2 + length > jpeg.length) return out;
    out.push({ marker, bytes: jpeg.subarray(i, i + 2 + length), payload: jpeg.subarray(i + 4, i + 2 + length) });
    i += 2 + length;
  }
  return out;
}

function startsWith(payload: Uint8Array, ascii: string): boolean {
  if (payload.length < ascii.length) return false;
  for (let k = 0; k < ascii.length; k++) if (payload[k] !== ascii.charCodeAt(k)) return false;
  return true;
}

/** EXIF and XMP (APP1) and ICC profile (APP2) segments of `source`, in their original order. */
export function metadataSegments(source: Uint8Array): Uint8Array[] {
  return headerSegments(source)
    .filter(
      (s) =>
        (s.marker === APP1 && (startsWith(s.payload, "Exif\0") || startsWith(s.payload, "http://ns.adobe.com/xap/1.0/\0"))) ||
        (s.marker === APP2 && startsWith(s.payload, "ICC_PROFILE\0")),
    )
    .map((s) => s.bytes);
}

/**
 * `encoded` with `segments` inserted after SOI (and after a leading JFIF APP0 the encoder wrote, which must
 * stay first). Segments already of the same kind in `encoded` are not removed: encoders here write none.
 */
export function withSegments(encoded: Uint8Array, segments: Uint8Array[]): Uint8Array {
  if (segments.length === 0 || encoded.length < 4 || encoded[0] !== 0xff || encoded[1] !== SOI) return encoded;
  let at = 2;
  if (encoded[2] === 0xff && encoded[3] === APP0 && encoded.length >= 6) at = 4 + ((encoded[4]! << 8) | encoded[5]!);
  const extra = segments.reduce((n, s) => n + s.length, 0);
  const out = new Uint8Array(encoded.length + extra);
  out.set(encoded.subarray(0, at), 0);
  let o = at;
  for (const s of segments) {
    out.set(s, o);
    o += s.length;
  }
  out.set(encoded.subarray(at), o);
  return out;
}

// The IJG standard luminance table (ITU-T T.81 K.1), in zigzag order as DQT stores it.
const STANDARD_LUMA_ZIGZAG = [
  16, 11, 12, 14, 12, 10, 16, 14, 13, 14, 18, 17, 16, 19, 24, 40, 26, 24, 22, 22, 24, 49, 35, 37, 29, 40, 58, 51, 61, 60, 57, 51, 56, 55,
  64, 72, 92, 78, 64, 68, 87, 69, 55, 56, 80, 109, 81, 87, 95, 98, 103, 104, 103, 62, 77, 113, 121, 112, 100, 120, 92, 101, 103, 99,
];

/**
 * The IJG quality (1-100) whose scaled standard table best matches the source's first luminance table, or
 * null when the source has no 8-bit DQT. Used to re-encode at about the quality the customer chose.
 */
export function estimateJpegQuality(source: Uint8Array): number | null {
  for (const s of headerSegments(source)) {
    if (s.marker !== DQT || s.payload.length < 65) continue;
    const pq = s.payload[0]! >> 4;
    const tq = s.payload[0]! & 0x0f;
    if (pq !== 0 || tq !== 0) continue;
    const table = s.payload.subarray(1, 65);
    let ratio = 0;
    for (let k = 0; k < 64; k++) ratio += table[k]! / STANDARD_LUMA_ZIGZAG[k]!;
    const scale = (ratio / 64) * 100; // IJG: scale = 5000/q (q<50) or 200-2q (q>=50), in percent
    const q = scale <= 100 ? (200 - scale) / 2 : 5000 / scale;
    return Math.max(1, Math.min(100, Math.round(q)));
  }
  return null;
}
