import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { extractManifestStore } from "../../../src/media/c2pa/jumbf-carriers";
import { sniff } from "../../../src/media/inspect";

/**
 * Bounded work on SVG and other XML (#22): inspection reads a 64 KiB prefix, the root tag's attributes and a
 * 256-byte tail; the C2PA carrier search is a byte scan. A `width` of 16,000 digits took 8.5 s in the former length
 * pattern (it split a digit run every way before failing); each input below answers in milliseconds, bounded at
 * 2 s with a wide margin for a loaded machine.
 */
const SVG = new Uint8Array(readFileSync(join(import.meta.dirname, "..", "..", "fixtures", "media", "sample.svg")));
const encode = (s: string) => new TextEncoder().encode(s);
const BOUND_MS = 2000;

/** The campaign's "slice repeated" break of sample.svg: its last 73 bytes (a circle, the close) 1,001 times. */
function sliceRepeated(): Uint8Array {
  const slice = SVG.subarray(155, 228);
  const out = new Uint8Array(155 + 73 * 1001);
  out.set(SVG.subarray(0, 155));
  for (let k = 0; k <= 1000; k++) out.set(slice, 155 + k * 73);
  return out;
}

const digits = "1".repeat(60_000);
const HOSTILE: [string, Uint8Array][] = [
  ["a slice repeated 1,000 times (73 KB)", sliceRepeated()],
  ["a width of 60,000 digits then a letter", encode(`<svg xmlns="http://www.w3.org/2000/svg" width="${digits}x" height="4"></svg>`)],
  ["a width of 60,000 digits", encode(`<svg xmlns="http://www.w3.org/2000/svg" width="${digits}" height="4"></svg>`)],
  ["a height of 60,000 digits after a point", encode(`<svg xmlns="http://www.w3.org/2000/svg" height=".${digits}x"></svg>`)],
  ["a viewBox of 30,000 numbers", encode(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="${"1 ".repeat(30_000)}"></svg>`)],
  ["30,000 attributes without values", encode(`<svg xmlns="http://www.w3.org/2000/svg"${" a".repeat(30_000)}></svg>`)],
  ["attributes with unclosed quotes", encode(`<svg xmlns="http://www.w3.org/2000/svg"${' a="1'.repeat(12_000)}></svg>`)],
  ["a name after 60,000 spaces", encode(`<svg${" ".repeat(60_000)}a${" ".repeat(2000)}></svg>`)],
  ["60,000 processing instructions", encode(`${"<?x?>".repeat(60_000)}<svg></svg>`)],
  ["an unclosed comment", encode(`<!--${"-".repeat(200_000)}`)],
  ["a doctype of nested brackets", encode(`<!DOCTYPE svg ${"[".repeat(60_000)}><svg></svg>`)],
  ["60,000 closing tags", encode(`<svg xmlns="http://www.w3.org/2000/svg">${"</svg>".repeat(60_000)}`)],
  ["60,000 manifest openings", encode(`<svg xmlns="http://www.w3.org/2000/svg">${"<c2pa:manifest>".repeat(60_000)}</svg>`)],
  ["60,000 manifest closings", encode(`<svg><c2pa:manifest>${"</c2pa:manifest".repeat(60_000)}</svg>`)],
];

describe("SVG and XML inspection does bounded work", () => {
  for (const [name, bytes] of HOSTILE) {
    it(`${name}: inspected and searched for a manifest in < ${BOUND_MS} ms`, () => {
      const t = performance.now();
      const sniffed = sniff(bytes);
      const located = extractManifestStore(bytes, "image/svg+xml");
      expect(performance.now() - t).toBeLessThan(BOUND_MS);
      expect(["detected", "unknown", "corrupt"]).toContain(sniffed.status);
      expect(["ok", "not_found", "malformed"]).toContain(located.status);
    });
  }

  it("still reads the sizes a document states in user units or px", () => {
    const sized = (attrs: string) => {
      const s = sniff(encode(`<svg xmlns="http://www.w3.org/2000/svg" ${attrs}></svg>`));
      return s.status === "detected" ? [s.detection.facts.width, s.detection.facts.height] : s.status;
    };
    expect(sized('width="64" height=" 48px "')).toEqual([64, 48]);
    expect(sized('width="64.4" height=".5"')).toEqual([64, 1]);
    expect(sized('width="50%" height="3cm" viewBox="0 0 20 10"')).toEqual([20, 10]);
    expect(sized(`width="${digits}" viewBox="0 0 20 10"`)).toEqual([20, 10]); // too long to be a length: not read
  });
});
