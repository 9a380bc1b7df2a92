import { describe, expect, it } from "vitest";
import { admissionBody, playDevice } from "../capture/admission-helpers";
import { createTenant, testEnv } from "../support/helpers";
import { count, request, sweep, table } from "./faults-http.helpers";

/*
 * #22, faults over HTTP: a capture admission that passes (POST /v1/capture-admissions). Each D1/R2/queue/Durable
 * Object call fails in turn, and each write lands before the isolate dies: a clean answer, and the same submission
 * sent again yields its one decision, one job, and never an asset claimed (`processing`) without its job. The claim
 * rides in the batch that stores the decision and the job (capture/repo writeAdmission), guarded by changes() as sign
 * admission's is; before, it was a statement of its own, and an isolate dying after it stranded the asset until the
 * jobs sweep freed it 15 minutes later (and the retry was refused as busy).
 */
async function submission() {
  const tenant = await createTenant();
  const device = await playDevice(tenant.key);
  const body = await admissionBody(tenant.key, device);
  const asset = await testEnv.DB.prepare("SELECT asset_id FROM objects WHERE id = ?")
    .bind(body.upload_object_id)
    .first<{ asset_id: string }>();
  return { ...tenant, body, assetId: asset!.asset_id };
}

describe("faults over HTTP: capture admissions", () => {
  it("POST /v1/capture-admissions (pass): one decision, one job, never a claim without its job", async () => {
    const result = await sweep({
      name: "POST /v1/capture-admissions",
      setup: submission,
      request: (s) => request("/v1/capture-admissions", { method: "POST", key: s.key, body: s.body }),
      success: [200, 201],
      check: async (s, retried) => {
        expect(retried.body.decision, retried.text.slice(0, 300)).toBe("pass");
        expect(await count("capture_admissions", "tenant_id = ?", s.tenantId), "one decision").toBe(1);
        expect(await count("jobs", "tenant_id = ? AND asset_id = ?", s.tenantId, s.assetId), "one job").toBe(1);
        expect(
          await count(
            "assets",
            "tenant_id = ? AND status = 'processing' AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.asset_id = assets.id)",
            s.tenantId,
          ),
          "no asset claimed without its job",
        ).toBe(0);
        const admission = await testEnv.DB.prepare("SELECT job_id FROM capture_admissions WHERE tenant_id = ?")
          .bind(s.tenantId)
          .first<{ job_id: string }>();
        const job = await testEnv.DB.prepare("SELECT id FROM jobs WHERE asset_id = ?").bind(s.assetId).first<{ id: string }>();
        expect(admission?.job_id, "the decision names its job").toBe(job?.id);
      },
    });
    console.log(table("POST /v1/capture-admissions", result));
    expect(
      result.sites.some((s) => /update "assets" set "status"/i.test(s.detail) && s.op !== "d1.batch"),
      "no claim of its own",
    ).toBe(false);
  });
});
