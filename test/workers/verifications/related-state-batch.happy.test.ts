import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Bindings } from "../../../src/env";
import { imageServices } from "../../../src/media";
import { ensureC2paEngineLazily } from "../../../src/verifications/verify-engines";
import { type RevocationCheck, verifySubject } from "../../../src/verifications/verify-service";
import { createTenant, fixture } from "../support/helpers";
import { fingerprintBinding, publicationIds, seedPublication } from "../support/index-seed";
import { observedD1 } from "../support/observed-d1";
import { signedCopy } from "../support/verify-helpers";

/*
 * #19: when the OCSP answer is in before the index lookup is sent, the state of the publications the exact lookups
 * find (still published? when?) rides in the lookup's batch instead of a read after the verdict. The answer must be
 * the same as the read after it gives: a publication no longer published is not shown, one still published is, with
 * its time. (related-state.review.test.ts: an answer still awaited keeps the read after it.)
 */

const db = (env as unknown as { DB: D1Database }).DB;
const STATE_READ = "FROM assets WHERE status = 'published' AND publication_id IN";

/** Another tenant's publication of the same content, in `status`: its asset and its ISCC binding. */
async function publishIscc(iscc: string, status: string, publishedAt: number): Promise<string> {
  return seedPublication(db, { ...publicationIds("sb"), tenantId: "ten_statebatch0000", status, publishedAt, createdAt: 1 }, [
    fingerprintBinding("iscc-image", iscc),
  ]);
}

describe("verify: related publications' state in the lookup's batch (#19)", () => {
  it("an OCSP answer already in: no read after the verdict, and the same publications shown as that read shows", async () => {
    const owner = await createTenant();
    const mine = await signedCopy(owner.key, fixture("photo-bridge.jpg"), "image/jpeg");
    const services = { ensureEngine: await ensureC2paEngineLazily(), image: await imageServices() };
    const subject = { bytes: mine.bytes, mediaType: "image/jpeg" };
    const quiet: RevocationCheck = async () => ({ status: "unknown", warning: "test: no responder" });

    let iscc: string | null = null;
    const sent: string[] = [];
    const d1 = observedD1(db, {
      onBind: (sql, binds) => {
        sent.push(sql);
        if (binds[0] === "iscc-image" && typeof binds[1] === "string" && !sql.includes("pdq_") && !sql.includes("verify_pixel_memos"))
          iscc ??= binds[1];
      },
    });
    const observed = { ...(env as unknown as Bindings), DB: d1 } as Bindings;
    await verifySubject(observed, { ...services, revocation: quiet }, subject);
    expect(iscc, "the verification looked its ISCC code up").not.toBeNull();
    const shown = await publishIscc(iscc!, "published", 1700000000000);
    const withdrawn = await publishIscc(iscc!, "withdrawn", 1700000001000);

    sent.length = 0;
    const outcome = await verifySubject(observed, { ...services, revocation: quiet }, subject);
    const related = outcome.related.map((r) => r.publication_id);
    expect(related).toContain(shown);
    expect(related).toContain(withdrawn);
    expect(outcome.related_publications.map((r) => r.manifest_id)).toContain(`urn:c2pa:${shown}`);
    expect(outcome.related_publications.map((r) => r.manifest_id)).not.toContain(`urn:c2pa:${withdrawn}`);
    expect(outcome.related_publications.find((r) => r.manifest_id === `urn:c2pa:${shown}`)?.published_at).toBe(
      new Date(1700000000000).toISOString(),
    );
    expect(
      sent.filter((s) => s.includes(STATE_READ)),
      "no read of the state after the verdict",
    ).toEqual([]);

    // The same verification with the state read after the verdict (an answer still awaited) shows the same.
    const late: RevocationCheck = async () => {
      await new Promise((resolve) => setTimeout(resolve, 50));
      return { status: "unknown", warning: "test: no responder" };
    };
    sent.length = 0;
    const after = await verifySubject(observed, { ...services, revocation: late }, subject);
    expect(sent.filter((s) => s.includes(STATE_READ)).length, "read after the verdict").toBe(1);
    expect(after.related_publications).toEqual(outcome.related_publications);
  }, 240_000);
});
