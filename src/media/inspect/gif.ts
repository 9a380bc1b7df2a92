import { corrupt, latin1, startsWith, u8, u16le } from "./bytes";
import { type Detection, detection, positiveInt, seconds } from "./detection";

export function isGif(b: Uint8Array): boolean {
  return startsWith(b, "GIF87a") || startsWith(b, "GIF89a");
}

/** Skips data sub-blocks (size byte, then that many bytes) up to the zero terminator; returns the next offset. */
function skipSubBlocks(b: Uint8Array, pos: number): number {
  for (;;) {
    const size = u8(b, pos);
    pos += 1 + size;
    if (size === 0) return pos;
    if (pos > b.length) corrupt("GIF sub-block overruns the file");
  }
}

/** GIF87a/89a: logical screen, then extensions and images up to the trailer (0x3B). */
export function parseGif(b: Uint8Array): Detection {
  const width = u16le(b, 6);
  const height = u16le(b, 8);
  const packed = u8(b, 10);
  let pos = 13;
  if (packed & 0x80) pos += 3 * 2 ** ((packed & 7) + 1);
  let frames = 0;
  let delayCentiseconds = 0;
  let c2pa = false;
  for (;;) {
    const block = u8(b, pos);
    if (block === 0x3b) break;
    if (block === 0x21) {
      const label = u8(b, pos + 1);
      pos += 2;
      if (label === 0xf9 && u8(b, pos) >= 4) delayCentiseconds += u16le(b, pos + 2);
      if (label === 0xff && u8(b, pos) === 11 && latin1(b, pos + 1, pos + 9) === "C2PA_GIF") c2pa = true;
      pos = skipSubBlocks(b, pos);
    } else if (block === 0x2c) {
      const local = u8(b, pos + 9);
      pos += 10;
      if (local & 0x80) pos += 3 * 2 ** ((local & 7) + 1);
      u8(b, pos); // LZW minimum code size
      pos = skipSubBlocks(b, pos + 1);
      frames++;
    } else {
      corrupt(`unknown GIF block 0x${block.toString(16)}`);
    }
  }
  if (frames === 0) corrupt("GIF without an image");
  return detection("image/gif", "gif", {
    width: positiveInt(width),
    height: positiveInt(height),
    duration_seconds: frames > 1 ? seconds(delayCentiseconds / 100) : null,
    bit_depth: 8,
    has_c2pa_manifest: c2pa,
  });
}
