/**
 * Hostile review of streamed verification (src/media/c2pa/stream-verify.ts + verifier.ts verifyStreamedManifest):
 * files the stream judges differently from the reference reader (c2pa-node) reading the whole file. Each case is
 * built from this service's own stream-signed output just over the engine's read limit, so it is a file the
 * service verifies by streaming (verify-streamed.ts routes every MP4/MOV/M4A/WAV above 10 MiB there).
 */
import { createHash } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { ENGINE_READ_MAXIMUM_BYTES } from "../../../src/catalog/limits";
import type { DevPki } from "../../../src/dev/pki";
import { bmffBinding, bmffManifestBox } from "../../../src/media/c2pa/bmff";
import { type JumbfSuperbox, parseJumbf } from "../../../src/media/c2pa/jumbf-box";
import type { C2paSigner } from "../../../src/media/c2pa/signer";
import { signStreamed } from "../../../src/media/c2pa/stream-sign";
import { verifyStreamedManifest } from "../../../src/media/c2pa/verifier";
import { referenceVerdict } from "../../support/signer-conformance";
import { EXCLUSIONS_HUGE_INTEGER, withBmffBinding, withStore } from "../../support/stream-media";
import {
  largeMp4,
  largePlan,
  largeWav,
  MemoryBucket,
  MiB,
  scanObject,
  setUpStreamSigning,
  signLarge as signLargeWith,
} from "./stream-support";

let pki: DevPki;
let signer: C2paSigner;

beforeAll(async () => {
  ({ pki, signer } = await setUpStreamSigning());
});

const signLarge = (bytes: Uint8Array, mediaType: string) => signLargeWith(signer, bytes, mediaType);
const scan = scanObject;

/**
 * What the service answers for `bytes` read by streaming: the validation state, `absent`, or `refused` when the
 * stream does not judge the file (a scanner refusal, or EngineReadTooLarge: the 413 / whole-read fallback).
 */
async function streamedState(bytes: Uint8Array, mediaType: string): Promise<{ state: string; failure: string[]; success: string[] }> {
  const scanned = await scan(bytes, mediaType);
  if (scanned.status !== "scanned") return { state: "refused", failure: [], success: [] };
  try {
    const { facts } = await verifyStreamedManifest(scanned, mediaType, pki.rootCertPem, () => undefined);
    if (facts.state !== "read") return { state: facts.state, failure: [], success: [] };
    return { state: facts.validation_state, failure: facts.failure_codes, success: facts.success_codes };
  } catch {
    return { state: "refused", failure: [], success: [] };
  }
}

const superboxes = (b: JumbfSuperbox) => b.children.filter((c): c is JumbfSuperbox => c.kind === "superbox");

function indexOf(hay: Uint8Array, needle: Uint8Array, from = 0): number {
  return Buffer.from(hay.buffer, hay.byteOffset, hay.byteLength).indexOf(Buffer.from(needle), from);
}

/**
 * The signed store with a decoy placed before the active manifest: a byte copy of that manifest (same label) whose
 * JUMBF content type is not a manifest's ("xxxx"), so neither the engine nor the integrity check treats it as a
 * manifest. Returns the new store and where the decoy's hard-binding hash sits in it.
 */
function storeWithDecoy(store: Uint8Array, recordedHash: Uint8Array) {
  const parsed = parseJumbf(store);
  if (parsed.status !== "ok") throw new Error(parsed.message);
  const root = parsed.root;
  const active = superboxes(root).at(-1)!;
  const decoy = store.slice(active.offset, active.offset + active.length);
  decoy.set(new TextEncoder().encode("xxxx"), 16); // the jumd content-type UUID's first four bytes ("c2ma")
  const out = new Uint8Array(store.length + decoy.length);
  out.set(store.subarray(0, active.offset));
  out.set(decoy, active.offset);
  out.set(store.subarray(active.offset), active.offset + decoy.length);
  new DataView(out.buffer).setUint32(root.offset, new DataView(out.buffer).getUint32(root.offset) + decoy.length);
  const hashAt = indexOf(out, recordedHash, active.offset);
  if (hashAt < 0 || hashAt >= active.offset + decoy.length) throw new Error("the decoy's hash was not found");
  return { store: out, hashAt, decoyStart: active.offset, decoyLength: decoy.length };
}

describe("a decoy superbox labelled as the active manifest in the store of a tampered file", () => {
  it("MP4: media changed, decoy binding over the changed media — the reference says Invalid (bmffHash.mismatch), the stream must not say Trusted", {
    timeout: 120_000,
  }, async () => {
    const mt = "video/mp4";
    const original = largeMp4(ENGINE_READ_MAXIMUM_BYTES + 1 * MiB);
    const { signed, store } = await signLarge(original, mt);
    const signedScan = await scan(signed, mt);
    if (signedScan.status !== "scanned") throw new Error(signedScan.status);
    // One media byte changed (inside the appended mdat): the signed binding no longer holds.
    const tampered = signed.slice();
    tampered[Math.floor(original.length * 0.6)]! ^= 0x10;
    const tamperedScan = await scan(tampered, mt);
    if (tamperedScan.status !== "scanned") throw new Error(tamperedScan.status);
    // The manifest uuid box is the file's last box (excluded from the hash): rewrite it with the decoy store.
    const decoy = storeWithDecoy(store, signedScan.hash);
    decoy.store.set(tamperedScan.hash, decoy.hashAt);
    const file = withStore(tampered, store, decoy.store);

    const reference = await referenceVerdict(pki.rootCertPem, mt, file);
    expect(reference.state).toBe("Invalid");
    expect(reference.failure).toContain("assertion.bmffHash.mismatch");
    const ours = await streamedState(file, mt);
    expect(ours.state).not.toBe("Trusted");
    expect(ours.success).not.toContain("assertion.bmffHash.match");
  });

  it("WAV: media changed, decoy data hash over the changed media — the reference says Invalid (dataHash.mismatch), the stream must not say Trusted", {
    timeout: 120_000,
  }, async () => {
    const mt = "audio/wav";
    const original = largeWav(ENGINE_READ_MAXIMUM_BYTES + 1 * MiB);
    const { signed, store } = await signLarge(original, mt);
    const signedScan = await scan(signed, mt);
    if (signedScan.status !== "scanned" || !signedScan.exclusion) throw new Error(signedScan.status);
    const { start, length } = signedScan.exclusion;
    const decoy = storeWithDecoy(store, signedScan.hash);
    // The decoy's exclusion must be the new C2PA chunk's range: same start, the longer length (CBOR uint16 in place).
    const newLength = 8 + decoy.store.length + (decoy.store.length & 1);
    const lengthKey = new TextEncoder().encode("length");
    const encodedOld = Uint8Array.from([0x19, length >> 8, length & 0xff]);
    const at = indexOf(decoy.store, Uint8Array.from([...lengthKey, ...encodedOld]), decoy.decoyStart);
    expect(at).toBeGreaterThan(0);
    expect(newLength).toBeLessThan(0x10000);
    decoy.store.set([0x19, newLength >> 8, newLength & 0xff], at + lengthKey.length);

    const file = new Uint8Array(start + newLength);
    file.set(signed.subarray(0, start));
    file[Math.floor(original.length * 0.6)]! ^= 0x10; // one media byte changed
    const view = new DataView(file.buffer);
    view.setUint32(4, file.length - 8, true);
    file.set([0x43, 0x32, 0x50, 0x41], start);
    view.setUint32(start + 4, decoy.store.length, true);
    file.set(decoy.store, start + 8);
    const fileScan = await scan(file, mt);
    if (fileScan.status !== "scanned") throw new Error(fileScan.status);
    expect(fileScan.exclusion).toEqual({ start, length: newLength });
    // The decoy's hash: the one of the file as built (the store is excluded from it).
    file.set(fileScan.hash, start + 8 + decoy.hashAt);

    const reference = await referenceVerdict(pki.rootCertPem, mt, file);
    expect(reference.state).toBe("Invalid");
    expect(reference.failure).toContain("assertion.dataHash.mismatch");
    const ours = await streamedState(file, mt);
    expect(ours.state).not.toBe("Trusted");
    expect(ours.success).not.toContain("assertion.dataHash.match");
  });
});

describe("the C2PA uuid box in 64-bit size form", () => {
  it("the reference reader finds no manifest in it (its exclusion's data is at offset 8); the stream must not say Trusted", {
    timeout: 120_000,
  }, async () => {
    const mt = "video/mp4";
    const { signed, store } = await signLarge(largeMp4(ENGINE_READ_MAXIMUM_BYTES + 1 * MiB), mt);
    const boxLength = 45 + store.length;
    const start = signed.length - boxLength;
    // The same last box, with size 1 and a 64-bit largesize: nothing else in the file moves.
    const file = new Uint8Array(signed.length + 8);
    file.set(signed.subarray(0, start));
    const view = new DataView(file.buffer);
    view.setUint32(start, 1);
    file.set([0x75, 0x75, 0x69, 0x64], start + 4);
    view.setUint32(start + 8, 0);
    view.setUint32(start + 12, boxLength + 8);
    file.set(signed.subarray(start + 8), start + 16);

    await expect(referenceVerdict(pki.rootCertPem, mt, file)).rejects.toThrow(/no manifest/);
    const ours = await streamedState(file, mt);
    expect(ours.state).not.toBe("Trusted");
  });
});

describe("box structure the reference reader refuses inside a top-level box the scanner does not open", () => {
  /** `bytes` followed by a top-level box of `type` whose 1000-byte body is not boxes (its "sizes" run past it). */
  function withGarbageBox(bytes: Uint8Array, type: string): Uint8Array {
    const out = new Uint8Array(bytes.length + 1008);
    out.set(bytes);
    new DataView(out.buffer).setUint32(bytes.length, 1008);
    out.set(new TextEncoder().encode(type), bytes.length + 4);
    out.fill(0x41, bytes.length + 8);
    return out;
  }

  it("stream-signed MP4 with a malformed top-level udta: c2pa-node cannot parse the asset; the stream must not say Trusted", {
    timeout: 120_000,
  }, async () => {
    const mt = "video/mp4";
    const source = withGarbageBox(largeMp4(ENGINE_READ_MAXIMUM_BYTES + 1 * MiB), "udta");
    // (Fix) The streaming signer now walks nested boxes as the reference does and refuses to sign this file; the
    // same signed file is built here as it would have signed it: its binding over the file, its box appended.
    const bucket = new MemoryBucket();
    const put = bucket.put("src", source);
    const refused = await signStreamed({
      bucket: bucket as unknown as R2Bucket,
      source: { key: "src", etag: put.etag },
      outputKey: "out",
      plan: largePlan(mt),
      signer,
    });
    expect(refused.status).toBe("malformed");
    const hash = createHash("sha256");
    for (let at = 0; at < source.length; ) {
      const size = new DataView(source.buffer, source.byteOffset).getUint32(at);
      const type = new TextDecoder().decode(source.subarray(at + 4, at + 8));
      if (type !== "ftyp" && type !== "mfra") {
        const offset = new Uint8Array(8);
        new DataView(offset.buffer).setBigUint64(0, BigInt(at));
        hash.update(offset).update(source.subarray(at, at + size));
      }
      at += size;
    }
    const result = await signer.signManifestStore({ plan: largePlan(mt), binding: bmffBinding(new Uint8Array(hash.digest())) });
    if (result.status !== "signed") throw new Error(result.message);
    const box = bmffManifestBox(result.manifest_store);
    const signed = new Uint8Array(source.length + box.length);
    signed.set(source);
    signed.set(box, source.length);
    await expect(referenceVerdict(pki.rootCertPem, mt, signed)).rejects.toThrow(/could not be parsed/);
    expect((await streamedState(signed, mt)).state).not.toBe("Trusted");
  });

  it("a malformed mfra (excluded from the hash) appended to a signed MP4: c2pa-node cannot parse it; the stream must not say Trusted", {
    timeout: 120_000,
  }, async () => {
    const mt = "video/mp4";
    const { signed } = await signLarge(largeMp4(ENGINE_READ_MAXIMUM_BYTES + 1 * MiB), mt);
    const file = withGarbageBox(signed, "mfra");
    await expect(referenceVerdict(pki.rootCertPem, mt, file)).rejects.toThrow(/could not be parsed/);
    expect((await streamedState(file, mt)).state).not.toBe("Trusted");
  });
});

describe("a hard-binding assertion the stream decodes before anything is validated", () => {
  it("exclusions holding a CBOR integer above 2^53 (decoded as a BigInt): the stream answers, it does not throw a TypeError (500 / queue retries)", {
    timeout: 120_000,
  }, async () => {
    const mt = "video/mp4";
    const { signed, store } = await signLarge(largeMp4(ENGINE_READ_MAXIMUM_BYTES + 1 * MiB), mt);
    // {"hash": 32 bytes, "alg": "sha256", "exclusions": 2^64 - 1}: no field the signer does not write.
    const { store: changed, manifestLabel } = withBmffBinding(store, EXCLUSIONS_HUGE_INTEGER);
    expect(parseJumbf(changed).status).toBe("ok");

    const file = withStore(signed, store, changed);
    const scanned = await scan(file, mt);
    if (scanned.status !== "scanned") throw new Error(scanned.status);
    // The route's own pre-check (verify-streamed.ts judgedByStream) calls streamedBinding on the last manifest.
    const { streamedBinding } = await import("../../../src/media/c2pa/stream-verify");
    expect(() => streamedBinding(scanned, scanned.store!, manifestLabel)).not.toThrow();
    // And the verification itself answers (Invalid, tampered, or refused as not judged): never a TypeError.
    const state = await (async () => {
      try {
        const { facts } = await verifyStreamedManifest(scanned, mt, pki.rootCertPem, () => undefined);
        return facts.state;
      } catch (error) {
        return error instanceof TypeError ? `TypeError: ${error.message}` : "refused";
      }
    })();
    expect(state).not.toMatch(/^TypeError/);
  });
});
