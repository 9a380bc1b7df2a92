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

/** Reads a ReadableStream of bytes chunk by chunk (each chunk handed on before the next is read). */
export async function forEachChunk(body: ReadableStream<Uint8Array>, each: (chunk: Uint8Array) => Promise<void>): Promise<void> {
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      if (value && value.length > 0) await each(value);
    }
  } finally {
    reader.releaseLock();
  }
}

export function u64be(value: number): Uint8Array {
  const out = new Uint8Array(8);
  const view = new DataView(out.buffer);
  view.setUint32(0, Math.floor(value / 0x1_0000_0000));
  view.setUint32(4, value >>> 0);
  return out;
}
