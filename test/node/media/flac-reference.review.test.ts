/**
 * Review of streamed FLAC verification (src/media/c2pa/flac.ts) against the reference reader (c2pa-node): for FLACs
 * whose leading ID3v2 tag is laid out in ways the engine never writes, each signed with a c2pa.hash.data that is
 * correct over the file (so only the tag's reading decides the verdict), our streamed verdict must never be Valid or
 * Trusted where c2pa-node finds no manifest or more than one store; and it must still be Trusted where c2pa-node
 * says Trusted (the fix may not refuse the layouts the reference reads).
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { DevPki } from "../../../src/dev/pki";
import { dataHashBinding } from "../../../src/media/c2pa/riff";
import type { C2paSigner } from "../../../src/media/c2pa/signer";
import { verifyStreamedManifest } from "../../../src/media/c2pa/verifier";
import { largeFlac } from "../../support/flac-media";
import { referenceVerdict } from "../../support/signer-conformance";
import { largePlan, scanObject, setUpStreamSigning } from "./stream-support";

let pki: DevPki;
let signer: C2paSigner;
beforeAll(async () => {
  ({ pki, signer } = await setUpStreamSigning());
});

const enc = (s: string) => Array.from(new TextEncoder().encode(s));
const syncsafe = (v: number) => [(v >>> 21) & 0x7f, (v >>> 14) & 0x7f, (v >>> 7) & 0x7f, v & 0x7f];
const be32 = (v: number) => [(v >>> 24) & 0xff, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff];
/** A v2.4 GEOB frame (UTF-8 fields) of `mime` holding `data`. */
const geob = (mime: string, data: number[]) => {
  const body = [3, ...enc(`${mime}\0c\0\0`), ...data];
  return [...enc("GEOB"), ...syncsafe(body.length), 0, 0, ...body];
};
/** A TIT2 frame with format flags `flags` (second flag byte) and a one-byte prefix (group id / method). */
const flaggedText = (version: 3 | 4, flags: number) => [
  ...enc("TIT2"),
  ...(version === 4 ? syncsafe : be32)(5),
  0,
  flags,
  1,
  3,
  ...enc("abc"),
];

interface Layout {
  version: 3 | 4;
  /** The store frame's MIME (the engine's: application/c2pa). */
  mime?: string;
  /** The store frame's two flag bytes. */
  frameFlags?: [number, number];
  /** Tag bytes before and after the store frame. */
  before?: number[];
  after?: number[];
}

function build(layout: Layout, store: Uint8Array, flac: Uint8Array) {
  const fields = enc(`\x03${layout.mime ?? "application/c2pa"}\0c2pa\0c2pa manifest store\0`);
  const frameBody = [...fields, ...store];
  const frame = [...enc("GEOB"), ...(layout.version === 4 ? syncsafe : be32)(frameBody.length), ...(layout.frameFlags ?? [0, 0])];
  const before = layout.before ?? [];
  const tagBody = [...before, ...frame, ...frameBody, ...(layout.after ?? [])];
  const head = [0x49, 0x44, 0x33, layout.version, 0, 0, ...syncsafe(tagBody.length)];
  const out = new Uint8Array(head.length + tagBody.length + flac.length);
  out.set([...head, ...tagBody]);
  out.set(flac, head.length + tagBody.length);
  return { bytes: out, storeStart: head.length + before.length + frame.length + fields.length };
}

/** The layout signed by our signer with a data hash over everything but the store (sized to a fixed point). */
async function signed(layout: Layout): Promise<Uint8Array> {
  const flac = largeFlac(200 * 1024, 11);
  let length = 30_000;
  for (let i = 0; i < 4; i++) {
    const { bytes, storeStart } = build(layout, new Uint8Array(length), flac);
    const hashed = new Uint8Array(bytes.length - length);
    hashed.set(bytes.subarray(0, storeStart));
    hashed.set(bytes.subarray(storeStart + length), storeStart);
    const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", hashed));
    const result = await signer.signManifestStore({ plan: largePlan("audio/flac"), binding: dataHashBinding(hash, storeStart, length) });
    if (result.status !== "signed") throw new Error(JSON.stringify(result));
    if (result.manifest_store.length === length) return build(layout, result.manifest_store, flac).bytes;
    length = result.manifest_store.length;
  }
  throw new Error("the store's size did not settle");
}

async function reference(bytes: Uint8Array): Promise<string> {
  try {
    const verdict = await referenceVerdict(pki.rootCertPem, "audio/flac", bytes);
    return verdict.failure.length > 0 ? `Invalid ${verdict.failure.join(",")}` : verdict.state;
  } catch (error) {
    return `error ${String(error)}`;
  }
}

/** Our streamed verdict: Trusted/Valid/Invalid, or the scan's or read's refusal. */
async function ours(bytes: Uint8Array): Promise<string> {
  const scan = await scanObject(bytes, "audio/flac");
  if (scan.status !== "scanned") return `refused ${scan.status}`;
  try {
    const verification = await verifyStreamedManifest(scan, "audio/flac", pki.rootCertPem, () => undefined);
    return verification.facts.state === "read" ? verification.facts.validation_state : verification.facts.state;
  } catch (error) {
    return `refused ${String(error)}`;
  }
}

const HUGE = new Array<number>(10 * 1024 * 1024 + 8192).fill(7);

describe("streamed FLAC verify is never more lenient than c2pa-node (ID3 tag layouts)", () => {
  it.each<[string, Layout, RegExp]>([
    [
      "a second store in an oversized application/c2pa GEOB after it",
      { version: 4, after: geob("application/c2pa", HUGE) },
      /TooManyManifestStores/,
    ],
    [
      "a second store in an oversized application/c2pa GEOB before it",
      { version: 4, before: geob("application/c2pa", HUGE) },
      /TooManyManifestStores/,
    ],
    [
      "a second store in an application/x-c2pa-manifest-store GEOB after it",
      { version: 4, after: geob("application/x-c2pa-manifest-store", [1, 2, 3]) },
      /TooManyManifestStores/,
    ],
    [
      "a second store in an application/x-c2pa-manifest-store GEOB before it",
      { version: 4, before: geob("application/x-c2pa-manifest-store", [1, 2, 3]) },
      /TooManyManifestStores/,
    ],
    ["an ID3v2.3 store frame flagged compressed", { version: 3, frameFlags: [0, 0x80] }, /no manifest/],
    ["an ID3v2.3 store frame flagged grouped", { version: 3, frameFlags: [0, 0x20] }, /no manifest/],
    ["an ID3v2.3 encrypted frame before the store", { version: 3, before: flaggedText(3, 0x40) }, /no manifest/],
    ["an ID3v2.4 grouped frame before the store", { version: 4, before: flaggedText(4, 0x40) }, /no manifest/],
    ["an ID3v2.4 encrypted frame before the store", { version: 4, before: flaggedText(4, 0x04) }, /no manifest/],
    // Frames before the store whose content c2pa-node's ID3 reader cannot decode: it reads no manifest from the tag.
    ["an empty (zero-size) frame before the store", { version: 4, before: [...enc("TIT2"), 0, 0, 0, 0, 0, 0] }, /no manifest/],
    [
      "a text frame of unknown encoding before the store",
      { version: 4, before: [...enc("TIT2"), 0, 0, 0, 4, 0, 0, 9, ...enc("abc")] },
      /no manifest/,
    ],
    [
      "a text frame of invalid UTF-8 before the store",
      { version: 4, before: [...enc("TIT2"), 0, 0, 0, 4, 0, 0, 3, 0xff, 0xfe, 0xc0] },
      /no manifest/,
    ],
    [
      "a GEOB of unknown encoding before the store",
      { version: 4, before: [...enc("GEOB"), 0, 0, 0, 6, 0, 0, 9, ...enc("a\0\0\0x")] },
      /no manifest/,
    ],
    [
      "a GEOB whose fields are not terminated before the store",
      { version: 4, before: [...enc("GEOB"), 0, 0, 0, 4, 0, 0, 3, ...enc("abc")] },
      /no manifest/,
    ],
    [
      "a UTF-16 text frame with a lone surrogate before the store",
      { version: 4, before: [...enc("TIT2"), 0, 0, 0, 5, 0, 0, 1, 0xff, 0xfe, 0x00, 0xd8] },
      /no manifest/,
    ],
    ["a COMM frame too short before the store", { version: 4, before: [...enc("COMM"), 0, 0, 0, 2, 0, 0, 3, 0x65] }, /no manifest/],
    ["an APIC frame of junk before the store", { version: 4, before: [...enc("APIC"), 0, 0, 0, 3, 0, 0, 9, 1, 2] }, /no manifest/],
    ["a WXXX frame of junk before the store", { version: 4, before: [...enc("WXXX"), 0, 0, 0, 3, 0, 0, 9, 1, 2] }, /no manifest/],
    ["a COMM frame too short after the store", { version: 4, after: [...enc("COMM"), 0, 0, 0, 2, 0, 0, 3, 0x65] }, /no manifest/],
  ])("%s: c2pa-node refuses it, so we do not judge it Valid or Trusted", { timeout: 120_000 }, async (_name, layout, why) => {
    const bytes = await signed(layout);
    expect(await reference(bytes)).toMatch(why);
    expect(await ours(bytes)).not.toMatch(/^(Valid|Trusted)$/);
  });

  it.each<[string, Layout]>([
    ["the engine's layout", { version: 4 }],
    ["an ID3v2.3 tag", { version: 3 }],
    ["a text frame before the store", { version: 4, before: [...enc("TIT2"), 0, 0, 0, 4, 0, 0, 3, ...enc("abc")] }],
    ["a non-C2PA GEOB before the store", { version: 4, before: geob("application/octet-stream", [1, 2, 3]) }],
    ["padding after the store", { version: 4, after: new Array<number>(64).fill(0) }],
    ["status flags on the store frame", { version: 4, frameFlags: [0x40, 0] }],
    ["the store in an application/x-c2pa-manifest-store GEOB", { version: 4, mime: "application/x-c2pa-manifest-store" }],
  ])("%s: Trusted by c2pa-node and by us", { timeout: 120_000 }, async (_name, layout) => {
    const bytes = await signed(layout);
    expect(await reference(bytes)).toBe("Trusted");
    expect(await ours(bytes)).toBe("Trusted");
  });
});
