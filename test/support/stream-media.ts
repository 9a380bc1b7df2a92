import { type JumbfSuperbox, parseJumbf } from "../../src/media/c2pa/jumbf-box";

/*
 * Large-media building and store tampering shared by the streamed signing/verification tests in Node
 * (test/node/media) and in the Workers runtime (test/workers/verifications): runtime-neutral on purpose (no node:*).
 */

/** `base` followed by a top-level `mdat` header for `extra` bytes, left zero for the caller to fill (valid BMFF). */
export function withMdat(base: Uint8Array, extra: number): Uint8Array {
  const out = new Uint8Array(base.length + 8 + extra);
  out.set(base);
  new DataView(out.buffer).setUint32(base.length, 8 + extra);
  out.set([0x6d, 0x64, 0x61, 0x74], base.length + 4);
  return out;
}

/** A 16-bit stereo 48 kHz PCM WAV of `dataBytes` sample bytes, samples left zero for the caller to fill. */
export function wavOf(dataBytes: number): Uint8Array {
  const out = new Uint8Array(44 + dataBytes);
  const v = new DataView(out.buffer);
  const tag = (at: number, s: string) => out.set(new TextEncoder().encode(s), at);
  tag(0, "RIFF");
  v.setUint32(4, out.length - 8, true);
  tag(8, "WAVE");
  tag(12, "fmt ");
  v.setUint32(16, 16, true);
  v.setUint16(20, 1, true);
  v.setUint16(22, 2, true);
  v.setUint32(24, 48000, true);
  v.setUint32(28, 48000 * 4, true);
  v.setUint16(32, 4, true);
  v.setUint16(34, 16, true);
  tag(36, "data");
  v.setUint32(40, dataBytes, true);
  return out;
}

/** CBOR of exclusions 2^64 - 1: an integer above 2^53 (decoded as a BigInt). */
export const EXCLUSIONS_HUGE_INTEGER = [0x1b, ...new Uint8Array(8).fill(0xff)];
/** CBOR of an empty exclusions array. */
export const EXCLUSIONS_EMPTY = [0x80];

/**
 * `store` with its active manifest's c2pa.hash.bmff.v2 content replaced by {hash: 32 zero bytes, alg: "sha256",
 * exclusions: `exclusions` (CBOR bytes)}: no field the signer does not write. Every enclosing box's size follows.
 */
export function withBmffBinding(store: Uint8Array, exclusions: number[]): { store: Uint8Array; manifestLabel: string } {
  const parsed = parseJumbf(store);
  if (parsed.status !== "ok") throw new Error(parsed.message);
  const sub = (b: JumbfSuperbox) => b.children.filter((c): c is JumbfSuperbox => c.kind === "superbox");
  const manifest = sub(parsed.root).at(-1)!;
  const assertions = sub(manifest).find((b) => b.description.label === "c2pa.assertions")!;
  const binding = sub(assertions).find((b) => b.description.label === "c2pa.hash.bmff.v2")!;
  const content = binding.children.find((c) => c.kind === "content" && c.type === "cbor")!;
  const enc = new TextEncoder();
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
    ...exclusions,
  ]);
  const box = new Uint8Array(8 + cbor.length);
  new DataView(box.buffer).setUint32(0, box.length);
  box.set(enc.encode("cbor"), 4);
  box.set(cbor, 8);
  const delta = box.length - content.length;
  const out = new Uint8Array(store.length + delta);
  out.set(store.subarray(0, content.offset));
  out.set(box, content.offset);
  out.set(store.subarray(content.offset + content.length), content.offset + box.length);
  const view = new DataView(out.buffer);
  for (const ancestor of [parsed.root, manifest, assertions, binding])
    view.setUint32(ancestor.offset, view.getUint32(ancestor.offset) + delta);
  return { store: out, manifestLabel: manifest.description.label! };
}

/** `signed` (its C2PA box last, as the streaming signer appends it) with that box carrying `store` instead of `oldStore`. */
export function withStore(signed: Uint8Array, oldStore: Uint8Array, store: Uint8Array): Uint8Array {
  const boxStart = signed.length - (45 + oldStore.length);
  const out = new Uint8Array(boxStart + 45 + store.length);
  out.set(signed.subarray(0, boxStart + 45));
  out.set(store, boxStart + 45);
  new DataView(out.buffer).setUint32(boxStart, 45 + store.length);
  return out;
}
