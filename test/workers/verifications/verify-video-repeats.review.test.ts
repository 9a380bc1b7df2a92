import { env as rawEnv } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Bindings } from "../../../src/env";
import type { VideoFingerprints } from "../../../src/media/video";
import { hex } from "../../../src/platform/bytes";
import { videoDurableFacts } from "../../../src/verifications/verify-video";
import { prng } from "../../support/prng";
import { seedPublication, videoBinding } from "../support/index-seed";

/*
 * Review (rev-video), a guard that holds today: vPDQ's confirmation and the minimum-frames rule count query frames by
 * position, and indexedVideoFrames only drops a repeat of the frame kept just before, so a query cutting back to ONE
 * frame of a publication between unrelated shots (A, x, A, y, A) votes three times for it. VPDQ_MATCH's 80 % query
 * share keeps that from being a match (3 of 5 = 60 %); this test keeps it so if the threshold is ever lowered.
 */

const db = (rawEnv as unknown as { DB: D1Database }).DB;

const frame = (r: () => number) => Uint8Array.from({ length: 32 }, () => Math.floor(r() * 256));

describe("review: a query's repeated frame is one frame of evidence", () => {
  it("A, x, A, y, A (one still of a publication between two unrelated shots) does not match the publication", async () => {
    const r = prng(4242);
    const published = Array.from({ length: 10 }, () => frame(r));
    await seedPublication(
      db,
      {
        publicationId: "pub_rvrepeat00000001",
        assetId: "ast_rvrepeat00000001",
        tenantId: "ten_rvrepeatrepeat00",
        kind: "video",
        createdAt: 1,
      },
      [videoBinding("vpdq", published)],
    );
    const a = published[3]!;
    const [x, y] = [frame(r), frame(r)];
    // What the media Worker answers for such a clip (one hash a second, all of full quality).
    const computed: VideoFingerprints = {
      status: "computed",
      durationSeconds: 5,
      truncated: false,
      width: 320,
      height: 240,
      codec: "h264",
      frames: [a, x, a, y, a].map((bits, i) => ({ frame: i * 30, timestampSeconds: i, quality: 100, bitsHex: hex(bits) })),
      tmk: null,
    };
    const env = {
      ...(rawEnv as unknown as Bindings),
      VIDEO: {
        fingerprint: async (body: ReadableStream) => {
          await body.cancel();
          return computed;
        },
      },
    } as unknown as Bindings;
    const warnings: string[] = [];
    const facts = await videoDurableFacts(env, { bytes: new Uint8Array(1000), mediaType: "video/mp4" }, warnings, [], () => {});
    expect(facts.fingerprint?.match ?? null, JSON.stringify(facts.fingerprint)).toBeNull();
  });
});
