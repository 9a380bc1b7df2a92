/**
 * Equivalence of the vectorised fingerprint kernel (wasm/fingerprint in wasm SIMD: PDQ's luma and column filters,
 * ISCC's gray conversion and horizontal dot products) with the scalar kernel before it: the codes below were
 * computed by the scalar build (commit 5150cfa) on seeded images whose sizes hit every vector tail. PDQ's filters
 * are f32 and ISCC's sums are integers: lane by lane the same operations in the same order, so equal, not close.
 * ISCC's trim box, taken as the whole image when every border shows it (bordersDiffer), is checked against the
 * box PIL's getbbox gives (a plain reference below) on images with uniform, partial and transparent borders.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { IsccImageFingerprinter, PdqFingerprinter } from "../../../src/media/fingerprint";
import { bordersDiffer } from "../../../src/media/fingerprint/kernel";
import type { FingerprintResult, RgbaImage } from "../../../src/media/types";
import { prng } from "../../support/prng";
import { GOLDEN_SIZES, goldenImage } from "./fingerprint.simd-golden.cases";

const WASM = join(import.meta.dirname, "..", "..", "..", "wasm", "build", "fingerprint.wasm");
const module = new (WebAssembly.Module as unknown as new (b: Uint8Array) => WebAssembly.Module)(readFileSync(WASM));
const iscc = new IsccImageFingerprinter(module);
const iscc256 = new IsccImageFingerprinter(module, { bitLength: 256 });
const pdq = new PdqFingerprinter(module);

/** [image, ISCC 64, ISCC 256, PDQ hash, PDQ quality] from the scalar kernel. */
const SCALAR: [string, string, string, string, number][] = [
  [
    "5x5 noise",
    "ISCC:EEA2OT4SLDJKGLND",
    "ISCC:EED2OT4SLDJKGLNDJ2PSLMNFI5NEMT4SLDJKELND5WPSLMNFIRNENWY",
    "6b5acb7294a5348d97a464d99b261b066cdbcb626b5acb7294a5348d93a4e4d9",
    45,
  ],
  [
    "7x9 alpha",
    "ISCC:EEA22LOFJ4HRWBYZ",
    "ISCC:EED22LOFJ4HRWBYZLFNYXHQ6GYHDCLOFJ4HRWBYY5VNYXHQ6GYGDDGY",
    "912e9386e387c6d3618dc6739b26398c64d9398c9e70392c7c786c796ed134da",
    85,
  ],
  [
    "31x17 photo",
    "ISCC:EEAYA6OTOTYR35IS",
    "ISCC:EEDYA6OTOTYR35ISADZKN2PCHLVK26OTOTYBL5AA7TZKN2HCHLVAD6A",
    "027eeff79e855e8896f061a9e58c07cfa8174290d017ef5cb04748173e65994f",
    22,
  ],
  [
    "63x64 noise",
    "ISCC:EEA5LCBK2Q26EPXG",
    "ISCC:EED5LCBK2Q26EPXGVILFLKDKYR66ZCJK2Q26EPXGGYJFLKDKYR66Y7A",
    "f876f4b968e47bf0247303ed06323079d23e68379fbed023bd563215aaaa2528",
    100,
  ],
  [
    "65x33 bordered",
    "ISCC:EEA2URM4OOPHFFLQ",
    "ISCC:EED2URM4OOPHFFLQKWFDTZR44UVOQRM4OOPHFFLURKFDTZR44UVOYFI",
    "4d582aab7ffeaaab7ffeaaabfffeaaab31cb5554800155540001d55480012aab",
    100,
  ],
  [
    "129x97 alpha",
    "ISCC:EEAZWNBFHVTTUIPS",
    "ISCC:EEDZWNBFHVTTUIPSG5UEU6WHMVB6CNJFHVTTUIPSNFUEU6WPOVB6DQQ",
    "05e2dc0a0e76fee81ff08ee3505257f2e047a495b84204ae2aeafc4efad27556",
    100,
  ],
  [
    "333x211 photo",
    "ISCC:EEAZU5JOPDJIBWMX",
    "ISCC:EEDZU5JOPDJIBWMXGXVFZ4NEBGZS45JOPDJIBWMW6HVFZ4NEAGZS5YY",
    "6cd178a4f8f9f0f001fd4bc0d29794b4adc79f34aac5fb805025148f553a5557",
    100,
  ],
  [
    "640x400 photo",
    "ISCC:EEAZ7NMSG4PTOYCA",
    "ISCC:EEDZ7NMSG4PTOYCAH5VCIZZ7N7AIBNMSG4PTPYCA5JVCI3Z7N7AIBVI",
    "d553a1351d8bd20a9557a22cc06b80003bbbd70595033ff67bfc3ef66aa45556",
    100,
  ],
  [
    "1056x663 photo",
    "ISCC:EEA54VBRKFKXDH4S",
    "ISCC:EED54VBRKFKXDH4SXSUWFIVK4I7SK5FRKFKXDH4SVTUWHIVK4I7SKWA",
    "fff00aa5a00f08255dcfaa25f8caa085541a20a47efcf7475b55d545bbc6e097",
    100,
  ],
  [
    "517x1203 bordered",
    "ISCC:EEA5MK2WHZLHYAJO",
    "ISCC:EED5MK2WHZLHYAJOVVKK2XFN7ABVIK2WHZLHYAJ7KRKK2XFN7ABVZKI",
    "a1ad030eada94b0bfcb4430b1654fcf1c12b7e7ef0d285872b2d879f2b2d524a",
    100,
  ],
  [
    "1283x130 noise",
    "ISCC:EEAYBMPLL6NUVG2I",
    "ISCC:EEDYBMPLL6NUVG2IAFR5NPVWTQ3JDMPLL6NUVE2IANR5NPRWSQ3JCJQ",
    "905d112915791189847c3529957c15b9157d35a9856f3df9117d3579616bebc6",
    100,
  ],
  [
    "8200x7 photo",
    "ISCC:EEAZKODFHJVDLVGT",
    "ISCC:EEDZKODFHJVDLVGTFJYMW5GUNKU2OODFHJVDLVGXENYMW5GUNKU2ORQ",
    "5aa3f03ea07c0fc1a55c8a51cfc008c96aeaf51691157736383ff52e5aa3f03e",
    100,
  ],
];

const value = (r: FingerprintResult) => (r.status === "computed" ? r.value : `failed: ${r.message}`);

describe("fingerprint kernel: vectorised = scalar", () => {
  it("computes the scalar kernel's ISCC and PDQ codes on every generated size", () => {
    const got = GOLDEN_SIZES.map(([w, h, kind], i) => {
      const image = goldenImage(w, h, kind, 1000 + i);
      const p = pdq.compute(image);
      return [
        `${w}x${h} ${kind}`,
        value(iscc.compute(image)),
        value(iscc256.compute(image)),
        value(p),
        p.status === "computed" ? p.quality : -1,
      ];
    });
    expect(got).toEqual(SCALAR);
  });
});

/** PIL's getbbox of the pixels unlike the top-left one, after compositing onto white (mem.ts compositeWhite). */
function referenceBox(image: RgbaImage) {
  const { width, height, data } = image;
  const white = (i: number) => {
    const a = data[i + 3]!;
    const blend = (c: number) => {
      const t = c * a + 255 * (255 - a) + 128;
      return ((t >> 8) + t) >> 8;
    };
    return a === 255
      ? data[i]! | (data[i + 1]! << 8) | (data[i + 2]! << 16)
      : blend(data[i]!) | (blend(data[i + 1]!) << 8) | (blend(data[i + 2]!) << 16);
  };
  const ref = white(0);
  let [x0, y0, x1, y1] = [width, height, -1, -1];
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      if (white((y * width + x) * 4) !== ref) {
        x0 = Math.min(x0, x);
        x1 = Math.max(x1, x);
        y0 = Math.min(y0, y);
        y1 = Math.max(y1, y);
      }
  return x1 < 0 ? { x: 0, y: 0, width, height } : { x: x0, y: y0, width: x1 + 1 - x0, height: y1 + 1 - y0 };
}

describe("ISCC trim box without the scan", () => {
  it("equals PIL's getbbox, whole image or not, on borders uniform, partly uniform, or transparent", () => {
    const rand = prng(77);
    let whole = 0;
    let scanned = 0;
    for (let n = 0; n < 300; n++) {
      const width = 1 + Math.floor(rand() * 40);
      const height = 1 + Math.floor(rand() * 40);
      const data = new Uint8Array(width * height * 4);
      const bg = [Math.floor(rand() * 256), Math.floor(rand() * 256), Math.floor(rand() * 256)];
      // a background with a random rectangle of content, sometimes touching some borders, sometimes with alpha
      // each edge of the content touches its border with probability 0.6: all four, three, two...
      const rx0 = rand() < 0.6 ? 0 : Math.floor(rand() * width);
      const ry0 = rand() < 0.6 ? 0 : Math.floor(rand() * height);
      const rx1 = rand() < 0.6 ? width - 1 : rx0 + Math.floor(rand() * (width - rx0));
      const ry1 = rand() < 0.6 ? height - 1 : ry0 + Math.floor(rand() * (height - ry0));
      const alpha = rand() < 0.3;
      for (let y = 0, i = 0; y < height; y++)
        for (let x = 0; x < width; x++, i += 4) {
          const inside = x >= rx0 && x <= rx1 && y >= ry0 && y <= ry1 && rand() < 0.9;
          data.set(inside ? [Math.floor(rand() * 256), Math.floor(rand() * 256), Math.floor(rand() * 256)] : bg, i);
          data[i + 3] = alpha && rand() < 0.5 ? Math.floor(rand() * 256) : 255;
        }
      const image = { width, height, data };
      const r = iscc.normalize(image);
      if (r.status !== "normalized") throw new Error(r.status);
      expect(r.trim, `image ${n} (${width}x${height})`).toEqual(referenceBox(image));
      if (bordersDiffer(image)) {
        whole++;
        expect(r.trim).toEqual({ x: 0, y: 0, width, height });
      } else scanned++;
    }
    expect(whole).toBeGreaterThan(10);
    expect(scanned).toBeGreaterThan(10);
  });
});
