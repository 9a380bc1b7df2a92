import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Bindings } from "../../../src/env";
import { imageServices } from "../../../src/media";
import { ensureC2paEngineLazily } from "../../../src/verifications/verify-engines";
import { type RevocationCheck, type VerifyServices, verifySubject } from "../../../src/verifications/verify-service";
import { createTenant, fixture } from "../support/helpers";
import { memoRows, publishedJpeg } from "../support/pixel-memo-helpers";

/*
 * Review of df135de (the exact lookups in the pixel-memo read's batch, values read from the memo row by D1): inputs
 * where the new path must answer what the old one (the memo read, then the index lookups) answered.
 */

const db = (env as unknown as { DB: D1Database }).DB;

async function services(): Promise<VerifyServices> {
  const quiet: RevocationCheck = async () => ({ status: "unknown", warning: "test: no responder" });
  return { ensureEngine: await ensureC2paEngineLazily(), image: await imageServices(), revocation: quiet };
}

describe("review df135de: the memo batch's speculative lookups", () => {
  it("a memo row whose facts are not JSON is refused (measured now), not a failed verification", async () => {
    const { key } = await createTenant();
    const published = await publishedJpeg(key, fixture("photo-aitzgorri-900x675.jpg"));
    expect(await memoRows(published.publicationId)).toHaveLength(1);
    const subject = { bytes: published.bytes, mediaType: "image/jpeg" };
    const base = await services();
    // The old code parsed the facts in JS and refused a memo it could not parse (pixel-memo.ts memoOf): the
    // verification then measured the pixels. SQLite's `->>` raises on malformed JSON, failing the whole batch.
    await db
      .prepare("UPDATE verify_pixel_memos SET facts = ? WHERE publication_id = ?")
      .bind('{"status":"decoded","watermark":{"status":"detected"', published.publicationId)
      .run();
    const corrupt = await verifySubject(env as unknown as Bindings, base, subject);
    await db.prepare("DELETE FROM verify_pixel_memos WHERE publication_id = ?").bind(published.publicationId).run();
    const measured = await verifySubject(env as unknown as Bindings, base, subject);
    expect(corrupt.status).toBe("verified_manifest_and_watermark_match");
    expect(corrupt).toEqual(measured);
  }, 300_000);
});
