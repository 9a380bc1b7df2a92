import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { defineConfig } from "vitest/config";
import { mintDevPki } from "./src/media/c2pa/dev-pki";
export default defineConfig(async () => {
  const pki = await mintDevPki();
  const dir = join(import.meta.dirname, "test", "fixtures", "media");
  const fx = Object.fromEntries(readdirSync(dir).map((n) => [n, readFileSync(join(dir, n)).toString("base64")]));
  return { test: { projects: [{ plugins: [cloudflareTest({ wrangler: { configPath: "./.tmp-c2pa/wrangler.toml" }, miniflare: { bindings: {
    TEST_FIXTURES: fx, SVC_C2PA_SIGNER_CHAIN_PEM: pki.signerChainPem, SVC_C2PA_SIGNER_KEY_PEM: pki.signerKeyPkcs8Pem,
    SVC_TSA_CHAIN_PEM: pki.tsaChainPem, SVC_TSA_KEY_PEM: pki.tsaKeyPkcs8Pem, SVC_TRUST_ANCHORS_PEM: pki.rootCertPem, SVC_TSA_URL: "internal" } } })],
    test: { name: "workers", include: ["test/workers/media/c2pa-signer.test.ts"] } }] } };
});
