/**
 * Pieces shared by the streaming signer's format scanners (bmff.ts, riff.ts): an incremental SHA-256 over
 * bytes that arrive in order, and the error a scanner raises for input it cannot carry a manifest in.
 */

/** Why streamed media was refused: `malformed` (not the container it claims, or truncated), `unsupported`. */
export class StreamMediaError extends Error {
  constructor(
    readonly kind: "malformed" | "unsupported",
    message: string,
  ) {
    super(message);
  }
}

/** An incremental SHA-256. Invariant: `update` calls are awaited in order; `digest` is called once, last. */
export interface Sha256Stream {
  update(bytes: Uint8Array): Promise<void>;
  digest(): Promise<Uint8Array>;
}

/**
 * SHA-256 over a workerd `DigestStream` (native, constant memory). Node (the tests) has no DigestStream: its
 * test setup installs one backed by node:crypto (test/node/media/stream-support.ts).
 */
export function sha256Stream(): Sha256Stream {
  const stream = new crypto.DigestStream("SHA-256");
  const writer = stream.getWriter();
  return {
    // The writer may keep a view until the write settles: awaiting each write keeps memory bounded and the order.
    update: (bytes) => (bytes.length === 0 ? Promise.resolve() : writer.write(bytes)),
    digest: async () => {
      await writer.close();
      return new Uint8Array(await stream.digest);
    },
  };
}

/** Bytes a streamed loop handles between two turns of the runtime's event loop (forEachChunk). */
export const YIELD_EVERY_BYTES = 1024 * 1024;

/** The one buffer forEachChunk reads a byte stream into (a chunk handed on is a view of it). */
export const READ_BUFFER_BYTES = 1024 * 1024;

/**
 * Reads a ReadableStream of bytes chunk by chunk (each chunk handed on before the next is read; `each` must not keep
 * it past its promise), and every `yieldEveryBytes` waits one timer turn.
 *
 * A byte stream (an R2 object's body in workerd) is read with a BYOB reader into one reused buffer: with a default
 * reader every chunk is a new ArrayBuffer, garbage V8 collects only when external memory has grown by tens of MiB,
 * so a 512 MiB signing showed the Worker at 112 MiB of heap and ArrayBuffers against 27 MiB idle. Other streams
 * (Node's test stand-ins) are read as they come.
 *
 * The timer turn: when every read and write completes without waiting on a socket (under `wrangler dev` the R2
 * simulator runs in the same workerd process, and a chunk already buffered resolves at once), the runtime's event
 * loop always has work queued and never polls its sockets, so the isolate's other requests (job polls, health
 * checks, its inspector) wait until the whole object is through: a 512 MiB signing or upload inspection answered
 * nothing for over a minute (168 s), and with a turn every 8 MiB a poll still waited up to 23 s on a loaded machine.
 * A timer fires only when the loop polls, which lets them in.
 */
export async function forEachChunk(
  body: ReadableStream<Uint8Array>,
  each: (chunk: Uint8Array) => Promise<void>,
  yieldEveryBytes = YIELD_EVERY_BYTES,
): Promise<void> {
  let sinceYield = 0;
  const handle = async (chunk: Uint8Array) => {
    await each(chunk);
    sinceYield += chunk.length;
    if (sinceYield >= yieldEveryBytes) {
      sinceYield = 0;
      await new Promise<void>((resolve) => setTimeout(resolve, 0));
    }
  };
  const byob = byobReader(body);
  if (byob) {
    let buffer = new ArrayBuffer(READ_BUFFER_BYTES);
    try {
      for (;;) {
        // The buffer is filled before its bytes are handed on: under wrangler dev a multipart object's body comes
        // 4 KiB a read, and handing on each read cost a scanner pass, two digest writes and their promises per
        // 4 KiB (heap the collector caught up with late). `min` asks the runtime (workerd) to fill the view in one
        // read; a runtime without it answers with what it has and the loop reads on.
        let filled = 0;
        let done = false;
        while (!done && filled < buffer.byteLength) {
          const view = new Uint8Array(buffer, filled, buffer.byteLength - filled);
          // Each read transfers the buffer and hands it back as its value's: the same memory, read into again.
          const read = await byob.read(view, { min: view.length });
          if (!read.value) {
            // Only a cancelled stream answers without the buffer: bytes already read would be lost.
            if (filled > 0) throw new Error("the body was cancelled while it was read");
            return;
          }
          buffer = read.value.buffer as ArrayBuffer;
          filled += read.value.length;
          done = read.done;
        }
        if (filled > 0) await handle(new Uint8Array(buffer, 0, filled));
        if (done) return;
      }
    } finally {
      byob.releaseLock();
    }
  }
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      if (value && value.length > 0) await handle(value);
    }
  } finally {
    reader.releaseLock();
  }
}

/** A BYOB reader's read with the standard `min` option (workers-types omits it). */
interface ByobReader {
  read(view: Uint8Array, options: { min: number }): Promise<ReadableStreamReadResult<Uint8Array>>;
  releaseLock(): void;
}

/** A BYOB reader of `body` when it is a byte stream, else null (the stream stays unlocked). */
function byobReader(body: ReadableStream<Uint8Array>): ByobReader | null {
  try {
    return (body as unknown as { getReader(o: { mode: "byob" }): ByobReader }).getReader({ mode: "byob" });
  } catch {
    return null;
  }
}

export function u64be(value: number): Uint8Array {
  const out = new Uint8Array(8);
  const view = new DataView(out.buffer);
  view.setUint32(0, Math.floor(value / 0x1_0000_0000));
  view.setUint32(4, value >>> 0);
  return out;
}

/**
 * The first bytes of the bodies of named boxes or chunks, kept while a scanner streams past them (for facts such as
 * a duration read from `moov`/`mvhd` or a WAV `fmt ` chunk). Invariant: at most `limits[type]` bytes per type, and
 * only the first box or chunk of each type.
 */
export class BodyPeeks {
  readonly bodies = new Map<string, Uint8Array>();
  readonly sizes = new Map<string, number>();
  #current: Uint8Array | null = null;
  #got = 0;

  constructor(private readonly limits: Readonly<Record<string, number>> = {}) {}

  /** A box or chunk of `type` whose body of `bodySize` bytes starts next. */
  begin(type: string, bodySize: number): void {
    this.#current = null;
    const limit = this.limits[type];
    if (limit === undefined || this.sizes.has(type)) return;
    this.sizes.set(type, bodySize);
    this.#current = new Uint8Array(Math.min(limit, bodySize));
    this.#got = 0;
    this.bodies.set(type, this.#current);
  }

  /** Body bytes as they stream past. */
  take(part: Uint8Array): void {
    if (!this.#current || this.#got >= this.#current.length) return;
    const n = Math.min(part.length, this.#current.length - this.#got);
    this.#current.set(part.subarray(0, n), this.#got);
    this.#got += n;
  }
}
