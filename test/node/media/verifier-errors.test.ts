/*
 * How the engine's errors map to verification states (verifier.ts engineVerify): only the engine's own
 * remote-manifest error is a remote manifest; an error that merely says "remote" (the settings error echoes the
 * `remote_manifest_fetch` setting) is not.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { beforeAll, describe, expect, it } from "vitest";
import { initC2paEngine } from "../../../src/media/c2pa/engine";
import { verifyManifest } from "../../../src/media/c2pa/verifier";

const require = createRequire(import.meta.url);
const fixture = (path: string) => new Uint8Array(readFileSync(new URL(`../../fixtures/${path}`, import.meta.url)));
const read = (bytes: Uint8Array, anchors: string | null) =>
  verifyManifest({ bytes, mediaType: "image/jpeg" }, anchors, () => undefined, { fastValidator: false });

beforeAll(async () => {
  const { compile } = WebAssembly as unknown as { compile(bytes: Uint8Array): Promise<WebAssembly.Module> };
  initC2paEngine(await compile(readFileSync(require.resolve("@contentauth/c2pa-wasm/c2pa.wasm"))));
}, 60_000);

describe("engine errors", () => {
  it("a remote-only manifest (c2pa-rs cloud.jpg) is remote, with its URL", async () => {
    const { facts } = await read(fixture("c2pa/cloud.jpg"), null);
    expect(facts).toStrictEqual({
      state: "remote",
      url: "https://cai-manifests.adobe.com/manifests/adobe-urn-uuid-5f37e182-3687-462e-a7fb-573462780391",
    });
  }, 60_000);

  it("a trust bundle the engine's settings parser refuses is not reported as a remote manifest", async () => {
    // Base64 without its '=' padding: the engine refuses the settings, and its error quotes them (remote_manifest_fetch).
    const pem = readFileSync(
      new URL("../../fixtures/capture/android/roots/google-key-attestation-ca1-ecp384-2025.pem", import.meta.url),
      "utf8",
    );
    expect(pem).toMatch(/=+\n-----END/);
    const { facts } = await read(fixture("c2pa/adobe-20220124-CA.jpg"), pem.replace(/=+\n-----END/, "\n-----END"));
    expect(facts.state).toBe("unreadable");
    expect(facts.state === "unreadable" && facts.message).toMatch(/remote_manifest_fetch/);
  }, 60_000);
});
