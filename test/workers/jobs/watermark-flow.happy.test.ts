import { env as rawEnv } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { SVC_IMAGE_WATERMARK } from "../../../src/catalog/algorithms";
import { imageServices } from "../../../src/media";
import { verifySettingsJson, WasmReader } from "../../../src/media/c2pa/engine";
import { ensureC2paEngine } from "../../../src/media/c2pa/engine-workerd";
import type { RgbaImage } from "../../../src/media/types";
import { prng } from "../../support/prng";
import { api, callUrl, createTenant, fixture, json, sha256HexOf, testEnv, uploadAsset, waitForJob } from "../support/helpers";
import { verifyFile } from "../support/verify-helpers";

/** A photo-like test image: smooth gradients, a few shapes and mild texture. */
function photo(width: number, height: number, seed = 1): RgbaImage {
  const data = new Uint8Array(width * height * 4);
  const rand = prng(seed);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const inDisc = (x - width * 0.6) ** 2 + (y - height * 0.4) ** 2 < (Math.min(width, height) * 0.2) ** 2;
      const base = 60 + (140 * x) / width + 30 * Math.sin(y / 23);
      data[i] = Math.max(0, Math.min(255, base + (inDisc ? 60 : 0) + rand() * 12));
      data[i + 1] = Math.max(0, Math.min(255, 80 + (120 * y) / height + rand() * 12));
      data[i + 2] = Math.max(0, Math.min(255, inDisc ? 40 : 150 - (80 * x) / width + rand() * 12));
      data[i + 3] = 255;
    }
  return { width, height, data };
}

async function encoded(image: RgbaImage, mediaType: string): Promise<Uint8Array> {
  const { codec } = await imageServices();
  const out = await codec.encode(image, mediaType, new Uint8Array());
  if (out.status !== "encoded") throw new Error(out.message);
  return out.bytes;
}

async function sign(key: string, body: Record<string, unknown>) {
  return api("/v1/sign", { method: "POST", key, body, headers: { "idempotency-key": crypto.randomUUID() } });
}

async function download(key: string, assetId: string) {
  const d = await json(await api(`/v1/assets/${assetId}/download`, { method: "POST", key }));
  const res = await callUrl(d.url, { method: "GET", headers: d.headers });
  const bytes = new Uint8Array(await res.arrayBuffer());
  expect(await sha256HexOf(bytes)).toBe(d.sha256);
  return bytes;
}

async function detectIn(bytes: Uint8Array, mediaType: string) {
  const { codec, watermarker } = await imageServices();
  const decoded = await codec.decode(bytes, mediaType);
  if (decoded.status !== "decoded") throw new Error(decoded.message);
  return watermarker.detect(decoded.image);
}

const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");

describe("watermark recipes, over HTTP", () => {
  it("capabilities: our watermark and fingerprints are available for the image types; learned models are not", async () => {
    const { key } = await createTenant();
    const caps = await json(await api("/v1/capabilities", { key }));
    const text = JSON.stringify(caps);
    expect(text).toContain(SVC_IMAGE_WATERMARK);
    const recipes = await json(await api("/v1/recipes", { key }));
    const wts = recipes.recipes.find((r: { recipe_id: string }) => r.recipe_id === "rcp_system_watermark_then_sign");
    expect(JSON.stringify(wts)).toContain("image/jpeg");
  });

  it("watermark then sign (standard): the output carries the mark, the manifest declares it and the fingerprints, the index has them", async () => {
    const { key, tenantId } = await createTenant();
    const { assetId } = await uploadAsset(key, fixture("sample-1mp.jpg"), "image/jpeg", "photo.jpg");
    const res = await sign(key, {
      asset_id: assetId,
      recipe_id: "rcp_system_watermark_then_sign",
      fingerprint_algorithms: ["iscc-image", "pdq"],
    });
    expect(res.status, await res.clone().text()).toBe(202);
    const job = await waitForJob(key, (await json(res)).job_id, 60_000);
    expect(job.state, JSON.stringify(job)).toBe("completed");
    expect(job.steps.map((s: { step: string; state: string }) => [s.step, s.state])).toEqual([
      ["inspect", "completed"],
      ["watermark", "completed"],
      ["fingerprint", "completed"],
      ["sign", "completed"],
      ["publish", "completed"],
    ]);

    const receipt = await json(await api(`/v1/receipts/${job.result.receipt_id}`, { key }));
    expect(receipt.evidence.watermark).toMatchObject({ algorithm: SVC_IMAGE_WATERMARK, strength: "balanced", read_back: true });
    expect(receipt.evidence.watermark.psnr_db).toBeGreaterThanOrEqual(38);
    expect(receipt.evidence.fingerprints.map((f: { algorithm: string }) => f.algorithm)).toEqual(["iscc-image", "pdq"]);
    expect(receipt.evidence.fingerprints[0].value).toMatch(/^ISCC:[A-Z2-7]+$/);

    const bytes = await download(key, assetId);
    const detected = await detectIn(bytes, "image/jpeg");
    expect(detected.status).toBe("detected");
    if (detected.status === "detected") expect(hex(detected.payload)).toBe(receipt.evidence.watermark.payload);

    ensureC2paEngine();
    const reader = await WasmReader.fromBytes("image/jpeg", bytes, verifySettingsJson(testEnv.SVC_TRUST_ANCHORS_PEM));
    const store = JSON.parse(reader.json());
    expect(store.validation_state).toBe("Trusted");
    const softBindings = store.manifests[store.active_manifest].assertions.filter((a: { label: string }) =>
      a.label.startsWith("c2pa.soft-binding"),
    );
    expect(softBindings.map((a: { data: { alg: string } }) => a.data.alg).sort()).toEqual(
      [`svc.watermark.${SVC_IMAGE_WATERMARK}`, "io.iscc.v0", "svc.fingerprint.pdq.1"].sort(),
    );

    // The service's verify: the output is the top status; a copy stripped of its manifest by re-encoding
    // outside the service (decode + encode, no metadata) is recovered through its watermark.
    const verdict = await json(await verifyFile(bytes, { key }));
    expect(verdict.status, verdict.developer_explanation).toBe("verified_manifest_and_watermark_match");
    expect(verdict.matches[0]).toMatchObject({
      kind: "watermark",
      publication_id: job.result.publication_id,
      manifest_id: verdict.manifest_id,
    });
    const { codec } = await imageServices();
    const decodedOutput = await codec.decode(bytes, "image/jpeg");
    if (decodedOutput.status !== "decoded") throw new Error("decode failed");
    const stripped = await codec.encode(decodedOutput.image, "image/jpeg", new Uint8Array());
    if (stripped.status !== "encoded") throw new Error("encode failed");
    const recovered = await json(await verifyFile(stripped.bytes, { key }));
    expect(recovered.status, recovered.developer_explanation).toBe("watermark_only");
    expect(recovered.signals).toMatchObject({ c2pa_manifest_present: false, watermark_present: true, watermark_payload_valid: true });
    expect(recovered.matches.find((m: { kind: string }) => m.kind === "watermark")).toMatchObject({
      publication_id: job.result.publication_id,
      manifest_id: verdict.manifest_id,
    });
    expect(recovered.confidence).toBeGreaterThan(0.6);

    const rows = await (rawEnv as unknown as { DB: D1Database }).DB.prepare(
      "SELECT algorithm, kind, value FROM soft_bindings WHERE tenant_id = ? ORDER BY algorithm",
    )
      .bind(tenantId)
      .all<{ algorithm: string; kind: string; value: string }>();
    expect(rows.results.map((r) => [r.algorithm, r.kind])).toEqual([
      ["iscc-image", "fingerprint"],
      ["pdq", "fingerprint"],
      [SVC_IMAGE_WATERMARK, "watermark"],
    ]);
  });

  it("express: answered 200 with a download of the finished output", async () => {
    const { key } = await createTenant();
    const { assetId } = await uploadAsset(key, fixture("sample-1mp.jpg"), "image/jpeg", "photo.jpg");
    const res = await sign(key, { asset_id: assetId, recipe_id: "rcp_system_express_watermark_then_sign", mode: "express" });
    const body = await json(res);
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ mode: "express", state: "completed", download: { media_type: "image/jpeg", filename: `${assetId}.jpg` } });
    expect(body.result.receipt_id).toMatch(/^rct_/);
    const got = await callUrl(body.download.url, { method: "GET", headers: body.download.headers });
    const bytes = new Uint8Array(await got.arrayBuffer());
    expect(await sha256HexOf(bytes)).toBe(body.download.sha256);
    expect((await detectIn(bytes, "image/jpeg")).status).toBe("detected");
  });

  for (const mediaType of ["image/png", "image/webp", "image/tiff", "image/avif"]) {
    it(`express on ${mediaType}: marked, signed, Trusted`, async () => {
      const { key } = await createTenant();
      const source = await encoded(photo(320, 240, mediaType.length), mediaType);
      const { assetId } = await uploadAsset(key, source, mediaType, "image");
      const res = await sign(key, { asset_id: assetId, recipe_id: "rcp_system_watermark_then_sign", mode: "express" });
      const body = await json(res);
      expect(res.status, JSON.stringify(body)).toBe(200);
      const got = await callUrl(body.download.url, { method: "GET", headers: body.download.headers });
      const bytes = new Uint8Array(await got.arrayBuffer());
      expect((await detectIn(bytes, mediaType)).status).toBe("detected");
      ensureC2paEngine();
      const reader = await WasmReader.fromBytes(mediaType, bytes, verifySettingsJson(testEnv.SVC_TRUST_ANCHORS_PEM));
      expect(JSON.parse(reader.json()).validation_state).toBe("Trusted");
    });
  }

  it("express mode with a sign-only recipe runs on the ordinary pipeline (202)", async () => {
    const { key } = await createTenant();
    const { assetId } = await uploadAsset(key, fixture("sample.jpg"), "image/jpeg");
    const res = await sign(key, { asset_id: assetId, recipe_id: "rcp_system_sign_only", mode: "express" });
    expect(res.status).toBe(202);
    expect((await json(res)).mode).toBe("standard");
  });

  it("watermark only: the marked output is published without a manifest", async () => {
    const { key } = await createTenant();
    const { assetId } = await uploadAsset(key, fixture("sample-1mp.jpg"), "image/jpeg");
    const res = await sign(key, { asset_id: assetId, recipe_id: "rcp_system_watermark_only" });
    expect(res.status, await res.clone().text()).toBe(202);
    const job = await waitForJob(key, (await json(res)).job_id, 60_000);
    expect(job.state, JSON.stringify(job)).toBe("completed");
    const bytes = await download(key, assetId);
    expect((await detectIn(bytes, "image/jpeg")).status).toBe("detected");
    ensureC2paEngine();
    await expect(WasmReader.fromBytes("image/jpeg", bytes, verifySettingsJson(testEnv.SVC_TRUST_ANCHORS_PEM))).rejects.toThrow(
      "C2pa(JumbfNotFound)",
    );
    const receipt = await json(await api(`/v1/receipts/${job.result.receipt_id}`, { key }));
    expect(receipt.evidence).toMatchObject({ variant: "watermarking", manifest: null, watermark: { read_back: true } });
  });
});

describe("watermark recipes: refusals", () => {
  it("a learned watermark is refused as unavailable; watermark fields on a sign-only recipe are refused", async () => {
    const { key } = await createTenant();
    const { assetId } = await uploadAsset(key, fixture("sample-1mp.jpg"), "image/jpeg");
    const learned = await sign(key, { asset_id: assetId, recipe_id: "rcp_system_watermark_then_sign", watermark_algorithm: "pixelseal" });
    expect(learned.status).toBe(422);
    expect((await json(learned)).code).toBe("svc.sign.algorithm_unavailable");
    const dinov2 = await sign(key, { asset_id: assetId, recipe_id: "rcp_system_watermark_then_sign", fingerprint_algorithms: ["dinov2"] });
    expect((await json(dinov2)).code).toBe("svc.sign.algorithm_unavailable");
    const signOnly = await sign(key, { asset_id: assetId, recipe_id: "rcp_system_sign_only", watermark_strength: "robust" });
    expect((await json(signOnly)).code).toBe("svc.sign.option_not_applicable");
  });

  it("an image below the watermark's minimum size is refused at admission", async () => {
    const { key } = await createTenant();
    const { assetId } = await uploadAsset(key, await encoded(photo(100, 80), "image/png"), "image/png");
    const res = await sign(key, { asset_id: assetId, recipe_id: "rcp_system_watermark_then_sign" });
    expect(res.status).toBe(422);
    expect((await json(res)).code).toBe("svc.sign.image_dimensions_unsupported");
  });
});
