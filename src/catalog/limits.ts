/**
 * Every size, pixel and count limit the service enforces, in one place. The enforcing code reads these
 * constants and GET /v1/capabilities publishes them (`limits`, and `media[].upload.maximum_bytes`), so what a
 * client is told and what it is refused cannot drift apart. Pure values; no HTTP.
 */

const KiB = 1024;
const MiB = 1024 * KiB;

/**
 * Embedded signing holds the asset in wasm memory (about 8× its size, measured), so embedded and structural
 * formats stop here to stay inside the 128 MB isolate. Sidecar formats never pass through the C2PA engine (only
 * their hash does) and take the per-modality ceiling below.
 */
export const EMBEDDED_SIGNING_MAXIMUM_BYTES = 10 * MiB;

const GiB = 1024 * MiB;

/**
 * Formats signed by streaming above EMBEDDED_SIGNING_MAXIMUM_BYTES (src/media/c2pa/stream-sign.ts): the hard
 * binding is hashed over an R2 stream and the manifest appended as the last box/chunk, so the asset is never whole
 * in memory. Not watermarked (the watermark needs the whole signal); a WAV is fingerprinted from its first 32 MiB
 * (jobs/steps/fingerprint-audio.ts). Their upload ceiling is this, per media type.
 * FLAC is streamed for sign-only recipes; watermarking or fingerprinting one decodes it whole, so admission keeps
 * those at the embedded limit (jobs/admission.ts).
 */
export const STREAMED_SIGNING_MAXIMUM_BYTES: Readonly<Record<string, number>> = {
  "video/mp4": 2 * GiB,
  "video/quicktime": 2 * GiB,
  "audio/mp4": 1 * GiB,
  "audio/wav": 1 * GiB,
  "audio/flac": 1 * GiB,
};

/** Upload ceilings per media modality (sidecar formats; embedded ones are further capped by the line above). */
export const UPLOAD_MAXIMUM_BYTES_BY_MODALITY = {
  image: 50 * MiB,
  audio: 50 * MiB,
  video: 50 * MiB,
  document: 50 * MiB,
  font: 20 * MiB,
  model: 50 * MiB,
  text: 20 * MiB,
} as const;

/** Multipart uploads: every part but the last at least this large (the storage API's own minimum). */
export const MULTIPART_MINIMUM_PART_BYTES = 5 * MiB;
/** Multipart uploads: at most this many parts. */
export const MULTIPART_MAXIMUM_PARTS = 10_000;

/**
 * Work that decodes pixels (watermark, fingerprints, previews, content lookups): 12 MP is 48 MB of RGBA; with
 * the codec's own copy that is what a 128 MB isolate can afford. Signing alone is bounded by bytes, not pixels.
 */
export const DECODE_MAXIMUM_PIXELS = 12_000_000;
/** The image watermark needs at least this many pixels on the shorter side. */
export const WATERMARK_MINIMUM_EDGE_PIXELS = 128;

/**
 * The audio watermark holds the whole recording (and the embedder ≈ 128 KB a second): recordings up to this long
 * and this large are marked; longer ones are signed with fingerprints only.
 */
export const AUDIO_WATERMARK_MAX_SECONDS = 180;
/** About 95 s of CD-quality stereo: the step holds the file, its samples, the marked samples and the kernel (≈ 4×). */
export const AUDIO_WATERMARK_MAX_BYTES = 16 * MiB;
/**
 * The decoded samples the audio watermark step holds (16-bit, all channels): a FLAC or MP3 is decoded whole, marked
 * and re-encoded, so its length is bounded by this rather than by its bytes (about 95 s of CD-quality stereo, as a
 * 16 MiB WAV's). A WAV's data chunk is its samples: the byte limit above bounds it the same.
 */
export const AUDIO_WATERMARK_MAX_PCM_BYTES = 16 * MiB;
/** The audio watermark's pattern repeats every 8.2 s: a recording needs a whole repetition and a margin. */
export const AUDIO_WATERMARK_MIN_SECONDS = 9;

/**
 * Video fingerprints (vPDQ, TMK+PDQF) are computed by the media Worker (wrangler.media.toml), whose FFmpeg decoder
 * holds the whole file in memory beside its heap (VIDEO_DECODE_LIMITS in src/media/codecs/video): a larger video is
 * not fingerprinted (admission refuses the recipe; verification reports the signals as not computed). Decoding
 * costs about 1.7 s of CPU per second of 1080p video, so a publication fingerprints the first
 * VIDEO_FINGERPRINT_MAX_SECONDS of a video and a verification the first VIDEO_VERIFY_MAX_SECONDS of a copy.
 */
export const VIDEO_FINGERPRINT_MAX_BYTES = 40 * MiB;
/** The largest frame the decoder takes (1920 × 1080): a larger video is not fingerprinted. */
export const VIDEO_FINGERPRINT_MAX_PIXELS = 1920 * 1080;
export const VIDEO_FINGERPRINT_MAX_SECONDS = 30;
export const VIDEO_VERIFY_MAX_SECONDS = 12;

/** POST /v1/sign/batch: items per request. */
export const SIGN_BATCH_MAXIMUM_ITEMS = 100;

/** Every JSON request body. */
export const JSON_BODY_MAXIMUM_BYTES = 1 * MiB;

/**
 * Verification of a stored object (`POST /v1/verify` with `asset_id`, `POST /v1/verifications`) read whole takes
 * objects up to the largest ceiling of a non-streamed format; a larger one is refused with 413 rather than exhausting
 * memory.
 */
export const STORED_VERIFY_MAXIMUM_BYTES = 50 * MiB;

/**
 * The media types verified by streaming (src/verifications/verify-streamed.ts: the object is never held whole; the
 * Worker's memory is bounded whatever its size, measured by `npm run bench:large-media -- --verify`), to the size they
 * are signed by streaming up to.
 */
export const STREAMED_VERIFY_MAXIMUM_BYTES: Readonly<Record<string, number>> = STREAMED_SIGNING_MAXIMUM_BYTES;

/** POST /v1/verify: the `file` part (multipart). */
export const VERIFY_FILE_MAXIMUM_BYTES = 25 * MiB;

/**
 * The C2PA engine reads a whole file into its wasm memory, which grows to fit the largest read and never shrinks
 * (src/media/c2pa/engine.ts). Measured growth per byte of a padded signed file (test/node/media/engine-memory.test.ts):
 * JPEG ≈ 3×, PNG ≈ 2×, MP4 1× when its hash matches and 2× when not; a 50 MiB JPEG took it to 153 MiB. A file the
 * engine must read (one our own validator does not judge) is refused with 413 above this, so a verification leaves
 * the engine under ≈ 44 MiB (signing at EMBEDDED_SIGNING_MAXIMUM_BYTES takes it to ≈ 70 MiB), and every file
 * signed here embedded (up to that limit, plus its manifest) stays readable.
 */
export const ENGINE_READ_MAXIMUM_BYTES = 12 * MiB;

/** Public (keyless) POST /v1/verify and content lookups per minute per caller (see platform/client-address). */
export const PUBLIC_VERIFY_PER_MINUTE = 10;
/**
 * A C2PA manifest store the service reads: the `manifest` (sidecar `.c2pa`) part of POST /v1/verify and a
 * store fetched from `manifest_uri`. One bound for both, so whatever may be published at a manifest URI may
 * also be sent beside the file.
 */
export const MANIFEST_STORE_MAXIMUM_BYTES = 10 * MiB;
/** Multipart framing (boundaries, part headers) allowed on top of the parts themselves. */
const MULTIPART_OVERHEAD_BYTES = 64 * KiB;
/** POST /v1/verify: the whole multipart body (a full-size file and a full-size sidecar manifest together). */
export const VERIFY_REQUEST_MAXIMUM_BYTES = VERIFY_FILE_MAXIMUM_BYTES + MANIFEST_STORE_MAXIMUM_BYTES + MULTIPART_OVERHEAD_BYTES;

/** POST /v1/soft-binding-resolution/matches/byContent: the asset sent as the body. */
export const CONTENT_LOOKUP_MAXIMUM_BYTES = 25 * MiB;

/** Why POST /v1/verify's file limit is below the largest upload, and what to do for larger files. */
export const VERIFY_LARGER_FILES_NOTE =
  "A file is parsed in memory with its manifest, so POST /v1/verify takes files up to `verify.file_maximum_bytes` (sidecar formats upload up to `media[].upload.maximum_bytes`). " +
  "Verify a larger file without sending it again: JSON `asset_id` for one of your published assets, or upload it (POST /v1/uploads) and POST /v1/verifications with its `object_id`; the stored sidecar manifest is found by the service.";

/** The `limits` object of GET /v1/capabilities: each value is the constant the enforcing code reads. */
export function publishedLimits() {
  return {
    embedded_signing_maximum_bytes: EMBEDDED_SIGNING_MAXIMUM_BYTES,
    streamed_signing_maximum_bytes: { ...STREAMED_SIGNING_MAXIMUM_BYTES },
    decode_maximum_pixels: DECODE_MAXIMUM_PIXELS,
    watermark_minimum_edge_pixels: WATERMARK_MINIMUM_EDGE_PIXELS,
    json_body_maximum_bytes: JSON_BODY_MAXIMUM_BYTES,
    multipart: { minimum_part_bytes: MULTIPART_MINIMUM_PART_BYTES, maximum_parts: MULTIPART_MAXIMUM_PARTS },
    sign_batch_maximum_items: SIGN_BATCH_MAXIMUM_ITEMS,
    verify: {
      file_maximum_bytes: VERIFY_FILE_MAXIMUM_BYTES,
      manifest_maximum_bytes: MANIFEST_STORE_MAXIMUM_BYTES,
      manifest_uri_maximum_bytes: MANIFEST_STORE_MAXIMUM_BYTES,
      stored_object_maximum_bytes: STORED_VERIFY_MAXIMUM_BYTES,
      streamed_object_maximum_bytes: { ...STREAMED_VERIFY_MAXIMUM_BYTES },
      request_maximum_bytes: VERIFY_REQUEST_MAXIMUM_BYTES,
      engine_read_maximum_bytes: ENGINE_READ_MAXIMUM_BYTES,
      larger_files: VERIFY_LARGER_FILES_NOTE,
    },
    content_lookup_maximum_bytes: CONTENT_LOOKUP_MAXIMUM_BYTES,
  };
}
