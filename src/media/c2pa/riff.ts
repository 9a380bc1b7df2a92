/**
 * RIFF WAVE for the streaming signer: the manifest store goes into a `C2PA` chunk appended at the end (where
 * c2pa-rs puts it too), bound by a `c2pa.hash.data` whose one exclusion is that chunk. The RIFF size field in the
 * header grows by the chunk, and the hash covers the OUTPUT bytes (new size field included): the signer knows
 * the chunk's size before it hashes (stream-sign.ts sizes the store first).
 */
import { MANIFEST_STORE_MAXIMUM_BYTES } from "../../catalog/limits";

/** More chunks than any real WAV has (they are a handful). */
const MAXIMUM_CHUNKS = 100_000;

import { fourcc } from "./jumbf-box";
import { BodyPeeks, type Sha256Stream, StreamMediaError, sha256Stream } from "./stream-hash";

/**
 * The `c2pa.hash.data` assertion: everything but the manifest store's bytes [start, start + length) (the WAV
 * manifest chunk; FLAC's store in its ID3 tag, flac.ts). `padBytes` zero bytes in
 * its `pad` field make the store one byte longer (stream-sign.ts keeps the store's length even: a C2PA chunk with a
 * RIFF pad byte reads as `assertion.dataHash.mismatch` to c2pa-wasm 0.13.3, though not to c2pa-node).
 */
export function dataHashBinding(hash: Uint8Array, start: number, length: number, padBytes = 0) {
  return {
    label: "c2pa.hash.data",
    data: {
      exclusions: [{ start, length }],
      name: "jumbf manifest",
      alg: "sha256",
      hash: Array.from(hash),
      pad: new Array<number>(padBytes).fill(0),
    },
  };
}

/** Bytes the `C2PA` chunk carrying a store of `storeLength` bytes takes (header, store, pad to even). */
export function riffChunkLength(storeLength: number): number {
  return 8 + storeLength + (storeLength & 1);
}

/** The `C2PA` chunk carrying `store`, to append after the last chunk. */
export function riffManifestChunk(store: Uint8Array): Uint8Array {
  const chunk = new Uint8Array(riffChunkLength(store.length));
  chunk.set([0x43, 0x32, 0x50, 0x41], 0); // "C2PA"
  new DataView(chunk.buffer).setUint32(4, store.length, true);
  chunk.set(store, 8);
  return chunk;
}

const le32 = (b: Uint8Array, at: number) => (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16)) + b[at + 3]! * 0x100_0000;

/**
 * Walks a RIFF WAVE file fed in order, hashing what the data hash covers. Sign mode (`newRiffSize` given):
 * `push` returns the bytes with the RIFF size field rewritten to `newRiffSize`, and a `C2PA` chunk already in the
 * file is refused. Verify mode: the `C2PA` chunk is excluded, its store kept in `store` and its range in
 * `exclusion`. Invariants: memory bounded (a chunk header, plus in verify mode the store); throws StreamMediaError
 * for a file that is not RIFF WAVE, whose size field disagrees with its length, or that ends inside a chunk.
 */
export class RiffScanner {
  store: Uint8Array | null = null;
  exclusion: { start: number; length: number } | null = null;
  readonly #total: number;
  readonly #newRiffSize: number | null;
  readonly #hash: Sha256Stream;
  #pos = 0;
  #chunkStart = 0;
  readonly #head = new Uint8Array(12);
  #chunks = 0;
  #headLen = 0;
  #need = 12;
  #remaining = 0;
  #capture: Uint8Array | null = null;
  #captured = 0;
  #inManifest = false;
  readonly #originalField = new Uint8Array(4);

  /** The first bytes of the chunk types asked for in `options.peek` (e.g. `fmt `, `data`), and their sizes. */
  readonly peeks: BodyPeeks;

  constructor(total: number, options: { newRiffSize?: number; peek?: Record<string, number> }, hash: Sha256Stream = sha256Stream()) {
    this.peeks = new BodyPeeks(options.peek);
    this.#total = total;
    this.#newRiffSize = options.newRiffSize ?? null;
    this.#hash = hash;
    if (total % 2 !== 0) throw new StreamMediaError("malformed", "a RIFF file has an even length");
    if (total - 8 > 0xffff_ffff) throw new StreamMediaError("unsupported", "RIFF files are limited to 4 GiB");
  }

  /** The manifest chunk's store once all of it was read (before the file's end when it is not the last chunk). */
  get capturedStore(): Uint8Array | null {
    return this.#capture && this.#captured === this.#capture.length ? this.#capture : null;
  }

  async push(input: Uint8Array): Promise<Uint8Array> {
    let bytes = input;
    const from = this.#pos + this.#headLen; // absolute offset of input[0]
    if (this.#newRiffSize !== null && from < 8) {
      // Rewrite the RIFF size field (absolute bytes 4..7) in a copy; keep the original for the header check.
      bytes = input.slice();
      const field = new Uint8Array(4);
      new DataView(field.buffer).setUint32(0, this.#newRiffSize, true);
      for (let i = 0; i < 4; i++) {
        const at = 4 + i - from;
        if (at >= 0 && at < bytes.length) {
          this.#originalField[i] = bytes[at]!;
          bytes[at] = field[i]!;
        }
      }
    }
    let at = 0;
    while (at < bytes.length) {
      if (this.#remaining > 0) {
        const n = Math.min(this.#remaining, bytes.length - at);
        const part = bytes.subarray(at, at + n);
        this.peeks.take(part);
        if (this.#capture && this.#inManifest) {
          const room = Math.min(n, this.#capture.length - this.#captured);
          this.#capture.set(part.subarray(0, room), this.#captured);
          this.#captured += room;
        } else if (!this.#inManifest) await this.#hash.update(part);
        at += n;
        this.#remaining -= n;
        this.#pos += n;
        continue;
      }
      if (this.#headLen === 0) this.#chunkStart = this.#pos;
      const n = Math.min(this.#need - this.#headLen, bytes.length - at);
      this.#head.set(bytes.subarray(at, at + n), this.#headLen);
      this.#headLen += n;
      at += n;
      if (this.#headLen === this.#need) await this.#header();
    }
    return bytes;
  }

  async finish(): Promise<Uint8Array> {
    if (this.#headLen > 0 || this.#remaining > 0 || this.#pos !== this.#total || this.#need === 12) {
      throw new StreamMediaError("malformed", `the file ends inside a chunk (${this.#pos + this.#headLen} of ${this.#total} bytes)`);
    }
    if (this.#capture) this.store = this.#capture;
    return this.#hash.digest();
  }

  async #header(): Promise<void> {
    const h = this.#head;
    if (this.#need === 12) {
      if (fourcc(h, 0) !== "RIFF" || fourcc(h, 8) !== "WAVE") throw new StreamMediaError("malformed", "not a RIFF WAVE file");
      // In sign mode the field was already rewritten in the output bytes: check the original value.
      const declared = le32(this.#newRiffSize === null ? h.subarray(4, 8) : this.#originalField, 0);
      if (declared !== this.#total - 8) {
        throw new StreamMediaError("malformed", `the RIFF size field says ${declared + 8} bytes, the file has ${this.#total} (truncated?)`);
      }
      await this.#hash.update(h.slice(0, 12));
      this.#pos = 12;
      this.#headLen = 0;
      this.#need = 8;
      return;
    }
    const id = fourcc(h, 0);
    const size = le32(h, 4);
    const length = 8 + size + (size & 1);
    // A file of millions of empty chunks is refused, not walked for minutes.
    if (++this.#chunks > MAXIMUM_CHUNKS) throw new StreamMediaError("unsupported", `more than ${MAXIMUM_CHUNKS} chunks`);
    if (this.#chunkStart + length > this.#total) {
      throw new StreamMediaError(
        "malformed",
        `chunk ${JSON.stringify(id)} at ${this.#chunkStart} runs past the end of the file (truncated?)`,
      );
    }
    this.#inManifest = id === "C2PA";
    if (this.#inManifest) {
      if (this.#newRiffSize !== null) throw new StreamMediaError("unsupported", "the file already carries a C2PA manifest chunk");
      if (this.#capture) throw new StreamMediaError("malformed", "two C2PA manifest chunks");
      if (size > MANIFEST_STORE_MAXIMUM_BYTES) throw new StreamMediaError("malformed", `C2PA chunk of ${size} bytes`);
      this.#capture = new Uint8Array(size);
      this.exclusion = { start: this.#chunkStart, length };
    } else {
      await this.#hash.update(h.slice(0, 8));
    }
    this.#pos = this.#chunkStart + 8;
    this.#remaining = length - 8;
    this.peeks.begin(id, size);
    this.#headLen = 0;
  }
}

/**
 * A WAV's duration in seconds (null when unknown), as the in-memory inspector reads it (inspect/riff.ts): the `data`
 * chunk's whole sample frames (block align) over the sample rate, not over the header's byte rate, which can say
 * anything (a lying one would under-state, and under-price, the recording); the byte rate only when those are 0.
 */
export function wavDurationSeconds(fmt: Uint8Array | undefined, dataBytes: number | undefined): number | null {
  if (!fmt || fmt.length < 12 || dataBytes === undefined) return null;
  const sampleRate = le32(fmt, 4);
  const byteRate = le32(fmt, 8);
  const blockAlign = fmt.length >= 14 ? fmt[12]! | (fmt[13]! << 8) : 0;
  if (blockAlign > 0 && sampleRate > 0) return Math.floor(dataBytes / blockAlign) / sampleRate;
  return byteRate > 0 ? dataBytes / byteRate : null;
}
