import { corrupt, fourcc, startsWith, u8, u32be } from "./bytes";
import { type Detection, detection, positiveInt } from "./detection";

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

export function isPng(b: Uint8Array): boolean {
  return startsWith(b, SIGNATURE);
}

let crcTable: Uint32Array | null = null;
function crc32(b: Uint8Array, start: number, end: number): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let c = 0xffffffff;
  for (let i = start; i < end; i++) c = crcTable[(c ^ b[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/**
 * PNG: IHDR first, chunks up to IEND. CRCs are checked for the critical chunks except the image data (IDAT),
 * which would make inspection of large images cost a full pass for no structural gain.
 */
export function parsePng(b: Uint8Array): Detection {
  let pos = 8;
  let width = 0;
  let height = 0;
  let bitDepth: number | null = null;
  let sawHeader = false;
  let sawData = false;
  let c2pa = false;
  for (;;) {
    if (pos + 12 > b.length) corrupt("PNG ends before IEND");
    const length = u32be(b, pos);
    if (length > 0x7fffffff || pos + 12 + length > b.length) corrupt("PNG chunk overruns the file");
    const type = fourcc(b, pos + 4);
    if (!/^[A-Za-z]{4}$/.test(type)) corrupt("PNG chunk type is not four letters");
    const data = pos + 8;
    // Critical chunks must have a good CRC (as libpng requires); ancillary ones are skipped on error by
    // decoders, so a bad one is not corruption.
    const critical = type.charCodeAt(0) < 0x61;
    if (critical && type !== "IDAT" && crc32(b, pos + 4, data + length) !== u32be(b, data + length)) {
      corrupt(`PNG ${type} chunk CRC mismatch`);
    }
    if (!sawHeader) {
      if (type !== "IHDR" || length !== 13) corrupt("PNG does not start with IHDR");
      sawHeader = true;
      width = u32be(b, data);
      height = u32be(b, data + 4);
      bitDepth = u8(b, data + 8);
      if (width === 0 || height === 0) corrupt("PNG with zero dimension");
    } else if (type === "IHDR") corrupt("second IHDR");
    if (type === "IDAT") sawData = true;
    if (type === "caBX") c2pa = true;
    pos = data + length + 4;
    if (type === "IEND") break;
  }
  if (!sawData) corrupt("PNG without image data");
  return detection("image/png", "png", {
    width: positiveInt(width),
    height: positiveInt(height),
    bit_depth: bitDepth,
    has_c2pa_manifest: c2pa,
  });
}
