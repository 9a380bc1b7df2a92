import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { indexedVideoFrames, VIDEO_FRAME_REPEAT_DISTANCE } from "../../../src/media/video";
import { hex } from "../../../src/platform/bytes";
import {
  indexMatches,
  VIDEO_CANDIDATES,
  type VIDEO_FRAME_ALGORITHMS,
  VIDEO_KEY_POSTINGS,
  videoFramesOf,
} from "../../../src/soft-bindings/repo";
import { prng } from "../../support/prng";
import { indexStatements, publicationIds, seedPublication, videoBinding } from "../support/index-seed";

/*
 * #20: the video frame index. A publication's sampled frames (PDQ hashes) are indexed by their 16 bands; a query's
 * frames vote for publications (distinct query frames hitting one of its frames), and the lookup hands back each
 * candidate with its frames, in one statement, only the filter's publications, one binding per publication.
 */

const db = (env as unknown as { DB: D1Database }).DB;

/** A "video": `length` random 256-bit frame hashes from a seed. */
function video(seed: number, length: number): Uint8Array[] {
  const r = prng(seed);
  return Array.from({ length }, () => Uint8Array.from({ length: 32 }, () => Math.floor(r() * 256)));
}

/** A degraded copy of frames: each gets `flips` random bits flipped (a re-encode moves a PDQ hash by a few bits). */
function degrade(frames: Uint8Array[], flips: number, seed: number): Uint8Array[] {
  const r = prng(seed);
  return frames.map((f) => {
    const out = f.slice();
    for (let i = 0; i < flips; i++) {
      const bit = Math.floor(r() * 256);
      out[bit >> 3]! ^= 1 << (bit & 7);
    }
    return out;
  });
}

async function publish(
  n: number,
  frames: Uint8Array[],
  options: { tenant?: string; algorithms?: (typeof VIDEO_FRAME_ALGORITHMS)[number][]; status?: string } = {},
) {
  const { tenant = "ten_vfvfvfvfvfvfvfvf", algorithms = ["tmk-pdqf"], status = "published" } = options;
  const bindings = algorithms.map((algorithm) => videoBinding(algorithm, frames));
  return seedPublication(db, { ...publicationIds("vf", n), tenantId: tenant, kind: "video", status, createdAt: n }, bindings);
}

describe("video frames in the index", () => {
  it("reads frame hashes back from their hex form and refuses anything else", () => {
    const frames = video(1, 3);
    expect(videoFramesOf(frames.map(hex).join(""))).toEqual(frames);
    expect(videoFramesOf("")).toEqual([]);
    for (const bad of ["0", "g".repeat(64), "A".repeat(64), "0".repeat(65)]) expect(videoFramesOf(bad)).toBeNull();
  });

  it("indexes each frame by its 16 band keys and finds a degraded copy and an excerpt, not an unrelated video", async () => {
    const frames = video(11, 30);
    const pub = await publish(1, frames);
    const rows = await db.prepare("SELECT COUNT(*) AS n FROM video_frames WHERE publication_id = ?").bind(pub).first<{ n: number }>();
    // One row per (publication, key): the distinct band keys of its frames.
    const keys = new Set(frames.flatMap((f) => Array.from({ length: 16 }, (_, b) => b * 65536 + ((f[2 * b]! << 8) | f[2 * b + 1]!))));
    expect(rows!.n).toBe(keys.size);
    await publish(2, video(12, 30));

    const copy = degrade(frames, 12, 5);
    const found = await indexMatches(db, { exact: [], video: { frames: copy } });
    expect(found.video[0]).toMatchObject({ publication_id: pub, algorithm: "tmk-pdqf", votes: 30 });
    expect(found.video[0]!.frames).toEqual(frames);
    expect(found.video.some((c) => c.publication_id !== pub)).toBe(false);

    const excerpt = degrade(frames.slice(10, 20), 10, 9);
    expect((await indexMatches(db, { exact: [], video: { frames: excerpt } })).video.map((c) => c.publication_id)).toEqual([pub]);
    expect((await indexMatches(db, { exact: [], video: { frames: video(99, 20) } })).video).toEqual([]);
  });

  it("needs two query frames to agree, honours the tenant and resolvable filters, and names vPDQ before TMK", async () => {
    const frames = video(21, 10);
    // Both bindings of one publication carry the same frames (one set of frame rows, from the vPDQ binding).
    const pub = await publish(3, frames, { tenant: "ten_othertenant00000", algorithms: ["vpdq", "tmk-pdqf"] });
    const one = await indexMatches(db, { exact: [], video: { frames: [frames[4]!] } });
    expect(one.video).toEqual([]);
    const both = await indexMatches(db, { exact: [], video: { frames: frames.slice(0, 2) } });
    expect(both.video).toHaveLength(1);
    expect(both.video[0]!.algorithm).toBe("vpdq");
    expect((await indexMatches(db, { exact: [], video: { frames } }, { tenantId: "ten_vfvfvfvfvfvfvfvf" })).video).toEqual([]);
    const expired = await publish(4, video(22, 10), { status: "expired" });
    expect((await indexMatches(db, { exact: [], video: { frames: video(22, 10) } }, { resolvableOnly: true })).video).toEqual([]);
    expect((await indexMatches(db, { exact: [], video: { frames: video(22, 10) } })).video[0]!.publication_id).toBe(expired);
  });

  it("a key indexed by more than VIDEO_KEY_POSTINGS publications is not a probe, and candidates are capped", async () => {
    // One title card shared by many publications (each otherwise distinct): the card alone finds none of them.
    const card = video(31, 1)[0]!;
    const pubs: string[] = [];
    for (let i = 0; i < VIDEO_KEY_POSTINGS + 1; i++) {
      const own = video(1000 + i, 1)[0]!;
      await db.batch(indexStatements(db, `pub_card${String(i).padStart(12, "0")}`, [videoBinding("vpdq", [card, own])]));
      pubs.push(`pub_card${String(i).padStart(12, "0")}`);
    }
    const rows = await db
      .prepare("SELECT COUNT(DISTINCT publication_id) AS n FROM video_frames WHERE publication_id LIKE 'pub_card%'")
      .first<{ n: number }>();
    expect(rows!.n).toBe(VIDEO_KEY_POSTINGS + 1);
    // The card and a degraded card: two query frames, but every key they share is too common to probe.
    const found = await indexMatches(db, { exact: [], video: { frames: [card, degrade([card], 3, 1)[0]!] } });
    expect(found.video).toEqual([]);
    expect(VIDEO_CANDIDATES).toBe(10);
  });
});

describe("the frames a video indexes", () => {
  it("leaves out frames below the quality gate and near-repeats of the frame kept before", () => {
    const [a, b] = video(41, 2) as [Uint8Array, Uint8Array];
    const near = degrade([a], VIDEO_FRAME_REPEAT_DISTANCE, 2)[0]!;
    const frames = [
      { frame: 0, timestampSeconds: 0, quality: 100, bitsHex: hex(a) },
      { frame: 1, timestampSeconds: 1, quality: 100, bitsHex: hex(near) },
      { frame: 2, timestampSeconds: 2, quality: 20, bitsHex: hex(b) },
      { frame: 3, timestampSeconds: 3, quality: 90, bitsHex: hex(b) },
      { frame: 4, timestampSeconds: 4, quality: 90, bitsHex: "zz" },
    ];
    expect(indexedVideoFrames(frames, 50).map((f) => f.timestampSeconds)).toEqual([0, 3]);
  });
});
