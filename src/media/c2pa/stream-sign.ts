/**
 * Streaming C2PA signing of large media (MP4/MOV/M4A, WAV): the asset is never whole in memory. One pass reads
 * the source object from R2, hashes the hard binding (bmff.ts, riff.ts) and copies the bytes into an R2 multipart
 * upload; then the engine signs a manifest store over that binding (C2paSigner.signManifestStore: the engine
 * never sees the asset) and the store is appended as the last box/chunk, where no sample offset moves.
 * WAV's data hash names the manifest chunk's byte range and its header's RIFF size grows by the chunk, so the
 * store is sized first by a signing run over a placeholder binding (the store's size does not depend on the hash
 * value; the COSE signature is padded to a fixed size).
 *
 * verifyStreamed checks such an output the same way: it re-reads the stored object, recomputes the binding,
 * checks the embedded store is the one recorded, and has the engine validate the store alone (claim signature,
 * certificate chain and trust, timestamp, assertion hashes); the engine's comparison of the binding against the
 * store's own bytes is replaced by ours against the streamed hash.
 */

import { equalBytes, hex } from "../../platform/bytes";
import { decodeCbor } from "../../platform/cbor";
import type { ManifestCheck, ManifestPlan, ManifestReader, SignResult } from "../types";
import { BmffScanner, bmffBinding, bmffManifestBox } from "./bmff";
import { type JumbfBox, type JumbfSuperbox, parseJumbf } from "./jumbf-box";
import { RiffScanner, riffBinding, riffChunkLength, riffManifestChunk } from "./riff";
import type { HardBinding } from "./signer";
import { forEachChunk, StreamMediaError, sha256Stream } from "./stream-hash";

/** Media types the streaming signer carries a manifest in, with their container. FLAC is not streamed (yet). */
export const STREAMED_MEDIA_TYPES: Readonly<Record<string, "bmff" | "riff">> = {
  "video/mp4": "bmff",
  "video/quicktime": "bmff",
  "audio/mp4": "bmff",
  "audio/wav": "riff",
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

  let trailerLength = 0;
  if (container === "riff") {
    const sizing = await input.signer.signManifestStore({
      plan: input.plan,
      binding: riffBinding(new Uint8Array(32), total, SIZING_LENGTH),
    });
    if (sizing.status !== "signed") return { status: "failed", message: sizing.message };
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
    const binding = container === "bmff" ? bmffBinding(hash) : riffBinding(hash, total, trailerLength);
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

/** The hard binding recorded in the active manifest of a store. */
interface RecordedBinding {
  label: string;
  hash: Uint8Array;
  exclusions: unknown;
}

/**
 * Validates a streamed output stored at `key` (etag-pinned) against `manifestStore` (the store recorded by the
 * sign step). Checks, each reported by its code: the file's structure (throws nothing: a malformed file is the
 * failure `svc.stream.malformed`), that the embedded store is byte-identical to the recorded one
 * (`svc.stream.store_mismatch`), the engine's validation of the store alone, that the binding is the one this
 * signer writes (else `svc.stream.binding_unsupported`, never silently skipped) and that the hash recomputed over
 * the stored bytes equals it (`assertion.bmffHash.match`/`assertion.dataHash.match` or `.mismatch`).
 */
export async function verifyStreamed(input: {
  bucket: R2Bucket;
  key: string;
  etag: string;
  mediaType: string;
  manifestStore: Uint8Array;
  reader: ManifestReader;
}): Promise<{ status: "read"; check: ManifestCheck } | { status: "unavailable" } | { status: "failed"; message: string }> {
  const container = STREAMED_MEDIA_TYPES[input.mediaType.split(";")[0]!.trim().toLowerCase()];
  if (!container) return { status: "failed", message: `not a streamed media type: ${input.mediaType}` };
  const verdict = await input.reader.read({ bytes: new Uint8Array(0), mediaType: input.mediaType, manifestStore: input.manifestStore });
  if (verdict.status !== "read") return { status: "failed", message: `the engine could not read the manifest store (${verdict.status})` };
  const check = verdict.check;
  // The engine compared the binding with the store's own bytes (meaningless here) or found no data hash it could
  // check: drop exactly those, then add the real comparison below.
  check.failure_codes = check.failure_codes.filter((c) => c !== "assertion.bmffHash.mismatch" && c !== "assertion.dataHash.mismatch");
  check.informational_codes = check.informational_codes.filter((c) => c !== "svc.sidecar.binding.unsupported");
  check.asset_binding_checked = false;

  const object = await input.bucket.get(input.key, { onlyIf: { etagMatches: input.etag } });
  if (!object || !("body" in object)) return { status: "unavailable" };
  const scanner = container === "bmff" ? new BmffScanner(object.size, { verify: true }) : new RiffScanner(object.size, {});
  let hash: Uint8Array | null = null;
  try {
    await forEachChunk(object.body, async (chunk) => void (await scanner.push(chunk)));
    hash = await scanner.finish();
  } catch (error) {
    if (!(error instanceof StreamMediaError)) throw error;
    check.failure_codes.push("svc.stream.malformed");
  }
  if (hash) {
    if (!scanner.store || !equalBytes(scanner.store, input.manifestStore)) check.failure_codes.push("svc.stream.store_mismatch");
    const recorded = recordedBinding(input.manifestStore, check.active_manifest_label ?? "");
    const expected =
      container === "bmff"
        ? bmffBinding(new Uint8Array(0))
        : riffBinding(new Uint8Array(0), (scanner as RiffScanner).exclusion?.start ?? -1, (scanner as RiffScanner).exclusion?.length ?? -1);
    if (!recorded || recorded.label !== expected.label || !sameExclusions(recorded.exclusions, expected.data.exclusions)) {
      check.failure_codes.push("svc.stream.binding_unsupported");
    } else {
      check.asset_binding_checked = true;
      const kind = container === "bmff" ? "bmffHash" : "dataHash";
      check[equalBytes(recorded.hash, hash) ? "success_codes" : "failure_codes"].push(
        `assertion.${kind}.${equalBytes(recorded.hash, hash) ? "match" : "mismatch"}`,
      );
    }
  }
  check.validation_state =
    check.failure_codes.length > 0 ? "Invalid" : check.success_codes.includes("signingCredential.trusted") ? "Trusted" : "Valid";
  return { status: "read", check };
}

/** The hash assertion (`c2pa.hash.*`) of the manifest labelled `label` in `store`, decoded; null if absent. */
function recordedBinding(store: Uint8Array, label: string): RecordedBinding | null {
  const parsed = parseJumbf(store);
  if (parsed.status !== "ok") return null;
  const manifest = superboxes(parsed.root).find((m) => m.description.label === label);
  const assertions = manifest && superboxes(manifest).find((b) => b.description.label === "c2pa.assertions");
  const box = assertions && superboxes(assertions).find((b) => b.description.label?.startsWith("c2pa.hash."));
  const cbor = box?.children.find((c) => c.kind === "content" && c.type === "cbor");
  if (!box || !cbor || cbor.kind !== "content") return null;
  const decoded = decodeCbor(cbor.payload);
  if (decoded.status !== "ok" || !(decoded.value instanceof Map)) return null;
  const hash = decoded.value.get("hash");
  if (!(hash instanceof Uint8Array)) return null;
  return { label: box.description.label!, hash, exclusions: decoded.value.get("exclusions") };
}

function superboxes(box: JumbfSuperbox): JumbfSuperbox[] {
  return box.children.filter((c: JumbfBox): c is JumbfSuperbox => c.kind === "superbox");
}

/** Compares decoded CBOR exclusions with the engine-JSON ones this signer writes (byte strings as number arrays). */
function sameExclusions(decoded: unknown, written: unknown): boolean {
  return canonical(decoded) === canonical(written);
}

function canonical(value: unknown): string {
  if (value instanceof Uint8Array) return `[${Array.from(value).join(",")}]`;
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value instanceof Map) {
    return `{${[...value.entries()]
      .map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`)
      .sort()
      .join(",")}}`;
  }
  if (value && typeof value === "object") {
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`)
      .sort()
      .join(",")}}`;
  }
  return JSON.stringify(value);
}
