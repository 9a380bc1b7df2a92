/**
 * Issue #15 end to end, over HTTP against the real Worker bundle: enrol a creator → sign a JPEG with `creator_id` →
 * the downloaded file holds neither the e-mail nor the name (byte search, UTF-8 and UTF-16) and the reference reader
 * c2pa-node (native c2pa-rs) judges it Trusted with our `svc.creator` assertion → verify shows the creator as the
 * share policy allows → the disclosure (creators:disclose) returns the identity and a salt with which the
 * manifest's commitment recomputes → withdraw → disclosure `withdrawn`, verify shows no name, new signs refused.
 */
import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { referenceVerdict } from "../../support/signer-conformance";
import { download, fixtureBytes, type SignedService, startSignedService, TERMINAL_JOB_STATES, uploadAsset } from "../../support/svc-client";

const EMAIL = "Ada.Example@Newsroom.example";
const NAME = "Ada Zéphyrine Example";

let svc: SignedService;

beforeAll(async () => {
  svc = await startSignedService({ bindings: { SVC_DATA_MASTER_KEYS: `e2e1:${randomBytes(32).toString("base64url")}` } });
}, 120_000);

afterAll(async () => {
  await svc?.dispose();
});

async function sign(assetId: string, creatorId: string) {
  return svc.call("POST", "/v1/sign", {
    body: { asset_id: assetId, recipe_id: "rcp_system_sign_only", creator_id: creatorId },
    idempotencyKey: true,
  });
}

async function waitForJob(jobId: string) {
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
    const job = await svc.call("GET", `/v1/jobs/${jobId}`);
    if (TERMINAL_JOB_STATES.includes(job.body.state)) return job.body;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`job ${jobId} did not end`);
}

function contains(haystack: Uint8Array, needle: Buffer): boolean {
  return Buffer.from(haystack).indexOf(needle) >= 0;
}

describe("creators end to end (#15)", () => {
  it("enrol → sign with creator_id → no personal data in the file, Trusted to c2pa-rs → disclosure checks the commitment → withdraw", async () => {
    const enrolled = await svc.call("POST", "/v1/creator-identities", {
      body: { email: EMAIL, name: NAME, consent: { basis: "consent", obtained_at: "2026-11-01T09:00:00Z" } },
      idempotencyKey: true,
    });
    expect(enrolled.status, enrolled.text).toBe(201);
    const creatorId: string = enrolled.body.creator_id;
    expect(creatorId).toMatch(/^crid_[a-z2-7]{16}$/);
    expect(enrolled.text).not.toContain("Ada");

    const { assetId } = await uploadAsset(svc, fixtureBytes("sample-1mp.jpg"), "image/jpeg", "portrait.jpg");
    const started = await sign(assetId, creatorId);
    expect(started.status, started.text).toBe(202);
    const job = await waitForJob(started.body.job_id);
    expect(job.state, JSON.stringify(job)).toBe("completed");
    const { bytes } = await download(svc, assetId);

    // Neither the e-mail nor the name, in any case or common encoding, is anywhere in the published file.
    for (const text of [EMAIL, EMAIL.toLowerCase(), NAME, "Ada", "Zéphyrine", "Newsroom"]) {
      expect(contains(bytes, Buffer.from(text, "utf8")), text).toBe(false);
      expect(contains(bytes, Buffer.from(text, "utf16le")), `${text} (UTF-16)`).toBe(false);
    }

    // The reference reader: Trusted, and the active manifest carries our creator assertion.
    const reference = await referenceVerdict(svc.pki.rootCertPem, "image/jpeg", bytes);
    expect(reference.state, JSON.stringify(reference.failure)).toBe("Trusted");
    const assertion = reference.store.manifests[reference.activeLabel!].assertions.find(
      (a: { label: string }) => a.label === "svc.creator",
    );
    expect(assertion?.data).toEqual({
      creator_ref: expect.stringMatching(/^cref_[a-z2-7]{26}$/),
      commitment: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    const { creator_ref: creatorRef, commitment } = assertion.data as { creator_ref: string; commitment: string };

    // Verify: attributed by the service, the name disclosed per the default share policy (`name`), never the e-mail.
    const verified = await svc.verify(bytes);
    expect(verified.status).toBe(200);
    expect(verified.body.status).toBe("verified_manifest");
    expect(verified.body.claims.creator).toEqual({
      creator_ref: creatorRef,
      commitment,
      attributed_by_service: true,
      disclosure_state: "disclosed",
      name: NAME,
      brand_name: expect.any(String),
    });
    expect(verified.text.toLowerCase()).not.toContain(EMAIL.toLowerCase());

    // Disclosure to the owning tenant (console policy default name_and_email): the identity and the salt.
    const disclosed = await svc.call("GET", `/v1/creator-identities/${creatorId}/disclosure`);
    expect(disclosed.status, disclosed.text).toBe(200);
    expect(disclosed.body).toMatchObject({
      schema_version: "svc.creator-disclosure.v1",
      audience: "owning_tenant",
      disclosure_state: "disclosed",
      creator_ref: creatorRef,
      end_user: { name: NAME, email: EMAIL.toLowerCase() },
    });
    const c = disclosed.body.commitment;
    expect(c.value).toBe(commitment);
    const canonical = JSON.stringify({ email: disclosed.body.end_user.email, name: disclosed.body.end_user.name });
    const recomputed = createHash("sha256").update(Buffer.from(c.salt, "hex")).update(canonical, "utf8").digest("hex");
    expect(recomputed).toBe(commitment);

    // Withdraw: disclosure stops, the file's verification shows no name, and new work cannot be attributed.
    const withdrawn = await svc.call("POST", `/v1/creator-identities/${creatorId}/withdraw`, { idempotencyKey: true });
    expect(withdrawn.status, withdrawn.text).toBe(200);
    expect(withdrawn.body).toMatchObject({ creator_id: creatorId, status: "withdrawn", withdrawn_at: expect.any(String) });
    const after = await svc.call("GET", `/v1/creator-identities/${creatorId}/disclosure`);
    expect(after.body).toMatchObject({ disclosure_state: "withdrawn", end_user: null });
    const reverified = await svc.verify(bytes);
    expect(reverified.body.claims.creator).toMatchObject({ attributed_by_service: true, disclosure_state: "withdrawn", name: null });
    const second = await uploadAsset(svc, fixtureBytes("sample.jpg"), "image/jpeg", "later.jpg");
    const refused = await sign(second.assetId, creatorId);
    expect(refused.status, refused.text).toBe(422);
    expect(refused.body).toMatchObject({
      code: "svc.sign.creator_inactive",
      field_details: [expect.objectContaining({ field: "creator_id" })],
    });
  }, 180_000);
});
