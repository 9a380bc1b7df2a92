import { describe, expect, it } from "vitest";
import { EMBEDDED_SIGNING_MAXIMUM_BYTES, ENGINE_READ_MAXIMUM_BYTES } from "../../../src/catalog/limits";
import { BmffScanner } from "../../../src/media/c2pa/bmff";
import { type JumbfSuperbox, parseJumbf } from "../../../src/media/c2pa/jumbf-box";
import { EXCLUSIONS_HUGE_INTEGER, withBmffBinding, withStore } from "../../support/stream-media";
import { createTenant, json, uploadAsset } from "../support/helpers";
import { largeMp4, startVerification, waitForVerification } from "../support/streamed.helpers";
import { signedCopy } from "../support/verify-helpers";

/*
 * Hostile review of verification of stored objects by streaming (verify-streamed.ts, media/c2pa/stream-verify.ts),
 * through the API: a tampered file the stream calls verified, and files between the 10 MiB routing threshold and
 * the engine's 12 MiB read limit that the whole read (the path before streaming) verified and the stream now answers
 * differently. test/node/media/stream-verify.review.test.ts has the same cases against c2pa-node.
 */

const MiB = 1024 * 1024;

/** The streaming signer's BMFF hash of `bytes` and the store its C2PA box carries. */
async function bmffScan(bytes: Uint8Array) {
  const scanner = new BmffScanner(bytes.length, { verify: true });
  await scanner.push(bytes);
  const hash = await scanner.finish();
  return { hash, store: scanner.store! };
}

async function verifyObject(key: string, objectId: string) {
  const accepted = await startVerification(key, objectId);
  expect(accepted.status).toBe(202);
  return waitForVerification(key, (await json(accepted)).verification_id);
}

describe("verification by streaming (review)", () => {
  it("a stream-signed MP4 with one media byte changed and a decoy superbox labelled as its active manifest is asset_tampered, not verified_manifest", {
    timeout: 240_000,
  }, async () => {
    const { key } = await createTenant();
    const { bytes: signed } = await signedCopy(key, largeMp4(ENGINE_READ_MAXIMUM_BYTES + 1 * MiB), "video/mp4");
    const { hash: signedHash, store } = await bmffScan(signed);
    const tampered = signed.slice();
    tampered[Math.floor(signed.length / 2)]! ^= 0x04;
    const { hash: tamperedHash } = await bmffScan(tampered);

    // Before the active manifest: a byte copy of it whose JUMBF content type is not a manifest's, its hash replaced.
    const parsed = parseJumbf(store);
    if (parsed.status !== "ok") throw new Error(parsed.message);
    const root = parsed.root;
    const active = root.children.filter((c): c is JumbfSuperbox => c.kind === "superbox").at(-1)!;
    const decoy = store.slice(active.offset, active.offset + active.length);
    decoy.set(new TextEncoder().encode("xxxx"), 16);
    const at = Buffer.from(decoy).indexOf(Buffer.from(signedHash));
    expect(at).toBeGreaterThan(0);
    decoy.set(tamperedHash, at);
    const decoyed = new Uint8Array(store.length + decoy.length);
    decoyed.set(store.subarray(0, active.offset));
    decoyed.set(decoy, active.offset);
    decoyed.set(store.subarray(active.offset), active.offset + decoy.length);
    new DataView(decoyed.buffer).setUint32(root.offset, store.length + decoy.length);

    const upload = await uploadAsset(key, withStore(tampered, store, decoyed), "video/mp4", "decoy");
    const done = await verifyObject(key, upload.objectId);
    // Judged (asset_tampered, as c2pa-node says Invalid with bmffHash.mismatch), or refused as not judged (413).
    if (done.state === "failed") expect(done.error_code, JSON.stringify(done)).toBe("svc.request.too_large");
    else {
      expect(done.result.status, JSON.stringify(done.result)).not.toBe("verified_manifest");
      expect(done.result.developer_explanation).not.toContain("assertion.bmffHash.match");
    }
  });

  it("an 11 MiB stream-signed MP4 whose C2PA box holds bytes after its store (c2pa-node and the whole read: Trusted) is verified, not failed 413", {
    timeout: 240_000,
  }, async () => {
    const { key } = await createTenant();
    const source = largeMp4(EMBEDDED_SIGNING_MAXIMUM_BYTES + 512 * 1024, 9);
    const { bytes: signed } = await signedCopy(key, source, "video/mp4");
    const { store } = await bmffScan(signed);
    const padded = new Uint8Array(store.length + 16);
    padded.set(store);
    const file = withStore(signed, store, padded);
    expect(file.length).toBeGreaterThan(EMBEDDED_SIGNING_MAXIMUM_BYTES);
    expect(file.length).toBeLessThan(ENGINE_READ_MAXIMUM_BYTES);

    const upload = await uploadAsset(key, file, "video/mp4", "padded");
    const done = await verifyObject(key, upload.objectId);
    expect(done.state, JSON.stringify(done)).toBe("completed");
    expect(done.result.status).toBe("verified_manifest");
  });

  it("an 11 MiB MP4 with no store and an XMP remote manifest reference is remote_manifest_unavailable (as the whole read answers), not no_provenance_found", {
    timeout: 240_000,
  }, async () => {
    const { key } = await createTenant();
    const url = "https://cai-manifests.adobe.com/manifests/adobe-urn-uuid-5f37e182-3687-462e-a7fb-573462780391";
    const xmp = new TextEncoder().encode(
      `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:dcterms="http://purl.org/dc/terms/" dcterms:provenance="${url}"/></rdf:RDF></x:xmpmeta>`,
    );
    // A top-level XMP uuid box (BE7ACFCB-97A9-42E8-9C71-999491E3AFAC) after the media.
    const box = new Uint8Array(24 + xmp.length);
    new DataView(box.buffer).setUint32(0, box.length);
    box.set([0x75, 0x75, 0x69, 0x64], 4);
    box.set([0xbe, 0x7a, 0xcf, 0xcb, 0x97, 0xa9, 0x42, 0xe8, 0x9c, 0x71, 0x99, 0x94, 0x91, 0xe3, 0xaf, 0xac], 8);
    box.set(xmp, 24);
    const media = largeMp4(EMBEDDED_SIGNING_MAXIMUM_BYTES + 512 * 1024, 13);
    const file = new Uint8Array(media.length + box.length);
    file.set(media);
    file.set(box, media.length);
    expect(file.length).toBeLessThan(ENGINE_READ_MAXIMUM_BYTES);

    const upload = await uploadAsset(key, file, "video/mp4", "remote");
    const done = await verifyObject(key, upload.objectId);
    expect(done.state, JSON.stringify(done)).toBe("completed");
    expect(done.result.status).toBe("remote_manifest_unavailable");
    expect(done.result.warnings?.join(" ") ?? "").not.toMatch(/larger than the C2PA engine reads/);
  });

  it("an uploaded MP4 above 10 MiB whose hash assertion's exclusions is a CBOR integer above 2^53: the verification ends with a finding or a clear refusal, not a crash retried to svc.verifications.failed", {
    timeout: 240_000,
  }, async () => {
    const { key } = await createTenant();
    const { bytes: signed } = await signedCopy(key, largeMp4(EMBEDDED_SIGNING_MAXIMUM_BYTES + 512 * 1024, 17), "video/mp4");
    const { store } = await bmffScan(signed);
    // {"hash": 32 bytes, "alg": "sha256", "exclusions": 2^64 - 1}
    const { store: changed } = withBmffBinding(store, EXCLUSIONS_HUGE_INTEGER);

    const upload = await uploadAsset(key, withStore(signed, store, changed), "video/mp4", "bigint");
    const done = await verifyObject(key, upload.objectId);
    if (done.state === "failed") expect(done.error_code, JSON.stringify(done)).toBe("svc.request.too_large");
    else expect(done.result.status, JSON.stringify(done.result)).not.toBe("verified_manifest");
  });
});
