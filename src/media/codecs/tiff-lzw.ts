/*
 * TIFF LZW (compression 5: MSB-first codes of 9 to 12 bits, the width growing one code early, 256 clears, 257 ends)
 * decoded in bounded work. It replaces utif2's decoder, which follows a string's prefix links without a bound: a
 * code past the 4,096-entry table (a table grown without a clear, or a corrupt code) reads `undefined` links and
 * loops for ever, holding the isolate. A 1.8 KB TIFF with bits flipped in its strip stalled `POST /v1/verify`
 * (#22, found by the campaign's hostile media). Pure function, no I/O.
 */

const CLEAR = 256;
const END = 257;
const TABLE = 4096;

/**
 * Decodes the LZW strip `data[offset, offset + length)` into `out` from `outOffset` and returns the position after
 * the last byte written. Invariant: the work is linear in `length` plus the bytes written, never more than `out`
 * holds; a corrupt code (one not yet in the table) ends the strip there, as a truncated strip does, so the rows it
 * did not reach keep their zeros.
 */
export function decodeTiffLzw(data: Uint8Array, offset: number, length: number, out: Uint8Array, outOffset: number): number {
  const prefix = new Int16Array(TABLE);
  const suffix = new Uint8Array(TABLE);
  const first = new Uint8Array(TABLE);
  const size = new Uint16Array(TABLE);
  for (let c = 0; c < 256; c++) {
    prefix[c] = -1;
    suffix[c] = c;
    first[c] = c;
    size[c] = 1;
  }
  const end = Math.min(offset + Math.max(0, length), data.length) * 8;
  let bit = offset * 8;
  let width = 9;
  let next = 258;
  let previous = -1;
  let o = outOffset;
  while (bit + width <= end && o < out.length) {
    // Up to 12 bits spanning at most three bytes, most significant bit first.
    const at = bit >>> 3;
    const window = (data[at]! << 16) | ((data[at + 1] ?? 0) << 8) | (data[at + 2] ?? 0);
    const code = (window >>> (24 - (bit & 7) - width)) & ((1 << width) - 1);
    bit += width;
    if (code === END) break;
    if (code === CLEAR) {
      width = 9;
      next = 258;
      previous = -1;
      continue;
    }
    if (previous < 0) {
      if (code > 255) break; // the first code after a clear must be a literal
    } else if (code < next) {
      if (next < TABLE) add(previous, first[code]!);
    } else if (code === next && next < TABLE) {
      add(previous, first[previous]!);
    } else break; // a code the table does not hold yet: corrupt
    // Written back to front along the prefix links: each entry's prefix is an earlier entry, so this ends.
    const n = size[code]!;
    let c = code;
    for (let k = o + n - 1; c >= 0; k--) {
      if (k < out.length) out[k] = suffix[c]!;
      c = prefix[c]!;
    }
    o = Math.min(o + n, out.length);
    previous = code;
  }
  return o;

  function add(head: number, last: number): void {
    prefix[next] = head;
    suffix[next] = last;
    first[next] = first[head]!;
    size[next] = size[head]! + 1;
    next++;
    if (next + 1 === 1 << width && width < 12) width++;
  }
}
