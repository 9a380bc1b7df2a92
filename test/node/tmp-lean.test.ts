import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { test } from "vitest";
import { mintDevPki } from "../../src/media/c2pa/dev-pki";
import { ByteSource, initC2paEngine, WasmBuilder } from "../../src/media/c2pa/engine";
import { buildCoseSign1, webCryptoSigner } from "../../src/media/c2pa/cose";
import { pemBlocks } from "../../src/media/c2pa/tsa";
import { referenceVerdict } from "./signer-conformance";
const require = createRequire(import.meta.url);
test("lean", async () => {
  const { compile } = WebAssembly as any;
  initC2paEngine(await compile(readFileSync(require.resolve("@contentauth/c2pa-wasm/c2pa.wasm"))));
  const pki = await mintDevPki();
  const key = await crypto.subtle.importKey("pkcs8", pemBlocks(pki.signerKeyPkcs8Pem, "PRIVATE KEY")[0]!, { name: "ECDSA", namedCurve: "P-256" }, false, ["sign"]);
  const certs = pemBlocks(pki.signerChainPem, "CERTIFICATE");
  for (const [f, mime] of [["sample.txt", "text/plain"], ["sample.mp4", "video/mp4"], ["sample.pdf", "application/pdf"]]) {
    const bytes = new Uint8Array(readFileSync(join(import.meta.dirname, "../fixtures/media/", f!)));
    const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
    for (const variant of ["json-array", "addAssertion-u8"]) {
      try {
        const def: any = { title: f, format: mime, claim_generator_info: [{ name: "svc", version: "0.1.0" }], assertions: [] as any[], ingredients: [{ title: f, format: mime, relationship: "parentOf" }] };
        if (variant === "json-array") def.assertions.push({ label: "c2pa.hash.data", data: { exclusions: [], name: "jumbf manifest", alg: "sha256", hash: Array.from(hash), pad: [] } });
        const b = WasmBuilder.fromJson(JSON.stringify(def), JSON.stringify({ builder: { thumbnail: { enabled: false } } }));
        if (variant === "addAssertion-u8") b.addAssertion("c2pa.hash.data", { exclusions: [], name: "jumbf manifest", alg: "sha256", hash, pad: new Uint8Array(0) });
        b.setIntent("edit"); b.setNoEmbed(true);
        const res = await b.signAndGetManifestBytes({ alg: "es256", reserveSize: 5000, sign: async (c: Uint8Array) => (await buildCoseSign1({ algorithm: "ES256", certChainDer: certs, payload: c, sign: webCryptoSigner("ES256", key), reserveSize: 5000 })) as any }, [], "application/octet-stream", new ByteSource(new Uint8Array(0)).asBlob()) as any;
        const v = await referenceVerdict(pki.rootCertPem, mime!, bytes, res.manifest);
        const m = v.store.manifests[v.activeLabel!];
        console.log(f, variant, v.state, "fail:", v.failure.join(), "info:", v.informational.join(), "labels:", m.assertions.map((a: any) => a.label).join(), JSON.stringify(m.ingredients?.[0]));
      } catch (e) { console.log(f, variant, "ERR", String(e)); }
    }
  }
}, 60000);
