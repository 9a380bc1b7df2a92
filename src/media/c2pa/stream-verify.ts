/**
 * The streamed read of a large stored MP4/MOV/M4A, WAV or FLAC (one implementation for publication's check of a
 * stream-signed output, stream-sign.ts verifyStreamed, and for verification of a stored object, verifier.ts
 * verifyStreamedManifest): one pass over an etag-pinned R2 body with the container's scanner in verify mode keeps
 * the embedded manifest store (small: at most MANIFEST_STORE_MAXIMUM_BYTES) and hashes exactly what the hard
 * binding of the form this service signs covers, so the asset is never whole in memory; then the active manifest's
 * binding, as the engine validated it (verifier.ts reads it from the engine's crJSON), is compared with that hash.
 * Only the exact binding form of the streaming signer (bmff.ts, riff.ts) is judged: any other form is `unsupported`
 * (never a guessed match). The BMFF scanner also walks the nested boxes the reference reader walks and refuses what
 * it refuses, so the stream never judges a file the reference could not read.
 */
import { equalBytes } from "../../platform/bytes";
import { decodeCbor } from "../../platform/cbor";
import type { ManifestCheck, ManifestReader } from "../types";
import { BmffScanner, bmffBinding } from "./bmff";
import { FlacScanner } from "./flac";
import { type JumbfBox, type JumbfSuperbox, parseJumbf } from "./jumbf-box";
import { dataHashBinding, RiffScanner } from "./riff";
import { forEachChunk, StreamMediaError } from "./stream-hash";
import { STREAMED_MEDIA_TYPES, type StreamedContainer } from "./stream-sign";

/** A stored object read by streaming (pinned to its etag: bytes that changed since are `unavailable`). */
export interface StoredStream {
  bucket: R2Bucket;
  key: string;
  etag: string;
  mediaType: string;
}

export type StreamScan =
  | {
      status: "scanned";
      container: StreamedContainer;
      /** The embedded manifest store, or null when the file carries none. */
      store: Uint8Array | null;
      /** The hash the streaming signer's binding covers (bmff.ts / riff.ts), over the stored bytes. */
      hash: Uint8Array;
      /** RIFF, FLAC: the manifest store's byte range (the data hash's one exclusion). */
      exclusion: { start: number; length: number } | null;
      byteLength: number;
    }
  /**
   * Stopped early (`stopEarly`): the store came before the rest of the file and its active manifest's binding is
   * plainly not the streaming signer's form, so the stream could not judge the file whatever followed.
   */
  | { status: "binding_unsupported" }
  /** The file is not a container the scanners walk (StreamMediaError): not judged by streaming. */
  | { status: "malformed" | "unsupported"; message: string }
  /** The object is gone or changed (etag). */
  | { status: "unavailable" };

/** The container of a media type read by streaming, or null. */
export function streamedContainer(mediaType: string): StreamedContainer | null {
  return STREAMED_MEDIA_TYPES[mediaType.split(";")[0]!.trim().toLowerCase()] ?? null;
}

/**
 * One pass over the object. Invariant: memory is one R2 chunk, the scanner's header, and the store it keeps; the
 * body is always consumed or released.
 */
export async function scanStored(source: StoredStream, options: { stopEarly?: boolean } = {}): Promise<StreamScan> {
  const container = streamedContainer(source.mediaType);
  if (!container) return { status: "unsupported", message: `not a streamed media type: ${source.mediaType}` };
  const object = await source.bucket.get(source.key, { onlyIf: { etagMatches: source.etag } });
  if (!object || !("body" in object)) return { status: "unavailable" };
  try {
    const scanner =
      container === "bmff"
        ? new BmffScanner(object.size, { verify: true })
        : container === "riff"
          ? new RiffScanner(object.size, {})
          : // A signed file cut after signing is judged by its data hash (a mismatch), as the reference reader does.
            new FlacScanner(object.size, { sign: false, totalSamples: false });
    let read = 0;
    let prechecked = !options.stopEarly;
    try {
      await forEachChunk(object.body, async (chunk) => {
        await scanner.push(chunk);
        read += chunk.length;
        const store = prechecked ? null : scanner.capturedStore;
        if (!store) return;
        prechecked = true;
        const exclusion = scanner instanceof BmffScanner ? null : scanner.exclusion;
        // Only worth it when the rest of the file would otherwise be streamed for nothing.
        if (read < object.size && plainlyOtherBinding(container, store, exclusion)) throw STOP;
      });
    } catch (error) {
      if (error !== STOP) throw error;
      await object.body.cancel().catch(() => undefined);
      return { status: "binding_unsupported" };
    }
    const hash = await scanner.finish();
    return {
      status: "scanned",
      container,
      store: scanner.store,
      hash,
      exclusion: scanner instanceof BmffScanner ? null : scanner.exclusion,
      byteLength: object.size,
    };
  } catch (error) {
    // A scanner may stop before the end: the rest of the body is released, not left to the runtime.
    await object.body.cancel().catch(() => undefined);
    if (error instanceof StreamMediaError) return { status: error.kind, message: error.message };
    throw error;
  }
}

/**
 * The active manifest's hard-binding assertions (every `c2pa.hash.*` one), label → value: the hash as bytes (or
 * crJSON's `b64'…'`), byte strings elsewhere as bytes or number arrays. Null when they could not be read.
 */
export type HardBindings = Record<string, unknown> | null;

const STOP = Symbol("stop");

/**
 * Whether the active manifest (the last of a manifest type) of a store seen before the end of the file has a hard
 * binding that is surely not the streaming signer's form. A cheap pre-check by our own parse: false whenever in
 * doubt (the full check, on the engine's reading, comes after the whole scan).
 */
function plainlyOtherBinding(
  container: StreamedContainer,
  store: Uint8Array,
  exclusion: { start: number; length: number } | null,
): boolean {
  const parsed = parseJumbf(store);
  if (parsed.status !== "ok") return false;
  const manifests = superboxes(parsed.root).filter((m) => MANIFEST_TYPES.has(m.description.contentType ?? ""));
  const label = manifests.at(-1)?.description.label;
  const bindings = label ? storeHardBindings(store, label) : null;
  if (!bindings) return false;
  const probe = { status: "scanned", container, store, hash: new Uint8Array(32), exclusion, byteLength: 0 } as const;
  return streamedBinding(probe, bindings).status === "unsupported";
}

/**
 * The hard-binding finding of a scanned file for the active manifest's hard bindings: the code the reference reader
 * gives for the same file (`assertion.bmffHash.match`/`.mismatch` for BMFF, `assertion.dataHash.*` for RIFF and FLAC), or
 * `unsupported` when the binding is not exactly the streaming signer's form (several bindings, another exclusion
 * set, a Merkle tree, another algorithm, a value our decoder does not represent): that binding is not judged here.
 * Never throws (hostile input included). The bindings must be the ones the engine validated (verifier.ts takes them
 * from the engine's crJSON of the active manifest), or those of a store this service signed (publication's check).
 */
export function streamedBinding(
  scan: Extract<StreamScan, { status: "scanned" }>,
  /** The engine's bindings, or a store this service signed with its active manifest's `label`. */
  bindings: HardBindings | Uint8Array,
  label?: string,
): { status: "checked"; code: string; matched: boolean } | { status: "unsupported" } {
  try {
    const read = bindings instanceof Uint8Array ? storeHardBindings(bindings, label ?? "") : bindings;
    if (!read) return { status: "unsupported" };
    const entries = Object.entries(read);
    // One hard binding: a manifest with several is not the signer's form.
    if (entries.length !== 1) return { status: "unsupported" };
    const [bindingLabel, value] = entries[0]!;
    const recorded = recordedOf(bindingLabel, value);
    const expected =
      scan.container === "bmff"
        ? bmffBinding(new Uint8Array(0))
        : dataHashBinding(new Uint8Array(0), scan.exclusion?.start ?? -1, scan.exclusion?.length ?? -1);
    if (
      !recorded ||
      recorded.label !== expected.label ||
      recorded.alg !== "sha256" ||
      recorded.extra ||
      !sameExclusions(recorded.exclusions, expected.data.exclusions)
    )
      return { status: "unsupported" };
    const matched = equalBytes(recorded.hash, scan.hash);
    const kind = scan.container === "bmff" ? "bmffHash" : "dataHash";
    return { status: "checked", code: `assertion.${kind}.${matched ? "match" : "mismatch"}`, matched };
  } catch {
    return { status: "unsupported" };
  }
}

/** The engine's codes for a store read alone that compare the binding with the store's own bytes (meaningless). */
export const STORE_ALONE_BINDING_CODES = new Set(["assertion.bmffHash.mismatch", "assertion.dataHash.mismatch"]);

/**
 * Publication's check of a streamed output stored at `key` (etag-pinned) against `manifestStore` (the store recorded
 * by the sign step). Checks, each reported by its code: the file's structure (throws nothing: a malformed file is the
 * failure `svc.stream.malformed`), that the embedded store is byte-identical to the recorded one
 * (`svc.stream.store_mismatch`), the engine's validation of the store alone (claim signature, certificate chain and
 * trust, timestamp, assertion hashes), that the binding is the one this signer writes (else
 * `svc.stream.binding_unsupported`, never silently skipped) and that the hash recomputed over the stored bytes
 * equals it (`assertion.bmffHash.match`/`assertion.dataHash.match` or `.mismatch`).
 */
export async function verifyStreamed(input: {
  bucket: R2Bucket;
  key: string;
  etag: string;
  mediaType: string;
  manifestStore: Uint8Array;
  reader: ManifestReader;
}): Promise<{ status: "read"; check: ManifestCheck } | { status: "unavailable" } | { status: "failed"; message: string }> {
  if (!streamedContainer(input.mediaType)) return { status: "failed", message: `not a streamed media type: ${input.mediaType}` };
  const verdict = await input.reader.read({ bytes: new Uint8Array(0), mediaType: input.mediaType, manifestStore: input.manifestStore });
  if (verdict.status !== "read") return { status: "failed", message: `the engine could not read the manifest store (${verdict.status})` };
  const check = verdict.check;
  // The engine compared the binding with the store's own bytes (meaningless here) or found no data hash it could
  // check: drop exactly those, then add the real comparison below.
  check.failure_codes = check.failure_codes.filter((c) => !STORE_ALONE_BINDING_CODES.has(c));
  check.informational_codes = check.informational_codes.filter((c) => c !== "svc.sidecar.binding.unsupported");
  check.asset_binding_checked = false;

  const scan = await scanStored(input);
  if (scan.status === "unavailable") return scan;
  if (scan.status !== "scanned") check.failure_codes.push("svc.stream.malformed");
  else {
    if (!scan.store || !equalBytes(scan.store, input.manifestStore)) check.failure_codes.push("svc.stream.store_mismatch");
    const binding = streamedBinding(scan, input.manifestStore, check.active_manifest_label ?? "");
    if (binding.status !== "checked") check.failure_codes.push("svc.stream.binding_unsupported");
    else {
      check.asset_binding_checked = true;
      check[binding.matched ? "success_codes" : "failure_codes"].push(binding.code);
    }
  }
  check.validation_state =
    check.failure_codes.length > 0 ? "Invalid" : check.success_codes.includes("signingCredential.trusted") ? "Trusted" : "Valid";
  return { status: "read", check };
}

/** The hard binding recorded in the active manifest of a store. */
interface RecordedBinding {
  label: string;
  hash: Uint8Array;
  alg: string;
  exclusions: unknown;
  /** Fields the streaming signer never writes (a Merkle tree, a v3 binding's extras): then not judged here. */
  extra: boolean;
}

/** The manifest box types of C2PA (a standard manifest, an update manifest). */
const MANIFEST_TYPES = new Set(["c2ma", "c2um"]);

/**
 * The hard-binding assertions of the manifest labelled `label` in a store this service signed itself (publication's
 * check, where the engine's crJSON is not at hand), decoded from CBOR; null when the store does not have exactly the
 * shape C2PA gives it: the label names one root box, of a manifest type, with one assertion store (by type).
 */
export function storeHardBindings(store: Uint8Array, label: string): HardBindings {
  try {
    const parsed = parseJumbf(store);
    if (parsed.status !== "ok") return null;
    const named = superboxes(parsed.root).filter((m) => m.description.label === label);
    const manifest = named.length === 1 ? named[0]! : undefined;
    if (!manifest || !MANIFEST_TYPES.has(manifest.description.contentType ?? "")) return null;
    const stores = superboxes(manifest).filter((b) => b.description.contentType === "c2as");
    if (stores.length !== 1 || stores[0]!.description.label !== "c2pa.assertions") return null;
    const out: Record<string, unknown> = {};
    for (const box of superboxes(stores[0]!)) {
      const boxLabel = box.description.label;
      if (!boxLabel?.startsWith("c2pa.hash.")) continue;
      // Two boxes of one label: not a store of the signer's form.
      if (boxLabel in out) return null;
      const cbor = box.children.find((c) => c.kind === "content" && c.type === "cbor");
      if (cbor?.kind !== "content") return null;
      const decoded = decodeCbor(cbor.payload);
      if (decoded.status !== "ok") return null;
      out[boxLabel] = decoded.value;
    }
    return out;
  } catch {
    return null;
  }
}

/** Fields of a `c2pa.hash.*` assertion this module knows the meaning of (the signer's form, and `pad`). */
const KNOWN_FIELDS = new Set(["hash", "alg", "exclusions", "name", "pad", "pad2"]);

/** One hard-binding assertion's value (decoded CBOR map, or crJSON object) in the form compared; null if unusable. */
function recordedOf(label: string, value: unknown): RecordedBinding | null {
  const map =
    value instanceof Map
      ? (value as Map<unknown, unknown>)
      : value && typeof value === "object" && !Array.isArray(value) && !(value instanceof Uint8Array)
        ? new Map<unknown, unknown>(Object.entries(value))
        : null;
  if (!map) return null;
  const hash = bytesOf(map.get("hash"));
  if (!hash) return null;
  const alg = map.get("alg");
  return {
    label,
    hash,
    // The manifest's own default algorithm (claim `alg`) may stand in for a missing one: not the signer's form.
    alg: typeof alg === "string" ? alg : "",
    exclusions: map.get("exclusions"),
    extra: [...map.keys()].some((k) => typeof k !== "string" || !KNOWN_FIELDS.has(k)),
  };
}

/** Bytes of a decoded CBOR byte string, or of crJSON's `b64'…'` rendering of one. */
function bytesOf(value: unknown): Uint8Array | null {
  if (value instanceof Uint8Array) return value;
  const m = typeof value === "string" ? /^b64'([A-Za-z0-9+/=]*)'$/.exec(value) : null;
  if (!m) return null;
  try {
    return Uint8Array.from(atob(m[1]!), (ch) => ch.charCodeAt(0));
  } catch {
    return null;
  }
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
  // A CBOR integer above 2^53: never a value the signer writes (its offsets and lengths are small), so unequal.
  if (typeof value === "bigint") return `bigint:${value.toString()}`;
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
