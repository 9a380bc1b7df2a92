/**
 * Interfaces of the media layer. Routes and jobs depend on these, never on an engine directly, so each engine
 * (c2pa-wasm, our own wasm kernels) sits behind one interface with one conformance test.
 */

/** What inspection learned from the bytes themselves (recorded on the job as `media_inspection`). */
export interface NormalizedInspectionFacts {
  /** The media type the bytes really are (sniffed), one of the reviewed formats. */
  media_type: string;
  /** Container family, e.g. `jpeg`, `png`, `riff-webp`, `tiff`, `isobmff`, `riff-wave`, `mpeg-audio`, `flac`, `pdf`, `text`. */
  container: string;
  modality: "image" | "audio" | "video" | "document" | "font" | "model" | "text";
  byte_length: number;
  width: number | null;
  height: number | null;
  duration_seconds: number | null;
  frames_per_second: number | null;
  /** e.g. `h264`, `hevc`; null when there is no video track. */
  video_codec: string | null;
  /** e.g. `aac-lc`, `he-aac`, `mp3`, `pcm`, `flac`; null when there is no audio. */
  audio_codec: string | null;
  bit_depth: number | null;
  /** e.g. `4:2:0`. */
  chroma_subsampling: string | null;
  sample_rate: number | null;
  channels: number | null;
  /** Whether the bytes already carry a C2PA manifest store. */
  has_c2pa_manifest: boolean;
}

export type InspectionResult =
  | { status: "ok"; facts: NormalizedInspectionFacts }
  /** The bytes are not any reviewed format. */
  | { status: "unsupported_media_type"; message: string }
  /** The bytes are a reviewed format, but not the declared one. */
  | { status: "media_type_mismatch"; declared: string; sniffed: string; message: string }
  /** A reviewed container whose codecs are outside the contract (SPEC: HEVC, 10-bit, HE-AAC, fragmented MP4). */
  | { status: "codec_unsupported"; message: string }
  /** Truncated or malformed. */
  | { status: "corrupt"; message: string };

/**
 * Invariant: `inspect` never throws and never reads past `bytes`; every input, however malformed, yields one
 * of the result variants, in time linear in the input size.
 */
export interface MediaInspector {
  inspect(bytes: Uint8Array, declaredMediaType: string): InspectionResult;
}

/** The C2PA actions and assertions to write. Built by the job from the recipe and the sign request. */
export interface ManifestPlan {
  /** Title of the asset (its download filename). */
  title: string;
  /** The asset's media type (format of the bytes being signed). */
  media_type: string;
  /** `opened` (edit of the uploaded asset: c2pa.opened with a parentOf ingredient) or `created` (ai_declaration). */
  intent: { kind: "opened" } | { kind: "created"; digital_source_type: string };
  /** Extra assertions to embed, e.g. `c2pa.soft-binding` from the watermark and fingerprint steps. */
  assertions: { label: string; data: unknown }[];
  /** Opaque creator reference and commitment, never a name or e-mail. */
  creator?: { creator_ref: string; commitment: string } | null;
  /**
   * The capture admission that let this file be signed (assertion `svc.capture`): provider class, verifier and
   * policy versions, the attested media SHA-256; never an identity, key or installation id.
   */
  capture?: Record<string, string | null> | null;
}

export type SignResult =
  /** `bytes`: the signed asset (embedded) or the unchanged asset (sidecar); `manifest_store`: the .c2pa bytes. */
  | { status: "signed"; bytes: Uint8Array; manifest_store: Uint8Array; active_manifest_label: string }
  | { status: "unsupported_media_type"; message: string }
  | { status: "failed"; message: string };

/**
 * Signs media with C2PA manifests. Invariant: a `signed` result validates with the reference c2pa-rs reader
 * against the configured trust anchors (embedded: the bytes alone; sidecar: the manifest store with the
 * unchanged bytes), with a trusted RFC 3161 timestamp when a TSA is configured.
 */
export interface Signer {
  /** Media types this signer embeds into. */
  readonly embeddedMediaTypes: readonly string[];
  /** Whether it can produce sidecar manifest stores for any bytes. */
  readonly sidecar: boolean;
  signEmbedded(input: { bytes: Uint8Array; plan: ManifestPlan }): Promise<SignResult>;
  signSidecar(input: { bytes: Uint8Array; plan: ManifestPlan }): Promise<SignResult>;
}

/** What the reference engine says about a manifest store. */
export interface ManifestCheck {
  /** c2pa-rs validation state; `Trusted` needs a configured trust anchor. */
  validation_state: "Trusted" | "Valid" | "Invalid";
  active_manifest_label: string | null;
  success_codes: string[];
  informational_codes: string[];
  failure_codes: string[];
  /** Whether the asset bytes were checked against the manifest's hard binding (false for a bare sidecar store). */
  asset_binding_checked: boolean;
}

export type ManifestReadResult =
  | { status: "read"; check: ManifestCheck }
  | { status: "no_manifest" }
  | { status: "failed"; message: string };

/**
 * Reads and validates C2PA manifests. Invariant: it reports only what the engine computed; a check it could not
 * make is reported as not made (`asset_binding_checked: false`), never assumed.
 */
export interface ManifestReader {
  read(input: { bytes: Uint8Array; mediaType: string; manifestStore?: Uint8Array }): Promise<ManifestReadResult>;
}

export type PreviewResult =
  | { status: "rendered"; jpeg: Uint8Array; width: number; height: number }
  | { status: "unsupported"; message: string }
  | { status: "failed"; message: string };

/**
 * Renders JPEG previews. Invariant: it decodes only media types it lists and images within `maxSourcePixels`
 * (decoded pixels are what costs memory in a 128 MB isolate); anything else is `unsupported`, never attempted.
 */
export interface Previewer {
  readonly mediaTypes: readonly string[];
  readonly maxSourcePixels: number;
  render(input: { bytes: Uint8Array; mediaType: string; maxEdge: number }): Promise<PreviewResult>;
}

/** Decoded pixels: 8-bit RGBA, row-major, `data.length === width * height * 4`. */
export interface RgbaImage {
  width: number;
  height: number;
  data: Uint8Array;
}

export type WatermarkStrength = "subtle" | "balanced" | "robust";

export type WatermarkEmbedResult =
  /** `image`: the marked pixels (alpha untouched); `psnr_db`: PSNR of the marked luma against the original. */
  | { status: "embedded"; image: RgbaImage; psnr_db: number }
  /** The image is below the algorithm's minimum size (too few pixels to carry the payload). */
  | { status: "too_small"; message: string }
  | { status: "failed"; message: string };

export type WatermarkDetectResult =
  /** `payload`: the 8 payload bytes as embedded; `bit_errors`: corrected code bit errors; `confidence` in [0,1]. */
  | { status: "detected"; payload: Uint8Array; confidence: number; bit_errors: number }
  | { status: "not_detected" }
  | { status: "failed"; message: string };

/**
 * An invisible image watermark carrying a 64-bit payload. Invariants: `detect(embed(x, p))` returns `p` for
 * every image at least `minimumEdge` pixels on its shorter side; `detect` on an unmarked image reports
 * `not_detected` except with probability below `falsePositiveBound` (by the error-correcting code's bound);
 * neither method throws.
 */
export interface Watermarker {
  /** Our own algorithm name, as written in capabilities and in the manifest's `c2pa.soft-binding` `alg`. */
  readonly algorithm: string;
  readonly payloadBits: 64;
  readonly minimumEdge: number;
  readonly falsePositiveBound: number;
  embed(input: { image: RgbaImage; payload: Uint8Array; strength: WatermarkStrength }): WatermarkEmbedResult;
  /**
   * Like `embed`, but the marked rows go to `sink` strip by strip instead of into a full-size output (one copy of
   * the image less in memory). On `embedded`, the sink's last pass, from its last `restart`, holds the marked image.
   */
  embedInto?(
    input: { image: RgbaImage; payload: Uint8Array; strength: WatermarkStrength },
    sink: RowSink,
  ): Exclude<WatermarkEmbedResult, { status: "embedded" }> | { status: "embedded"; psnr_db: number };
  /**
   * Like `embedInto`, but the pixels come from a RowSource and are never whole in memory: one reduced read for the
   * canonical luma grid (the algorithm's own analysis resolution), then full-size reads whose rows are marked and
   * handed to `sink` strip by strip (again per self-check boost). Same results and invariants as `embedInto`; the
   * PSNR is measured on the full-size output. `failed` when the source cannot be read.
   */
  embedFrom?(
    input: { source: RowSource; payload: Uint8Array; strength: WatermarkStrength },
    sink: RowSink,
  ): Exclude<WatermarkEmbedResult, { status: "embedded" }> | { status: "embedded"; psnr_db: number };
  detect(image: RgbaImage): WatermarkDetectResult;
}

/**
 * Receives an image top to bottom in runs of whole RGBA rows. Invariant: after `restart`, rows arrive in order
 * from row 0, each exactly once; a later `restart` discards the pass so far.
 */
export interface RowSink {
  restart(): void;
  /** `data` holds `count` whole rows (count x width x 4 bytes), valid only during the call. */
  rows(data: Uint8Array, count: number): void;
}

/**
 * A reduction of an image at decode time, per side: 1 (full size), 1/2, 1/4 or 1/8. A JPEG is reduced in the DCT
 * domain (each 8x8 block yields 4x4, 2x2 or 1x1 samples, the area average of its pixels), so a reduced decode costs
 * a fraction of a full one. The reduced image is ceil(width / scale) x ceil(height / scale).
 */
export type DecodeScale = 1 | 2 | 4 | 8;

export type RowSourceReadResult = { status: "read" } | { status: "failed"; message: string };

/**
 * An image that can be read top to bottom, more than once, without ever being whole in memory (e.g. a JPEG decoded
 * row by row from its file). Invariant: every `read` hands the sink the same pixels for the same scale; on `read`
 * the sink got `restart` and then every row of the (reduced) image in order, exactly once; on `failed` the rows it
 * got are not an image. Synchronous, so no other work interleaves with a read.
 */
export interface RowSource {
  /** The full-size image's dimensions. */
  readonly width: number;
  readonly height: number;
  /**
   * `again`: the caller will read the source again (e.g. a reduced pass, then full size): a decoder may keep what
   * makes the next read cheaper (our JPEG decoder keeps a progressive file's decoded coefficients; without it, it
   * decodes a progressive file's AC scans row by row, in far less memory).
   */
  read(sink: RowSink, scale: DecodeScale, options?: { again?: boolean }): RowSourceReadResult;
}

export type RowSourceResult =
  | { status: "ready"; source: RowSource }
  /** This codec cannot stream these bytes (media type or coding process): use `decode`. */
  | { status: "unsupported"; message: string }
  | { status: "too_large"; message: string }
  | { status: "failed"; message: string };

export type ScaledDecodeResult =
  /** `scale`: the reduction actually applied (1 where the format cannot reduce at decode time). */
  | { status: "decoded"; image: RgbaImage; scale: DecodeScale }
  | { status: "unsupported"; message: string }
  | { status: "too_large"; message: string }
  | { status: "failed"; message: string };

/** A streaming encoder: the rows of one image in, the encoded file out once the last row is in. */
export interface RowEncoder extends RowSink {
  finish(): Uint8Array;
}

export type FingerprintResult =
  /** `value`: the canonical text form (ISCC: `ISCC:...`; PDQ: 64 hex digits); `bits`: the raw hash bits. */
  | { status: "computed"; algorithm: string; value: string; bits: Uint8Array; quality: number | null }
  | { status: "failed"; message: string };

/**
 * A perceptual image fingerprint. Invariant: deterministic (the same pixels always give the same value) and
 * exact on the upstream conformance vectors of its algorithm; never throws.
 */
export interface Fingerprinter {
  readonly algorithm: string;
  compute(image: RgbaImage): FingerprintResult;
}

export type ImageDecodeResult =
  | { status: "decoded"; image: RgbaImage }
  /** A media type this codec does not decode. */
  | { status: "unsupported"; message: string }
  /** More pixels than `maxPixels`: decoding would not fit the isolate's memory. */
  | { status: "too_large"; message: string }
  | { status: "failed"; message: string };

export type ImageEncodeResult = { status: "encoded"; bytes: Uint8Array } | { status: "failed"; message: string };

/**
 * Decodes images to RGBA and encodes them back in the same format. Invariant: `encode(decode(x))` is a valid
 * file of x's media type with x's dimensions; lossless sources stay lossless (PNG, TIFF, lossless WebP); JPEG keeps
 * the source's EXIF, ICC and XMP segments; neither method throws.
 */
export interface ImageCodec {
  readonly mediaTypes: readonly string[];
  readonly maxPixels: number;
  decode(bytes: Uint8Array, mediaType: string): Promise<ImageDecodeResult>;
  /** `source`: the original file, for what survives a re-encode (metadata segments, lossless-ness). */
  encode(image: RgbaImage, mediaType: string, source: Uint8Array): Promise<ImageEncodeResult>;
  /** The same encode, fed row by row (null where the format has no streaming encoder here). */
  rowEncoder?(mediaType: string, width: number, height: number, source: Uint8Array): Promise<RowEncoder | null>;
  /**
   * The image as a RowSource: read it row by row, full size or reduced, as often as needed, never whole in memory.
   * `unsupported` where the format (or this file's coding process) has no streaming decoder here: use `decode`.
   * `maxPixels` holds for the full-size image, checked before any pixel is decoded.
   */
  rowSource?(bytes: Uint8Array, mediaType: string): Promise<RowSourceResult>;
  /**
   * The image reduced at decode time by up to `scale` per side (JPEG: in the DCT domain, far cheaper than a full
   * decode); other formats decode at full size (`scale: 1` in the result). For work that needs only a small
   * image (detection on a canonical grid, fingerprints, previews); same statuses as `decode`.
   */
  decodeScaled?(bytes: Uint8Array, mediaType: string, scale: DecodeScale): Promise<ScaledDecodeResult>;
}

/** The decoded-image pipeline of a deployment: codec, our watermark and the fingerprints by algorithm name. */
export interface ImageServices {
  codec: ImageCodec;
  watermarker: Watermarker;
  fingerprinters: ReadonlyMap<string, Fingerprinter>;
}

/** Where decoded audio goes a chunk at a time: interleaved signed 16-bit PCM (what Chromaprint takes). */
export interface AudioSink {
  /** Called once, before any `write`. */
  start(sampleRate: number, channels: number): void;
  /** Whole frames (a multiple of `channels` samples), at most one second of them; the array is the sink's to keep. */
  write(interleaved: Int16Array): void;
}

export type AudioDecodeResult =
  /**
   * `frames` went to the sink; `truncated` when `maxSeconds` stopped the decode before the end of the audio;
   * `otherStream` when the file goes on with audio of another sample rate or channel count (concatenated files),
   * which was not decoded (one stream's samples never mix with another's).
   */
  | { status: "decoded"; sampleRate: number; channels: number; frames: number; truncated: boolean; otherStream?: true }
  /** A media type (or coding, e.g. AAC in M4A) no decoder here handles. */
  | { status: "unsupported"; message: string }
  /** Corrupt or truncated beyond use (no audio frame could be decoded). The sink may have been started. */
  | { status: "failed"; message: string };

export interface AudioDecodeOptions {
  /** Stop after this many seconds of audio (the result says `truncated`). */
  maxSeconds?: number;
}

/**
 * Decodes a whole audio file to 16-bit PCM, streaming: the PCM goes to the sink in chunks of at most one second and
 * nothing holds the whole of it, so memory stays bounded whatever the file's length (the file's bytes are the
 * caller's). Never throws for bad input: every file gets a result.
 */
export interface AudioDecoder {
  readonly mediaTypes: readonly string[];
  decode(bytes: Uint8Array, mediaType: string, sink: AudioSink, options?: AudioDecodeOptions): Promise<AudioDecodeResult>;
}

/**
 * One Chromaprint computation over a stream of audio: its frames (one uint32 per ~0.124 s) once the audio is in.
 * `finish` gives no frames for audio shorter than about 3 seconds, or when the computation failed (`error` says why).
 */
export interface ChromaprintStream extends AudioSink {
  finish(): Uint32Array;
  readonly error: string | null;
}

/**
 * The decoded-audio pipeline of a deployment: the decoders and our Chromaprint (wasm/chromaprint). Invariant: the
 * same audio gives the same frames, exact on the upstream vectors; a fresh stream per computation.
 */
export interface AudioServices {
  decoder: AudioDecoder;
  /** The watermark step's re-encodes (FLAC, MP3); absent, only WAV is watermarked. */
  encoders?: import("./codecs/audio/encoders").AudioEncoders;
  chromaprint(): ChromaprintStream;
  watermarker: AudioWatermarker;
}

export type { AudioWatermarker } from "./watermark/audio/types";

import type { AudioWatermarker } from "./watermark/audio/types";

/** What the C2PA reader found. Codes are c2pa-rs validation status codes (C2PA §15.2.1). */
export type ManifestFacts =
  | { state: "absent" }
  /** The asset references a remote manifest (not fetched). */
  | { state: "remote"; url: string | null }
  /** A manifest store is present but the engine could not parse it, and its signed bytes are not shown changed. */
  | { state: "unreadable"; message: string }
  /**
   * A manifest store is present and bytes its claim signature covers (claim, assertions) provably changed, or the
   * structure carrying them is broken, so the engine could not even parse it (our byte-level check, integrity.ts).
   */
  | { state: "tampered"; message: string; active_manifest_label: string | null; signature_valid: boolean }
  | {
      state: "read";
      active_manifest_label: string;
      validation_state: "Trusted" | "Valid" | "Invalid";
      success_codes: string[];
      informational_codes: string[];
      failure_codes: string[];
      /** Failures reported for ingredients (not the active manifest). */
      ingredient_failure_codes: string[];
    };
