// Bundled by bench/sign.mjs (esbuild, platform node): the service's real C2PA signer, run in Node's V8 on the
// same c2pa-wasm module the Worker uses.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { mintDevPki } from "../src/dev/pki";
import { devTsa } from "../src/dev/tsa";
import { c2paEngineMemoryBytes, initC2paEngine } from "../src/media/c2pa/engine";
import { C2paManifestReader } from "../src/media/c2pa/reader";
import { C2paSigner } from "../src/media/c2pa/signer";
import { installDevTsa } from "../src/media/c2pa/tsa-dev-port";

export { verifySettingsJson, WasmReader } from "../src/media/c2pa/engine";
export { extractManifestStore } from "../src/media/c2pa/jumbf-carriers";
export { anchorsForStore } from "../src/media/c2pa/trust-anchors";
export { verifyManifest } from "../src/media/c2pa/verifier";
export { C2PA_TRUST_LIST_PEM } from "../src/verifications/trust/c2pa-trust-list";
export { c2paEngineMemoryBytes };

export async function setup() {
  const require = createRequire(import.meta.url);
  const wasmPath = require.resolve("@contentauth/c2pa-wasm/c2pa.wasm");
  initC2paEngine(new WebAssembly.Module(readFileSync(wasmPath)));
  installDevTsa(devTsa); // the "internal" TSA answers in process, as in the Worker (app.ts)
  const pki = await mintDevPki();
  const signer = new C2paSigner({
    certChainPem: pki.signerChainPem,
    privateKey: pki.signerKeyPkcs8Pem,
    tsa: { kind: "internal", chainPem: pki.tsaChainPem, keyPkcs8Pem: pki.tsaKeyPkcs8Pem },
  });
  const untimed = new C2paSigner({ certChainPem: pki.signerChainPem, privateKey: pki.signerKeyPkcs8Pem });
  const reader = new C2paManifestReader(pki.rootCertPem, () => undefined);
  return { signer, untimed, reader, trustAnchorsPem: pki.rootCertPem };
}

/** A signer with the dev PKI of .dev.vars (as `npm start` signs), so the running service trusts its output. */
export function devSigner(vars: { chainPem: string; keyPem: string; tsaChainPem: string; tsaKeyPem: string }) {
  return new C2paSigner({
    certChainPem: vars.chainPem,
    privateKey: vars.keyPem,
    tsa: { kind: "internal", chainPem: vars.tsaChainPem, keyPkcs8Pem: vars.tsaKeyPem },
  });
}
