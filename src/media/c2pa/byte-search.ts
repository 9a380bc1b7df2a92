/**
 * Exact search of a byte string, pivoting on the needle's least common byte. DER and JUMBF are full of 0x30,
 * 0x31, 0x06 and label letters, so scanning for a needle's first byte (a Name starts with 0x30) stops at nearly
 * every position; a rarer pivot byte makes the scan of a manifest store for 30 anchor subjects cheap (#19).
 */

/** Bytes that are common in DER and JUMBF: never chosen as the pivot while another byte is available. */
const COMMON = new Set([0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x0c, 0x13, 0x30, 0x31, 0x55, 0x80, 0xa0, 0x61, 0x65, 0x63, 0x2e]);

/** The first index of `needle` in `haystack`, or -1 (0 for an empty needle). */
export function indexOfBytes(haystack: Uint8Array, needle: Uint8Array): number {
  const n = needle.length;
  if (n === 0) return 0;
  let pivot = 0;
  for (let k = 0; k < n; k++) {
    if (!COMMON.has(needle[k]!)) {
      pivot = k;
      break;
    }
  }
  const byte = needle[pivot]!;
  for (let i = haystack.indexOf(byte, pivot); i >= 0 && i - pivot + n <= haystack.length; i = haystack.indexOf(byte, i + 1)) {
    const start = i - pivot;
    let j = 0;
    while (j < n && haystack[start + j] === needle[j]) j++;
    if (j === n) return start;
  }
  return -1;
}
