import { describe, expect, it } from "vitest";
import { attempt, type Sender } from "../../../src/webhooks/delivery";
import { webhookSigner } from "../../../src/webhooks/signing";
import { sha256HexOf } from "../support/helpers";
import { attemptRow } from "../support/webhooks.helpers";

/*
 * Review of #19 (answer hashing): workerd's fetch decompresses a gzip/deflate/br answer itself and keeps the
 * receiver's Content-Length, which is the length of the COMPRESSED body (checked against a real receiver: a 50 MiB
 * body gzipped to 50,989 bytes came back with content-length 50989 and 52,428,800 bytes of body). The declared-length
 * shortcut then read the whole decompressed body with arrayBuffer(): a hostile receiver's gzip bomb (≈1000:1) put
 * tens of MiB into the Worker's memory per delivery, and the recorded hash was of the whole body, not of its first
 * 64 KiB. The fetcher here hands back what workerd's fetch does: the compressed length declared, the body decompressed.
 */

const LIMIT = 64 * 1024;
const row = attemptRow("enc");

async function gzip(bytes: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(new CompressionStream("gzip"))).arrayBuffer());
}

describe("review: an answer the runtime decompressed is read and hashed only up to its first 64 KiB", () => {
  it("a gzip answer declaring its (small) compressed length: the hash is of the first 64 KiB, and the read stops near there", async () => {
    const plain = new Uint8Array(4 * 1024 * 1024).fill(0x61); // 4 MiB of 'a': about 4 KiB gzipped
    const compressed = await gzip(plain);
    expect(compressed.byteLength).toBeLessThan(LIMIT);
    let pulled = 0;
    const counting = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        pulled += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const body = new Blob([compressed]).stream().pipeThrough(new DecompressionStream("gzip")).pipeThrough(counting);
    const sender: Sender = {
      secretCount: 1,
      sign: await webhookSigner([`whsec_${btoa("k".repeat(32))}`]),
      check: { status: "allowed", url: new URL("https://receiver.example/hook") },
    };
    const result = await attempt(
      row,
      "{}",
      1,
      sender,
      async () => new Response(body, { headers: { "content-encoding": "gzip", "content-length": String(compressed.byteLength) } }),
    );
    if (result.kind !== "answer") throw new Error(`not answered: ${JSON.stringify(result)}`);
    expect(result.bodySha256).toBe(await sha256HexOf(plain.subarray(0, LIMIT)));
    // Bounded in bytes: far from the 4 MiB the body decompresses to (a stream may read a few chunks ahead).
    expect(pulled).toBeLessThan(1024 * 1024);
  });
});
