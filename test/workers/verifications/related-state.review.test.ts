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
 * Review of dc15d13 (related publications' state from the index lookup's rows). Before it, the state of a related
 * publication (still published? when?) was read after the verdict, i.e. after the OCSP answer and the anchor read
 * were awaited; a publication that stopped being published meanwhile (retention expiry, withdrawal) was no longer
 * shown ("a withdrawn or expired publication says nothing more to anyone"). Now the state is the lookup's snapshot,
 * taken before the OCSP wait (a network answer: up to its timeout), so such a publication is shown with its manifest
 * id and publication time although it is no longer published when the answer is built.
 */

const db = (env as unknown as { DB: D1Database }).DB;

/** A D1 that reports when the verification's index lookup batch (the one with the ISCC lookup) has run. */
function watching(): { d1: D1Database; lookedUp: Promise<void>; isccLooked: () => string | null } {
  let iscc: string | null = null;
  let done!: () => void;
  const lookedUp = new Promise<void>((resolve) => {
    done = resolve;
  });
  const lookup = new WeakSet<object>();
  const d1 = observedD1(db, {
    onBind: (sql, binds, bound) => {
      // The image index lookup: the batch with the exact ISCC statement (whatever else rides in it).
      if (binds[0] === "iscc-image" && !sql.includes("verify_pixel_memos")) lookup.add(bound);
      if (binds[0] === "iscc-image" && typeof binds[1] === "string" && !sql.includes("pdq_") && !sql.includes("verify_pixel_memos"))
        iscc = binds[1];
    },
    afterBatch: (statements) => {
      if (statements.some((s) => lookup.has(s))) done();
    },
  });
  return { d1, lookedUp, isccLooked: () => iscc };
}

/** Another tenant's publication of the same content: its asset and its ISCC binding (as the publication batch writes). */
async function publishIscc(iscc: string): Promise<string> {
  return seedPublication(db, { ...publicationIds("rs"), tenantId: "ten_reviewrelated00", publishedAt: 1700000000000, createdAt: 1 }, [
    fingerprintBinding("iscc-image", iscc),
  ]);
}

describe("review dc15d13: related publications' state", () => {
  it("a related publication that stops being published while the OCSP answer is awaited is not shown (as before)", async () => {
    const owner = await createTenant();
    const mine = await signedCopy(owner.key, fixture("photo-bridge.jpg"), "image/jpeg");
    const services = { ensureEngine: await ensureC2paEngineLazily(), image: await imageServices() };
    const subject = { bytes: mine.bytes, mediaType: "image/jpeg" };
    const quiet: RevocationCheck = async () => ({ status: "unknown", warning: "test: no responder" });

    // The ISCC code the verification looks up for these pixels.
    const first = watching();
    await verifySubject({ ...(env as unknown as Bindings), DB: first.d1 } as Bindings, { ...services, revocation: quiet }, subject);
    const iscc = first.isccLooked();
    expect(iscc, "the verification looked its ISCC code up").not.toBeNull();
    const theirs = await publishIscc(iscc!);

    // Control: the other publication of the same content is a related publication.
    const control = await verifySubject(env as unknown as Bindings, { ...services, revocation: quiet }, subject);
    expect(control.related.map((r) => r.publication_id)).toContain(theirs);
    expect(control.related_publications, JSON.stringify(control.related_publications)).toEqual([
      {
        manifest_id: `urn:c2pa:${theirs}`,
        published_at: new Date(1700000000000).toISOString(),
        kind: "fingerprint",
        algorithm: "iscc-image",
        distance: 0,
      },
    ]);

    // The same verification, while the responder is slow: the other publication's retention ends after the index
    // lookup ran and before the answer is built.
    const { d1, lookedUp } = watching();
    const slow: RevocationCheck = async () => {
      // Hang guard only: the lookup batch runs within seconds.
      await Promise.race([lookedUp, new Promise((resolve) => setTimeout(resolve, 60_000))]);
      await db.prepare("UPDATE assets SET status = 'retention_expired' WHERE publication_id = ?").bind(theirs).run();
      return { status: "unknown", warning: "test: no responder" };
    };
    const outcome = await verifySubject(
      { ...(env as unknown as Bindings), DB: d1 } as Bindings,
      { ...services, revocation: slow },
      subject,
    );
    const gone = await db.prepare("SELECT status FROM assets WHERE publication_id = ?").bind(theirs).first<{ status: string }>();
    expect(gone?.status).toBe("retention_expired");
    expect(outcome.related.map((r) => r.publication_id)).toContain(theirs);
    // Before dc15d13 the state was read after the OCSP answer: the expired publication said nothing more.
    expect(outcome.related_publications, JSON.stringify(outcome.related_publications)).toEqual([]);
  }, 240_000);
});
