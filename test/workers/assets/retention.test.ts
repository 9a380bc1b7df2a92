import { describe, expect, it } from "vitest";
import { sweepExpiredRetention } from "../../../src/assets/retention";
import { database } from "../../../src/db/client";
import { api, createTenant, fixture, json, testEnv, uploadAsset, waitForJob } from "../support/helpers";

describe("key output retention", () => {
  it("applies to jobs admitted after it is set: their outputs are deleted when it passes, records stay", async () => {
    const admin = await createTenant();
    const issued = await json(
      await api("/v1/api-keys", {
        method: "POST",
        key: admin.key,
        body: { name: "short-lived outputs", scopes: ["sign:write", "jobs:read", "assets:read"] },
      }),
    );
    const put = await api(`/v1/api-keys/${issued.api_key.api_key_id}/retention`, {
      method: "PUT",
      key: admin.key,
      body: { output_retention_days: 1 },
    });
    expect(put.status).toBe(200);
    expect(await json(put)).toMatchObject({ version: 1, output_retention_days: 1, ceiling_days: 3650 });

    const { assetId } = await uploadAsset(admin.key, fixture("sample-1mp.jpg"), "image/jpeg");
    const job = await json(
      await api("/v1/sign", {
        method: "POST",
        key: issued.secret,
        body: { asset_id: assetId, recipe_id: "rcp_system_watermark_then_sign" },
        headers: { "idempotency-key": crypto.randomUUID() },
      }),
    );
    if (!job.job_id) throw new Error(JSON.stringify(job));
    const done = await waitForJob(issued.secret, job.job_id);
    const listed = await testEnv.OBJECTS.list({ prefix: `t/${admin.tenantId}/jobs/${job.job_id}/` });
    expect(listed.objects.map((o) => o.key).some((k) => k.endsWith("/watermark/output"))).toBe(true);
    expect(done.state).toBe("completed");
    const { retention_until } = (await testEnv.DB.prepare("SELECT retention_until FROM assets WHERE id = ?")
      .bind(assetId)
      .first<{ retention_until: number }>())!;
    expect(retention_until - Date.now()).toBeGreaterThan(86_000_000);
    const keys = (
      await testEnv.DB.prepare("SELECT r2_key FROM objects WHERE asset_id = ?").bind(assetId).all<{ r2_key: string }>()
    ).results.map((r) => r.r2_key);
    expect(keys).toHaveLength(2);

    expect(await sweepExpiredRetention(database(testEnv.DB), testEnv.OBJECTS, Date.now())).toBe(0); // not yet
    expect(await sweepExpiredRetention(database(testEnv.DB), testEnv.OBJECTS, retention_until + 1)).toBe(1);
    for (const key of keys) expect(await testEnv.OBJECTS.head(key)).toBeNull();
    // The watermarked intermediate (named only by its step record) is the customer's media too: gone as well.
    expect((await testEnv.OBJECTS.list({ prefix: `t/${admin.tenantId}/jobs/${job.job_id}/` })).objects).toEqual([]);
    const asset = await json(await api(`/v1/assets/${assetId}`, { key: admin.key }));
    expect(asset.status).toBe("retention_expired");
    const download = await api(`/v1/assets/${assetId}/download`, { method: "POST", key: admin.key });
    expect(download.status).toBe(410);
    expect((await json(download)).code).toBe("svc.assets.retention_expired");
    expect((await api(`/v1/receipts/${done.result.receipt_id}`, { key: admin.key })).status).toBe(200);
  });

  it("a delegated key cannot keep longer than the key that created it", async () => {
    const admin = await createTenant();
    const parent = await json(
      await api("/v1/api-keys", {
        method: "POST",
        key: admin.key,
        body: { name: "parent", scopes: ["api_keys:write", "api_keys:read", "identity:read"] },
      }),
    );
    await api(`/v1/api-keys/${parent.api_key.api_key_id}/retention`, {
      method: "PUT",
      key: admin.key,
      body: { output_retention_days: 30 },
    });
    const child = await json(
      await api("/v1/api-keys", { method: "POST", key: parent.secret, body: { name: "child", scopes: ["identity:read"] } }),
    );
    const childId = child.api_key.api_key_id;
    expect((await json(await api(`/v1/api-keys/${childId}/retention`, { key: admin.key }))).ceiling_days).toBe(30);
    for (const days of [31, null]) {
      const res = await api(`/v1/api-keys/${childId}/retention`, { method: "PUT", key: admin.key, body: { output_retention_days: days } });
      expect(res.status).toBe(422);
      expect((await json(res)).code).toBe("svc.api_keys.retention_exceeds_ceiling");
    }
    expect(
      (await api(`/v1/api-keys/${childId}/retention`, { method: "PUT", key: admin.key, body: { output_retention_days: 30 } })).status,
    ).toBe(200);
    expect(
      (await api(`/v1/api-keys/${childId}/retention`, { method: "PUT", key: admin.key, body: { output_retention_days: 3651 } })).status,
    ).toBe(422);
  });
});
