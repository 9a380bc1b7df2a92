import { describe, expect, it } from "vitest";
import { api, createTenant, fixture, json, uploadAsset, waitForJob } from "../support/helpers";

describe("a completed job's own verification evidence", () => {
  it("is readable at once through evidence, history and the list", async () => {
    const { key } = await createTenant();
    const { assetId } = await uploadAsset(key, fixture("sample.png"), "image/png");
    const job = await json(
      await api("/v1/sign", {
        method: "POST",
        key,
        body: { asset_id: assetId, recipe_id: "rcp_system_sign_only" },
        headers: { "idempotency-key": crypto.randomUUID() },
      }),
    );
    const done = await waitForJob(key, job.job_id);
    const id = done.result.verification_id;

    const evidence = await json(await api(`/v1/verification-evidence/${id}`, { key }));
    expect(evidence).toMatchObject({
      verification_id: id,
      subject_type: "asset",
      overall: "valid",
      asset_id: assetId,
      job_id: job.job_id,
      validation_path: "c2pa.embedded",
    });
    expect(evidence.manifest.validation_state).toBe("Trusted");
    expect(evidence.manifest.asset_binding_checked).toBe(true);
    expect(evidence.manifest.success_codes).toEqual(expect.arrayContaining(["claimSignature.validated", "timeStamp.validated"]));
    expect(evidence.manifest.failure_codes).toEqual([]);
    expect(evidence.object.media_type).toBe("image/png");

    const history = await json(await api(`/v1/verification-history/${id}`, { key }));
    expect(history).toMatchObject({
      verification_id: id,
      verification_url: `/v1/verification-history/${id}`,
      overall: "valid",
      job_id: job.job_id,
    });
    const list = await json(await api("/v1/verifications?overall=valid&subject_type=asset", { key }));
    expect(list.items.map((v: { verification_id: string }) => v.verification_id)).toEqual([id]);
    expect((await json(await api("/v1/verifications?overall=invalid", { key }))).items).toEqual([]);
  });

  it("another tenant's verification answers like a missing one", async () => {
    const owner = await createTenant();
    const other = await createTenant();
    const { assetId } = await uploadAsset(owner.key, fixture("sample.png"), "image/png");
    const job = await json(
      await api("/v1/sign", {
        method: "POST",
        key: owner.key,
        body: { asset_id: assetId, recipe_id: "rcp_system_sign_only" },
        headers: { "idempotency-key": crypto.randomUUID() },
      }),
    );
    const id = (await waitForJob(owner.key, job.job_id)).result.verification_id;
    for (const path of [`/v1/verification-evidence/${id}`, `/v1/verification-history/${id}`]) {
      const foreign = await api(path, { key: other.key });
      const missing = await api(path.replace(id, "vfy_aaaaaaaaaaaaaaaa"), { key: other.key });
      expect(foreign.status).toBe(404);
      expect({ ...(await json(foreign)), request_id: "" }).toEqual({ ...(await json(missing)), request_id: "" });
    }
  });
});
