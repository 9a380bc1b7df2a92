/**
 * Review of the FLAC scanner's end check (src/media/c2pa/flac.ts): a valid FLAC whose last frame holds many byte
 * pairs that look like a frame sync (0xFF 0xF8/0xF9, common in a large frame of noise or verbatim samples) is still
 * a whole FLAC; the scanner must not refuse it as truncated because those false syncs pushed the real frame start
 * out of the candidates it keeps.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { FlacScanner } from "../../../src/media/c2pa/flac";
import { largeFlac } from "../../support/flac-media";
import { installDigestStream } from "./stream-support";

beforeAll(() => installDigestStream());

function crc16(b: Uint8Array, from: number, to: number): number {
  let c = 0;
  for (let i = from; i < to; i++) {
    c ^= b[i]! << 8;
    for (let k = 0; k < 8; k++) c = c & 0x8000 ? ((c << 1) ^ 0x8005) & 0xffff : (c << 1) & 0xffff;
  }
  return c;
}

/** `flac` with `pairs` false frame syncs written into its last frame's samples (its CRC-16 recomputed). */
function withFalseSyncs(flac: Uint8Array, pairs: number): Uint8Array {
  const out = flac.slice();
  let start = out.length - 4;
  while (!(out[start] === 0xff && out[start + 1] === 0xf8 && out[start + 2] === 0xca && out[start + 3] === 0x18)) start--;
  for (let p = 0; p < pairs; p++) out.set([0xff, 0xf8], start + 16 + p * 4);
  const crc = crc16(out, start, out.length - 2);
  out.set([crc >> 8, crc & 0xff], out.length - 2);
  return out;
}

async function scan(bytes: Uint8Array) {
  const scanner = new FlacScanner(bytes.length, { sign: true });
  for (let at = 0; at < bytes.length; at += 65_536) await scanner.push(bytes.subarray(at, at + 65_536));
  return scanner.finish();
}

describe("the FLAC scanner's last-frame check", () => {
  it.each([10, 100, 1000])("accepts a whole FLAC whose last frame holds %i false frame syncs", async (pairs) => {
    const flac = withFalseSyncs(largeFlac(200 * 1024, 13), pairs);
    await expect(scan(flac)).resolves.toHaveLength(32);
  });

  it("still refuses that FLAC cut inside its last frame", async () => {
    const flac = withFalseSyncs(largeFlac(200 * 1024, 13), 1000);
    await expect(scan(flac.subarray(0, flac.length - 1000))).rejects.toThrow(/CRC-16/);
  });
});

describe("a FLAC with an ID3v2 tag and no C2PA store (as uploads carry)", () => {
  it("is walked, not refused, whatever frames the tag holds (only a store beside unchecked frames is refused)", async () => {
    const flac = largeFlac(100 * 1024, 19);
    const frames = [
      [0x54, 0x49, 0x54, 0x32, 0, 0, 0, 0, 0, 0], // empty TIT2
      [0x54, 0x49, 0x54, 0x32, 0, 0, 0, 5, 0, 0x40, 1, 3, 0x61, 0x62, 0x63], // grouped TIT2
      [0x43, 0x4f, 0x4d, 0x4d, 0, 0, 0, 2, 0, 0, 3, 0x65], // short COMM
      [0x54, 0x49, 0x54, 0x32, 0, 0, 0, 3, 0, 0, 9, 0x61, 0x62], // text of unknown encoding
    ].flat();
    const bytes = new Uint8Array(10 + frames.length + flac.length);
    bytes.set([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, frames.length]);
    bytes.set(frames, 10);
    bytes.set(flac, 10 + frames.length);
    const scanner = new FlacScanner(bytes.length, { sign: false });
    await scanner.push(bytes);
    expect(Buffer.from(await scanner.finish())).toEqual(Buffer.from(await crypto.subtle.digest("SHA-256", bytes)));
    expect(scanner.store).toBeNull();
  });
});
