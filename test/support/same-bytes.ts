import { expect } from "vitest";

type Typed = ArrayBufferView;

const bytesOf = (v: Typed) => Buffer.from(v.buffer, v.byteOffset, v.byteLength);

/** The first byte offset at which `a` and `b` differ, or -1 when they hold the same bytes. */
export function firstDifference(a: Typed, b: Typed): number {
  const x = bytesOf(a);
  const y = bytesOf(b);
  if (x.equals(y)) return -1;
  const n = Math.min(x.length, y.length);
  // Halve towards the first difference with Buffer.equals rather than a byte-by-byte loop in JS.
  let lo = 0;
  let hi = n;
  while (hi - lo > 64) {
    const mid = (lo + hi) >>> 1;
    if (x.subarray(lo, mid).equals(y.subarray(lo, mid))) lo = mid;
    else hi = mid;
  }
  for (let i = lo; i < hi; i++) if (x[i] !== y[i]) return i;
  return n;
}

/**
 * `expect(actual).toEqual(expected)` for typed arrays (same kind, same length, same bytes), compared with
 * Buffer.equals: vitest's deep equality walks an array element by element, and `hex(...)` on both sides builds a
 * string a byte at a time; on the multi-MiB audio of the watermark tests either took 10-20 s per comparison on the
 * loaded 2-core machine. A byte comparison is at least as strict (it also tells -0 from 0). On a mismatch the message
 * names the first differing byte.
 */
export function expectSameBytes(actual: Typed | undefined, expected: Typed, label = "bytes"): void {
  expect(actual, `${label}: present`).toBeDefined();
  expect(actual!.constructor.name, `${label}: kind`).toBe(expected.constructor.name);
  expect(actual!.byteLength, `${label}: length`).toBe(expected.byteLength);
  const at = firstDifference(actual!, expected);
  expect(at, `${label}: first differing byte (-1: none)`).toBe(-1);
}

/** The opposite: the two differ in at least one byte (or in length). */
export function expectDifferentBytes(actual: Typed, other: Typed, label = "bytes"): void {
  expect(firstDifference(actual, other), `${label}: some byte differs`).not.toBe(-1);
}
