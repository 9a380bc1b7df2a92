import { describe, expect, it } from "vitest";
import { registryFor } from "../../../src/catalog/installed";
import { database } from "../../../src/db/client";
import { admitSign } from "../../../src/jobs/admission";
import { type JobServices, runJob } from "../../../src/jobs/runner";
import { mediaServices } from "../../../src/media";
import { api, createTenant, fixture, json, testEnv, uploadAsset } from "../support/helpers";

/** Admits a job without enqueueing it, so the test drives the runner itself (as the queue would). */
async function admittedJob() {
  const tenant = await createTenant();
  const { assetId } = await uploadAsset(tenant.key, fixture("sample.jpg"), "image/jpeg");
  const result = await admitSign(database(testEnv.DB), registryFor(testEnv), tenant.tenantId, {
    asset_id: assetId,
    recipe_id: "rcp_system_sign_only",
  });
  if (result.status !== "admitted") throw new Error(JSON.stringify(result));
  return { tenant, assetId, jobId: result.job.id };
}

async function countingServices(options: { failReadsFirst?: number; beforeRead?: () => Promise<void> } = {}) {
  const real = await mediaServices(testEnv);
  let failures = options.failReadsFirst ?? 0;
  const calls = { sign: 0, read: 0 };
  const services: JobServices = {
    image: real.image,
    signer: {
      embeddedMediaTypes: real.signer.embeddedMediaTypes,
      sidecar: real.signer.sidecar,
      signEmbedded: (input) => {
        calls.sign++;
        return real.signer.signEmbedded(input);
      },
      signSidecar: (input) => {
        calls.sign++;
        return real.signer.signSidecar(input);
      },
    },
    reader: {
      read: async (input) => {
        calls.read++;
        await options.beforeRead?.();
        if (failures > 0) {
          failures--;
          throw new Error("the isolate died here");
        }
        return real.reader.read(input);
      },
    },
  };
  return { services, calls };
}

async function count(table: string, where: string, value: string) {
  const row = await testEnv.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE ${where} = ?`).bind(value).first<{ n: number }>();
  return row!.n;
}

describe("job runner under at-least-once delivery", () => {
  it("a consumer that dies after the sign step is finished by the redelivery, exactly once", async () => {
    const { tenant, assetId, jobId } = await admittedJob();
    const { services, calls } = await countingServices({ failReadsFirst: 1 });

    await expect(runJob(testEnv, services, tenant.tenantId, jobId)).rejects.toThrow("the isolate died here");
    const midway = await json(await api(`/v1/jobs/${jobId}`, { key: tenant.key }));
    expect(midway.state).toBe("running");
    expect(midway.result).toBeNull();
    expect(midway.steps.map((s: { state: string }) => s.state)).toEqual(["completed", "completed", "running"]);

    await runJob(testEnv, services, tenant.tenantId, jobId); // the redelivery
    await runJob(testEnv, services, tenant.tenantId, jobId); // and a duplicate delivery
    const done = await json(await api(`/v1/jobs/${jobId}`, { key: tenant.key }));
    expect(done.state).toBe("completed");
    expect(calls.sign).toBe(1); // the finished sign step was not redone
    expect(await count("receipts", "job_id", jobId)).toBe(1);
    expect(await count("verifications", "job_id", jobId)).toBe(1);
    expect(await count("objects", "asset_id", assetId)).toBe(2); // source + signed output
    const asset = await json(await api(`/v1/assets/${assetId}`, { key: tenant.key }));
    expect(asset.publication.publication_id).toBe(done.result.publication_id);
  });

  it("two deliveries running at once publish once", async () => {
    const { tenant, assetId, jobId } = await admittedJob();
    const a = await countingServices();
    const b = await countingServices();
    await Promise.all([runJob(testEnv, a.services, tenant.tenantId, jobId), runJob(testEnv, b.services, tenant.tenantId, jobId)]);
    const done = await json(await api(`/v1/jobs/${jobId}`, { key: tenant.key }));
    expect(done.state).toBe("completed");
    expect(await count("receipts", "job_id", jobId)).toBe(1);
    expect(await count("objects", "asset_id", assetId)).toBe(2);
    const published = await testEnv.DB.prepare("SELECT publication_id FROM assets WHERE id = ?")
      .bind(assetId)
      .first<{ publication_id: string }>();
    expect(published!.publication_id).toBe(done.result.publication_id);
  });

  it("a job cancelled while it runs never publishes", async () => {
    const { tenant, assetId, jobId } = await admittedJob();
    // Cancel between the sign step and publication.
    const { services } = await countingServices({
      beforeRead: async () => {
        const res = await api(`/v1/jobs/${jobId}/cancel`, {
          method: "POST",
          key: tenant.key,
          body: { reason: "changed my mind" },
          headers: { "idempotency-key": crypto.randomUUID() },
        });
        expect((await json(res)).state).toBe("cancel_requested");
      },
    });
    await runJob(testEnv, services, tenant.tenantId, jobId);
    const job = await json(await api(`/v1/jobs/${jobId}`, { key: tenant.key }));
    expect(job.state).toBe("canceled");
    expect(job.cancel_requested_at).not.toBeNull();
    expect(job.result).toBeNull();
    expect(await count("receipts", "job_id", jobId)).toBe(0);
    const asset = await json(await api(`/v1/assets/${assetId}`, { key: tenant.key }));
    expect(asset.status).toBe("uploaded");
    expect(asset.publication).toBeNull();
  });

  it("a queued job is cancelled at once, and a terminal one refuses cancellation", async () => {
    const { tenant, jobId } = await admittedJob();
    const cancel = () =>
      api(`/v1/jobs/${jobId}/cancel`, { method: "POST", key: tenant.key, body: {}, headers: { "idempotency-key": crypto.randomUUID() } });
    const first = await json(await cancel());
    expect(first.state).toBe("canceled");
    expect(first.terminal_at).not.toBeNull();
    const again = await cancel();
    expect(again.status).toBe(409);
    expect((await json(again)).code).toBe("svc.jobs.terminal");
  });
});
