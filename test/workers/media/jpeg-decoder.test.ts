/**
 * Our streaming JPEG decoder inside workerd, through the codec the service uses there (src/media/codecs/workerd.ts:
 * the `.wasm` imported as a module): against MozJPEG's decode of the same files (real photographs in every coding
 * variant of test/fixtures/jpegdec), reduced decodes, the RowSource, and the fallback for what it does not implement.
 * The Node adapter has the full suite (test/node/media/jpeg-decoder.conformance.test.ts).
 */

import mozjpegDecoder from "@jsquash/jpeg/codec/dec/mozjpeg_dec.wasm";
import decodeJpeg, { init as initDecode } from "@jsquash/jpeg/decode";
import type { ImportGlobFunction } from "vite/types/importGlob.d.ts";
import { beforeAll, describe, expect, it } from "vitest";
import { imageCodec } from "../../../src/media/codecs/workerd";
import type { RgbaImage } from "../../../src/media/types";
import { fixture } from "../support/helpers";

declare global {
  interface ImportMeta {
    /** Vite's import.meta.glob, declared as vite/client does (vite/client is not in this project's types). */
    glob: ImportGlobFunction;
  }
}

/** The fixtures of test/fixtures/jpegdec, inlined by Vite as base64 data URLs (only this file loads them). */
const INLINED = import.meta.glob("../../fixtures/jpegdec/*.jpg", { query: "?inline", import: "default", eager: true }) as Record<
  string,
  string
>;
const FIXTURES = Object.fromEntries(
  Object.entries(INLINED).map(([path, url]) => [
    path.slice(path.lastIndexOf("/") + 1),
    Uint8Array.from(atob(url.slice(url.indexOf(",") + 1)), (c) => c.charCodeAt(0)),
  ]),
);

beforeAll(async () => {
  await (initDecode as (m: unknown) => Promise<unknown>)(mozjpegDecoder);
});

async function mozjpeg(bytes: Uint8Array): Promise<RgbaImage> {
  const d = await decodeJpeg(bytes.slice().buffer as ArrayBuffer);
  return { width: d.width, height: d.height, data: new Uint8Array(d.data.buffer, d.data.byteOffset, d.data.length) };
}

function psnr(a: RgbaImage, b: RgbaImage): number {
  expect([a.width, a.height]).toEqual([b.width, b.height]);
  let se = 0;
  for (let i = 0; i < a.data.length; i += 4) for (let c = 0; c < 3; c++) se += (a.data[i + c]! - b.data[i + c]!) ** 2;
  const mse = se / (a.width * a.height * 3);
  return mse === 0 ? 99 : 10 * Math.log10((255 * 255) / mse);
}

describe("the workerd codec's JPEG decode (our streaming decoder)", () => {
  const names = Object.keys(FIXTURES).filter((n) => !n.startsWith("arithmetic"));

  it("found the fixtures", () => {
    expect(names.length).toBeGreaterThanOrEqual(18);
  });

  it.each(names)("%s: PSNR >= 45 dB against MozJPEG", async (name) => {
    const bytes = FIXTURES[name]!;
    const ours = await imageCodec.decode(bytes, "image/jpeg");
    if (ours.status !== "decoded") throw new Error(ours.message);
    expect(psnr(ours.image, await mozjpeg(bytes))).toBeGreaterThanOrEqual(45);
  });

  it("the real photograph, full size, reduced and streamed", async () => {
    const bytes = fixture("photo-bridge.jpg");
    const full = await imageCodec.decode(bytes, "image/jpeg");
    if (full.status !== "decoded") throw new Error(full.message);
    expect(psnr(full.image, await mozjpeg(bytes))).toBeGreaterThanOrEqual(45);
    for (const s of [2, 4, 8] as const) {
      const r = await imageCodec.decodeScaled(bytes, "image/jpeg", s);
      expect(r.status === "decoded" && [r.scale, r.image.width, r.image.height]).toEqual([s, Math.ceil(1600 / s), Math.ceil(1004 / s)]);
    }
    const src = await imageCodec.rowSource(bytes, "image/jpeg");
    if (src.status !== "ready") throw new Error(src.message);
    const parts: Uint8Array[] = [];
    const read = src.source.read({ restart: () => parts.splice(0), rows: (d) => parts.push(d.slice()) }, 1);
    expect(read.status).toBe("read");
    const streamed = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      streamed.set(p, at);
      at += p.length;
    }
    expect(streamed).toEqual(full.image.data);
  });

  it("arithmetic coding: not streamed; decode() falls to MozJPEG, which has no arithmetic decoder either", async () => {
    const bytes = FIXTURES["arithmetic.jpg"]!;
    expect((await imageCodec.rowSource(bytes, "image/jpeg")).status).toBe("unsupported");
    expect((await imageCodec.decode(bytes, "image/jpeg")).status).toBe("failed");
  });

  it("a header claiming 65535 x 65535 is too_large before any allocation", async () => {
    const b = FIXTURES["progressive-420.jpg"]!.slice();
    const sof = b.findIndex((v, i) => v === 0xff && b[i + 1] === 0xc2);
    b.set([0xff, 0xff, 0xff, 0xff], sof + 5);
    expect((await imageCodec.rowSource(b, "image/jpeg")).status).toBe("too_large");
    expect((await imageCodec.decode(b, "image/jpeg")).status).toBe("too_large");
  });
});
