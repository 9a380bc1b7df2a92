/**
 * Review of streamed FLAC signing's two reads (src/media/c2pa/stream-sign.ts signFlacStreamed): the source is read
 * once to hash and once to copy, both pinned to the etag. A source replaced between the reads, or a second read that
 * ends early, must end as source_unavailable with nothing written and no multipart upload left open.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { C2paSigner } from "../../../src/media/c2pa/signer";
import { signStreamed } from "../../../src/media/c2pa/stream-sign";
import { largeFlac } from "../../support/flac-media";
import { largePlan, MemoryBucket, MiB, setUpStreamSigning } from "./stream-support";

let signer: C2paSigner;
beforeAll(async () => {
  ({ signer } = await setUpStreamSigning());
});

/** A bucket whose `gets`-th get of the source sees `change` applied first. */
class ChangingBucket extends MemoryBucket {
  gets = 0;
  constructor(
    readonly at: number,
    readonly change: (bucket: ChangingBucket) => void,
  ) {
    super();
  }
  override async get(key: string, options?: { onlyIf?: { etagMatches?: string } }) {
    if (key === "src" && ++this.gets === this.at) this.change(this);
    return super.get(key, options);
  }
}

async function run(bucket: MemoryBucket, etag: string) {
  return signStreamed({
    bucket: bucket as unknown as R2Bucket,
    source: { key: "src", etag },
    outputKey: "out",
    plan: largePlan("audio/flac"),
    signer,
    partBytes: 5 * MiB,
  });
}

describe("streamed FLAC signing's two reads", () => {
  it("a source replaced between the hashing read and the copying read → source_unavailable, nothing written", {
    timeout: 60_000,
  }, async () => {
    const flac = largeFlac(12 * MiB, 17);
    const bucket = new ChangingBucket(2, (b) => {
      const other = flac.slice();
      other[other.length - 5000]! ^= 1;
      b.put("src", other);
    });
    const { etag } = bucket.put("src", flac);
    const result = await run(bucket, etag);
    expect(result.status).toBe("source_unavailable");
    expect(bucket.objects.has("out")).toBe(false);
    expect(bucket.openUploads.size).toBe(0);
  });

  it("a copying read that ends early (same etag) → source_unavailable, nothing written", { timeout: 60_000 }, async () => {
    const flac = largeFlac(12 * MiB, 17);
    const bucket = new ChangingBucket(2, (b) => {
      const stored = b.objects.get("src")!;
      // Same etag and size reported, but the body ends 1 MiB short (a stream cut by the storage).
      b.objects.set("src", { ...stored, bytes: stored.bytes.subarray(0, stored.bytes.length - MiB) });
    });
    const { etag } = bucket.put("src", flac);
    const result = await run(bucket, etag);
    expect(result.status).toBe("source_unavailable");
    expect(bucket.objects.has("out")).toBe(false);
    expect(bucket.openUploads.size).toBe(0);
  });
});
