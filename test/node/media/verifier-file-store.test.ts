/**
 * #19: verifyManifest hands on the manifest store it located in the file (`fileStore`), so verification's OCSP and
 * anchor checks do not walk the file a second time. It must be exactly what extractManifestStore finds in the same
 * bytes (what verify-service located itself before), on the fast path and the engine's, and null or absent where
 * that found nothing to hand on.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { type DevPki, mintDevPki } from "../../../src/dev/pki";
import { devTsa } from "../../../src/dev/tsa";
import { initC2paEngine } from "../../../src/media/c2pa/engine";
import { extractManifestStore } from "../../../src/media/c2pa/jumbf-carriers";
import { C2paSigner } from "../../../src/media/c2pa/signer";
import { installDevTsa } from "../../../src/media/c2pa/tsa-dev-port";
import { verifyManifest } from "../../../src/media/c2pa/verifier";

const require = createRequire(import.meta.url);
const FIXTURES = join(import.meta.dirname, "..", "..", "fixtures");
const image = (name: string) => new Uint8Array(readFileSync(join(FIXTURES, name)));

let pki: DevPki;
let signed: Uint8Array;

beforeAll(async () => {
  const { compile } = WebAssembly as unknown as { compile(bytes: Uint8Array): Promise<WebAssembly.Module> };
  initC2paEngine(await compile(readFileSync(require.resolve("@contentauth/c2pa-wasm/c2pa.wasm"))));
  installDevTsa(devTsa);
  pki = await mintDevPki();
  const signer = new C2paSigner({
    certChainPem: pki.signerChainPem,
    privateKey: pki.signerKeyPkcs8Pem,
    tsa: { kind: "internal", chainPem: pki.tsaChainPem, keyPkcs8Pem: pki.tsaKeyPkcs8Pem },
  });
  const result = await signer.signEmbedded({
    bytes: image("media/sample-1mp.jpg"),
    plan: { title: "a.jpg", media_type: "image/jpeg", intent: { kind: "opened" }, assertions: [] },
  });
  if (result.status !== "signed") throw new Error(JSON.stringify(result));
  signed = result.bytes;
}, 60_000);

const located = (bytes: Uint8Array, mediaType = "image/jpeg") => {
  const found = extractManifestStore(bytes, mediaType);
  return found.status === "ok" ? found.store : null;
};

describe("verifyManifest: the located store handed on (#19)", () => {
  it("is the store extractManifestStore finds, on the fast path and on the engine's", async () => {
    const expected = located(signed);
    expect(expected).not.toBeNull();
    const fast = await verifyManifest({ bytes: signed, mediaType: "image/jpeg" }, pki.rootCertPem, () => undefined);
    const engine = await verifyManifest({ bytes: signed, mediaType: "image/jpeg" }, pki.rootCertPem, () => undefined, {
      fastValidator: false,
    });
    expect(fast.facts.state).toBe("read");
    expect(engine.facts.state).toBe("read");
    expect(fast.fileStore).toEqual(expected);
    expect(engine.fileStore).toEqual(expected);
  });

  it("is null for a file without a manifest and for one whose store cannot be located", async () => {
    const plain = image("media/sample.jpg");
    const none = await verifyManifest({ bytes: plain, mediaType: "image/jpeg" }, pki.rootCertPem, () => undefined);
    expect(none.facts.state).toBe("absent");
    expect(none.fileStore).toBeNull();
  });

  it("on damaged copies, is whatever extractManifestStore finds in them (null where it finds nothing)", async () => {
    const kinds = new Set<string>();
    for (const at of [40, 300, 2_000, 20_000, Math.floor(signed.length / 3)]) {
      const cut = signed.slice(0, at);
      const flipped = signed.slice();
      flipped[at] = flipped[at]! ^ 0xff;
      for (const bytes of [cut, flipped]) {
        const result = await verifyManifest({ bytes, mediaType: "image/jpeg" }, pki.rootCertPem, () => undefined);
        const expected = located(bytes);
        expect(result.fileStore, `at ${at}`).toEqual(expected);
        kinds.add(expected === null ? "none" : "store");
      }
    }
    expect([...kinds].sort()).toEqual(["none", "store"]);
  });

  it("is not set for a sidecar store: the caller holds that store itself", async () => {
    const store = located(signed)!;
    const sidecar = await verifyManifest(
      { bytes: image("media/sample-1mp.jpg"), mediaType: "image/jpeg", manifestStore: store },
      pki.rootCertPem,
      () => undefined,
    );
    expect(sidecar).not.toHaveProperty("fileStore");
  });
});
