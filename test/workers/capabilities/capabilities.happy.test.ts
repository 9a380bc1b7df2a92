import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { FORMATS } from "../../../src/catalog/formats";
import { RECIPES } from "../../../src/catalog/recipes";
import { database } from "../../../src/db/client";
import { jobs } from "../../../src/db/schema";
import { api, createTenant, fixture, json, testEnv, uploadAsset } from "../support/helpers";

describe("capabilities and catalogs", () => {
  it("GET /v1/capabilities reports exactly what this deployment's pipelines handle", async () => {
    const { key } = await createTenant();
    const res = await api("/v1/capabilities", { key });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.schema_version).toBe("svc.capability-discovery.v1");
    expect(body.media.map((m: { media_type: string }) => m.media_type).sort()).toEqual(FORMATS.map((f) => f.media_type).sort());
    const media = Object.fromEntries(body.media.map((m: { media_type: string }) => [m.media_type, m]));
    // Embedded formats the signer's round trip proves, and every sidecar format, are enabled.
    for (const type of [
      "image/jpeg",
      "image/png",
      "image/webp",
      "image/tiff",
      "image/avif",
      "image/heic",
      "image/gif",
      "image/svg+xml",
      "video/mp4",
      "video/quicktime",
      "audio/mpeg",
      "audio/wav",
      "audio/flac",
      "audio/mp4",
      "application/pdf",
      "text/plain",
    ]) {
      expect(media[type].availability, type).toMatchObject({ available: true, reason: null });
      expect(media[type].upload.maximum_bytes).toBeGreaterThan(0);
    }
    expect(media["application/pdf"].manifest_delivery).toBe("sidecar");
    // The engine cannot embed into image/heic-sequence: it stays unavailable, with the missing pipeline named.
    expect(media["image/heic-sequence"].availability).toMatchObject({
      available: false,
      reason: "capability_not_installed",
      missing_capabilities: ["c2pa.sign.embedded"],
    });

    const recipes = Object.fromEntries(body.recipes.map((r: { recipe_id: string }) => [r.recipe_id, r]));
    expect(recipes.rcp_system_sign_only.availability.available).toBe(true);
    expect(recipes.rcp_system_sign_only.active.supported_media_types).toContain("image/jpeg");
    expect(recipes.rcp_private_sidecar_document_sign_only.active.supported_media_types).toEqual(
      expect.arrayContaining(["application/pdf"]),
    );
    // The watermark and fingerprint pipelines (our wasm kernels) cover the five decoded image types.
    const decodedImages = ["image/avif", "image/jpeg", "image/png", "image/tiff", "image/webp"];
    expect([...recipes.rcp_system_express_watermark_then_sign.active.supported_media_types].sort()).toEqual(decodedImages);
    // #20: the other watermark recipes also take WAV, FLAC and MP3 (our audio watermark; FLAC and MP3 re-encoded).
    for (const id of ["rcp_system_watermark_then_sign", "rcp_system_watermark_only"]) {
      expect(recipes[id].availability, id).toMatchObject({ available: true });
      expect([...recipes[id].active.supported_media_types].sort(), id).toEqual(["audio/flac", "audio/mpeg", "audio/wav", ...decodedImages]);
    }
    const audioMark = body.watermark_algorithms.find((a: { algorithm: string }) => a.algorithm === "svc-awm-stdm-1");
    expect(audioMark.availability).toMatchObject({ available: true });
    // #20: signing with fingerprints also covers the audio the decoders read and the manifest embeds into (WAV, MP3;
    // FLAC is signed on the structural lane, AAC has no decoder here).
    // #20: and MP4 video, fingerprinted by the media Worker behind the VIDEO binding (vPDQ, TMK+PDQF; MOV is signed on
    // the structural lane, so no fingerprinting recipe takes it, though verification reads it).
    expect([...recipes.rcp_system_sign.active.supported_media_types].sort()).toEqual([
      "audio/mpeg",
      "audio/wav",
      ...decodedImages,
      "video/mp4",
    ]);
    for (const name of ["tmk-pdqf", "vpdq"]) {
      const video = body.fingerprint_algorithms.find((a: { algorithm: string }) => a.algorithm === name);
      expect(video.availability, name).toMatchObject({ available: true });
    }
    for (const name of ["chromaprint", "iscc-audio"]) {
      const audio = body.fingerprint_algorithms.find((a: { algorithm: string }) => a.algorithm === name);
      expect(audio.availability, name).toMatchObject({ available: true });
    }
    const chromaprint = body.fingerprint_algorithms.find((a: { algorithm: string }) => a.algorithm === "chromaprint");
    expect(chromaprint.default).toBe(true);
    const audfprint = body.fingerprint_algorithms.find((a: { algorithm: string }) => a.algorithm === "audfprint");
    expect(audfprint.availability).toMatchObject({ available: false, reason: "capability_not_installed" });
    const learned = body.watermark_algorithms.find((a: { algorithm: string }) => a.algorithm === "pixelseal");
    expect(learned.availability).toMatchObject({ available: false, reason: "model_weights_not_installed" });
    const ours = body.watermark_algorithms.find((a: { algorithm: string }) => a.algorithm === "svc-wm-tiledss-1");
    expect(ours.availability).toMatchObject({ available: true });
    const iscc = body.fingerprint_algorithms.find((a: { algorithm: string }) => a.algorithm === "iscc-image");
    expect(iscc).toMatchObject({ locked: true, default: true, availability: { available: true } });
    const dinov2 = body.fingerprint_algorithms.find((a: { algorithm: string }) => a.algorithm === "dinov2");
    expect(dinov2.availability).toMatchObject({ available: false, reason: "model_weights_not_installed" });
  });

  it("#13.19 the default image watermark reported by capabilities is the one jobs use (svc-wm-tiledss-1), not an unavailable learned model", async () => {
    const { key } = await createTenant();
    const caps = await json(await api("/v1/capabilities", { key }));
    type Alg = { algorithm: string; modality: string; default: boolean; recommended: boolean; availability: { available: boolean } };
    const image = (list: Alg[]) => list.filter((a) => a.modality === "image");
    const defaults = (list: Alg[]) =>
      image(list)
        .filter((a) => a.default)
        .map((a) => a.algorithm)
        .sort();
    expect(defaults(caps.watermark_algorithms)).toEqual(["svc-wm-tiledss-1"]);
    expect(image(caps.watermark_algorithms).find((a) => a.algorithm === "pixelseal")).toMatchObject({
      default: false,
      recommended: true,
      availability: { available: false },
    });
    // A default is something this deployment can run, for every kind and modality.
    for (const a of [...caps.watermark_algorithms, ...caps.fingerprint_algorithms] as Alg[])
      if (a.default) expect(a.availability.available, a.algorithm).toBe(true);

    // What a sign request naming no algorithm is really admitted with.
    const { assetId } = await uploadAsset(key, fixture("sample-1mp.jpg"), "image/jpeg", "photo.jpg");
    const res = await api("/v1/sign", {
      method: "POST",
      key,
      body: { asset_id: assetId, recipe_id: "rcp_system_watermark_then_sign" },
      headers: { "idempotency-key": crypto.randomUUID() },
    });
    expect(res.status).toBe(202);
    const [row] = await database(testEnv.DB)
      .select({ admitted: jobs.admitted })
      .from(jobs)
      .where(eq(jobs.id, (await json(res)).job_id));
    const admitted = JSON.parse(row!.admitted) as { watermark_algorithm: string; fingerprint_algorithms: string[] };
    expect([admitted.watermark_algorithm]).toEqual(defaults(caps.watermark_algorithms));
    expect([...admitted.fingerprint_algorithms].sort()).toEqual(defaults(caps.fingerprint_algorithms));
  });

  it("#13.19 every size, pixel and count limit the service enforces is published by GET /v1/capabilities with the enforced value", async () => {
    const { key } = await createTenant();
    const caps = await json(await api("/v1/capabilities", { key }));
    const limits = caps.limits;
    expect(limits).toMatchObject({
      embedded_signing_maximum_bytes: 10 * 1024 * 1024,
      decode_maximum_pixels: 12_000_000,
      watermark_minimum_edge_pixels: 128,
      sign_batch_maximum_items: 100,
      multipart: { minimum_part_bytes: 5 * 1024 * 1024, maximum_parts: 10_000 },
    });
    // Verification accepts what a sidecar may be, or says why not and what to do instead.
    const largestSidecar = Math.max(
      ...caps.media
        .filter((m: { manifest_delivery: string }) => m.manifest_delivery === "sidecar")
        .map((m: { upload: { maximum_bytes: number } }) => m.upload.maximum_bytes),
    );
    if (limits.verify.file_maximum_bytes < largestSidecar) expect(limits.verify.larger_files).toContain("POST /v1/verifications");
    expect(limits.verify.manifest_maximum_bytes).toBeGreaterThanOrEqual(limits.verify.manifest_uri_maximum_bytes);
    expect(limits.verify.request_maximum_bytes).toBeGreaterThan(limits.verify.file_maximum_bytes + limits.verify.manifest_maximum_bytes);

    // The published values are the enforced ones, at the edge.
    const jpeg = caps.media.find((m: { media_type: string }) => m.media_type === "image/jpeg");
    expect(jpeg.upload.maximum_bytes).toBe(limits.embedded_signing_maximum_bytes);
    const upload = (byte_length: number) =>
      api("/v1/uploads", {
        method: "POST",
        key,
        body: { byte_length, declared_media_type: "image/jpeg", mode: "single", sha256: "0".repeat(64), filename: "a.jpg" },
      });
    expect((await upload(jpeg.upload.maximum_bytes)).status).toBe(201);
    const over = await upload(jpeg.upload.maximum_bytes + 1);
    expect(over.status).toBe(422);
    expect((await json(over)).code).toBe("svc.uploads.too_large");
    const item = { asset_id: "ast_abcdefghij234567", recipe_id: "rcp_system_sign_only" };
    const batch = (n: number) =>
      api("/v1/sign/batch", {
        method: "POST",
        key,
        body: { items: Array.from({ length: n }, () => item) },
        headers: { "idempotency-key": crypto.randomUUID() },
      });
    const tooMany = await batch(limits.sign_batch_maximum_items + 1);
    expect(tooMany.status).toBe(422);
    expect(JSON.stringify(await json(tooMany))).toContain("items");
    const bigJson = await api("/v1/api-keys", {
      method: "POST",
      key,
      rawBody: JSON.stringify({ name: "x".repeat(limits.json_body_maximum_bytes) }),
      headers: { "content-type": "application/json" },
    });
    expect(bigJson.status).toBe(413);
  });

  it("without a signing credential nothing is offered for signing", async () => {
    const { createExecutionContext } = await import("cloudflare:test");
    const { default: worker } = await import("../../../src/index");
    const { key } = await createTenant();
    const env = { ...testEnv, SVC_C2PA_SIGNER_CHAIN_PEM: undefined, SVC_C2PA_SIGNER_KEY_PEM: undefined };
    const res = await worker.fetch(
      new Request("http://svc.test/v1/capabilities", { headers: { authorization: `Bearer ${key}` } }),
      env,
      createExecutionContext(),
    );
    const body = (await res.json()) as { media: { availability: { available: boolean } }[] };
    expect(body.media.every((m) => !m.availability.available)).toBe(true);
  });

  it("GET /v1/recipes lists the whole catalog with definition hashes", async () => {
    const { key } = await createTenant();
    const body = await json(await api("/v1/recipes", { key }));
    expect(body.catalog_version).toBe("svc.recipe-catalog.v1");
    const ids = body.recipes.map((r: { recipe_id: string }) => r.recipe_id);
    expect(ids).toEqual(RECIPES.map((r) => r.recipe_id));
    expect(ids).toEqual(
      expect.arrayContaining([
        "rcp_system_express_watermark_then_sign",
        "rcp_system_sign",
        "rcp_system_sign_only",
        "rcp_system_watermark_only",
        "rcp_system_watermark_then_sign",
        "rcp_system_watermark_then_sign_unfingerprinted",
        "rcp_system_structural_sign_only",
        "rcp_private_sidecar_audio_sign_only",
        "rcp_private_sidecar_document_sign_only",
        "rcp_private_sidecar_font_sign_only",
        "rcp_private_sidecar_image_sign_only",
        "rcp_private_sidecar_model_sign_only",
        "rcp_private_sidecar_text_sign_only",
        "rcp_private_sidecar_video_sign_only",
      ]),
    );
    const hashes = new Set(body.recipes.map((r: { definition_sha256: string }) => r.definition_sha256));
    expect(hashes.size).toBe(RECIPES.length);
    for (const r of body.recipes) {
      expect(r.definition_sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(r.recipe_url).toBe(`/v1/recipes/${r.recipe_id}`);
      expect(r.available).toBe(r.supported_media_types.length > 0);
      if (!r.available) expect(r.unavailable_reason).toBe("capability_not_installed");
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
    expect(jpeg.accepted.operations).toEqual(expect.arrayContaining(["sign", "watermark", "fingerprint"]));
    expect(jpeg.accepted.recipes).toEqual(
      expect.arrayContaining(["rcp_system_sign_only", "rcp_system_watermark_then_sign", "rcp_system_express_watermark_then_sign"]),
    );
    expect(jpeg.accepted.watermark_algorithms).toEqual(["svc-wm-tiledss-1"]);
    expect([...jpeg.accepted.fingerprint_algorithms].sort()).toEqual(["iscc-image", "pdq"]);
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
      credential: { kind: "api_key", api_key_id: t.keyId, user_id: null, scopes: ["identity:read"] },
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
    expect(body.steps.find((s: { step: string }) => s.step === "sign").available).toBe(true);
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
