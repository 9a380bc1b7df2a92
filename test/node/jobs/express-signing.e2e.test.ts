/**
 * #19: express signing end to end on the real Worker bundle, over HTTP as a client makes it: the 200 answer's
 * output, downloaded with exactly the returned headers, is judged by the independent reference reader c2pa-node
 * (Trusted, the hard binding matches) and carries the watermark the job recorded. The express run overlaps its R2
 * writes with its CPU work (the watermark's read-back, the publish step's check), so this pins that what it publishes
 * is still exactly what was written, checked and recorded.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { referenceVerdict } from "../../support/signer-conformance";
import { download, fixtureBytes, type SignedService, sha256Hex, startSignedService, uploadAsset } from "../../support/svc-client";

let svc: SignedService;

beforeAll(async () => {
  svc = await startSignedService();
}, 120_000);

afterAll(async () => {
  await svc?.dispose();
});

describe("express signing end to end, checked by c2pa-node (#19)", () => {
  it.each(["sample-1mp.jpg", "photo-bridge.jpg"])(
    "%s: answered 200 with a Trusted, watermarked output whose bytes are the ones recorded",
    async (fixture) => {
      const source = fixtureBytes(fixture);
      const { assetId } = await uploadAsset(svc, source, "image/jpeg", fixture);
      const res = await svc.call("POST", "/v1/sign", {
        body: {
          asset_id: assetId,
          recipe_id: "rcp_system_express_watermark_then_sign",
          mode: "express",
          fingerprint_algorithms: ["iscc-image", "pdq"],
        },
        idempotencyKey: true,
      });
      expect(res.status, res.text).toBe(200);
      expect(res.body.state).toBe("completed");
      expect(res.body.steps.map((s: { state: string }) => s.state).every((s: string) => s === "completed")).toBe(true);

      const { download: d, bytes } = await download(svc, assetId);
      expect(bytes.length).toBe(d.byte_length);
      expect(sha256Hex(bytes)).toBe(d.sha256);
      const verdict = await referenceVerdict(svc.pki.rootCertPem, "image/jpeg", bytes);
      expect(verdict.failure, JSON.stringify(verdict.store.validation_results)).toEqual([]);
      expect(verdict.state).toBe("Trusted");
      expect(verdict.success).toEqual(expect.arrayContaining(["claimSignature.validated", "assertion.dataHash.match"]));

      // The service's own verification of the download finds the manifest and the mark the job embedded.
      const ours = await svc.verify(bytes);
      expect(ours.status, ours.text).toBe(200);
      expect(ours.body.status, ours.body.developer_explanation).toMatch(/^verified_manifest/);
      expect(ours.body.signals, JSON.stringify(ours.body.signals)).toMatchObject({
        c2pa_signature_valid: true,
        watermark_present: true,
        watermark_payload_valid: true,
      });
    },
    120_000,
  );
});
