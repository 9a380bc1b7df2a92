/**
 * Streaming C2PA signing of large media (MP4/MOV/M4A, WAV): the asset is never whole in memory. One pass reads
 * the source object from R2, hashes the hard binding (bmff.ts, riff.ts) and copies the bytes into an R2 multipart
 * upload; then the engine signs a manifest store over that binding (C2paSigner.signManifestStore: the engine
 * never sees the asset) and the store is appended as the last box/chunk, where no sample offset moves.
 * WAV's data hash names the manifest chunk's byte range and its header's RIFF size grows by the chunk, so the
 * store is sized first by a signing run over a placeholder binding (the store's size does not depend on the hash
 * value; the COSE signature is padded to a fixed size).
 *
 * FLAC carries its store in an ID3v2 tag BEFORE the audio (flac.ts, as the engine does): the store is sized first
 * the same way, the data hash (tag head + FLAC, the store excluded) computed in a first pass, and the output written
 * in a second pass over the source (tag, store, then the FLAC's bytes unchanged): two reads, never the asset whole.
 *
 * Such an output is checked the same way (stream-verify.ts verifyStreamed), and so is a verification of it.
 */

import { hex } from "../../platform/bytes";
import type { ManifestPlan, SignResult } from "../types";
import { BmffScanner, bmffBinding, bmffManifestBox } from "./bmff";
import { FLAC_STORE_OFFSET, FlacScanner, flacTagHead } from "./flac";
import { dataHashBinding, RiffScanner, riffChunkLength, riffManifestChunk } from "./riff";
import type { HardBinding } from "./signer";
import { forEachChunk, StreamMediaError, sha256Stream } from "./stream-hash";

/** The containers the streaming signer carries a manifest in. */
export type StreamedContainer = "bmff" | "riff" | "flac";

/** Media types the streaming signer carries a manifest in, with their container. */
export const STREAMED_MEDIA_TYPES: Readonly<Record<string, StreamedContainer>> = {
  "video/mp4": "bmff",
  "video/quicktime": "bmff",
  "audio/mp4": "bmff",
  "audio/wav": "riff",
  "audio/flac": "flac",
};

/** R2 multipart part size: every part but the last exactly this (R2 wants equal parts of at least 5 MiB). */
export const STREAM_PART_BYTES = 8 * 1024 * 1024;

/** What the streaming signer needs of C2paSigner. */
export interface ManifestStoreSigner {
  signManifestStore(input: { plan: ManifestPlan; binding: HardBinding }): Promise<SignResult>;
}

export interface StreamSignInput {
  bucket: R2Bucket;
  source: { key: string; etag: string };
  /** Where the signed asset is written (as one multipart upload). */
  outputKey: string;
  plan: ManifestPlan;
  signer: ManifestStoreSigner;
  partBytes?: number;
}

export type StreamSignResult =
  | {
      status: "signed";
      manifest_store: Uint8Array;
      active_manifest_label: string;
      output: { key: string; etag: string; sha256: string; byte_length: number };
    }
  /** `malformed`/`unsupported`: the input (a StreamMediaError); `failed`: signing; `source_unavailable`: R2. */
  | { status: "malformed" | "unsupported" | "failed" | "source_unavailable"; message: string };

/** Placeholder exclusion length of the sizing run: same CBOR width (3 bytes) as any real chunk of 256..65535 bytes. */
const SIZING_LENGTH = 0x8000;

/**
 * Signs the source object into `outputKey` by streaming. Invariants: peak memory is one part buffer plus the
 * manifest store; any failure aborts the multipart upload (no half-written output is ever visible); input errors
 * are results, not throws (storage errors do throw: they are transient).
 */
export async function signStreamed(input: StreamSignInput): Promise<StreamSignResult> {
  const container = STREAMED_MEDIA_TYPES[input.plan.media_type.split(";")[0]!.trim().toLowerCase()];
  if (!container) return { status: "unsupported", message: `streaming signing does not carry manifests in ${input.plan.media_type}` };
  const head = await input.bucket.head(input.source.key);
  if (!head || head.etag !== input.source.etag) return { status: "source_unavailable", message: "the source object changed or is gone" };
  const total = head.size;
  if (container === "flac") return signFlacStreamed(input, total);

  let trailerLength = 0;
  let padBytes = 0;
  if (container === "riff") {
    const size = (pad: number) =>
      input.signer.signManifestStore({ plan: input.plan, binding: dataHashBinding(new Uint8Array(32), total, SIZING_LENGTH, pad) });
    let sizing = await size(0);
    if (sizing.status !== "signed") return { status: "failed", message: sizing.message };
    // An odd store would need a RIFF pad byte after it, which c2pa-wasm (the engine verifications read files up to
    // its read limit with) judges as a data-hash mismatch: one pad byte in the assertion makes the store even.
    if (sizing.manifest_store.length % 2 === 1) {
      sizing = await size(1);
      if (sizing.status !== "signed") return { status: "failed", message: sizing.message };
      padBytes = 1;
    }
    trailerLength = riffChunkLength(sizing.manifest_store.length);
  }

  const upload = await input.bucket.createMultipartUpload(input.outputKey, {
    httpMetadata: { contentType: input.plan.media_type },
  });
  try {
    const object = await input.bucket.get(input.source.key, { onlyIf: { etagMatches: input.source.etag } });
    if (!object || !("body" in object) || object.size !== total) {
      await upload.abort();
      return { status: "source_unavailable", message: "the source object changed or is gone" };
    }
    const scanner =
      container === "bmff" ? new BmffScanner(total, { verify: false }) : new RiffScanner(total, { newRiffSize: total + trailerLength - 8 });
    const whole = sha256Stream();
    const parts = new PartWriter(upload, input.partBytes ?? STREAM_PART_BYTES);
    await forEachChunk(object.body, async (chunk) => {
      const out = await scanner.push(chunk);
      await whole.update(out);
      await parts.write(out);
    });
    const hash = await scanner.finish();
    const binding = container === "bmff" ? bmffBinding(hash) : dataHashBinding(hash, total, trailerLength, padBytes);
    const signed = await input.signer.signManifestStore({ plan: input.plan, binding });
    if (signed.status !== "signed") {
      await upload.abort();
      return { status: "failed", message: signed.message };
    }
    const trailer = container === "bmff" ? bmffManifestBox(signed.manifest_store) : riffManifestChunk(signed.manifest_store);
    if (container === "riff" && trailer.length !== trailerLength) {
      await upload.abort();
      return {
        status: "failed",
        message: `the manifest store's size changed between sizing (${trailerLength}) and signing (${trailer.length})`,
      };
    }
    await whole.update(trailer);
    await parts.write(trailer);
    const uploaded = await parts.close();
    const stored = await upload.complete(uploaded);
    return {
      status: "signed",
      manifest_store: signed.manifest_store,
      active_manifest_label: signed.active_manifest_label,
      output: { key: input.outputKey, etag: stored.etag, sha256: hex(await whole.digest()), byte_length: total + trailer.length },
    };
  } catch (error) {
    await upload.abort().catch(() => undefined);
    if (error instanceof StreamMediaError) return { status: error.kind, message: error.message };
    throw error;
  }
}

/** CBOR's width of an unsigned integer (the store's length in the exclusion): 1, 2, 3, 5 or 9 bytes. */
function cborWidth(n: number): number {
  return n < 24 ? 1 : n < 0x100 ? 2 : n < 0x1_0000 ? 3 : n < 0x1_0000_0000 ? 5 : 9;
}

/**
 * FLAC (flac.ts): the store leads the file, so its length is fixed by sizing runs (a second one only when the real
 * length's CBOR width differs from the placeholder's), the binding hashed in a first pass (the scanner checks the
 * FLAC on the way: nothing is written for a file it refuses), and the output (tag head, store, FLAC) written from a
 * second, etag-pinned read of the source. Invariants as signStreamed's.
 */
async function signFlacStreamed(input: StreamSignInput, total: number): Promise<StreamSignResult> {
  const size = (length: number) =>
    input.signer.signManifestStore({ plan: input.plan, binding: dataHashBinding(new Uint8Array(32), FLAC_STORE_OFFSET, length) });
  let sizing = await size(SIZING_LENGTH);
  if (sizing.status !== "signed") return { status: "failed", message: sizing.message };
  if (cborWidth(sizing.manifest_store.length) !== cborWidth(SIZING_LENGTH)) {
    sizing = await size(sizing.manifest_store.length);
    if (sizing.status !== "signed") return { status: "failed", message: sizing.message };
  }
  const storeLength = sizing.manifest_store.length;
  const tagHead = flacTagHead(storeLength);

  const read = async () => {
    const object = await input.bucket.get(input.source.key, { onlyIf: { etagMatches: input.source.etag } });
    return object && "body" in object && object.size === total ? object : null;
  };
  const unavailable = { status: "source_unavailable", message: "the source object changed or is gone" } as const;
  let signed: SignResult;
  {
    const object = await read();
    if (!object) return unavailable;
    const hash = sha256Stream();
    await hash.update(tagHead);
    try {
      const scanner = new FlacScanner(total, { sign: true }, hash);
      await forEachChunk(object.body, async (chunk) => void (await scanner.push(chunk)));
      const digest = await scanner.finish();
      signed = await input.signer.signManifestStore({ plan: input.plan, binding: dataHashBinding(digest, FLAC_STORE_OFFSET, storeLength) });
    } catch (error) {
      await object.body.cancel().catch(() => undefined);
      if (error instanceof StreamMediaError) return { status: error.kind, message: error.message };
      throw error;
    }
  }
  if (signed.status !== "signed") return { status: "failed", message: signed.message };
  if (signed.manifest_store.length !== storeLength) {
    return {
      status: "failed",
      message: `the manifest store's size changed between sizing (${storeLength}) and signing (${signed.manifest_store.length})`,
    };
  }

  const upload = await input.bucket.createMultipartUpload(input.outputKey, { httpMetadata: { contentType: input.plan.media_type } });
  try {
    const object = await read();
    if (!object) {
      await upload.abort();
      return unavailable;
    }
    const whole = sha256Stream();
    const parts = new PartWriter(upload, input.partBytes ?? STREAM_PART_BYTES);
    for (const bytes of [tagHead, signed.manifest_store]) {
      await whole.update(bytes);
      await parts.write(bytes);
    }
    let copied = 0;
    await forEachChunk(object.body, async (chunk) => {
      copied += chunk.length;
      await whole.update(chunk);
      await parts.write(chunk);
    });
    if (copied !== total) {
      await upload.abort();
      return unavailable;
    }
    const stored = await upload.complete(await parts.close());
    return {
      status: "signed",
      manifest_store: signed.manifest_store,
      active_manifest_label: signed.active_manifest_label,
      output: {
        key: input.outputKey,
        etag: stored.etag,
        sha256: hex(await whole.digest()),
        byte_length: FLAC_STORE_OFFSET + storeLength + total,
      },
    };
  } catch (error) {
    await upload.abort().catch(() => undefined);
    throw error;
  }
}

/** Fills equal-size parts; a full part is uploaded only when more bytes come, so the last part is never empty. */
class PartWriter {
  #buffer: Uint8Array;
  #filled = 0;
  readonly #parts: R2UploadedPart[] = [];

  constructor(
    private readonly upload: R2MultipartUpload,
    private readonly size: number,
  ) {
    this.#buffer = new Uint8Array(size);
  }

  async write(bytes: Uint8Array): Promise<void> {
    let at = 0;
    while (at < bytes.length) {
      if (this.#filled === this.size) await this.#flush();
      const n = Math.min(this.size - this.#filled, bytes.length - at);
      this.#buffer.set(bytes.subarray(at, at + n), this.#filled);
      this.#filled += n;
      at += n;
    }
  }

  async close(): Promise<R2UploadedPart[]> {
    if (this.#filled > 0) await this.#flush();
    return this.#parts;
  }

  async #flush(): Promise<void> {
    const part = this.#filled === this.size ? this.#buffer : this.#buffer.subarray(0, this.#filled);
    this.#parts.push(await this.upload.uploadPart(this.#parts.length + 1, part));
    // The part is stored once uploadPart resolves: the one buffer is reused, so a 2 GiB copy makes no 8 MiB garbage
    // per part for the collector to catch up with.
    this.#filled = 0;
  }
}
