import { describe, expect, it } from "vitest";
import { verifySettingsJson, WasmReader } from "../../../src/media/c2pa/engine";
import { ensureC2paEngine } from "../../../src/media/c2pa/engine-workerd";
import { api, callUrl, createTenant, fixture, json, sha256HexOf, testEnv, uploadAsset, waitForJob } from "../support/helpers";

async function signAndDownload(key: string, assetId: string, recipeId: string) {
  const started = await api("/v1/sign", {
    method: "POST",
    key,
    body: { asset_id: assetId, recipe_id: recipeId },
    headers: { "idempotency-key": crypto.randomUUID() },
  });
  expect(started.status, await started.clone().text()).toBe(202);
  const job = await json(started);
  expect(job).toMatchObject({ asset_id: assetId, recipe_id: recipeId, state: "queued", result: null });
  const done = await waitForJob(key, job.job_id);
  expect(done.state, JSON.stringify(done)).toBe("completed");
  const download = await json(await api(`/v1/assets/${assetId}/download`, { method: "POST", key }));
  const res = await callUrl(download.url, { method: "GET", headers: download.headers });
  expect(res.status).toBe(200);
  const bytes = new Uint8Array(await res.arrayBuffer());
  expect(bytes.length).toBe(download.byte_length);
  expect(await sha256HexOf(bytes)).toBe(download.sha256);
  return { job: done, download, bytes };
}

describe("the typical flow, over HTTP", () => {
  it("JPEG: upload, sign, poll, download; the bytes carry a Trusted manifest; receipt and asset agree", async () => {
    const { key } = await createTenant();
    const source = fixture("sample.jpg");
    const { assetId, objectId } = await uploadAsset(key, source, "image/jpeg", "photo.jpg");
    const { job, download, bytes } = await signAndDownload(key, assetId, "rcp_system_sign_only");

    expect(job.progress).toMatchObject({ completed_steps: 3, total_steps: 3, percent: 100 });
    expect(job.steps.map((s: { step: string; state: string }) => [s.step, s.state])).toEqual([
      ["inspect", "completed"],
      ["sign", "completed"],
      ["publish", "completed"],
    ]);
    expect(job.media_inspection).toMatchObject({ media_type: "image/jpeg", width: expect.any(Number), height: expect.any(Number) });
    expect(job.result.receipt_id).toMatch(/^rct_[a-z2-7]{16}$/);
    expect(job.result.verification_id).toMatch(/^vfy_[a-z2-7]{16}$/);
    expect(download).toMatchObject({ method: "GET", filename: `${assetId}.jpg`, media_type: "image/jpeg", sidecar_manifest: null });
    expect(bytes.length).toBeGreaterThan(source.length);

    ensureC2paEngine();
    const reader = await WasmReader.fromBytes("image/jpeg", bytes, verifySettingsJson(testEnv.SVC_TRUST_ANCHORS_PEM));
    const store = JSON.parse(reader.json());
    expect(store.validation_state).toBe("Trusted");
    const actions = store.manifests[store.active_manifest].assertions.find((a: { label: string }) => a.label.startsWith("c2pa.actions"));
    expect(actions.data.actions[0].action).toBe("c2pa.opened");

    const asset = await json(await api(`/v1/assets/${assetId}`, { key }));
    expect(asset).toMatchObject({ asset_id: assetId, kind: "image", media_type: "image/jpeg", status: "published" });
    expect(asset.publication).toMatchObject({
      publication_id: job.result.publication_id,
      job_id: job.job_id,
      recipe_id: "rcp_system_sign_only",
      manifest_delivery: "embedded",
    });

    const receipt = await json(await api(`/v1/receipts/${job.result.receipt_id}`, { key }));
    expect(receipt).toMatchObject({ receipt_id: job.result.receipt_id, asset_id: assetId, job_id: job.job_id });
    expect(receipt.evidence).toMatchObject({
      variant: "signing",
      source: { object_id: objectId },
      output: { object_id: asset.publication.object_id, sha256: download.sha256 },
    });
    expect(receipt.evidence.manifest.validation_state).toBe("Trusted");

    const receipts = await json(await api(`/v1/receipts?asset_id=${assetId}`, { key }));
    expect(receipts.items.map((r: { receipt_id: string }) => r.receipt_id)).toEqual([job.result.receipt_id]);
    const detail = await json(await api(`/v1/assets/${assetId}/detail`, { key }));
    expect(detail.verification_history.items[0]).toMatchObject({
      verification_id: job.result.verification_id,
      overall: "valid",
      subject_type: "asset",
      job_id: job.job_id,
    });
    expect(detail.activity.items[0]).toMatchObject({ job_id: job.job_id, state: "completed" });
    const listed = await json(await api("/v1/assets?status=published", { key }));
    expect(listed.total_count).toBe(1);
  });

  it("text sidecar: the file comes back unchanged with a .c2pa manifest store beside it", async () => {
    const { key } = await createTenant();
    const source = fixture("sample.txt");
    const { assetId } = await uploadAsset(key, source, "text/plain", "notes.txt");
    const { download, bytes } = await signAndDownload(key, assetId, "rcp_private_sidecar_text_sign_only");
    expect(bytes).toEqual(source);
    expect(download.filename).toBe(`${assetId}.txt`);
    expect(download.sidecar_manifest.filename).toBe(`${assetId}.txt.c2pa`);
    const manifest = await callUrl(download.sidecar_manifest.url, { method: "GET", headers: download.sidecar_manifest.headers });
    const store = new Uint8Array(await manifest.arrayBuffer());
    expect(store.length).toBe(download.sidecar_manifest.byte_length);
    expect(await sha256HexOf(store)).toBe(download.sidecar_manifest.sha256);
    const receipt = await json(await api(`/v1/receipts?asset_id=${assetId}`, { key }));
    expect(receipt.items[0].evidence.variant).toBe("sidecar_signing");
  });

  it("declares AI origin: the manifest records c2pa.created with the digital source type", async () => {
    const { key } = await createTenant();
    const { assetId } = await uploadAsset(key, fixture("sample.png"), "image/png");
    const started = await api("/v1/sign", {
      method: "POST",
      key,
      headers: { "idempotency-key": crypto.randomUUID() },
      body: { asset_id: assetId, recipe_id: "rcp_system_sign_only", ai_declaration: { digital_source_type: "trainedAlgorithmicMedia" } },
    });
    const done = await waitForJob(key, (await json(started)).job_id);
    expect(done.state).toBe("completed");
    const download = await json(await api(`/v1/assets/${assetId}/download`, { method: "POST", key }));
    const bytes = new Uint8Array(await (await callUrl(download.url, { method: "GET" })).arrayBuffer());
    ensureC2paEngine();
    const store = JSON.parse((await WasmReader.fromBytes("image/png", bytes, verifySettingsJson(testEnv.SVC_TRUST_ANCHORS_PEM))).json());
    const actions = store.manifests[store.active_manifest].assertions.find((a: { label: string }) => a.label.startsWith("c2pa.actions"));
    expect(actions.data.actions[0]).toMatchObject({
      action: "c2pa.created",
      digitalSourceType: "http://cv.iptc.org/newscodes/digitalsourcetype/trainedAlgorithmicMedia",
    });
  });
});
