import { describe, expect, it } from "vitest";
import { EMBEDDED_SIGNING_MAXIMUM_BYTES, ENGINE_READ_MAXIMUM_BYTES } from "../../../src/catalog/limits";
import { BmffScanner } from "../../../src/media/c2pa/bmff";
import { type JumbfSuperbox, parseJumbf } from "../../../src/media/c2pa/jumbf-box";
import { api, createTenant, fixture, json, uploadAsset } from "../support/helpers";
import { signedCopy } from "../support/verify-helpers";

/*
 * Hostile review of verification of stored objects by streaming (verify-streamed.ts, media/c2pa/stream-verify.ts),
 * through the API: a tampered file the stream calls verified, and files between the 10 MiB routing threshold and
 * the engine's 12 MiB read limit that the whole read (the path before streaming) verified and the stream now answers
 * differently. test/node/media/stream-verify.review.test.ts has the same cases against c2pa-node.
 */

const MiB = 1024 * 1024;

function noise(length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

/** sample.mp4 followed by a top-level `mdat` of noise: a valid BMFF file of `total` bytes. */
function largeMp4(total: number, seed = 7): Uint8Array {
  const base = fixture("sample.mp4");
  const extra = total - base.length - 8;
  const out = new Uint8Array(base.length + 8 + extra);
  out.set(base);
  new DataView(out.buffer).setUint32(base.length, 8 + extra);
  out.set([0x6d, 0x64, 0x61, 0x74], base.length + 4);
  out.set(noise(extra, seed), base.length + 8);
  return out;
}

/** The streaming signer's BMFF hash of `bytes` and the store its C2PA box carries. */
async function bmffScan(bytes: Uint8Array) {
  const scanner = new BmffScanner(bytes.length, { verify: true });
  await scanner.push(bytes);
  const hash = await scanner.finish();
  return { hash, store: scanner.store! };
}

/** `signed` (its C2PA box last, as the streaming signer appends it) with that box carrying `store` instead. */
function withStore(signed: Uint8Array, oldStore: Uint8Array, store: Uint8Array): Uint8Array {
  const boxStart = signed.length - (45 + oldStore.length);
  const out = new Uint8Array(boxStart + 45 + store.length);
  out.set(signed.subarray(0, boxStart + 45));
  out.set(store, boxStart + 45);
  new DataView(out.buffer).setUint32(boxStart, 45 + store.length);
  return out;
}

const start = (key: string, objectId: string) =>
  api("/v1/verifications", { method: "POST", key, body: { object_id: objectId }, headers: { "idempotency-key": crypto.randomUUID() } });

async function verifyObject(key: string, objectId: string) {
  const accepted = await start(key, objectId);
  expect(accepted.status).toBe(202);
  const id = (await json(accepted)).verification_id;
  for (let i = 0; i < 240; i++) {
    const body = await json(await api(`/v1/verifications/${id}`, { key }));
    if (body.state === "completed" || body.state === "failed") return body;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error("verification did not finish");
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
    const parsed = parseJumbf(store);
    if (parsed.status !== "ok") throw new Error(parsed.message);
    const root = parsed.root;
    const sub = (b: JumbfSuperbox) => b.children.filter((c): c is JumbfSuperbox => c.kind === "superbox");
    const manifest = sub(root).at(-1)!;
    const assertions = sub(manifest).find((b) => b.description.label === "c2pa.assertions")!;
    const binding = sub(assertions).find((b) => b.description.label === "c2pa.hash.bmff.v2")!;
    const content = binding.children.find((c) => c.kind === "content" && c.type === "cbor")!;
    const enc = new TextEncoder();
    // {"hash": 32 bytes, "alg": "sha256", "exclusions": 2^64 - 1}
    const cbor = Uint8Array.from([
      0xa3,
      0x64,
      ...enc.encode("hash"),
      0x58,
      0x20,
      ...new Uint8Array(32),
      0x63,
      ...enc.encode("alg"),
      0x66,
      ...enc.encode("sha256"),
      0x6a,
      ...enc.encode("exclusions"),
      0x1b,
      ...new Uint8Array(8).fill(0xff),
    ]);
    const box = new Uint8Array(8 + cbor.length);
    new DataView(box.buffer).setUint32(0, box.length);
    box.set(enc.encode("cbor"), 4);
    box.set(cbor, 8);
    const delta = box.length - content.length;
    const changed = new Uint8Array(store.length + delta);
    changed.set(store.subarray(0, content.offset));
    changed.set(box, content.offset);
    changed.set(store.subarray(content.offset + content.length), content.offset + box.length);
    const view = new DataView(changed.buffer);
    for (const ancestor of [root, manifest, assertions, binding]) view.setUint32(ancestor.offset, view.getUint32(ancestor.offset) + delta);

    const upload = await uploadAsset(key, withStore(signed, store, changed), "video/mp4", "bigint");
    const done = await verifyObject(key, upload.objectId);
    if (done.state === "failed") expect(done.error_code, JSON.stringify(done)).toBe("svc.request.too_large");
    else expect(done.result.status, JSON.stringify(done.result)).not.toBe("verified_manifest");
  });
});
