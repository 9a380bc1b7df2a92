import { beforeAll, describe, expect, it } from "vitest";
import type { C2paSigner } from "../../../src/media/c2pa/signer";
import { forEachChunk, READ_BUFFER_BYTES } from "../../../src/media/c2pa/stream-hash";
import { signStreamed } from "../../../src/media/c2pa/stream-sign";
import { largeMp4, largePlan, MemoryBucket, MiB, setUpStreamSigning } from "./stream-support";

let signer: C2paSigner;

beforeAll(async () => {
  ({ signer } = await setUpStreamSigning());
});

// Under `wrangler dev` the R2 simulator answers in the same process, so every read and part upload completes at once
// and a copy that never waits on a timer keeps the runtime from polling its sockets: the isolate's other requests
// (job polls) waited for the whole object. The in-memory bucket completes at once too (promises only), so a timer
// set before signing fires during the copy only if the signer gives the event loop a turn.
describe("streamed signing gives the event loop turns while it copies", () => {
  it("a timer set before signing fires between the parts, before the manifest is signed", { timeout: 120_000 }, async () => {
    const bucket = new MemoryBucket();
    const source = bucket.put("src", largeMp4(40 * MiB));
    let turns = 0;
    let running = true;
    const tick = () => {
      turns++;
      if (running) setTimeout(tick, 0);
    };
    setTimeout(tick, 0);
    // The timer turns seen when each part is uploaded.
    const turnsAtPart: number[] = [];
    const create = bucket.createMultipartUpload.bind(bucket);
    bucket.createMultipartUpload = async (key: string) => {
      const upload = await create(key);
      const uploadPart = upload.uploadPart;
      upload.uploadPart = (partNumber: number, value: Uint8Array) => {
        turnsAtPart.push(turns);
        return uploadPart(partNumber, value);
      };
      return upload;
    };
    try {
      const result = await signStreamed({
        bucket: bucket as unknown as R2Bucket,
        source: { key: "src", etag: source.etag },
        outputKey: "out",
        plan: largePlan("video/mp4"),
        signer,
      });
      expect(result.status).toBe("signed");
    } finally {
      running = false;
    }
    // Parts 1–5 are uploaded during the copy (the last one after the manifest is signed): a turn per MiB
    // (forEachChunk), so at least a few by part 5; without the turns, none.
    expect(turnsAtPart.length).toBe(6);
    expect(turnsAtPart[4]).toBeGreaterThanOrEqual(3);
  });
});

// workerd serves an R2 body as a byte stream. Read with a default reader, every chunk is a new ArrayBuffer that V8
// collects late (a 512 MiB signing held 112 MiB of heap and ArrayBuffers against 27 MiB idle); read with a BYOB
// reader, the chunks are one buffer read into again.
describe("streamed signing reads a byte-stream body into one reused buffer", () => {
  it("no chunk is allocated by the source, and the output is the same as from a plain stream", { timeout: 120_000 }, async () => {
    const input = largeMp4(20 * MiB);
    const plain = new MemoryBucket();
    const plainSource = plain.put("src", input);
    const reference = await signStreamed({
      bucket: plain as unknown as R2Bucket,
      source: { key: "src", etag: plainSource.etag },
      outputKey: "out",
      plan: largePlan("video/mp4"),
      signer,
    });
    expect(reference.status).toBe("signed");

    const bucket = new MemoryBucket();
    const source = bucket.put("src", input);
    let allocated = 0;
    let readInto = 0;
    const buffers = new Set<ArrayBufferLike>();
    const get = bucket.get.bind(bucket);
    bucket.get = async (key: string, options?: { onlyIf?: { etagMatches?: string } }) => {
      const object = await get(key, options);
      if (!object || !("body" in object)) return object;
      let at = 0;
      const body = new ReadableStream({
        type: "bytes",
        pull(controller) {
          if (at >= input.length) {
            controller.close();
            controller.byobRequest?.respond(0);
            return;
          }
          const request = controller.byobRequest;
          if (request?.view) {
            const view = new Uint8Array(request.view.buffer, request.view.byteOffset, request.view.byteLength);
            const n = Math.min(view.length, input.length - at, 1 << 16);
            view.set(input.subarray(at, at + n));
            buffers.add(view.buffer);
            at += n;
            readInto++;
            request.respond(n);
          } else {
            const n = Math.min(input.length - at, 1 << 16);
            controller.enqueue(input.slice(at, at + n));
            at += n;
            allocated++;
          }
        },
      });
      return { ...object, body };
    };
    const result = await signStreamed({
      bucket: bucket as unknown as R2Bucket,
      source: { key: "src", etag: source.etag },
      outputKey: "out",
      plan: largePlan("video/mp4"),
      signer,
    });
    expect(result.status).toBe("signed");
    if (result.status !== "signed" || reference.status !== "signed") return;
    expect(allocated).toBe(0);
    expect(readInto).toBeGreaterThan(300);
    // The bytes before the appended manifest box are the source's, as from the plain stream.
    const out = bucket.objects.get("out")!.bytes;
    expect(Buffer.compare(out.subarray(0, input.length), input)).toBe(0);
    expect(result.output.byte_length).toBe(reference.output.byte_length);
  });
});

// Under wrangler dev a multipart object's body answers 4 KiB a read: handed on read by read, a 512 MiB signing ran
// its scanner and two digest writes (with their promises) 131,072 times, and the Worker's heap grew by tens of MiB
// before the collector caught up. The reads fill the buffer first; the chunks handed on are whole buffers.
describe("forEachChunk hands on whole read buffers whatever size the body's reads answer", () => {
  it("4 KiB reads reach `each` as READ_BUFFER_BYTES chunks, the same bytes in order", { timeout: 60_000 }, async () => {
    const total = 3 * READ_BUFFER_BYTES + 12_345;
    const input = new Uint8Array(total);
    for (let i = 0; i < total; i++) input[i] = (i * 7 + (i >> 12)) & 0xff;
    let at = 0;
    let reads = 0;
    const body = new ReadableStream({
      type: "bytes",
      pull(controller) {
        const request = controller.byobRequest!;
        if (at >= total) {
          controller.close();
          request.respond(0);
          return;
        }
        const view = new Uint8Array(request.view!.buffer, request.view!.byteOffset, request.view!.byteLength);
        const n = Math.min(view.length, total - at, 4096);
        view.set(input.subarray(at, at + n));
        at += n;
        reads++;
        request.respond(n);
      },
    }) as ReadableStream<Uint8Array>;
    const sizes: number[] = [];
    const got = new Uint8Array(total);
    let filled = 0;
    await forEachChunk(body, async (chunk) => {
      sizes.push(chunk.length);
      got.set(chunk, filled);
      filled += chunk.length;
    });
    expect(reads).toBeGreaterThan(700);
    expect(sizes).toEqual([READ_BUFFER_BYTES, READ_BUFFER_BYTES, READ_BUFFER_BYTES, 12_345]);
    expect(Buffer.compare(got, input)).toBe(0);
  });
});
