import { prng } from "./prng";

/*
 * A valid FLAC of about `bytes` bytes built directly (no encoder): 16-bit stereo 48 kHz, 4096-sample frames of
 * VERBATIM subframes holding seeded noise, each frame with its CRC-8 and CRC-16. Runtime-neutral (the streamed
 * signing tests in Node and in the Workers runtime share it); cheap enough for tens of MiB.
 */

const BLOCK = 4096;
const CHANNELS = 2;
/** Frame header (sync, codes, frame number ≤ 4 bytes, CRC-8), two subframes (type byte + samples), CRC-16. */
const FRAME_BODY = CHANNELS * (1 + BLOCK * 2) + 2;

function crc8(b: Uint8Array, from: number, to: number): number {
  let c = 0;
  for (let i = from; i < to; i++) {
    c ^= b[i]!;
    for (let k = 0; k < 8; k++) c = c & 0x80 ? ((c << 1) ^ 0x07) & 0xff : (c << 1) & 0xff;
  }
  return c;
}

const CRC16 = (() => {
  const t = new Uint16Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n << 8;
    for (let k = 0; k < 8; k++) c = c & 0x8000 ? (c << 1) ^ 0x8005 : c << 1;
    t[n] = c & 0xffff;
  }
  return t;
})();

function crc16(b: Uint8Array, from: number, to: number): number {
  let c = 0;
  for (let i = from; i < to; i++) c = ((c << 8) ^ CRC16[((c >>> 8) ^ b[i]!) & 0xff]!) & 0xffff;
  return c;
}

/** FLAC's UTF-8-like coding of a frame number (up to 2^21 here). */
function frameNumber(n: number): number[] {
  if (n < 0x80) return [n];
  if (n < 0x800) return [0xc0 | (n >> 6), 0x80 | (n & 0x3f)];
  if (n < 0x10000) return [0xe0 | (n >> 12), 0x80 | ((n >> 6) & 0x3f), 0x80 | (n & 0x3f)];
  return [0xf0 | (n >> 18), 0x80 | ((n >> 12) & 0x3f), 0x80 | ((n >> 6) & 0x3f), 0x80 | (n & 0x3f)];
}

/** A FLAC of whole frames, at least `bytes` long (minus less than one frame), seeded noise samples. */
export function largeFlac(bytes: number, seed = 1): Uint8Array {
  const frames = Math.max(1, Math.floor((bytes - 42) / (FRAME_BODY + 8)));
  const out = new Uint8Array(42 + frames * (FRAME_BODY + 8));
  out.set([0x66, 0x4c, 0x61, 0x43, 0x80, 0, 0, 34], 0); // "fLaC", last block: STREAMINFO of 34 bytes
  const info = new DataView(out.buffer, 8, 34);
  info.setUint16(0, BLOCK);
  info.setUint16(2, BLOCK);
  // min/max frame size (24 bits each) left 0: unknown. Sample rate 20 bits, channels - 1 (3), bits - 1 (5), samples (36).
  const samples = frames * BLOCK;
  info.setUint32(10, (48000 << 12) | ((CHANNELS - 1) << 9) | (15 << 4) | Math.floor(samples / 0x1_0000_0000));
  info.setUint32(14, samples >>> 0);
  const rand = prng(seed);
  let at = 42;
  for (let f = 0; f < frames; f++) {
    const start = at;
    // Fixed block size; 4096 samples (code 12), 48 kHz (code 10); independent stereo, 16-bit (code 4).
    const header = [0xff, 0xf8, 0xca, 0x18, ...frameNumber(f)];
    out.set(header, at);
    at += header.length;
    out[at] = crc8(out, start, at);
    at++;
    for (let c = 0; c < CHANNELS; c++) {
      out[at++] = 0x02; // VERBATIM subframe, no wasted bits
      for (let i = 0; i < BLOCK * 2; i += 4) {
        const r = (rand() * 0x1_0000_0000) >>> 0;
        out[at + i] = r & 0xff;
        out[at + i + 1] = (r >>> 8) & 0xff;
        out[at + i + 2] = (r >>> 16) & 0xff;
        out[at + i + 3] = r >>> 24;
      }
      at += BLOCK * 2;
    }
    const crc = crc16(out, start, at);
    out[at++] = crc >> 8;
    out[at++] = crc & 0xff;
  }
  return out.subarray(0, at);
}
