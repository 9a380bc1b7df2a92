import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { indexMatches } from "../../../src/soft-bindings/repo";
import { chromaprintBinding, seedPublication } from "../support/index-seed";

/*
 * Review of #20 (the Chromaprint index): the lookup reads at most CHROMAPRINT_PAIR_LIMIT (frame, publication) pairs
 * in scan order (query frame by query frame), then keeps the 20 best (publication, shift) groups, and only then
 * joins soft_bindings/assets. So publications that repeat a few of the query's frame values many times (a loop of a
 * few seconds of a song, a repetitive beat) use up the pair budget on the query's first frames and crowd the real
 * source out of the 20 groups: the source of an exact excerpt is not found.
 */

const db = (env as unknown as { DB: D1Database }).DB;

function recording(seed: number, length: number): Uint32Array {
  let x = seed >>> 0 || 1;
  const out = new Uint32Array(length);
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out[i] = x;
  }
  return out;
}

async function publish(id: string, frames: Uint32Array, tenant: string, createdAt: number) {
  return seedPublication(db, { publicationId: `pub_${id}`, assetId: `ast_${id}`, tenantId: tenant, kind: "audio", createdAt }, [
    chromaprintBinding(frames),
  ]);
}

describe("review: the Chromaprint lookup under frames repeated across the index", () => {
  it("finds the source of an exact 10-second excerpt even when other publications loop its first seconds", async () => {
    // The source: 20 minutes of a song (9 700 frames), published first.
    const song = recording(31337, 9700);
    const source = await publish("rvsource0000000001", song, "ten_victimvictimvict", 1);
    // Another tenant publishes three 20-minute loops of 4 seconds of that song (32 frames, its seconds 12..16).
    for (let k = 0; k < 3; k++) {
      const loop = new Uint32Array(9700);
      for (let i = 0; i < loop.length; i++) loop[i] = song[100 + (i % 32)]!;
      await publish(`rvloop${String(k).padStart(12, "0")}`, loop, "ten_attackerattacker", 10 + k);
    }
    // A verifier holds an exact 10-second excerpt from second 12 on: 80 frames, all equal to the source's.
    const excerpt = song.slice(100, 180);
    const found = await indexMatches(db, { exact: [], chromaprint: { frames: excerpt } });
    expect(found.chromaprint.map((c) => c.publication_id)).toContain(source);
  });

  it("returns the earliest of more than 20 identical publications first", async () => {
    const song = recording(4711, 1200);
    const ids: string[] = [];
    // Publication ids are random in production: the earliest one need not sort first by id.
    for (let k = 0; k < 24; k++)
      ids.push(await publish(`rvsame${String(99 - k).padStart(12, "0")}`, song, "ten_manymanymanymany", 100 + k));
    const found = await indexMatches(db, { exact: [], chromaprint: { frames: song.slice(200, 300) } });
    expect(found.chromaprint[0]?.publication_id).toBe(ids[0]);
  });
});
