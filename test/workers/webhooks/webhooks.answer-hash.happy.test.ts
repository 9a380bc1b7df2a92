import { describe, expect, it } from "vitest";
import { attempt, type Sender } from "../../../src/webhooks/delivery";
import { webhookSigner } from "../../../src/webhooks/signing";
import { sha256HexOf } from "../support/helpers";
import { attemptRow } from "../support/webhooks.helpers";

/*
 * #19: an answer without a usable length is read in one runtime read of up to 64 KiB + 1 (was chunk by chunk).
 * The recorded hash is still the SHA-256 of the answer's first 64 KiB, whatever its framing: chunked and short,
 * chunked and past the limit (split across chunks at the limit), declared, or a fetcher's own (non-byte) stream.
 */

const LIMIT = 64 * 1024;
const row = attemptRow("hash");

const bytesOf = (n: number) => Uint8Array.from({ length: n }, (_, i) => (i * 31 + 7) & 255);

/** A native byte stream written in `chunks`, without a declared length (as a chunked answer arrives). */
function chunkedBody(chunks: Uint8Array[]): ReadableStream {
  const { readable, writable } = new IdentityTransformStream();
  void (async () => {
    const writer = writable.getWriter();
    for (const c of chunks) await writer.write(c);
    await writer.close();
  })().catch(() => undefined);
  return readable;
}

/** A JS stream (not a byte stream: no BYOB reader). */
function jsBody(chunks: Uint8Array[]): ReadableStream {
  let i = 0;
  return new ReadableStream({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(chunks[i++]!);
      else controller.close();
    },
  });
}

async function hashRecorded(answer: () => Response): Promise<string | null> {
  const sender: Sender = {
    secretCount: 1,
    sign: await webhookSigner([`whsec_${btoa("k".repeat(32))}`]),
    check: { status: "allowed", url: new URL("https://receiver.example/hook") },
  };
  const result = await attempt(row, "{}", 1, sender, async () => answer());
  if (result.kind !== "answer") throw new Error(`not answered: ${JSON.stringify(result)}`);
  return result.bodySha256;
}

describe("#19: the answer's first 64 KiB hashed whatever its framing", () => {
  it("a short chunked answer, an empty one, and one split into many chunks", async () => {
    const ok = new TextEncoder().encode("answered 200");
    expect(await hashRecorded(() => new Response(chunkedBody([ok])))).toBe(await sha256HexOf(ok));
    expect(await hashRecorded(() => new Response(chunkedBody([])))).toBe(await sha256HexOf(new Uint8Array(0)));
    const many = bytesOf(5000);
    const parts = Array.from({ length: 10 }, (_, i) => many.subarray(i * 500, (i + 1) * 500));
    expect(await hashRecorded(() => new Response(chunkedBody(parts)))).toBe(await sha256HexOf(many));
    // Around the short read's size (2 KiB): ending at it, one byte past it, and a byte past it in a chunk of its own.
    for (const n of [2047, 2048, 2049, 2050]) {
      const body = bytesOf(n);
      expect(await hashRecorded(() => new Response(chunkedBody([body])))).toBe(await sha256HexOf(body));
    }
    const edge = bytesOf(2049);
    expect(await hashRecorded(() => new Response(chunkedBody([edge.subarray(0, 2048), edge.subarray(2048)])))).toBe(
      await sha256HexOf(edge),
    );
  });

  it("a chunked answer of exactly 64 KiB, and past it (the limit inside a chunk): the first 64 KiB", async () => {
    const exact = bytesOf(LIMIT);
    expect(await hashRecorded(() => new Response(chunkedBody([exact.subarray(0, 1000), exact.subarray(1000)])))).toBe(
      await sha256HexOf(exact),
    );
    const big = bytesOf(LIMIT * 3 + 17);
    const split = [big.subarray(0, LIMIT - 10), big.subarray(LIMIT - 10, LIMIT + 10), big.subarray(LIMIT + 10)];
    expect(await hashRecorded(() => new Response(chunkedBody(split)))).toBe(await sha256HexOf(big.subarray(0, LIMIT)));
  });

  it("a declared length, a null body and a fetcher's own JS stream hash the same way", async () => {
    const body = bytesOf(3000);
    expect(await hashRecorded(() => new Response(body))).toBe(await sha256HexOf(body));
    expect(await hashRecorded(() => new Response(null, { status: 204 }))).toBe(await sha256HexOf(new Uint8Array(0)));
    const big = bytesOf(LIMIT + 5000);
    expect(await hashRecorded(() => new Response(jsBody([big.subarray(0, 40_000), big.subarray(40_000)])))).toBe(
      await sha256HexOf(big.subarray(0, LIMIT)),
    );
  });
});
