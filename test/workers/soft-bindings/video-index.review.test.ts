import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { indexedVideoFrames } from "../../../src/media/video";
import { hex } from "../../../src/platform/bytes";
import { indexMatches, VIDEO_KEY_POSTINGS } from "../../../src/soft-bindings/repo";
import { prng } from "../../support/prng";
import { indexStatements, publicationIds, seedPublication, videoBinding } from "../support/index-seed";

/*
 * Review (rev-video): the frame index's "too common to probe" cut (VIDEO_KEY_POSTINGS) counts ROWS of video_frames
 * (one per publication *position*), not publications. A single publication holds up to 150 positions (30 s at five
 * hashes a second), so two publications whose frames share band values across positions push a key past the cut:
 * a video signed twice stops being found, and another tenant can blind a victim's lookups with two publications.
 */

const db = (env as unknown as { DB: D1Database }).DB;

function randomFrame(r: () => number): Uint8Array {
  return Uint8Array.from({ length: 32 }, () => Math.floor(r() * 256));
}

/** `base` with band `band` (bytes 2*band, 2*band+1: one 16-bit band of PDQ) replaced by random bits. */
function perturbBand(base: Uint8Array, band: number, r: () => number): Uint8Array {
  const out = base.slice();
  out[2 * band] = (out[2 * band]! ^ 0xff) & 0xff;
  out[2 * band + 1] = Math.floor(r() * 256) ^ 0x0f;
  return out;
}

/** Runs the frames through what publication indexes (quality 100: the gate passes; near-repeats dropped). */
function asPublished(frames: Uint8Array[]): Uint8Array[] {
  const sampled = frames.map((f, i) => ({ frame: i, timestampSeconds: i / 5, quality: 100, bitsHex: hex(f) }));
  return indexedVideoFrames(sampled, 50).map((f) => Uint8Array.from(f.bitsHex.match(/../g)!.map((h) => Number.parseInt(h, 16))));
}

let next = 0;
async function publish(frames: Uint8Array[], tenant: string): Promise<string> {
  const n = ++next;
  return seedPublication(db, { ...publicationIds("rv", n), tenantId: tenant, kind: "video", createdAt: n }, [videoBinding("vpdq", frames)]);
}

/**
 * A slowly changing shot (150 sampled frames): every frame is the scene's hash with one band moved (a different band
 * each time), so consecutive frames are > VIDEO_FRAME_REPEAT_DISTANCE apart and all are indexed, while each band value
 * of the scene recurs at ~15/16 of the positions.
 */
function slowShot(seed: number, length = 150): { scene: Uint8Array; frames: Uint8Array[] } {
  const r = prng(seed);
  const scene = randomFrame(r);
  return { scene, frames: Array.from({ length }, (_, i) => perturbBand(scene, i % 16, r)) };
}

describe("review: the video index's posting cut counts positions, not publications", () => {
  it("a video signed twice (two publications of one 30-second shot) is still found by its own frames", async () => {
    const { frames } = slowShot(7);
    const indexed = asPublished(frames);
    expect(indexed.length).toBe(150); // publication indexes every one of them
    const first = await publish(indexed, "ten_rvselfselfself00");
    // Two publications only, far below VIDEO_KEY_POSTINGS of them.
    expect(2).toBeLessThan(VIDEO_KEY_POSTINGS);
    // A verification samples one frame a second: 12 of the published frames, each moved 3 bits by the copy's
    // re-encode (here inside the band that frame moved, so its lookup rests on the 15 bands it shares with the shot).
    const query = indexed
      .filter((_, i) => i % 5 === 0)
      .slice(0, 12)
      .map((f, k) => {
        const out = f.slice();
        out[2 * ((k * 5) % 16) + 1]! ^= 0b1011;
        return out;
      });
    // Control: with one publication the copy is a candidate.
    const once = await indexMatches(db, { exact: [], video: { frames: query } }, { tenantId: "ten_rvselfselfself00" });
    expect(once.video.map((c) => c.publication_id)).toEqual([first]);
    const second = await publish(indexed, "ten_rvselfselfself00");
    const found = await indexMatches(db, { exact: [], video: { frames: query } }, { tenantId: "ten_rvselfselfself00" });
    expect(found.video.map((c) => c.publication_id).sort()).toEqual([first, second].sort());
  });

  it("another tenant's two crafted publications do not blind a victim's lookup of its own video", async () => {
    const r = prng(99);
    // The victim: an ordinary video of 6 distinct frames (its copy is looked up by all six).
    const victim = Array.from({ length: 6 }, () => randomFrame(r));
    const victimPub = await publish(victim, "ten_rvvictimvictim00");
    const before = await indexMatches(db, { exact: [], video: { frames: victim } }, { tenantId: "ten_rvvictimvictim00" });
    expect(before.video.map((c) => c.publication_id)).toEqual([victimPub]);
    // The attacker (another tenant) publishes frames derived from the victim's (e.g. its public video re-cut): each
    // of 5 of the 6 victim frames gets 2 publications of 150 one-band variations, ≈ 280 rows on each of its keys.
    for (const target of victim.slice(0, 5)) {
      const frames = asPublished(Array.from({ length: 150 }, (_, i) => perturbBand(target, i % 16, r)));
      await publish(frames, "ten_rvattackerattack");
      await publish(frames, "ten_rvattackerattack");
    }
    const after = await indexMatches(db, { exact: [], video: { frames: victim } }, { tenantId: "ten_rvvictimvictim00" });
    expect(after.video.map((c) => c.publication_id)).toEqual([victimPub]);
  });
});

describe("review (guards): a deleted publication's video frames go away", () => {
  it("purgeAssetRows removes the asset's video_frames; the reconciler removes frames left without a binding", async () => {
    const { purgeAssetRows } = await import("../../../src/governance/deletions/repo");
    const { reconcileDerivedIndex } = await import("../../../src/derived-index/service");
    const r = prng(5150);
    const frames = Array.from({ length: 5 }, () => randomFrame(r));
    const pub = await publish(frames, "ten_rvdeletedelete00");
    const asset = pub.replace("pub_", "ast_");
    const count = async (p: string) =>
      (await db.prepare("SELECT COUNT(*) AS n FROM video_frames WHERE publication_id = ?").bind(p).first<{ n: number }>())!.n;
    expect(await count(pub)).toBe(5 * 16);
    const purged = await purgeAssetRows(db, "ten_rvdeletedelete00", asset, pub, "del_rv0000000000001", Date.now());
    expect(purged.counts.video_frames).toBe(5 * 16);
    expect(await count(pub)).toBe(0);
    expect((await indexMatches(db, { exact: [], video: { frames } })).video.map((c) => c.publication_id)).not.toContain(pub);
    // Frames whose binding is gone (a crash between statements, a manual delete): the reconciler removes them.
    const stray = "pub_rvstray000000001";
    await db.batch(indexStatements(db, stray, [videoBinding("vpdq", frames)]));
    expect(await count(stray)).toBe(5 * 16);
    await reconcileDerivedIndex({ DB: db }, Date.now(), 10_000);
    expect(await count(stray)).toBe(0);
  });
});
