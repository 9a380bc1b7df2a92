/**
 * Node stand-ins for what the streaming signer uses in workerd: `crypto.DigestStream` (backed by node:crypto)
 * and an in-memory R2 bucket with multipart uploads (equal-part rule and abort included), plus generators of
 * large valid MP4 and WAV files.
 */
import { createHash, randomFillSync } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";

/** Installs crypto.DigestStream (SHA-256 only) when the runtime lacks it. */
export function installDigestStream(): void {
  const c = (globalThis as unknown as { crypto: { DigestStream?: unknown } }).crypto;
  if (c.DigestStream) return;
  class NodeDigestStream extends WritableStream<Uint8Array> {
    readonly digest: Promise<ArrayBuffer>;
    constructor(algorithm: string) {
      const hash = createHash(algorithm.replace("-", "").toLowerCase());
      let resolve!: (b: ArrayBuffer) => void;
      const digest = new Promise<ArrayBuffer>((r) => (resolve = r));
      super({
        write: (chunk) => void hash.update(chunk),
        close: () => {
          const d = hash.digest();
          resolve(d.buffer.slice(d.byteOffset, d.byteOffset + d.byteLength));
        },
      });
      this.digest = digest;
    }
  }
  Object.defineProperty(c, "DigestStream", { value: NodeDigestStream, configurable: true });
}

interface Stored {
  bytes: Uint8Array;
  etag: string;
}

/** An in-memory R2 bucket: put/head/get (with etag conditions and a chunked body) and multipart uploads. */
export class MemoryBucket {
  readonly objects = new Map<string, Stored>();
  readonly aborted: string[] = [];
  readonly openUploads = new Set<string>();
  #n = 0;

  put(key: string, bytes: Uint8Array): Stored {
    const stored = { bytes, etag: `etag-${++this.#n}` };
    this.objects.set(key, stored);
    return stored;
  }

  async head(key: string) {
    const o = this.objects.get(key);
    return o ? { key, etag: o.etag, size: o.bytes.length } : null;
  }

  async get(key: string, options?: { onlyIf?: { etagMatches?: string } }) {
    const o = this.objects.get(key);
    if (!o) return null;
    if (options?.onlyIf?.etagMatches && options.onlyIf.etagMatches !== o.etag) return { key, etag: o.etag, size: o.bytes.length };
    let at = 0;
    const chunk = 1 << 16;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (at >= o.bytes.length) return controller.close();
        controller.enqueue(o.bytes.slice(at, at + chunk));
        at += chunk;
      },
    });
    return { key, etag: o.etag, size: o.bytes.length, body };
  }

  async createMultipartUpload(key: string) {
    const uploadId = `upload-${++this.#n}`;
    const parts = new Map<number, Uint8Array>();
    this.openUploads.add(uploadId);
    const bucket = this;
    return {
      key,
      uploadId,
      async uploadPart(partNumber: number, value: Uint8Array) {
        parts.set(partNumber, value.slice());
        return { partNumber, etag: `part-${partNumber}` };
      },
      async abort() {
        bucket.openUploads.delete(uploadId);
        bucket.aborted.push(key);
      },
      async complete(uploaded: { partNumber: number }[]) {
        const list = uploaded.map((p) => parts.get(p.partNumber)!);
        const size = list[0]!.length;
        if (list.slice(0, -1).some((p) => p.length !== size || p.length < 5 * 1024 * 1024)) throw new Error("R2: unequal or small parts");
        const bytes = new Uint8Array(list.reduce((n, p) => n + p.length, 0));
        let at = 0;
        for (const p of list) {
          bytes.set(p, at);
          at += p.length;
        }
        bucket.openUploads.delete(uploadId);
        return bucket.put(key, bytes);
      },
    };
  }
}

const FIXTURES = join(import.meta.dirname, "..", "..", "fixtures", "media");

/** sample.mp4 followed by a top-level `mdat` of `extra` random bytes (no sample offset moves: valid BMFF). */
export function largeMp4(extra: number): Uint8Array {
  const base = new Uint8Array(readFileSync(join(FIXTURES, "sample.mp4")));
  const out = new Uint8Array(base.length + 8 + extra);
  out.set(base);
  const view = new DataView(out.buffer);
  view.setUint32(base.length, 8 + extra);
  out.set([0x6d, 0x64, 0x61, 0x74], base.length + 4);
  fillRandom(out.subarray(base.length + 8));
  return out;
}

/** A 16-bit stereo 48 kHz PCM WAV of `dataBytes` (even) random sample bytes. */
export function largeWav(dataBytes: number): Uint8Array {
  const out = new Uint8Array(44 + dataBytes);
  const v = new DataView(out.buffer);
  const tag = (at: number, s: string) =>
    out.set(
      [...s].map((c) => c.charCodeAt(0)),
      at,
    );
  tag(0, "RIFF");
  v.setUint32(4, out.length - 8, true);
  tag(8, "WAVE");
  tag(12, "fmt ");
  v.setUint32(16, 16, true);
  v.setUint16(20, 1, true);
  v.setUint16(22, 2, true);
  v.setUint32(24, 48000, true);
  v.setUint32(28, 48000 * 4, true);
  v.setUint16(32, 4, true);
  v.setUint16(34, 16, true);
  tag(36, "data");
  v.setUint32(40, dataBytes, true);
  fillRandom(out.subarray(44));
  return out;
}

function fillRandom(view: Uint8Array) {
  for (let at = 0; at < view.length; at += 65536) randomFillSync(view.subarray(at, Math.min(view.length, at + 65536)));
}
