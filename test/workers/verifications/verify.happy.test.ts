import { describe, expect, it } from "vitest";
import { api, callUrl, createTenant, fixture, json } from "../support/helpers";
import { signedCopy, verifyFile } from "../support/verify-helpers";

describe("POST /v1/verify (public variant)", () => {
  it("a file signed here is verified_manifest, with claims, signer and explanations", async () => {
    const { key } = await createTenant();
    const { bytes } = await signedCopy(key, fixture("sample.jpg"), "image/jpeg");
    const res = await verifyFile(bytes);
    const body = await json(res);
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({
      status: "verified_manifest",
      status_vocabulary_version: "svc.verification-status.v1",
      media_type: "image/jpeg",
      verification_id: null,
      signals: { c2pa_manifest_present: true, c2pa_signature_valid: true, signer_trusted: true, timestamp_valid: true },
      claims: { origin: "svc dev", ai_generated: false },
      signer: { common_name: "svc dev C2PA signer" },
    });
    expect(body.claims.generator).toMatch(/^svc /);
    expect(body.confidence).toBeGreaterThan(0.6);
    expect(body.proves.length).toBeGreaterThan(0);
    expect(body.developer_explanation).toContain("claimSignature.validated");
    expect(body.manifest_id).toMatch(/^urn:c2pa:/);
  });

  it("one flipped byte in the image data → asset_tampered, confidence null, nothing proved", async () => {
    const { key } = await createTenant();
    const { bytes } = await signedCopy(key, fixture("sample.jpg"), "image/jpeg");
    const tampered = bytes.slice();
    tampered[tampered.length - 10] = tampered[tampered.length - 10]! ^ 0x01;
    const body = await json(await verifyFile(tampered));
    expect(body.status, body.developer_explanation).toBe("asset_tampered");
    expect(body.confidence).toBeNull();
    expect(body.proves).toEqual([]);
    expect(body.developer_explanation).toContain("assertion.dataHash.mismatch");
  });

  it("a file with no credentials → no_provenance_found, with warnings for what was not computed", async () => {
    const body = await json(await verifyFile(fixture("sample.png")));
    expect(body.status).toBe("no_provenance_found");
    expect(body.signals.c2pa_manifest_present).toBe(false);
    expect(body.claims).toBeNull();
  });

  it("the 11th public request in a minute from one address gets 429 with Retry-After; another address is unaffected", async () => {
    const ip = "203.0.113.77";
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await verifyFile(fixture("sample.txt"), { ip })).status);
    expect(statuses.slice(0, 10).every((s) => s === 200)).toBe(true);
    const limited = await verifyFile(fixture("sample.txt"), { ip });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect((await json(limited)).code).toBe("svc.ratelimit.exceeded");
    expect((await verifyFile(fixture("sample.txt"), { ip: "203.0.113.78" })).status).toBe(200);
  });
});

describe("POST /v1/verify (authenticated)", () => {
  it("stores a verification record; GET /v1/verify/{manifest_id} and the evidence return it", async () => {
    const { key } = await createTenant();
    const { bytes } = await signedCopy(key, fixture("sample.jpg"), "image/jpeg");
    const body = await json(await verifyFile(bytes, { key }));
    expect(body.verification_id).toMatch(/^vfy_[a-z2-7]{16}$/);
    const again = await api(`/v1/verify/${encodeURIComponent(body.manifest_id)}`, { key });
    expect(again.status).toBe(200);
    expect(again.headers.get("cache-control")).toMatch(/^private, max-age=\d+$/);
    expect(await json(again)).toMatchObject({
      status: "verified_manifest",
      verification_id: body.verification_id,
      manifest_id: body.manifest_id,
    });
    const evidence = await json(await api(`/v1/verification-evidence/${body.verification_id}`, { key }));
    expect(evidence).toMatchObject({
      subject_type: "uploaded_object",
      overall: "valid",
      manifest: null,
      verdict: { status: "verified_manifest", manifest_id: body.manifest_id },
    });
    const history = await json(await api(`/v1/verification-history/${body.verification_id}`, { key }));
    expect(history.status_vocabulary_version).toBe("svc.verification-status.v1");
    const other = await createTenant();
    expect((await api(`/v1/verify/${encodeURIComponent(body.manifest_id)}`, { key: other.key })).status).toBe(404);
  });

  it("verifies a published asset by id (JSON asset_id)", async () => {
    const { key } = await createTenant();
    const { assetId } = await signedCopy(key, fixture("sample.jpg"), "image/jpeg");
    const res = await api("/v1/verify", { method: "POST", key, body: { asset_id: assetId } });
    const body = await json(res);
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body.status).toBe("verified_manifest");
  });

  it("a sidecar-signed PDF verifies with its manifest beside it", async () => {
    const { key } = await createTenant();
    const { bytes, download } = await signedCopy(key, fixture("sample.pdf"), "application/pdf", "rcp_private_sidecar_document_sign_only");
    const store = new Uint8Array(
      await (await callUrl(download.sidecar_manifest.url, { method: "GET", headers: download.sidecar_manifest.headers })).arrayBuffer(),
    );
    const body = await json(await verifyFile(bytes, { manifest: store }));
    expect(body.status, body.developer_explanation).toBe("verified_manifest");
  });
});
