/**
 * Node stand-ins for what the streaming signer uses in workerd: `crypto.DigestStream` (backed by node:crypto)
 * and an in-memory R2 bucket with multipart uploads (equal-part rule and abort included), plus generators of
 * large valid MP4 and WAV files; and the set-up the streamed signing/verification tests share (engine, dev TSA, dev
 * PKI and signer; signing a large file, scanning a stored one).
 */
import { createHash, randomFillSync } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { type DevPki, mintDevPki } from "../../../src/dev/pki";
import { respondTimestamp } from "../../../src/dev/tsa-responder";
import { initC2paEngine } from "../../../src/media/c2pa/engine";
import { C2paSigner } from "../../../src/media/c2pa/signer";
import { signStreamed } from "../../../src/media/c2pa/stream-sign";
import { scanStored } from "../../../src/media/c2pa/stream-verify";
import { installDevTsa } from "../../../src/media/c2pa/tsa-dev-port";
import type { ManifestPlan } from "../../../src/media/types";
import { wavOf, withMdat } from "../../support/stream-media";

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
  const out = withMdat(base, extra);
  fillRandom(out.subarray(base.length + 8));
  return out;
}

/** A 16-bit stereo 48 kHz PCM WAV of `dataBytes` (even) random sample bytes. */
export function largeWav(dataBytes: number): Uint8Array {
  const out = wavOf(dataBytes);
  fillRandom(out.subarray(44));
  return out;
}

function fillRandom(view: Uint8Array) {
  for (let at = 0; at < view.length; at += 65536) randomFillSync(view.subarray(at, Math.min(view.length, at + 65536)));
}

export const MiB = 1024 * 1024;

/** The bytes as a stream of `size`-byte chunks (1 MiB by default, like an R2 body). */
export function streamOf(bytes: Uint8Array, size = MiB): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.subarray(at, at + size));
      at += size;
    },
  });
}

/** DigestStream, the C2PA engine, the dev TSA, and a fresh dev PKI with its ES256 signer (internal TSA). */
export async function setUpStreamSigning(): Promise<{ pki: DevPki; signer: C2paSigner }> {
  installDigestStream();
  const require = createRequire(import.meta.url);
  const { compile } = WebAssembly as unknown as { compile(bytes: Uint8Array): Promise<WebAssembly.Module> };
  initC2paEngine(await compile(readFileSync(require.resolve("@contentauth/c2pa-wasm/c2pa.wasm"))));
  installDevTsa(respondTimestamp);
  const pki = await mintDevPki({ algorithm: "ES256" });
  const signer = new C2paSigner({
    certChainPem: pki.signerChainPem,
    privateKey: pki.signerKeyPkcs8Pem,
    tsa: { kind: "internal", chainPem: pki.tsaChainPem, keyPkcs8Pem: pki.tsaKeyPkcs8Pem },
  });
  return { pki, signer };
}

/** The plan of a created (trainedAlgorithmicMedia) large file, with a creator. */
export function largePlan(mediaType: string): ManifestPlan {
  return {
    title: `large.${mediaType.split("/")[1]}`,
    media_type: mediaType,
    intent: { kind: "created", digital_source_type: "trainedAlgorithmicMedia" },
    assertions: [],
    creator: { creator_ref: "crref_0123456789abcdef", commitment: "sha256:00ff" },
  };
}

/** `bytes` signed by the streaming signer (largePlan): the signed file, its manifest store and active label. */
export async function signLarge(signer: C2paSigner, bytes: Uint8Array, mediaType: string) {
  const bucket = new MemoryBucket();
  const source = bucket.put("src", bytes);
  const result = await signStreamed({
    bucket: bucket as unknown as R2Bucket,
    source: { key: "src", etag: source.etag },
    outputKey: "out",
    plan: largePlan(mediaType),
    signer,
  });
  if (result.status !== "signed") throw new Error(JSON.stringify(result));
  return { signed: bucket.objects.get("out")!.bytes, store: result.manifest_store, label: result.active_manifest_label };
}

/** The stream's scan of `bytes` stored in a bucket (read only by streaming). */
export async function scanObject(bytes: Uint8Array, mediaType: string) {
  const bucket = new MemoryBucket();
  const stored = bucket.put("obj", bytes);
  return scanStored({ bucket: bucket as unknown as R2Bucket, key: "obj", etag: stored.etag, mediaType });
}
