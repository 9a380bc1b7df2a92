import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import {
  CHROMAPRINT_CANDIDATES,
  CHROMAPRINT_SILENCE,
  chromaprintFramesHex,
  chromaprintFramesOf,
  indexMatches,
} from "../../../src/soft-bindings/repo";
import { chromaprintBinding, publicationIds, seedPublication } from "../support/index-seed";

/*
 * #20: the Chromaprint index. A publication's frames are indexed by value (runs and silence left out); a query's
 * frames vote for (publication, shift) pairs, and the lookup hands back each publication's best shift with its
 * frames, in one statement, only the filter's publications.
 */

const db = (env as unknown as { DB: D1Database }).DB;

/** A deterministic "recording": frames from a seeded xorshift, with some runs of repeated frames like real audio. */
function recording(seed: number, length: number): Uint32Array {
  let x = seed >>> 0 || 1;
  const out = new Uint32Array(length);
  for (let i = 0; i < length; i++) {
    if (i > 0 && i % 7 === 3) {
      out[i] = out[i - 1]!;
      continue;
    }
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out[i] = x;
  }
  return out;
}

/** A degraded copy: each frame keeps its value with probability `keep`, else gets a few bits flipped. */
function degrade(frames: Uint32Array, keep: number, seed: number): Uint32Array {
  let x = seed >>> 0 || 7;
  const rand = () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 2 ** 32;
  };
  return frames.map((f) => (rand() < keep ? f : (f ^ (1 << Math.floor(rand() * 32)) ^ (1 << Math.floor(rand() * 32))) >>> 0));
}

async function publish(n: number, frames: Uint32Array, tenant = "ten_cpcpcpcpcpcpcpcp", status = "published") {
  return seedPublication(db, { ...publicationIds("cp", n), tenantId: tenant, kind: "audio", status, createdAt: n }, [
    chromaprintBinding(frames),
  ]);
}

describe("Chromaprint frames in the index", () => {
  it("round-trips frames through their hex form and refuses anything else", () => {
    const frames = Uint32Array.from([0, 1, 0xffffffff, 0x80000000, CHROMAPRINT_SILENCE]);
    expect(chromaprintFramesOf(chromaprintFramesHex(frames))).toEqual(frames);
    expect(chromaprintFramesOf("")).toEqual(new Uint32Array(0));
    for (const bad of ["0", "0000000g", "ABCDEF01", "000000000"]) expect(chromaprintFramesOf(bad)).toBeNull();
  });

  it("indexes each frame once, leaving out runs and silence", async () => {
    const frames = Uint32Array.from([5, 5, 5, 6, CHROMAPRINT_SILENCE, CHROMAPRINT_SILENCE, 7, 6]);
    const pub = await publish(900, frames);
    const rows = await db
      .prepare("SELECT position, value FROM chromaprint_frames WHERE publication_id = ? ORDER BY position")
      .bind(pub)
      .all<{ position: number; value: number }>();
    expect(rows.results).toEqual([
      { position: 0, value: 5 },
      { position: 3, value: 6 },
      { position: 6, value: 7 },
      { position: 7, value: 6 },
    ]);
  });

  it("finds the publication an excerpt comes from, at its shift, among unrelated ones", async () => {
    const pubs: string[] = [];
    for (let i = 0; i < 12; i++) pubs.push(await publish(i, recording(1000 + i, 1500)));
    const source = recording(1000 + 7, 1500);
    // A 10-second excerpt (81 frames) from 60 s in, with 30% of its frames changed (a low-bitrate re-encode).
    const excerpt = degrade(source.slice(484, 565), 0.3, 99);
    const found = await indexMatches(db, { exact: [], chromaprint: { frames: excerpt } });
    expect(found.chromaprint[0]).toMatchObject({ publication_id: pubs[7], shift: 484 });
    expect(found.chromaprint[0]!.frames).toEqual(source);
    expect(found.chromaprint[0]!.votes).toBeGreaterThan(10);
    // An unrelated recording finds no publication with more than a chance vote.
    const unrelated = await indexMatches(db, { exact: [], chromaprint: { frames: recording(5555, 81) } });
    expect(unrelated.chromaprint.every((c) => c.votes <= 1)).toBe(true);
  });

  it("keeps to the filter, to one entry per publication and to the candidate limit", async () => {
    const shared = recording(4242, 400);
    const mine: string[] = [];
    for (let i = 0; i < CHROMAPRINT_CANDIDATES + 3; i++) mine.push(await publish(100 + i, shared, "ten_mineminemineminem"));
    const other = await publish(200, shared, "ten_otherotherother");
    const expired = await publish(201, shared, "ten_mineminemineminem", "expired");
    const query = shared.slice(100, 180);
    const all = await indexMatches(db, { exact: [], chromaprint: { frames: query } });
    expect(all.chromaprint).toHaveLength(CHROMAPRINT_CANDIDATES);
    expect(new Set(all.chromaprint.map((c) => c.publication_id)).size).toBe(CHROMAPRINT_CANDIDATES);
    const scoped = await indexMatches(
      db,
      { exact: [], chromaprint: { frames: query } },
      { tenantId: "ten_mineminemineminem", resolvableOnly: true },
    );
    const ids = scoped.chromaprint.map((c) => c.publication_id);
    expect(ids).not.toContain(other);
    expect(ids).not.toContain(expired);
    expect(ids.every((id) => mine.includes(id))).toBe(true);
    expect(scoped.chromaprint.every((c) => c.shift === 100)).toBe(true);
  });

  it("leaves out a tenant's publication that no longer resolves, below the candidate limit too", async () => {
    // The limit test above has more candidates than the limit, so the expired one could fall past the cap unfiltered.
    const shared = recording(7373, 400);
    const live = await publish(300, shared, "ten_filterfilterfilte");
    const expired = await publish(301, shared, "ten_filterfilterfilte", "expired");
    const query = { exact: [], chromaprint: { frames: shared.slice(50, 130) } };
    const unscoped = (await indexMatches(db, query)).chromaprint.map((c) => c.publication_id);
    expect(unscoped).toEqual(expect.arrayContaining([live, expired]));
    const scoped = await indexMatches(db, query, { tenantId: "ten_filterfilterfilte", resolvableOnly: true });
    expect(scoped.chromaprint.map((c) => c.publication_id)).toEqual([live]);
  });

  it("answers an empty or all-silent query with nothing", async () => {
    expect((await indexMatches(db, { exact: [], chromaprint: { frames: new Uint32Array(0) } })).chromaprint).toEqual([]);
    const silent = new Uint32Array(80).fill(CHROMAPRINT_SILENCE);
    expect((await indexMatches(db, { exact: [], chromaprint: { frames: silent } })).chromaprint).toEqual([]);
  });
});
