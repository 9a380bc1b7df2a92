// Working memory of the fingerprint kernel.
//
// Fixed-size buffers are static (`memory.data`). Everything from the heap base up is one work area that each
// computation lays out afresh for itself (a chunk of input pixels first, then its own buffers): the kernel never
// calls the runtime's allocator, and one computation runs at a time. A wasm memory never shrinks, so the work
// areas are kept proportional to one row (or column) of the image, never to the whole image.

export { reserve, workBase } from "../shared/memory";

/** 16-aligned size. */
export function align16(n: u64): u64 {
  return (n + 15) & ~(<u64>15);
}

/**
 * Composites one RGBA pixel (little-endian `r | g<<8 | b<<16 | a<<24`) onto white and returns `r | g<<8 | b<<16`.
 * Per channel `(c*a + 255*(255-a)) / 255`, rounded as PIL's `paste(img, mask=alpha)` onto a white RGB image does
 * (its BLEND macro: `t = v + 128; ((t >> 8) + t) >> 8`), which is what iscc-sdk's transparency fill runs.
 */
@inline
export function compositeWhite(p: u32): u32 {
  const a = p >>> 24;
  if (a == 255) return p & 0xffffff;
  if (a == 0) return 0xffffff;
  const back = 255 * (255 - a);
  let t = (p & 255) * a + back + 128;
  const r = ((t >> 8) + t) >> 8;
  t = ((p >> 8) & 255) * a + back + 128;
  const g = ((t >> 8) + t) >> 8;
  t = ((p >> 16) & 255) * a + back + 128;
  const b = ((t >> 8) + t) >> 8;
  return r | (g << 8) | (b << 16);
}
