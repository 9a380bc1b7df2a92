/*
 * The C2PA engine is instantiated by its first read (verify-engines.ts, #19), inside engineVerify and the reader. An
 * instantiation that fails is a fault of this isolate, not a finding about the file: it must not come back as an
 * "unreadable" manifest (a verdict POST /v1/verify records, and a queued stored verification completes with instead
 * of retrying), but throw as it did when the verify services instantiated the engine up front; and a later read
 * whose instantiation succeeds reads normally.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { beforeAll, describe, expect, it } from "vitest";
import { initC2paEngine } from "../../../src/media/c2pa/engine";
import { C2paManifestReader } from "../../../src/media/c2pa/reader";
import { verifyManifest } from "../../../src/media/c2pa/verifier";

const require = createRequire(import.meta.url);
const signed = new Uint8Array(readFileSync(new URL("../../fixtures/c2pa/adobe-20220124-CA.jpg", import.meta.url)));
let engine: WebAssembly.Module;

beforeAll(async () => {
  const { compile } = WebAssembly as unknown as { compile(bytes: Uint8Array): Promise<WebAssembly.Module> };
  engine = await compile(readFileSync(require.resolve("@contentauth/c2pa-wasm/c2pa.wasm")));
}, 60_000);

/** An instantiation that fails the first time (e.g. the isolate out of memory), then succeeds. */
function failingOnce() {
  let calls = 0;
  return () => {
    calls++;
    if (calls === 1) throw new RangeError("WebAssembly.Instance(): Out of memory: Cannot allocate Wasm memory for new instance");
    initC2paEngine(engine);
  };
}

describe("a failed first instantiation of the engine", () => {
  it("is thrown by verifyManifest, not reported as an unreadable manifest; the next read recovers", async () => {
    const ensure = failingOnce();
    const input = { bytes: signed, mediaType: "image/jpeg" };
    await expect(verifyManifest(input, null, ensure, { fastValidator: false })).rejects.toThrow(/Out of memory/);
    const again = await verifyManifest(input, null, ensure, { fastValidator: false });
    expect(again.facts.state).toBe("read");
  }, 60_000);

  it("is thrown by the manifest reader, not reported as a failed read", async () => {
    const ensure = failingOnce();
    const reader = new C2paManifestReader(null, ensure, { fastValidator: false });
    await expect(reader.read({ bytes: signed, mediaType: "image/jpeg" })).rejects.toThrow(/Out of memory/);
    expect((await reader.read({ bytes: signed, mediaType: "image/jpeg" })).status).toBe("read");
  }, 60_000);
});
