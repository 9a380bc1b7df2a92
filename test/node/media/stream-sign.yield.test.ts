import { beforeAll, describe, expect, it } from "vitest";
import type { C2paSigner } from "../../../src/media/c2pa/signer";
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
