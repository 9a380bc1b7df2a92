import { describe, expect, it } from "vitest";
import { ensureC2paEngine } from "../../../src/media/c2pa/engine-workerd";
import { verifyManifest } from "../../../src/media/c2pa/verifier";
import { concatBytes } from "../../../src/platform/bytes";
import { jpegPixelBytesDigest } from "../../../src/verifications/pixel-memo";
import { verificationTrustAnchors } from "../../../src/verifications/trust";
import { C2PA_TRUST_LIST_PEM } from "../../../src/verifications/trust/c2pa-trust-list";
import { createTenant, fixture, json, testEnv } from "../support/helpers";
import { jpegSegments, memoRows, pixelMemoFor, publishedJpeg, withStoreOf } from "../support/pixel-memo-helpers";
import { verifyFile } from "../support/verify-helpers";

/*
 * #19: the pixel memo (src/verifications/pixel-memo.ts) applies only to the bytes this service published. Each case
 * poisons the publication's memo (facts no measurement gives) and checks the answer never shows them: these tests
 * fail if the memo were used for a file that is not, where its pixels are, the one published.
 */

const INLINED = import.meta.glob("../../fixtures/c2pa/adobe-20220124-CA.jpg", {
  query: "?inline",
  import: "default",
  eager: true,
}) as Record<string, string>;

/** A JPEG signed by someone else (a C2PA sample, Adobe's test signer). */
function foreignSigned(): Uint8Array {
  const url = Object.values(INLINED)[0];
  if (!url) throw new Error("no c2pa fixture adobe-20220124-CA.jpg");
  return Uint8Array.from(atob(url.slice(url.indexOf(",") + 1)), (c) => c.charCodeAt(0));
}

const POISON = "MEMO USED: these facts were never measured";

async function poisoned(key: string) {
  const published = await publishedJpeg(key, fixture("photo-aitzgorri-900x675.jpg"));
  const [row] = await memoRows(published.publicationId);
  expect(row).toBeDefined();
  await testEnv.DB.prepare("UPDATE verify_pixel_memos SET facts = ? WHERE publication_id = ?")
    .bind(JSON.stringify({ status: "not_decoded", message: POISON }), published.publicationId)
    .run();
  return published;
}

const usedMemo = (r: any) => r.warnings.some((w: string) => w.includes(POISON)) || /at publication/.test(r.developer_explanation);

describe("verify pixel memo: only for the bytes we published (#19)", () => {
  it("the published file itself uses it (the poison shows: the control of every case below)", async () => {
    const { key } = await createTenant();
    const published = await poisoned(key);
    const r = await json(await verifyFile(published.bytes, { key }));
    expect(usedMemo(r)).toBe(true);
  });

  it("our manifest store copied onto other pixels: measured now", async () => {
    const { key } = await createTenant();
    const published = await poisoned(key);
    const other = withStoreOf(fixture("sample-1mp.jpg"), published.bytes);
    const r = await json(await verifyFile(other, { key }));
    expect(r.manifest_id).not.toBeNull();
    expect(usedMemo(r)).toBe(false);
  });

  it("our pixels under a store signed by someone else: measured now", async () => {
    const { key } = await createTenant();
    const published = await poisoned(key);
    const foreign = withStoreOf(published.bytes, foreignSigned());
    expect(await jpegPixelBytesDigest(foreign)).toBe((await memoRows(published.publicationId))[0]!.pixels_sha256);
    const r = await json(await verifyFile(foreign, { key }));
    expect(usedMemo(r)).toBe(false);
  });

  it("our claim with its signature changed (re-signed or forged): measured now", async () => {
    const { key } = await createTenant();
    const published = await poisoned(key);
    // The last bytes of the store are the COSE signature's: flip one in the last APP11 segment.
    const segments = jpegSegments(published.bytes);
    const last = segments.map((s) => s.marker).lastIndexOf(0xeb);
    const parts = segments.map((s) => s.bytes.slice());
    parts[last]![parts[last]!.length - 3]! ^= 0x01;
    const resigned = concatBytes([new Uint8Array([0xff, 0xd8]), ...parts]);
    const r = await json(await verifyFile(resigned, { key }));
    expect(usedMemo(r)).toBe(false);
  });

  it("bytes outside our APP11 changed, even if a manifest check were to pass (altered exclusions): never the memo", async () => {
    const { key } = await createTenant();
    const published = await poisoned(key);
    // A comment segment added before the scan: decoders read it, the exclusions of a forged store could cover it.
    const com = new Uint8Array([0xff, 0xfe, 0x00, 0x06, 0x61, 0x62, 0x63, 0x64]);
    const segments = jpegSegments(published.bytes).map((s) => s.bytes);
    const changed = concatBytes([new Uint8Array([0xff, 0xd8]), ...segments.slice(0, -1), com, segments[segments.length - 1]!]);
    const r = await json(await verifyFile(changed, { key }));
    expect(usedMemo(r)).toBe(false);
    // Below the HTTP path: facts of a store that passed every check, on these bytes, still find no memo.
    const read = await verifyManifest(
      { bytes: published.bytes, mediaType: "image/jpeg" },
      verificationTrustAnchors(testEnv),
      ensureC2paEngine,
    );
    expect(read.facts.state).toBe("read");
    const passing = await pixelMemoFor(testEnv, { bytes: published.bytes, mediaType: "image/jpeg" }, read.facts, read.fileStore);
    expect(passing).not.toBeNull(); // the control: the same facts on the published bytes find it
    expect(await pixelMemoFor(testEnv, { bytes: changed, mediaType: "image/jpeg" }, read.facts, read.fileStore)).toBeNull();
  });

  it("a deployment whose signing chain is not the file's finds no memo and reads none (files signed elsewhere)", async () => {
    const { key } = await createTenant();
    const published = await poisoned(key);
    const read = await verifyManifest(
      { bytes: published.bytes, mediaType: "image/jpeg" },
      verificationTrustAnchors(testEnv),
      ensureC2paEngine,
    );
    const subject = { bytes: published.bytes, mediaType: "image/jpeg" };
    expect(await pixelMemoFor(testEnv, subject, read.facts, read.fileStore)).not.toBeNull(); // the control
    const reads: string[] = [];
    const DB = new Proxy(testEnv.DB, {
      get(target, prop) {
        if (prop === "prepare") return (sql: string) => (reads.push(sql), target.prepare(sql));
        const v = Reflect.get(target, prop);
        return typeof v === "function" ? v.bind(target) : v;
      },
    });
    // Another chain (a CA of the C2PA trust list) configured as the signer's, or none: the file's signer is not ours.
    const another = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/.exec(C2PA_TRUST_LIST_PEM)![0];
    for (const chain of [another, undefined]) {
      const other = { ...testEnv, DB, SVC_C2PA_SIGNER_CHAIN_PEM: chain };
      expect(await pixelMemoFor(other, subject, read.facts, read.fileStore)).toBeNull();
    }
    expect(reads).toEqual([]);
  });

  it("a sidecar store, or a memo of another pipeline version: measured now", async () => {
    const { key } = await createTenant();
    const published = await poisoned(key);
    const read = await verifyManifest(
      { bytes: published.bytes, mediaType: "image/jpeg" },
      verificationTrustAnchors(testEnv),
      ensureC2paEngine,
    );
    const subject = { bytes: published.bytes, mediaType: "image/jpeg" };
    expect(await pixelMemoFor(testEnv, { ...subject, manifestStore: read.fileStore! }, read.facts, read.fileStore)).toBeNull();
    await testEnv.DB.prepare("UPDATE verify_pixel_memos SET version = version + 1 WHERE publication_id = ?")
      .bind(published.publicationId)
      .run();
    expect(await pixelMemoFor(testEnv, subject, read.facts, read.fileStore)).toBeNull();
    const r = await json(await verifyFile(published.bytes, { key }));
    expect(usedMemo(r)).toBe(false);
  });
});
