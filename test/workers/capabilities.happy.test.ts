import { describe, expect, it } from "vitest";
import { FORMATS } from "../../src/catalog/formats";
import { RECIPES } from "../../src/catalog/recipes";
import { api, createTenant, json } from "./helpers";

describe("capabilities and catalogs", () => {
  it("GET /v1/capabilities lists every reviewed format, and none as available before its pipeline exists", async () => {
    const { key } = await createTenant();
    const res = await api("/v1/capabilities", { key });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.schema_version).toBe("svc.capability-discovery.v1");
    expect(body.media.map((m: { media_type: string }) => m.media_type).sort()).toEqual(FORMATS.map((f) => f.media_type).sort());
    for (const m of body.media) {
      expect(m.availability.available).toBe(false);
      expect(m.availability.reason).toBe("capability_not_installed");
      expect(m.upload.maximum_bytes).toBeGreaterThan(0);
    }
    // Sidecar recipes appear only while one of their formats is enabled: none is.
    expect(body.recipes.some((r: { recipe_id: string }) => r.recipe_id.startsWith("rcp_private_sidecar"))).toBe(false);
    expect(body.recipes.map((r: { recipe_id: string }) => r.recipe_id)).toContain("rcp_system_sign_only");
    for (const r of body.recipes) expect(r.active.supported_media_types).toEqual([]);
    const learned = body.watermark_algorithms.find((a: { algorithm: string }) => a.algorithm === "pixelseal");
    expect(learned.availability).toMatchObject({ available: false, reason: "model_weights_not_installed" });
    const iscc = body.fingerprint_algorithms.find((a: { algorithm: string }) => a.algorithm === "iscc-image");
    expect(iscc).toMatchObject({ locked: true, default: true, availability: { available: false, reason: "capability_not_installed" } });
  });

  it("GET /v1/recipes lists the whole catalog with definition hashes", async () => {
    const { key } = await createTenant();
    const body = await json(await api("/v1/recipes", { key }));
    expect(body.catalog_version).toBe("svc.recipe-catalog.v1");
    const ids = body.recipes.map((r: { recipe_id: string }) => r.recipe_id);
    expect(ids).toEqual(RECIPES.map((r) => r.recipe_id));
    expect(ids).toEqual(
      expect.arrayContaining([
        "rcp_system_express_watermark_then_sign", "rcp_system_sign", "rcp_system_sign_only", "rcp_system_watermark_only",
        "rcp_system_watermark_then_sign", "rcp_system_watermark_then_sign_unfingerprinted", "rcp_system_structural_sign_only",
        "rcp_private_sidecar_audio_sign_only", "rcp_private_sidecar_document_sign_only", "rcp_private_sidecar_font_sign_only",
        "rcp_private_sidecar_image_sign_only", "rcp_private_sidecar_model_sign_only", "rcp_private_sidecar_text_sign_only",
        "rcp_private_sidecar_video_sign_only",
      ]),
    );
    const hashes = new Set(body.recipes.map((r: { definition_sha256: string }) => r.definition_sha256));
    expect(hashes.size).toBe(RECIPES.length);
    for (const r of body.recipes) {
      expect(r.definition_sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(r.recipe_url).toBe(`/v1/recipes/${r.recipe_id}`);
      expect(r.available).toBe(false);
      expect(r.unavailable_reason).toBe("capability_not_installed");
    }
    const pdf = body.recipes.find((r: { recipe_id: string }) => r.recipe_id === "rcp_private_sidecar_document_sign_only");
    expect(pdf.media_types).toContain("application/pdf");
  });

  it("GET /v1/recipes/{recipe_id} returns one recipe with the same hash as the list; unknown ids 404", async () => {
    const { key } = await createTenant();
    const list = await json(await api("/v1/recipes", { key }));
    const one = await json(await api("/v1/recipes/rcp_system_sign_only", { key }));
    expect(one).toEqual(list.recipes.find((r: { recipe_id: string }) => r.recipe_id === "rcp_system_sign_only"));
    expect(one.required_steps).toEqual(["inspect", "sign", "publish"]);
    const missing = await api("/v1/recipes/rcp_does_not_exist", { key });
    expect(missing.status).toBe(404);
    expect((await json(missing)).code).toBe("svc.resource.not_found");
    expect((await api("/v1/recipes/BAD", { key })).status).toBe(422);
  });

  it("GET /v1/image-profiles separates accepted capability from the planned envelope", async () => {
    const { key } = await createTenant();
    const body = await json(await api("/v1/image-profiles", { key }));
    const jpeg = body.profiles.find((p: { media_type: string }) => p.media_type === "image/jpeg");
    expect(jpeg.accepted).toEqual({ operations: [], recipes: [], watermark_algorithms: [], fingerprint_algorithms: [] });
    expect(jpeg.planned.operations).toEqual(expect.arrayContaining(["sign", "watermark", "fingerprint"]));
    expect(jpeg.planned.recipes).toContain("rcp_system_express_watermark_then_sign");
    const gif = body.profiles.find((p: { media_type: string }) => p.media_type === "image/gif");
    expect(gif.planned.operations).toEqual(["sign"]);
  });

  it("GET /v1/me describes the caller without secrets", async () => {
    const t = await createTenant({ scopes: ["identity:read"] });
    const res = await api("/v1/me", { key: t.key });
    const body = await json(res);
    expect(body).toEqual({
      email: "t@example.test",
      public_id: t.tenantId,
      tenant_name: "Test",
      credential: { kind: "api_key", api_key_id: t.keyId, scopes: ["identity:read"] },
    });
  });

  it("GET /v1/developer-onboarding is secret-free and counts keys", async () => {
    const t = await createTenant();
    const res = await api("/v1/developer-onboarding", { key: t.key });
    const text = await res.text();
    expect(text).not.toContain(t.key);
    const body = JSON.parse(text);
    expect(body.api_keys.active_count).toBe(1);
    expect(body.steps[0]).toEqual({ step: "create_api_key", operation: "POST /v1/api-keys", available: true, completed: true });
    expect(body.steps.find((s: { step: string }) => s.step === "sign").available).toBe(false);
  });

  it("GET /v1/connect-catalog is anonymous and names this origin", async () => {
    const res = await api("/v1/connect-catalog");
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body).toMatchObject({
      version: "svc.connect-catalog.v1",
      public_api_origin: "http://svc.test",
      api_reference_url: "http://svc.test/openapi.json",
      authorization_header: "Authorization: Bearer <SVC_API_KEY>",
    });
    expect(body.environment_variables.map((v: { id: string }) => v.id)).toEqual(["SVC_API_BASE_URL", "SVC_API_KEY"]);
  });
});
