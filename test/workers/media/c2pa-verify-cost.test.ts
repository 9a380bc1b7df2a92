/**
 * The cheaper manifest verification of #19 changes no verdict: the engine reads with only the trust anchors a
 * store can name (trust-anchors.ts) and judges every file exactly as with the whole bundle; the integrity check
 * keeps imported signer keys per isolate and still finds every tampered signature.
 */
import * as pkijs from "pkijs";
import type { ImportGlobFunction } from "vite/types/importGlob.d.ts";
import { describe, expect, it } from "vitest";
import { mintDevPki } from "../../../src/dev/pki";
import { verifySettingsJson, WasmReader } from "../../../src/media/c2pa/engine";
import { ensureC2paEngine } from "../../../src/media/c2pa/engine-workerd";
import { checkStoreIntegrity } from "../../../src/media/c2pa/integrity";
import { extractManifestStore } from "../../../src/media/c2pa/jumbf-carriers";
import { activeManifestSignature } from "../../../src/media/c2pa/jumbf-signature";
import { C2paSigner, c2paSignerFromBindings } from "../../../src/media/c2pa/signer";
import { anchorsForStore, subjectNameDer } from "../../../src/media/c2pa/trust-anchors";
import { pemBlocks } from "../../../src/media/c2pa/tsa-der";
import { verifyManifest } from "../../../src/media/c2pa/verifier";
import type { ManifestPlan } from "../../../src/media/types";
import { C2PA_TRUST_LIST_PEM } from "../../../src/verifications/trust/c2pa-trust-list";
import { fixture, testEnv } from "../support/helpers";

declare global {
  interface ImportMeta {
    /** Vite's import.meta.glob, declared as vite/client does (vite/client is not in this project's types). */
    glob: ImportGlobFunction;
  }
}

/** The JPEG fixtures of test/fixtures/c2pa (public C2PA test files), inlined by Vite as data URLs. */
const C2PA_JPEGS = import.meta.glob("../../fixtures/c2pa/*.jpg", { query: "?inline", import: "default", eager: true }) as Record<
  string,
  string
>;
const fromDataUrl = (url: string) => Uint8Array.from(atob(url.slice(url.indexOf(",") + 1)), (c) => c.charCodeAt(0));

const plan = (title: string, mediaType: string): ManifestPlan => ({
  title,
  media_type: mediaType,
  intent: { kind: "opened" },
  assertions: [],
});
const count = (pem: string | null) => (pem?.match(/-----BEGIN CERTIFICATE-----/g) ?? []).length;
const devRoot = testEnv.SVC_TRUST_ANCHORS_PEM!;
const bundle = `${devRoot.trim()}\n${C2PA_TRUST_LIST_PEM.trim()}\n`;

async function signed(name: string, mediaType: string, signer?: C2paSigner): Promise<Uint8Array> {
  ensureC2paEngine();
  const s = signer ?? c2paSignerFromBindings(testEnv);
  if (!s) throw new Error("test bindings lack the dev PKI");
  const result = await s.signEmbedded({ bytes: fixture(name), plan: plan(name, mediaType) });
  if (result.status !== "signed") throw new Error(JSON.stringify(result));
  return result.bytes;
}

/** The engine's whole judgement (state, every validation code of the active manifest and the ingredients). */
async function engineJudgement(mediaType: string, bytes: Uint8Array, anchors: string | null) {
  ensureC2paEngine();
  try {
    const reader = await WasmReader.fromBytes(mediaType, bytes, verifySettingsJson(anchors));
    try {
      const store = JSON.parse(reader.json());
      return { state: store.validation_state, results: store.validation_results, status: store.validation_status };
    } finally {
      reader.free();
    }
  } catch (error) {
    return { error: String((error as Error)?.message ?? error) };
  }
}

describe("trust anchors per store (trust-anchors.ts)", () => {
  it("reads a certificate's subject Name as its exact DER", () => {
    for (const der of [...pemBlocks(bundle, "CERTIFICATE"), ...pemBlocks(testEnv.SVC_C2PA_SIGNER_CHAIN_PEM!, "CERTIFICATE")]) {
      const cert = pkijs.Certificate.fromBER(der);
      expect(subjectNameDer(der)).toEqual(new Uint8Array(cert.subject.toSchema().toBER(false)));
    }
    expect(subjectNameDer(new Uint8Array([0x30, 0x03, 0x02, 0x01, 0x01]))).toBeNull();
  });

  it("keeps only the anchors a store names, and the whole bundle when the store is not located exactly", async () => {
    const bytes = await signed("sample.jpg", "image/jpeg");
    const located = extractManifestStore(bytes, "image/jpeg");
    const kept = anchorsForStore(bundle, located);
    expect(count(bundle)).toBeGreaterThan(20);
    expect(count(kept)).toBe(1);
    expect(kept).toContain(devRoot.trim().split("\n")[1]);
    expect(anchorsForStore(bundle, null)).toBe(bundle);
    expect(anchorsForStore(bundle, { status: "not_found", message: "none" } as never)).toBe(bundle);
    expect(anchorsForStore(bundle, { status: "ok", store: located.status === "ok" ? located.store : bytes, carrier: "jumbf-scan" })).toBe(
      bundle,
    );
    expect(anchorsForStore(null, located)).toBeNull();
    // Another kind of PEM block: passed on whole; no anchor named: one is still kept (the engine's checks then run as before).
    const withKey = `${bundle}-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n`;
    expect(anchorsForStore(withKey, located)).toBe(withKey);
    expect(count(anchorsForStore(C2PA_TRUST_LIST_PEM, located))).toBe(1);
  });

  it("the engine judges every file as with the whole bundle", async () => {
    const other = await mintDevPki();
    const otherSigner = new C2paSigner({ certChainPem: other.signerChainPem, privateKey: other.signerKeyPkcs8Pem });
    const intermediate = `-----BEGIN CERTIFICATE-----${testEnv.SVC_C2PA_SIGNER_CHAIN_PEM!.split("-----BEGIN CERTIFICATE-----")[2]!.split("-----END CERTIFICATE-----")[0]}-----END CERTIFICATE-----\n`;
    expect(Object.keys(C2PA_JPEGS).length).toBeGreaterThanOrEqual(6);
    const files: [string, string, Uint8Array][] = [
      ["dev JPEG", "image/jpeg", await signed("sample.jpg", "image/jpeg")],
      ["dev PNG", "image/png", await signed("sample.png", "image/png")],
      ["other root JPEG", "image/jpeg", await signed("sample.jpg", "image/jpeg", otherSigner)],
      ...Object.entries(C2PA_JPEGS).map(([path, url]): [string, string, Uint8Array] => [path, "image/jpeg", fromDataUrl(url)]),
    ];
    const bundles = [bundle, C2PA_TRUST_LIST_PEM, `${C2PA_TRUST_LIST_PEM}\n${intermediate}`, `${other.rootCertPem.trim()}\n${bundle}`];
    for (const [label, mediaType, bytes] of files) {
      for (const anchors of bundles) {
        const filtered = anchorsForStore(anchors, extractManifestStore(bytes, mediaType));
        expect(await engineJudgement(mediaType, bytes, filtered), label).toEqual(await engineJudgement(mediaType, bytes, anchors));
      }
    }
    // The cases that matter stay what they were: our signer Trusted with its root or its intermediate as the anchor.
    const dev = files[0]![2];
    expect((await verifyManifest({ bytes: dev, mediaType: "image/jpeg" }, bundle, ensureC2paEngine)).facts).toMatchObject({
      state: "read",
      validation_state: "Trusted",
    });
    expect(
      (await verifyManifest({ bytes: dev, mediaType: "image/jpeg" }, `${C2PA_TRUST_LIST_PEM}\n${intermediate}`, ensureC2paEngine)).facts,
    ).toMatchObject({ state: "read", validation_state: "Trusted" });
    expect((await verifyManifest({ bytes: dev, mediaType: "image/jpeg" }, C2PA_TRUST_LIST_PEM, ensureC2paEngine)).facts).toMatchObject({
      state: "read",
      validation_state: "Valid",
    });
  });
});

describe("the integrity check with cached signer keys", () => {
  it("still finds a tampered signature after the signer's key is cached", async () => {
    const bytes = await signed("sample.jpg", "image/jpeg");
    const located = extractManifestStore(bytes, "image/jpeg");
    if (located.status !== "ok") throw new Error(located.status);
    expect((await checkStoreIntegrity(located.store)).status).toBe("intact");
    expect((await checkStoreIntegrity(located.store)).status).toBe("intact"); // from the cache
    // Flip one byte of the claim signature: the last item of the COSE_Sign1, so the last bytes of its box.
    const signature = activeManifestSignature(located.store);
    if (signature.status !== "ok") throw new Error(signature.status);
    const coseAt = indexOf(located.store, signature.cose);
    expect(coseAt).toBeGreaterThan(0);
    const store = located.store.slice();
    store[coseAt + signature.cose.length - 5]! ^= 0x01;
    const result = await checkStoreIntegrity(store);
    expect(result.status).toBe("tampered");
  });
});

function indexOf(haystack: Uint8Array, needle: Uint8Array): number {
  for (let i = 0; i + needle.length <= haystack.length; i++) if (needle.every((b, k) => haystack[i + k] === b)) return i;
  return -1;
}
