import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { test } from "vitest";
import { mintDevPki } from "../../src/media/c2pa/dev-pki";
import { c2paEngineMemoryBytes, initC2paEngine } from "../../src/media/c2pa/engine";
import { C2paSigner } from "../../src/media/c2pa/signer";
const require = createRequire(import.meta.url);
function wav(bytes: number): Uint8Array {
  const out = new Uint8Array(44 + bytes); const v = new DataView(out.buffer);
  out.set([0x52,0x49,0x46,0x46]); v.setUint32(4, 36 + bytes, true); out.set([0x57,0x41,0x56,0x45,0x66,0x6d,0x74,0x20], 8);
  v.setUint32(16, 16, true); v.setUint16(20, 1, true); v.setUint16(22, 2, true); v.setUint32(24, 48000, true); v.setUint32(28, 192000, true); v.setUint16(32, 4, true); v.setUint16(34, 16, true);
  out.set([0x64,0x61,0x74,0x61], 36); v.setUint32(40, bytes, true); return out;
}
test("mem", async () => {
  const { compile } = WebAssembly as any;
  initC2paEngine(await compile(readFileSync(require.resolve("@contentauth/c2pa-wasm/c2pa.wasm"))));
  console.log("initial", c2paEngineMemoryBytes() / 1e6);
  const pki = await mintDevPki();
  const signer = new C2paSigner({ certChainPem: pki.signerChainPem, privateKey: pki.signerKeyPkcs8Pem, tsa: { kind: "internal", chainPem: pki.tsaChainPem, keyPkcs8Pem: pki.tsaKeyPkcs8Pem } });
  const mode = process.env.C2MODE ?? "edit-embed";
  const bytes = wav(20_000_000);
  const plan: any = { title: "a.wav", media_type: "audio/wav", intent: mode.startsWith("create") ? { kind: "created", digital_source_type: "digitalCapture" } : { kind: "opened" }, assertions: [] };
  const t0 = performance.now();
  const r = mode.endsWith("sidecar") ? await signer.signSidecar({ bytes, plan }) : await signer.signEmbedded({ bytes, plan });
  console.log(mode, "20 MB", r.status, (performance.now() - t0).toFixed(0), "ms; wasm memory", (c2paEngineMemoryBytes() / 1e6).toFixed(0), "MB");
}, 120000);
