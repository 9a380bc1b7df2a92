/**
 * The fast validator (fast-validator.ts) in workerd, the runtime it serves in: the JPEGs the service signs with its
 * configured signer are judged by it (no engine read) and verifyManifest reports exactly what the engine path
 * reports, under the deployment's anchors, the trust list alone, the intermediate as anchor and another root.
 * The broad differential and mutation suites run in Node (test/node/media/fast-validator.test.ts).
 */
import { describe, expect, it } from "vitest";
import { mintDevPki } from "../../../src/dev/pki";
import { ensureC2paEngine } from "../../../src/media/c2pa/engine-workerd";
import { fastVerifyJpeg } from "../../../src/media/c2pa/fast-validator";
import { extractManifestStore } from "../../../src/media/c2pa/jumbf-carriers";
import { c2paSignerFromBindings } from "../../../src/media/c2pa/signer";
import { anchorsForStore } from "../../../src/media/c2pa/trust-anchors";
import { verifyManifest } from "../../../src/media/c2pa/verifier";
import { softBindingAssertions } from "../../../src/media/soft-binding";
import type { ManifestPlan } from "../../../src/media/types";
import { C2PA_TRUST_LIST_PEM } from "../../../src/verifications/trust/c2pa-trust-list";
import { fixture, testEnv } from "../support/helpers";

const devRoot = testEnv.SVC_TRUST_ANCHORS_PEM!;
const bundle = `${devRoot.trim()}\n${C2PA_TRUST_LIST_PEM.trim()}\n`;

describe("fast validator in workerd", () => {
  it("judges the service's signed JPEGs itself and exactly as the engine path does", async () => {
    ensureC2paEngine();
    const signer = c2paSignerFromBindings(testEnv);
    if (!signer) throw new Error("test bindings lack the dev PKI");
    const other = await mintDevPki();
    const intermediate = `-----BEGIN CERTIFICATE-----${testEnv.SVC_C2PA_SIGNER_CHAIN_PEM!.split("-----BEGIN CERTIFICATE-----")[2]!.split("-----END CERTIFICATE-----")[0]}-----END CERTIFICATE-----\n`;
    const plans: ManifestPlan[] = [
      { title: "a.jpg", media_type: "image/jpeg", intent: { kind: "opened" }, assertions: [] },
      {
        title: "b.jpg",
        media_type: "image/jpeg",
        intent: { kind: "created", digital_source_type: "trainedAlgorithmicMedia" },
        assertions: [],
        creator: { creator_ref: "cr_workerd", commitment: "c".repeat(64) },
      },
      // as the express and watermark jobs sign: a soft binding per watermark and fingerprint (#19)
      {
        title: "c.jpg",
        media_type: "image/jpeg",
        intent: { kind: "opened" },
        assertions: softBindingAssertions([
          { algorithm: "watermark.svc-wm-tiledss-1", bits: new Uint8Array(8).fill(0x5a) },
          { algorithm: "iscc-image", bits: new Uint8Array(8).fill(0x86) },
          { algorithm: "pdq", bits: new Uint8Array(32).fill(0xcf) },
        ]),
      },
    ];
    let verified = 0;
    for (const plan of plans) {
      const result = await signer.signEmbedded({ bytes: fixture("sample.jpg"), plan });
      if (result.status !== "signed") throw new Error(JSON.stringify(result));
      const bytes = result.bytes;
      for (const anchors of [bundle, devRoot, C2PA_TRUST_LIST_PEM, `${C2PA_TRUST_LIST_PEM}\n${intermediate}`, other.rootCertPem]) {
        const fast = await verifyManifest({ bytes, mediaType: "image/jpeg" }, anchors, ensureC2paEngine);
        const engine = await verifyManifest({ bytes, mediaType: "image/jpeg" }, anchors, ensureC2paEngine, { fastValidator: false });
        expect(fast).toStrictEqual(engine);
        const own = await fastVerifyJpeg(bytes, anchorsForStore(anchors, extractManifestStore(bytes, "image/jpeg"))!);
        if (own.status === "verified") verified++;
        // Under the dev root the fast path answers; under anchors that do not vouch for the chain it defers.
        expect(own.status, "reason" in own ? own.reason : "").toBe(anchors === bundle || anchors === devRoot ? "verified" : "defer");
      }
    }
    expect(verified).toBe(6);
  }, 120_000);
});
