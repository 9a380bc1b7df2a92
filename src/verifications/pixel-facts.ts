import { IMAGE_DECODE_LIMITS } from "../catalog/algorithms";
import { IsccImageFingerprinter, PdqFingerprinter, queryWindowFactor, queryWindowHashes } from "../media/fingerprint";
import type { ImageServices } from "../media/types";
import { hex } from "../platform/bytes";
import { PDQ_MIN_QUALITY } from "../soft-bindings/repo";
import { ImageBufferLease, verifyPixels } from "./verify-pixels";

/*
 * The pixel stage of an image verification (#19): everything a verification measures on an image's pixels (decode,
 * watermark detector, PDQ with its query windows, ISCC), as plain data, before any index lookup. It is one function
 * so that publication can run exactly this on the bytes it signed (pixel-memo.ts) and a verification of those very
 * bytes can use its outputs instead of measuring again. The lookups and the warnings they lead to stay in
 * verify-service.ts, which turns these facts into signals the same way whichever way they were obtained.
 */

/**
 * The version of the pixel stage's outputs. A memo measured under another version is never used. Bump it with any
 * change that can change an output of measureImagePixels (a kernel, the decode, a constant): the golden test
 * (test/workers/verifications/pixel-facts.golden.test.ts) pins the outputs on fixed inputs to this number and fails
 * until it is bumped.
 */
export const PIXEL_FACTS_VERSION = 1;

export type WatermarkFact =
  /** The image is under the detector's minimum edge: not checked. */
  | { status: "small" }
  | { status: "failed"; message: string }
  | { status: "not_detected" }
  /** `payload`: the 8 payload bytes, hex. */
  | { status: "detected"; payload: string; confidence: number };

export type FingerprintFact = { status: "computed"; bits: string; quality: number | null } | { status: "failed"; message: string };

export type ImagePixelFacts =
  | { status: "not_decoded"; message: string }
  | {
      status: "decoded";
      watermark: WatermarkFact;
      /** Null: this deployment has no PDQ fingerprinter. */
      pdq: FingerprintFact | null;
      /** Null: no ISCC fingerprinter, or not computed because PDQ found the image featureless. */
      iscc: FingerprintFact | null;
      /**
       * The PDQ query windows' hashes (hex) of quality at the gate; empty unless PDQ is looked up, or when the image
       * is outside the windows' bounds (too small or too large: not a fault), or when they failed (`windowsFailure`).
       */
      windows: string[];
      /** Present when the query windows could not be hashed (the kernel's message): `windows` is empty for that reason. */
      windowsFailure?: string;
      /**
       * Present when a kernel could not grow and the stage read another image than its own (PDQ's plane unreduced,
       * the query windows' image unreduced): the facts hold for this request, but they are not the canonical ones.
       */
      fallbacks?: string[];
    };

/** The pixel stage on `bytes` (never throws for any bytes; a kernel failure is a fact with its message). */
export async function measureImagePixels(image: ImageServices, bytes: Uint8Array, mediaType: string): Promise<ImagePixelFacts> {
  // The decode goes into one of the isolate's reused buffers; the facts hold no view of it (hex strings and copies
  // only). The query windows' image stays in PDQ's kernel (queryWindowHashes).
  const lease = new ImageBufferLease();
  try {
    return await measureLeased(image, bytes, mediaType, lease);
  } finally {
    lease.release();
  }
}

async function measureLeased(
  image: ImageServices,
  bytes: Uint8Array,
  mediaType: string,
  lease: ImageBufferLease,
): Promise<ImagePixelFacts> {
  const decoded = await verifyPixels(image, bytes, mediaType, lease.take);
  if (decoded.status !== "decoded") return { status: "not_decoded", message: decoded.message };
  const pixels = decoded.pixels.full;
  // PDQ reads the reduced plane (it is matched within a distance; a transparent image keeps full resolution, see
  // plane.ts). The ISCC code is looked up exactly, so it reads the full image, as publication computed it.
  const plane = decoded.pixels.plane;
  const pdqPixels = plane.opaque ? plane.image : pixels;
  let watermark: WatermarkFact;
  if (Math.min(pixels.width, pixels.height) < IMAGE_DECODE_LIMITS.watermark_minimum_edge) watermark = { status: "small" };
  else {
    const detected = image.watermarker.detect(pixels);
    watermark =
      detected.status === "detected"
        ? { status: "detected", payload: hex(detected.payload), confidence: detected.confidence }
        : detected.status === "failed"
          ? { status: "failed", message: detected.message }
          : { status: "not_detected" };
  }
  const iscc = image.fingerprinters.get("iscc-image");
  const pdq = image.fingerprinters.get("pdq");
  // The windows read PDQ's input reduced to at most 768 px a side (#19): PDQ's own pass reduces it beside the hash
  // (PdqFingerprinter.compute's `plane`), and the windows are hashed on it inside the kernel, before anything else
  // runs there (media/fingerprint/query-plane.ts queryWindowHashes: the hashes of queryWindowImage's image, bit for
  // bit).
  // Where ISCC reads PDQ's image (a reduced JPEG), PDQ's pass feeds it too: one copy of the image into the kernel for
  // the three (ISCC's code is then measured before PDQ's quality says whether it is kept; the same code bit for bit).
  const windowFactor = queryWindowFactor(pdqPixels.width, pdqPixels.height);
  const isccBeside = iscc instanceof IsccImageFingerprinter && pdqPixels === pixels ? iscc : undefined;
  const pdqOwn =
    pdq instanceof PdqFingerprinter
      ? pdq.compute(pdqPixels, { ...(windowFactor > 1 ? { plane: windowFactor } : {}), ...(isccBeside ? { iscc: isccBeside } : {}) })
      : undefined;
  const pdqComputed = pdqOwn ?? pdq?.compute(pdqPixels);
  // PDQ's quality says whether the image has texture; a featureless image shares its ISCC code with unrelated ones,
  // so its ISCC code is not computed (verify-service.ts warns).
  const featureless = pdqComputed?.status === "computed" && (pdqComputed.quality ?? 0) < PDQ_MIN_QUALITY;
  const pdqLooked = pdqComputed?.status === "computed" && (pdqComputed.quality ?? 0) >= PDQ_MIN_QUALITY;
  const fallbacks: string[] = decoded.pixels.fallback ? [decoded.pixels.fallback] : [];
  let windows: string[] = [];
  let windowsFailure: string | undefined;
  if (pdqLooked && pdq instanceof PdqFingerprinter) {
    const { result: hashed, fallback } = queryWindowHashes(pdq, pdqPixels, undefined, pdqOwn?.plane);
    if (fallback) fallbacks.push(fallback);
    if (hashed.status === "computed") windows = hashed.regions.filter((r) => r.quality >= PDQ_MIN_QUALITY).map((r) => hex(r.bits));
    else if (hashed.status === "failed") windowsFailure = hashed.message;
  }
  // after the windows: ISCC shares PDQ's kernel, whose plane the windows read
  const isccComputed = iscc && !featureless ? (pdqOwn?.iscc ?? iscc.compute(pixels)) : null;
  return {
    status: "decoded",
    watermark,
    pdq: fact(pdqComputed ?? null),
    iscc: fact(isccComputed),
    windows,
    // Only when set: the facts of a complete measurement (and their golden digests) carry neither key.
    ...(windowsFailure !== undefined ? { windowsFailure } : {}),
    ...(fallbacks.length > 0 ? { fallbacks } : {}),
  };
}

/**
 * Why `facts` are not a complete measurement of the pixel stage (null: they are), which is what a publication's memo
 * (pixel-memo.ts) may hold: a later verification answers with the memo, so a transient failure (a kernel out of
 * memory, a decoder that could not allocate, a detector error) must never become its answer. Complete: decoded; the
 * detector ran (or the image is under its minimum edge, a fact of the pixels); every fingerprinter this pipeline has
 * computed (ISCC may be skipped for a featureless image, also a fact of the pixels); the query windows computed or
 * outside their bounds; no kernel fallback.
 */
export function incompleteMeasurement(image: ImageServices, facts: ImagePixelFacts): string | null {
  if (facts.status !== "decoded") return `not decoded: ${facts.message}`;
  if (facts.watermark.status === "failed") return `the watermark detector failed: ${facts.watermark.message}`;
  if (!image.fingerprinters.get("pdq") || !image.fingerprinters.get("iscc-image")) return "a fingerprinter is not installed";
  if (facts.pdq?.status !== "computed") return `PDQ not computed${facts.pdq ? `: ${facts.pdq.message}` : ""}`;
  const featureless = (facts.pdq.quality ?? 0) < PDQ_MIN_QUALITY;
  if (facts.iscc?.status !== "computed" && !(featureless && facts.iscc === null))
    return `ISCC not computed${facts.iscc ? `: ${facts.iscc.message}` : ""}`;
  if (facts.windowsFailure !== undefined) return `the query windows failed: ${facts.windowsFailure}`;
  if (facts.fallbacks) return facts.fallbacks.join("; ");
  return null;
}

function fact(
  r: { status: "computed"; bits: Uint8Array; quality: number | null } | { status: "failed"; message: string } | null,
): FingerprintFact | null {
  if (!r) return null;
  return r.status === "computed" ? { status: "computed", bits: hex(r.bits), quality: r.quality } : { status: "failed", message: r.message };
}
