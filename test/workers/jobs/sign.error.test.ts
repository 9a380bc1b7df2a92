import { describe, expect, it } from "vitest";
import { api, createTenant, fixture, json, sha256HexOf, uploadAsset, waitForJob } from "../support/helpers";

const sign = (key: string, body: unknown, idem: string = crypto.randomUUID()) =>
  api("/v1/sign", { method: "POST", key, body, headers: { "idempotency-key": idem } });

describe("POST /v1/sign: every rule of the sign request", () => {
  it.each([
    [{ recipe_id: null }, 422, "svc.request.invalid", "recipe_id"],
    [{ recipe_id: "rcp_nonexistent" }, 422, "svc.sign.recipe_unknown", "recipe_id"],
    [{ recipe_id: "rcp_system_watermark_then_sign" }, 422, "svc.sign.image_dimensions_unsupported", "asset_id"],
    [
      { recipe_id: "rcp_system_watermark_then_sign", watermark_algorithm: "trustmark-q" },
      422,
      "svc.sign.algorithm_unavailable",
      "watermark_algorithm",
    ],
    [
      { recipe_id: "rcp_system_watermark_then_sign", fingerprint_algorithms: ["chromaprint"] },
      422,
      "svc.sign.algorithm_not_offered",
      "fingerprint_algorithms",
    ],
    [{ recipe_id: "rcp_system_sign_only", watermark_algorithm: "pixelseal" }, 422, "svc.sign.option_not_applicable", "watermark_algorithm"],
    [{ recipe_id: "rcp_system_sign_only", watermark_strength: "robust" }, 422, "svc.sign.option_not_applicable", "watermark_strength"],
    [
      { recipe_id: "rcp_system_sign_only", fingerprint_algorithms: ["pdq"] },
      422,
      "svc.sign.option_not_applicable",
      "fingerprint_algorithms",
    ],
    [{ recipe_id: "rcp_system_sign_only", creator_id: "crid_abcdefghij234567" }, 422, "svc.sign.creator_unknown", "creator_id"],
    [{ recipe_id: "rcp_private_sidecar_text_sign_only" }, 422, "svc.sign.media_type_not_supported", "recipe_id"],
    [{ recipe_id: "rcp_system_sign_only", fingerprint_algorithms: ["pdq", "pdq"] }, 422, "svc.request.invalid", "fingerprint_algorithms"],
    [
      { recipe_id: "rcp_system_sign_only", ai_declaration: { digital_source_type: "madeUp" } },
      422,
      "svc.request.invalid",
      "ai_declaration.digital_source_type",
    ],
  ])("%j → %i %s", async (overrides, status, code, field) => {
    const { key } = await createTenant();
    const { assetId } = await uploadAsset(key, fixture("sample.jpg"), "image/jpeg");
    const res = await sign(key, { asset_id: assetId, ...overrides });
    expect(res.status).toBe(status);
    const body = await json(res);
    expect(body.code).toBe(code);
    expect(body.field_details.map((d: { field: string }) => d.field)).toContain(field);
    // Nothing was admitted: the asset is still ready to sign.
    expect((await json(await api(`/v1/assets/${assetId}`, { key }))).status).toBe("uploaded");
  });

  it("an object id where an asset id is required is a contract violation", async () => {
    const { key } = await createTenant();
    const { objectId } = await uploadAsset(key, fixture("sample.jpg"), "image/jpeg");
    const res = await sign(key, { asset_id: objectId, recipe_id: "rcp_system_sign_only" });
    expect(res.status).toBe(422);
    expect((await json(res)).field_details[0].field).toBe("asset_id");
  });

  it("another tenant's asset answers like a missing one", async () => {
    const owner = await createTenant();
    const other = await createTenant();
    const { assetId } = await uploadAsset(owner.key, fixture("sample.jpg"), "image/jpeg");
    const foreign = await sign(other.key, { asset_id: assetId, recipe_id: "rcp_system_sign_only" });
    const missing = await sign(other.key, { asset_id: "ast_aaaaaaaaaaaaaaaa", recipe_id: "rcp_system_sign_only" });
    expect(foreign.status).toBe(404);
    expect({ ...(await json(foreign)), request_id: "" }).toEqual({ ...(await json(missing)), request_id: "" });
  });

  it("an asset whose upload is not completed, a busy asset and a published asset are conflicts", async () => {
    const { key } = await createTenant();
    const bytes = fixture("sample.jpg");
    const pending = await json(
      await api("/v1/uploads", {
        method: "POST",
        key,
        body: { byte_length: bytes.length, declared_media_type: "image/jpeg", mode: "single", sha256: await sha256HexOf(bytes) },
      }),
    );
    expect((await json(await sign(key, { asset_id: pending.asset_id, recipe_id: "rcp_system_sign_only" }))).code).toBe(
      "svc.sign.asset_not_uploaded",
    );

    const { assetId } = await uploadAsset(key, bytes, "image/jpeg");
    const first = await json(await sign(key, { asset_id: assetId, recipe_id: "rcp_system_sign_only" }));
    const busy = await sign(key, { asset_id: assetId, recipe_id: "rcp_system_sign_only" });
    expect(busy.status).toBe(409);
    expect((await json(busy)).code).toBe("svc.sign.asset_busy");
    expect((await waitForJob(key, first.job_id)).state).toBe("completed");
    const again = await sign(key, { asset_id: assetId, recipe_id: "rcp_system_sign_only" });
    expect((await json(again)).code).toBe("svc.sign.asset_published");
  });

  it("requires an Idempotency-Key, and replays the same job for the same key", async () => {
    const { key } = await createTenant();
    const { assetId } = await uploadAsset(key, fixture("sample.png"), "image/png");
    const none = await api("/v1/sign", { method: "POST", key, body: { asset_id: assetId, recipe_id: "rcp_system_sign_only" } });
    expect((await json(none)).code).toBe("svc.idempotency.key_required");
    const a = await json(await sign(key, { asset_id: assetId, recipe_id: "rcp_system_sign_only" }, "sign-once"));
    const b = await json(await sign(key, { asset_id: assetId, recipe_id: "rcp_system_sign_only" }, "sign-once"));
    expect(b.job_id).toBe(a.job_id);
  });
});

describe("POST /v1/sign/batch", () => {
  it("admits items in order and independently; replaying the batch returns the same jobs", async () => {
    const { key } = await createTenant();
    const one = await uploadAsset(key, fixture("sample.jpg"), "image/jpeg");
    const two = await uploadAsset(key, fixture("sample.png"), "image/png");
    const body = {
      items: [
        { asset_id: one.assetId, recipe_id: "rcp_system_sign_only", mode: "express" },
        { asset_id: "ast_aaaaaaaaaaaaaaaa", recipe_id: "rcp_system_sign_only" },
        { asset_id: two.assetId, recipe_id: "rcp_nonexistent" },
      ],
    };
    const call = () => api("/v1/sign/batch", { method: "POST", key, body, headers: { "idempotency-key": "batch-1" } });
    const res = await call();
    expect(res.status).toBe(202);
    const first = await json(res);
    expect(first.items.map((i: { status: number }) => i.status)).toEqual([202, 404, 422]);
    expect(first.items[0].job.mode).toBe("standard"); // an item's mode is ignored
    expect(first.items[2].error.code).toBe("svc.sign.recipe_unknown");
    const replay = await json(await call());
    expect(replay.items[0].job.job_id).toBe(first.items[0].job.job_id);
    // Item 0's key works for POST /v1/sign too (same JSON, any key order).
    const single = await json(await sign(key, { mode: "express", recipe_id: "rcp_system_sign_only", asset_id: one.assetId }, "batch-1.b0"));
    expect(single.job_id).toBe(first.items[0].job.job_id);
  });

  it.each([
    [{ items: [] }, { "idempotency-key": "k" }],
    [
      { items: Array.from({ length: 101 }, () => ({ asset_id: "ast_aaaaaaaaaaaaaaaa", recipe_id: "rcp_system_sign_only" })) },
      { "idempotency-key": "k" },
    ],
    [{ items: [{ asset_id: "ast_aaaaaaaaaaaaaaaa", recipe_id: "rcp_system_sign_only" }] }, { "idempotency-key": "x".repeat(197) }],
  ])("refuses a malformed batch (%#)", async (body, headers) => {
    const { key } = await createTenant();
    const res = await api("/v1/sign/batch", { method: "POST", key, body, headers });
    expect(res.status).toBe(422);
  });
});
