import { corrupt, u8, u16be } from "./bytes";
import { isC2paJumbfBox } from "./c2pa-markers";
import { type Detection, detection, positiveInt } from "./detection";

/** JPEG (ITU T.81): SOI, then marker segments; the entropy-coded data after SOS is scanned for the next marker. */
export function isJpeg(b: Uint8Array): boolean {
  return b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff;
}

const SOF = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

export function parseJpeg(b: Uint8Array): Detection {
  let pos = 2;
  let width: number | null = null;
  let height: number | null = null;
  let bitDepth: number | null = null;
  let chroma: string | null = null;
  let sawFrame = false;
  let c2pa = false;
  for (;;) {
    if (pos >= b.length) corrupt("JPEG ends before EOI");
    if (b[pos] !== 0xff) corrupt(`JPEG marker expected at ${pos}`);
    // Any number of 0xFF fill bytes may precede a marker.
    while (pos < b.length && b[pos] === 0xff) pos++;
    const marker = u8(b, pos);
    pos++;
    if (marker === 0xd9) break; // EOI
    if (marker === 0xd8 || marker === 0x00) corrupt("unexpected JPEG marker");
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) continue; // RSTn, TEM: no length
    const length = u16be(b, pos);
    if (length < 2 || pos + length > b.length) corrupt("JPEG segment overruns the file");
    const start = pos + 2;
    const end = pos + length;
    if (SOF.has(marker) && !sawFrame) {
      sawFrame = true;
      bitDepth = u8(b, start);
      height = u16be(b, start + 1);
      width = u16be(b, start + 3);
      const components = u8(b, start + 5);
      if (start + 6 + components * 3 > end) corrupt("JPEG frame header too short");
      chroma = jpegChroma(b, start + 6, components);
    }
    // APP11 carrying JUMBF: CI 'JP', instance (2), sequence (4), then the superbox header.
    if (marker === 0xeb && length >= 2 + 8 + 8 && b[start] === 0x4a && b[start + 1] === 0x50) {
      if (isC2paJumbfBox(b, start + 8, end)) c2pa = true;
    }
    pos = end;
    if (marker === 0xda) {
      if (!sawFrame) corrupt("JPEG scan before frame header");
      // Entropy-coded data: FF 00 is a stuffed byte, FF D0–D7 restart markers; anything else ends the scan.
      for (;;) {
        // Only 0xFF bytes matter here: jump to the next one natively (a byte loop in JS costs ~7 ms on 1 MP).
        const ff = b.indexOf(0xff, pos);
        pos = ff < 0 ? b.length : ff;
        if (pos + 1 >= b.length) corrupt("JPEG scan data truncated");
        if (b[pos] === 0xff) {
          const next = b[pos + 1]!;
          if (next === 0x00 || (next >= 0xd0 && next <= 0xd7) || next === 0xff) {
            pos += next === 0xff ? 1 : 2;
            continue;
          }
          break;
        }
        pos++;
      }
    }
  }
  if (!sawFrame) corrupt("JPEG without a frame header");
  return detection("image/jpeg", "jpeg", {
    width: positiveInt(width ?? 0),
    height: positiveInt(height ?? 0),
    bit_depth: bitDepth,
    chroma_subsampling: chroma,
    has_c2pa_manifest: c2pa,
  });
}

/** Chroma subsampling from the luma and first chroma component's sampling factors. */
function jpegChroma(b: Uint8Array, at: number, components: number): string | null {
  if (components === 1) return "4:0:0";
  if (components !== 3) return null;
  const factors = (i: number) => {
    const v = b[at + i * 3 + 1]!;
    return [v >> 4, v & 15] as const;
  };
  const [hy, vy] = factors(0);
  const [hc, vc] = factors(1);
  const [hc2, vc2] = factors(2);
  if (hc !== hc2 || vc !== vc2 || hc === 0 || vc === 0) return null;
  const h = hy / hc;
  const v = vy / vc;
  if (h === 1 && v === 1) return "4:4:4";
  if (h === 2 && v === 1) return "4:2:2";
  if (h === 2 && v === 2) return "4:2:0";
  if (h === 4 && v === 1) return "4:1:1";
  if (h === 1 && v === 2) return "4:4:0";
  return null;
}
