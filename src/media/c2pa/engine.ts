/**
 * Loading of the C2PA engine (@contentauth/c2pa-wasm, c2pa-rs compiled to wasm), portable between workerd and
 * Node: initialization takes an already compiled `WebAssembly.Module`. workerd forbids compiling wasm from bytes
 * at run time, so the Worker imports the `.wasm` as a module (see engine-workerd.ts); Node tests compile the
 * same file from its bytes on disk.
 */
import { initSync, WasmBuilder, WasmReader } from "@contentauth/c2pa-wasm";
import { ENGINE_READ_MAXIMUM_BYTES } from "../../catalog/limits";

export { WasmBuilder, WasmReader };

let memory: WebAssembly.Memory | null = null;

/** Instantiates the engine once per isolate; later calls are no-ops. */
export function initC2paEngine(module: WebAssembly.Module): void {
  if (memory) return;
  installFileReaderSyncShim();
  memory = initSync({ module }).memory;
}

export function isC2paEngineReady(): boolean {
  return memory !== null;
}

/**
 * Size of the engine's linear memory. It grows to the peak of the largest signing or read so far (a wasm memory
 * never shrinks) and counts against the isolate's memory limit.
 */
export function c2paEngineMemoryBytes(): number {
  return memory?.buffer.byteLength ?? 0;
}

/**
 * A read the engine refuses because of its size (ENGINE_READ_MAXIMUM_BYTES): its memory would grow to a few times the
 * file and never shrink. Not an engine error: callers refuse the request (413) instead of reporting a finding.
 */
export class EngineReadTooLarge extends Error {
  constructor(
    readonly byteLength: number,
    readonly maximumBytes: number,
    readonly mediaType: string,
  ) {
    super(
      `This ${mediaType} file's manifest needs the C2PA engine, which reads files up to ${maximumBytes} bytes (limits.verify.engine_read_maximum_bytes); the file is ${byteLength} bytes.`,
    );
    this.name = "EngineReadTooLarge";
  }
}

/**
 * The engine's reader of a whole file (or a sidecar store, `application/c2pa`): every read of the engine goes
 * through here so the size bound holds for all. Rejects with EngineReadTooLarge above the limit, before any copy.
 */
export async function readWithEngine(format: string, bytes: Uint8Array, settingsJson: string): Promise<WasmReader> {
  if (bytes.length > ENGINE_READ_MAXIMUM_BYTES) throw new EngineReadTooLarge(bytes.length, ENGINE_READ_MAXIMUM_BYTES, format);
  return WasmReader.fromBytes(format, bytes, settingsJson);
}

/**
 * The bytes of an asset as the `Blob` the builder's API takes, without copying them into a real Blob.
 * Invariant: only our FileReaderSync shim can read it (which is all the engine does with a Blob: `size`,
 * `slice`, then one synchronous read); the bytes must not change while the engine holds it.
 */
export class ByteSource {
  readonly #bytes: Uint8Array;
  readonly type: string;
  constructor(bytes: Uint8Array, type = "") {
    this.#bytes = bytes;
    this.type = type;
  }
  get size(): number {
    return this.#bytes.length;
  }
  slice(start?: number, end?: number): ByteSource {
    return new ByteSource(this.#bytes.subarray(start ?? 0, end ?? this.#bytes.length), this.type);
  }
  /** The bytes as an ArrayBuffer, shared (not copied) when the view spans its whole buffer. */
  arrayBuffer(): ArrayBuffer {
    const b = this.#bytes;
    if (b.byteOffset === 0 && b.byteLength === b.buffer.byteLength && b.buffer instanceof ArrayBuffer) return b.buffer;
    return b.slice().buffer as ArrayBuffer;
  }
  /** Typed as a Blob for the engine's signatures; see the class invariant. */
  asBlob(): Blob {
    return this as unknown as Blob;
  }
}

/**
 * The engine reads input Blobs with `new FileReaderSync().readAsArrayBuffer(blob)`, which workerd and Node lack.
 * The shim answers only for ByteSource objects (bytes we already hold) and defers anything else to a native
 * FileReaderSync when one exists, so it changes nothing for other code.
 */
function installFileReaderSyncShim(): void {
  const g = globalThis as { FileReaderSync?: new () => { readAsArrayBuffer(blob: Blob): ArrayBuffer } };
  const Native = g.FileReaderSync;
  if (Native && (Native as { svcByteSourceShim?: boolean }).svcByteSourceShim) return;
  class FileReaderSyncShim {
    static readonly svcByteSourceShim = true;
    readAsArrayBuffer(blob: unknown): ArrayBuffer {
      if (blob instanceof ByteSource) return blob.arrayBuffer();
      if (Native) return new Native().readAsArrayBuffer(blob as Blob);
      throw new TypeError("FileReaderSync is not available in this runtime; pass a ByteSource");
    }
  }
  g.FileReaderSync = FileReaderSyncShim;
}

/** Verification settings for the engine's reader (c2pa-rs settings JSON). */
export function verifySettingsJson(trustAnchorsPem?: string | null): string {
  const settings: Record<string, unknown> = {
    verify: {
      verify_trust: Boolean(trustAnchorsPem),
      verify_timestamp_trust: Boolean(trustAnchorsPem),
      remote_manifest_fetch: false,
      ocsp_fetch: false,
    },
  };
  if (trustAnchorsPem) settings.trust = { trust_anchors: trustAnchorsPem };
  return JSON.stringify(settings);
}
