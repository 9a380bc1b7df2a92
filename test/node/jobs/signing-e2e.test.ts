/**
 * End-to-end conformance of the signing flow: the REAL Worker bundle in bare Miniflare (test/support/worker.ts)
 * is driven over HTTP exactly as a client would — capabilities, upload (create, PUT to the presigned URL with
 * exactly its headers, complete), sign, poll, download — for every supported format, and every downloaded
 * result is checked with the independent reference reader c2pa-node (native c2pa-rs), trusting only the dev
 * root: Trusted, a validated and trusted timestamp, the receipt's active manifest, and one flipped byte of the
 * media data (far from the manifest) caught as the hash mismatch c2pa-rs reports for that format. The service's
 * own POST /v1/verify must agree: `verified_manifest` for the output, `asset_tampered` for the flipped copy.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { referenceVerdict } from "../../support/signer-conformance";
import {
  download,
  fixtureBytes,
  type SignedService,
  sha256Hex,
  signAndWait,
  startSignedService,
  uploadAsset,
} from "../../support/svc-client";

/**
 * The hard binding c2pa-rs writes and checks per format, and so the code a flipped media byte yields
 * (`assertion.<binding>.mismatch`): `bmffHash` (c2pa.hash.bmff, box-level) for the ISO BMFF family — MP4, MOV,
 * M4A, AVIF, HEIC/HEIF — and `dataHash` (c2pa.hash.data, byte ranges with the manifest excluded) for every
 * other format here, including the JPEG XL container (boxes, but not BMFF to c2pa-rs) and both sidecars.
 */
type Binding = "dataHash" | "bmffHash";

interface Case {
  label: string;
  fixture: string;
  mediaType: string;
  recipe: string;
  delivery: "embedded" | "sidecar";
  binding: Binding;
}

const EMBEDDED = "rcp_system_sign_only";
const embedded = (fixture: string, mediaType: string, binding: Binding, label = fixture): Case => ({
  label,
  fixture,
  mediaType,
  recipe: EMBEDDED,
  delivery: "embedded",
  binding,
});

const CASES: Case[] = [
  embedded("sample.jpg", "image/jpeg", "dataHash"),
  embedded("sample-1mp.jpg", "image/jpeg", "dataHash"),
  embedded("sample.png", "image/png", "dataHash"),
  embedded("sample.webp", "image/webp", "dataHash"),
  embedded("sample.tif", "image/tiff", "dataHash"),
  embedded("sample.avif", "image/avif", "bmffHash"),
  embedded("sample.heic", "image/heic", "bmffHash"),
  embedded("sample.heic", "image/heif", "bmffHash", "sample.heic as image/heif"),
  embedded("sample.gif", "image/gif", "dataHash"),
  embedded("sample.svg", "image/svg+xml", "dataHash"),
  embedded("sample.mp4", "video/mp4", "bmffHash"),
  embedded("sample.mov", "video/quicktime", "bmffHash"),
  embedded("sample.mp3", "audio/mpeg", "dataHash"),
  embedded("sample.wav", "audio/wav", "dataHash"),
  embedded("sample.flac", "audio/flac", "dataHash"),
  embedded("sample.m4a", "audio/mp4", "bmffHash"),
  embedded("sample.avi", "video/x-msvideo", "dataHash"),
  embedded("sample-container.jxl", "image/jxl", "dataHash"),
  embedded("sample.dng", "image/x-adobe-dng", "dataHash"),
  {
    label: "sample.pdf (sidecar)",
    fixture: "sample.pdf",
    mediaType: "application/pdf",
    recipe: "rcp_private_sidecar_document_sign_only",
    delivery: "sidecar",
    binding: "dataHash",
  },
  {
    label: "sample.txt (sidecar)",
    fixture: "sample.txt",
    mediaType: "text/plain",
    recipe: "rcp_private_sidecar_text_sign_only",
    delivery: "sidecar",
    binding: "dataHash",
  },
];

let svc: SignedService;

beforeAll(async () => {
  svc = await startSignedService();
}, 120_000);

afterAll(async () => {
  await svc?.dispose();
});

/** Per format, for the log: what the reference reader said. */
const seen = new Map<string, { success: string[]; tampered: string[]; tamperedAt: string }>();
afterAll(() => {
  for (const [label, s] of seen)
    console.log(`${label}: Trusted [${[...new Set(s.success)].join(", ")}]; flipped ${s.tamperedAt} → Invalid [${s.tampered.join(", ")}]`);
});

describe.concurrent("signing end to end, every supported format, checked by c2pa-node", () => {
  it.each(CASES.map((c) => [c.label, c] as const))(
    "%s",
    async (_label, c) => {
      // Discovery: the format is enabled and the recipe accepts it now.
      const caps = await svc.call("GET", "/v1/capabilities");
      expect(caps.status).toBe(200);
      const format = caps.body.media.find((m: { media_type: string }) => m.media_type === c.mediaType);
      expect(format, `${c.mediaType} not listed`).toBeDefined();
      expect(format.availability.available, JSON.stringify(format)).toBe(true);
      expect(format.manifest_delivery).toBe(c.delivery);
      const recipe = caps.body.recipes.find((r: { recipe_id: string }) => r.recipe_id === c.recipe);
      expect(recipe, `${c.recipe} not listed`).toBeDefined();
      expect(recipe.active.supported_media_types).toContain(c.mediaType);

      // Upload, sign, poll.
      const source = fixtureBytes(c.fixture);
      const { assetId } = await uploadAsset(svc, source, c.mediaType, c.fixture);
      const job = await signAndWait(svc, assetId, c.recipe);
      expect(job.state, JSON.stringify(job)).toBe("completed");
      expect(job.error_code).toBeNull();
      expect(job.result).toMatchObject({
        receipt_id: expect.stringMatching(/^rct_/),
        publication_id: expect.any(String),
        verification_id: expect.stringMatching(/^vfy_/),
      });
      expect(
        job.steps.every((s: { state: string }) => s.state === "completed"),
        JSON.stringify(job.steps),
      ).toBe(true);
      expect(job.media_inspection.media_type).toBe(c.mediaType);

      // Download with exactly the returned headers; the bytes match what the API promised.
      const { download: d, bytes, sidecar } = await download(svc, assetId);
      expect(d.media_type).toBe(c.mediaType);
      expect(d.filename).toBe(`${assetId}.${format.extension}`);
      expect(bytes.length).toBe(d.byte_length);
      expect(sha256Hex(bytes)).toBe(d.sha256);
      if (c.delivery === "sidecar") {
        expect(sidecar, "sidecar_manifest missing").not.toBeNull();
        expect(sidecar!.length).toBe(d.sidecar_manifest.byte_length);
        expect(sha256Hex(sidecar!)).toBe(d.sidecar_manifest.sha256);
        expect(d.sidecar_manifest.filename).toBe(`${d.filename}.c2pa`);
        expect(Buffer.from(bytes).equals(Buffer.from(source)), "sidecar signing changed the file").toBe(true);
      } else {
        expect(d.sidecar_manifest).toBeNull();
        expect(bytes.length).toBeGreaterThan(source.length);
      }

      // The reference reader: Trusted, timestamp validated and trusted, the hard binding matches.
      const receipt = await svc.call("GET", `/v1/receipts/${job.result.receipt_id}`);
      expect(receipt.status).toBe(200);
      const verdict = await referenceVerdict(svc.pki.rootCertPem, c.mediaType, bytes, sidecar ?? undefined);
      expect(verdict.failure, JSON.stringify(verdict.store.validation_results)).toEqual([]);
      expect(verdict.state).toBe("Trusted");
      expect(verdict.activeLabel).toBe(receipt.body.evidence.manifest.active_manifest_label);
      expect(verdict.success).toEqual(
        expect.arrayContaining([
          "claimSignature.validated",
          "signingCredential.trusted",
          "timeStamp.validated",
          "timeStamp.trusted",
          `assertion.${c.binding}.match`,
        ]),
      );

      // One flipped bit in the media data, far from the manifest → the binding's mismatch.
      const { tampered, where } = c.delivery === "sidecar" ? flipMiddle(bytes) : flipMediaData(bytes, source, c.mediaType);
      const after = await referenceVerdict(svc.pki.rootCertPem, c.mediaType, tampered, sidecar ?? undefined);
      expect(after.state).toBe("Invalid");
      expect(after.failure, JSON.stringify(after.store.validation_results)).toContain(`assertion.${c.binding}.mismatch`);
      seen.set(c.label, { success: verdict.success, tampered: after.failure, tamperedAt: where });

      // The service's own verify agrees: the untouched output is the top status a sign-only output can have, the
      // flipped copy is tampered.
      const ours = await svc.verify(bytes, sidecar ?? undefined);
      expect(ours.status, ours.text).toBe(200);
      expect(ours.body.status, ours.body.developer_explanation).toBe("verified_manifest");
      expect(ours.body.manifest_id).toBe(receipt.body.evidence.manifest.active_manifest_label);
      const broken = await svc.verify(tampered, sidecar ?? undefined);
      expect(broken.body.status, broken.body.developer_explanation).toBe("asset_tampered");
    },
    90_000,
  );
});

// ---------------------------------------------------------------------------------------------------------
// Where to flip a byte: inside the media payload of the signed file, located by its container structure.

function flipAt(bytes: Uint8Array, at: number): Uint8Array {
  const out = bytes.slice();
  out[at]! ^= 0x01;
  return out;
}

function flipMiddle(bytes: Uint8Array) {
  return { tampered: flipAt(bytes, bytes.length >> 1), where: `byte ${bytes.length >> 1} of ${bytes.length}` };
}

const ascii = (b: Uint8Array, at: number, n = 4) => String.fromCharCode(...b.subarray(at, at + n));
const u32be = (b: Uint8Array, at: number) => ((b[at]! << 24) >>> 0) + (b[at + 1]! << 16) + (b[at + 2]! << 8) + b[at + 3]!;
const u32le = (b: Uint8Array, at: number) => b[at]! + (b[at + 1]! << 8) + (b[at + 2]! << 16) + ((b[at + 3]! << 24) >>> 0);

/** Payload range of the first top-level ISO BMFF box of `type`. */
function bmffBox(b: Uint8Array, type: string): [number, number] | null {
  for (let at = 0; at + 8 <= b.length; ) {
    let size = u32be(b, at);
    let header = 8;
    if (size === 1) {
      size = u32be(b, at + 8) * 2 ** 32 + u32be(b, at + 12);
      header = 16;
    } else if (size === 0) size = b.length - at;
    if (size < header) return null;
    if (ascii(b, at + 4) === type) return [at + header, at + size];
    at += size;
  }
  return null;
}

/** Payload range of the largest top-level RIFF chunk whose id (or LIST type) is one of `ids`. */
function riffChunk(b: Uint8Array, ids: string[]): [number, number] | null {
  let best: [number, number] | null = null;
  for (let at = 12; at + 8 <= b.length; ) {
    const id = ascii(b, at);
    const size = u32le(b, at + 4);
    const name = id === "LIST" ? ascii(b, at + 8) : id;
    if (ids.includes(name) && (!best || size > best[1] - best[0])) best = [at + 8, Math.min(b.length, at + 8 + size)];
    at += 8 + size + (size & 1);
  }
  return best;
}

/** Payload range of the largest PNG IDAT chunk. */
function pngIdat(b: Uint8Array): [number, number] | null {
  let best: [number, number] | null = null;
  for (let at = 8; at + 12 <= b.length; ) {
    const size = u32be(b, at);
    if (ascii(b, at + 4) === "IDAT" && (!best || size > best[1] - best[0])) best = [at + 8, at + 8 + size];
    at += 12 + size;
  }
  return best;
}

/** The first image strip of IFD0 (StripOffsets 273, StripByteCounts 279) of a TIFF or DNG. */
function tiffStrip(b: Uint8Array): [number, number] | null {
  const le = b[0] === 0x49;
  const u16 = (at: number) => (le ? b[at]! + (b[at + 1]! << 8) : (b[at]! << 8) + b[at + 1]!);
  const u32 = (at: number) => (le ? u32le(b, at) : u32be(b, at));
  const ifd = u32(4);
  let offset = -1;
  let count = -1;
  for (let i = 0, n = u16(ifd); i < n; i++) {
    const entry = ifd + 2 + 12 * i;
    const value = (at: number) => (u16(entry + 2) === 3 ? u16(at) : u32(at));
    const valueAt = u32(entry + 4) === 1 ? entry + 8 : u32(entry + 8); // first value, inline or by offset
    if (u16(entry) === 273) offset = value(valueAt);
    if (u16(entry) === 279) count = value(valueAt);
  }
  return offset > 0 && count > 0 ? [offset, offset + count] : null;
}

/** The entropy-coded data just before the JPEG's final EOI. */
function jpegTail(b: Uint8Array): [number, number] | null {
  for (let at = b.length - 2; at > 0; at--) if (b[at] === 0xff && b[at + 1] === 0xd9) return at > 256 ? [at - 256, at - 16] : null;
  return null;
}

/** A region of the signed file that is surely media data: by container structure, else by content. */
function mediaRegion(b: Uint8Array, mediaType: string): { range: [number, number]; how: string } | null {
  const found = (range: [number, number] | null, how: string) => (range && range[1] > range[0] ? { range, how } : null);
  switch (mediaType) {
    case "image/jpeg":
      return found(jpegTail(b), "JPEG scan data before EOI");
    case "image/png":
      return found(pngIdat(b), "PNG IDAT");
    case "image/webp":
      return found(riffChunk(b, ["VP8 ", "VP8L"]), "WebP VP8 bitstream");
    case "audio/wav":
      return found(riffChunk(b, ["data"]), "WAV data chunk");
    case "video/x-msvideo":
      return found(riffChunk(b, ["movi"]), "AVI movi list");
    case "video/mp4":
    case "video/quicktime":
    case "audio/mp4":
    case "image/avif":
    case "image/heic":
    case "image/heif":
      return found(bmffBox(b, "mdat"), "BMFF mdat");
    case "image/jxl":
      return found(bmffBox(b, "jxlc"), "JPEG XL jxlc codestream box");
    case "image/tiff":
    case "image/x-adobe-dng":
      return found(tiffStrip(b), "TIFF strip of IFD0");
    default:
      return null;
  }
}

/**
 * Flips a bit in the middle of the media payload of `signed`, and checks it really is media data: the 32 bytes
 * around it occur in the original upload (a manifest never holds such a run: thumbnails are off). Formats
 * without a locator here (GIF, SVG, MP3, FLAC) use a unique 32-byte run of the original taken from its middle.
 */
function flipMediaData(signed: Uint8Array, original: Uint8Array, mediaType: string) {
  const region = mediaRegion(signed, mediaType);
  let at: number;
  let how: string;
  if (region) {
    at = (region.range[0] + region.range[1]) >> 1;
    how = region.how;
  } else {
    at = -1;
    how = "";
    for (const fraction of [0.5, 0.6, 0.4, 0.7, 0.3]) {
      const start = Math.floor((original.length - 32) * fraction);
      const needle = Buffer.from(original.subarray(start, start + 32));
      const hit = Buffer.from(signed).indexOf(needle);
      if (hit >= 0 && Buffer.from(signed).indexOf(needle, hit + 1) < 0) {
        at = hit + 16;
        how = `original bytes at ${Math.round(fraction * 100)}%`;
        break;
      }
    }
    if (at < 0) throw new Error(`${mediaType}: could not locate the media data in the signed file`);
  }
  const window = Buffer.from(signed.subarray(at - 16, at + 16));
  expect(Buffer.from(original).indexOf(window), `${mediaType}: byte ${at} (${how}) is not original media data`).toBeGreaterThanOrEqual(0);
  return { tampered: flipAt(signed, at), where: `${how}, byte ${at} of ${signed.length}` };
}
