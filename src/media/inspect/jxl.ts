import { corrupt, fourcc, LsbBitReader, startsWith } from "./bytes";
import { isC2paJumbfContent } from "./c2pa-markers";
import { type Detection, detection, positiveInt } from "./detection";
import { boxes } from "./isobmff-box";

/** JPEG XL (ISO/IEC 18181): a bare codestream (FF 0A) or the box container that starts with a 'JXL ' box. */
const CONTAINER_SIGNATURE = [0x00, 0x00, 0x00, 0x0c, 0x4a, 0x58, 0x4c, 0x20, 0x0d, 0x0a, 0x87, 0x0a];

export function isJxl(b: Uint8Array): boolean {
  return (b.length >= 2 && b[0] === 0xff && b[1] === 0x0a) || startsWith(b, CONTAINER_SIGNATURE);
}

const RATIOS: ReadonlyArray<readonly [number, number]> = [
  [1, 1],
  [1, 1],
  [12, 10],
  [4, 3],
  [3, 2],
  [16, 9],
  [5, 4],
  [2, 1],
];

/** SizeHeader and the start of ImageMetadata (18181-1 A.2, A.6). Bit depth is read only when no extra fields precede it. */
function codestreamHeader(b: Uint8Array, start: number, end: number): { width: number; height: number; bits: number | null } {
  if (end - start < 3 || b[start] !== 0xff || b[start + 1] !== 0x0a) corrupt("JPEG XL codestream signature missing");
  const r = new LsbBitReader(b, start + 2, end);
  const dimension = () => {
    const selector = r.u(2);
    return r.u([9, 13, 18, 30][selector]!) + 1;
  };
  const small = r.flag();
  const height = small ? (r.u(5) + 1) * 8 : dimension();
  const ratio = r.u(3);
  let width: number;
  if (ratio === 0) width = small ? (r.u(5) + 1) * 8 : dimension();
  else width = Math.floor((height * RATIOS[ratio]![0]) / RATIOS[ratio]![1]);
  let bits: number | null = null;
  try {
    if (r.flag())
      bits = 8; // all_default
    else if (!r.flag()) {
      // no extra fields: BitDepth follows directly
      const float = r.flag();
      const selector = r.u(2);
      const value = float ? [32, 16, 24][selector] : [8, 10, 12][selector];
      bits = value ?? r.u(6) + 1;
    }
  } catch {
    // A codestream that ends inside ImageMetadata still gave its size.
  }
  return { width, height, bits };
}

export function parseJxl(b: Uint8Array): Detection {
  let header: { width: number; height: number; bits: number | null };
  let c2pa = false;
  if (b[0] === 0xff) {
    header = codestreamHeader(b, 0, b.length);
  } else {
    const top = boxes(b, 0, b.length, 0);
    const ftyp = top[1];
    if (ftyp?.type !== "ftyp" || ftyp.end - ftyp.body < 4 || fourcc(b, ftyp.body) !== "jxl ") corrupt("JPEG XL container without jxl ftyp");
    c2pa = top.some((x) => x.type === "jumb" && isC2paJumbfContent(b, x.body, x.end));
    const jxlc = top.find((x) => x.type === "jxlc");
    const jxlp = top.find((x) => x.type === "jxlp");
    if (jxlc) header = codestreamHeader(b, jxlc.body, jxlc.end);
    else if (jxlp)
      header = codestreamHeader(b, jxlp.body + 4, jxlp.end); // a 4-byte part index comes first
    else corrupt("JPEG XL container without codestream");
  }
  return detection("image/jxl", "jxl", {
    width: positiveInt(header.width),
    height: positiveInt(header.height),
    bit_depth: header.bits,
    has_c2pa_manifest: c2pa,
  });
}
