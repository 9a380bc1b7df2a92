import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { runStoredVerification } from "../../../src/verifications/stored";
import { api, createTenant, fixture, json, testEnv } from "../support/helpers";
import { signedCopy } from "../support/verify-helpers";

const start = (key: string, objectId: string, idem = crypto.randomUUID()) =>
  api("/v1/verifications", { method: "POST", key, body: { object_id: objectId }, headers: { "idempotency-key": idem } });

async function waitForVerification(key: string, id: string) {
  for (let i = 0; i < 120; i++) {
    const body = await json(await api(`/v1/verifications/${id}`, { key }));
    if (body.state === "completed" || body.state === "failed") return body;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error("verification did not finish");
}

describe("stored-object verification", () => {
  it("a published output is verified on the queue; the result and evidence are readable; the list has it", async () => {
    const { key } = await createTenant();
    const { assetId } = await signedCopy(key, fixture("sample.jpg"), "image/jpeg");
    const asset = await json(await api(`/v1/assets/${assetId}`, { key }));
    const res = await start(key, asset.publication.object_id);
    expect(res.status, await res.clone().text()).toBe(202);
    const accepted = await json(res);
    expect(accepted).toMatchObject({ state: "queued", object_id: asset.publication.object_id, evidence_id: null, result: null });
    const done = await waitForVerification(key, accepted.verification_id);
    expect(done).toMatchObject({ state: "completed", evidence_id: accepted.verification_id, result: { status: "verified_manifest" } });
    const evidence = await json(await api(`/v1/verification-evidence/${done.evidence_id}`, { key }));
    expect(evidence).toMatchObject({ subject_type: "stored_object", overall: "valid", verdict: { status: "verified_manifest" } });
    const listed = await json(await api("/v1/verifications?subject_type=stored_object", { key }));
    expect(listed.items.map((v: { verification_id: string }) => v.verification_id)).toContain(accepted.verification_id);
  });

  it("a file published with a sidecar: only its object id is sent, the stored manifest is found", async () => {
    const { key } = await createTenant();
    const { assetId } = await signedCopy(key, fixture("sample.pdf"), "application/pdf", "rcp_private_sidecar_document_sign_only");
    const asset = await json(await api(`/v1/assets/${assetId}`, { key }));
    const done = await waitForVerification(key, (await json(await start(key, asset.publication.object_id))).verification_id);
    expect(done.result.status, done.result.developer_explanation).toBe("verified_manifest");
  });

  it("a redelivered message writes the record once; a missing object fails with a reason", async () => {
    const { key, tenantId } = await createTenant();
    const { assetId } = await signedCopy(key, fixture("sample.png"), "image/png");
    const asset = await json(await api(`/v1/assets/${assetId}`, { key }));
    const accepted = await json(await start(key, asset.publication.object_id));
    await Promise.all([
      runStoredVerification(testEnv, tenantId, accepted.verification_id),
      runStoredVerification(testEnv, tenantId, accepted.verification_id),
    ]);
    const count = await (env as unknown as { DB: D1Database }).DB.prepare("SELECT COUNT(*) AS n FROM verifications WHERE id = ?")
      .bind(accepted.verification_id)
      .first<{ n: number }>();
    expect(count!.n).toBe(1);

    // Delete the bytes behind the object: the check fails with a reason, never a 500.
    const row = await (env as unknown as { DB: D1Database }).DB.prepare("SELECT r2_key FROM objects WHERE id = ?")
      .bind(asset.publication.object_id)
      .first<{ r2_key: string }>();
    await testEnv.OBJECTS.delete(row!.r2_key);
    const second = await json(await start(key, asset.publication.object_id));
    const failed = await waitForVerification(key, second.verification_id);
    expect(failed).toMatchObject({ state: "failed", error_code: "svc.verifications.object_unavailable", result: null });
  });

  it("errors: unknown or other-tenant object 404, missing Idempotency-Key 422, missing scope 403", async () => {
    const { key } = await createTenant();
    expect((await start(key, "aob_abcdefghij234567")).status).toBe(404);
    const other = await createTenant();
    const { assetId } = await signedCopy(other.key, fixture("sample.jpg"), "image/jpeg");
    const asset = await json(await api(`/v1/assets/${assetId}`, { key: other.key }));
    expect((await start(key, asset.publication.object_id)).status).toBe(404);
    expect((await api("/v1/verifications", { method: "POST", key, body: { object_id: asset.publication.object_id } })).status).toBe(422);
    const reader = await createTenant({ scopes: ["recovery:read"] });
    expect((await start(reader.key, asset.publication.object_id)).status).toBe(403);
    expect((await api("/v1/verifications/vfy_abcdefghij234567", { key })).status).toBe(404);
  });
});
