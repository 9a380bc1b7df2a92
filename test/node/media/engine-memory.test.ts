/*
 * The C2PA engine's memory bound (#19/#22). Its wasm memory grows to fit the largest file it has read and never
 * shrinks, by about 3× a JPEG, 2× a PNG and 1–2× an MP4 (measured with padded signed files of 5–50 MiB: a 50 MiB
 * JPEG took it to 153 MiB, past a 128 MB isolate by itself). readWithEngine refuses a read above
 * ENGINE_READ_MAXIMUM_BYTES before copying a byte, so reads at the limit, one after another, leave the engine under
 * ENGINE_BOUND. One engine per test file (vitest isolates files), so the figures are this file's reads only.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { crc32 } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { ENGINE_READ_MAXIMUM_BYTES } from "../../../src/catalog/limits";
import { mintDevPki } from "../../../src/dev/pki";
import {
  c2paEngineMemoryBytes,
  EngineReadTooLarge,
  initC2paEngine,
  readWithEngine,
  verifySettingsJson,
} from "../../../src/media/c2pa/engine";
import { C2paSigner } from "../../../src/media/c2pa/signer";
import { verifyManifest } from "../../../src/media/c2pa/verifier";

const require = createRequire(import.meta.url);
const MiB = 1024 * 1024;
/** What a verification may make the engine hold: below signing's ≈ 70 MiB at its 10 MiB limit. */
const ENGINE_BOUND = 44 * MiB;
const fixture = (path: string) => new Uint8Array(readFileSync(new URL(`../../fixtures/${path}`, import.meta.url)));

/** A JPEG or MP4 followed by bytes up to `size` (for an MP4 as one trailing `free` box). */
function padded(file: Uint8Array, size: number, freeBox = false): Uint8Array {
  const out = new Uint8Array(size);
  out.set(file);
  out.fill(0x5a, file.length);
  if (freeBox) {
    new DataView(out.buffer).setUint32(file.length, size - file.length);
    out.set([0x66, 0x72, 0x65, 0x65], file.length + 4);
  }
  return out;
}

/** A PNG of `size` bytes: a private ancillary chunk (`svCp`, with its CRC) inserted before IEND. */
function paddedPng(png: Uint8Array, size: number): Uint8Array {
  const out = new Uint8Array(size);
  const at = png.length - 12; // IEND
  const length = size - png.length - 12;
  out.set(png.subarray(0, at));
  const view = new DataView(out.buffer);
  view.setUint32(at, length);
  out.set([0x73, 0x76, 0x43, 0x70], at + 4);
  out.fill(0x5a, at + 8, at + 8 + length);
  view.setUint32(at + 8 + length, crc32(out.subarray(at + 4, at + 8 + length)));
  out.set(png.subarray(at), at + 12 + length);
  return out;
}

let signedPng: Uint8Array;

beforeAll(async () => {
  const { compile } = WebAssembly as unknown as { compile(bytes: Uint8Array): Promise<WebAssembly.Module> };
  initC2paEngine(await compile(readFileSync(require.resolve("@contentauth/c2pa-wasm/c2pa.wasm"))));
  const pki = await mintDevPki();
  const signer = new C2paSigner({ certChainPem: pki.signerChainPem, privateKey: pki.signerKeyPkcs8Pem, tsa: null });
  const result = await signer.signEmbedded({
    bytes: fixture("media/sample.png"),
    plan: { title: "a.png", media_type: "image/png", intent: { kind: "opened" }, assertions: [] },
  });
  if (result.status !== "signed") throw new Error(JSON.stringify(result));
  signedPng = result.bytes;
}, 60_000);

async function read(mediaType: string, bytes: Uint8Array): Promise<string> {
  const reader = await readWithEngine(mediaType, bytes, verifySettingsJson(null));
  try {
    return (JSON.parse(reader.json()) as { active_manifest?: string }).active_manifest ?? "";
  } finally {
    reader.free();
  }
}

describe("the C2PA engine's read limit", () => {
  it("refuses a read above the limit before the engine copies a byte, and the verifier passes the refusal on", async () => {
    const before = c2paEngineMemoryBytes();
    const big = padded(fixture("c2pa/adobe-20220124-CA.jpg"), ENGINE_READ_MAXIMUM_BYTES + 1);
    await expect(read("image/jpeg", big)).rejects.toBeInstanceOf(EngineReadTooLarge);
    // Not an unreadable manifest: the request is refused (verify-service maps it to 413).
    await expect(verifyManifest({ bytes: big, mediaType: "image/jpeg" }, null, () => undefined)).rejects.toBeInstanceOf(EngineReadTooLarge);
    const mp4 = padded(fixture("c2pa/video1.mp4"), ENGINE_READ_MAXIMUM_BYTES + 1, true);
    await expect(read("video/mp4", mp4)).rejects.toBeInstanceOf(EngineReadTooLarge);
    expect(c2paEngineMemoryBytes()).toBe(before);
  });

  it.each([
    ["JPEG", "image/jpeg"],
    ["PNG", "image/png"],
    ["MP4", "video/mp4"],
  ])(
    "a %s at the limit is read whole and leaves the engine under the bound (after the reads before it)",
    async (_name, mediaType) => {
      const limit = ENGINE_READ_MAXIMUM_BYTES;
      const bytes =
        mediaType === "image/png"
          ? paddedPng(signedPng, limit)
          : padded(fixture(mediaType === "video/mp4" ? "c2pa/video1.mp4" : "c2pa/adobe-20220124-CA.jpg"), limit, mediaType === "video/mp4");
      expect(bytes.length).toBe(limit);
      expect(await read(mediaType, bytes)).not.toBe("");
      const held = c2paEngineMemoryBytes();
      expect(held, `${mediaType}: ${(held / MiB).toFixed(1)} MiB`).toBeLessThanOrEqual(ENGINE_BOUND);
    },
    60_000,
  );
});
