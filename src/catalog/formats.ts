import { EMBEDDED_SIGNING_MAXIMUM_BYTES, STREAMED_SIGNING_MAXIMUM_BYTES, UPLOAD_MAXIMUM_BYTES_BY_MODALITY } from "./limits";

/**
 * Every reviewed format of SPEC "Formats". `lane` says how a manifest travels with it; `watermark` whether a
 * watermark recipe can apply (decoded embedded formats, except audio/mp4). Whether a format is *enabled* is
 * not written here: it follows from the installed pipelines (see registry.ts).
 */
export type Modality = "image" | "audio" | "video" | "document" | "font" | "model" | "text";
export type Lane = "embedded" | "structural" | "sidecar";

export interface FormatDefinition {
  media_type: string;
  modality: Modality;
  lane: Lane;
  /** True for the "Embedded manifest, decoded" group: pixels or samples are decoded, so a watermark applies. */
  decoded: boolean;
  watermark: boolean;
  /** The container's own file extension, used for download filenames. */
  extension: string;
  /** Sidecar formats name the one recipe that signs them. */
  sidecar_recipe?: string;
}

/**
 * Upload ceilings (values in limits.ts, published by GET /v1/capabilities). Sidecar formats never pass through
 * the C2PA engine (only their hash does), so they take the per-modality sizes; embedded and structural formats
 * stop at EMBEDDED_MAXIMUM_BYTES, since embedded signing holds the asset in wasm memory, except the formats signed
 * by streaming above it (STREAMED_SIGNING_MAXIMUM_BYTES).
 */
export const EMBEDDED_MAXIMUM_BYTES = EMBEDDED_SIGNING_MAXIMUM_BYTES;

export function maximumBytesOf(format: FormatDefinition): number {
  const streamed = STREAMED_SIGNING_MAXIMUM_BYTES[format.media_type];
  if (streamed !== undefined) return streamed;
  return format.lane === "sidecar" ? MAXIMUM_BYTES[format.modality] : Math.min(EMBEDDED_MAXIMUM_BYTES, MAXIMUM_BYTES[format.modality]);
}

export const MAXIMUM_BYTES: Record<Modality, number> = UPLOAD_MAXIMUM_BYTES_BY_MODALITY;

function embedded(media_type: string, modality: Modality, extension: string, watermark = true): FormatDefinition {
  return { media_type, modality, lane: "embedded", decoded: true, watermark, extension };
}
function structural(media_type: string, modality: Modality, extension: string): FormatDefinition {
  return { media_type, modality, lane: "structural", decoded: false, watermark: false, extension };
}
function sidecar(media_type: string, modality: Modality, extension: string, recipe: string): FormatDefinition {
  return { media_type, modality, lane: "sidecar", decoded: false, watermark: false, extension, sidecar_recipe: recipe };
}

const AUDIO = "rcp_private_sidecar_audio_sign_only";
const DOCUMENT = "rcp_private_sidecar_document_sign_only";
const FONT = "rcp_private_sidecar_font_sign_only";
const IMAGE = "rcp_private_sidecar_image_sign_only";
const MODEL = "rcp_private_sidecar_model_sign_only";
const TEXT = "rcp_private_sidecar_text_sign_only";
const VIDEO = "rcp_private_sidecar_video_sign_only";

export const FORMATS: readonly FormatDefinition[] = [
  // Embedded manifest, decoded
  embedded("audio/mp4", "audio", "m4a", false),
  embedded("audio/mpeg", "audio", "mp3"),
  embedded("audio/wav", "audio", "wav"),
  embedded("image/avif", "image", "avif"),
  embedded("image/jpeg", "image", "jpg"),
  embedded("image/png", "image", "png"),
  embedded("image/tiff", "image", "tif"),
  embedded("image/webp", "image", "webp"),
  embedded("video/mp4", "video", "mp4"),
  // Embedded manifest, sign-only
  // Signed on the structural lane (rcp_system_structural_sign_only), and decoded: our audio watermark re-encodes it (#20).
  { ...structural("audio/flac", "audio", "flac"), decoded: true, watermark: true },
  structural("image/gif", "image", "gif"),
  structural("image/heic", "image", "heic"),
  structural("image/heic-sequence", "image", "heics"),
  structural("image/heif", "image", "heif"),
  structural("image/heif-sequence", "image", "heifs"),
  structural("image/jxl", "image", "jxl"),
  structural("image/svg+xml", "image", "svg"),
  structural("image/x-adobe-dng", "image", "dng"),
  structural("video/quicktime", "video", "mov"),
  structural("video/x-msvideo", "video", "avi"),
  // Sidecar
  sidecar("audio/MPA", "audio", "mpa", AUDIO),
  sidecar("audio/aac", "audio", "aac", AUDIO),
  sidecar("audio/x-riff-based", "audio", "riff", AUDIO),
  sidecar("application/epub+zip", "document", "epub", DOCUMENT),
  sidecar("application/oxps", "document", "oxps", DOCUMENT),
  sidecar("application/pdf", "document", "pdf", DOCUMENT),
  sidecar("application/vnd.oasis.opendocument.text", "document", "odt", DOCUMENT),
  sidecar("application/vnd.openxmlformats-officedocument.wordprocessingml.document", "document", "docx", DOCUMENT),
  sidecar("application/x-zip-based", "document", "zip", DOCUMENT),
  sidecar("font/otf", "font", "otf", FONT),
  sidecar("image/x-riff-based", "image", "riff", IMAGE),
  sidecar("image/x-tiff-based", "image", "tiff", IMAGE),
  sidecar("application/onnx", "model", "onnx", MODEL),
  sidecar("application/x-jax", "model", "jax", MODEL),
  sidecar("application/x-keras", "model", "keras", MODEL),
  sidecar("application/x-mlnet", "model", "mlnet", MODEL),
  sidecar("application/x-mxnet", "model", "mxnet", MODEL),
  sidecar("application/x-npy", "model", "npy", MODEL),
  sidecar("application/x-openvino-ir+xml", "model", "xml", MODEL),
  sidecar("application/x-openvino-weights", "model", "bin", MODEL),
  sidecar("application/x-pickle", "model", "pkl", MODEL),
  sidecar("application/x-protobuf", "model", "pb", MODEL),
  sidecar("application/x-pytorch", "model", "pt", MODEL),
  sidecar("application/x-tensorflow", "model", "tf", MODEL),
  sidecar("application/x-tensorflow-savedmodel", "model", "savedmodel", MODEL),
  sidecar("application/xhtml+xml", "text", "xhtml", TEXT),
  sidecar("application/xml", "text", "xml", TEXT),
  sidecar("text/html", "text", "html", TEXT),
  sidecar("text/plain", "text", "txt", TEXT),
  sidecar("text/xml", "text", "xml", TEXT),
  sidecar("video/x-bmff-based", "video", "mp4", VIDEO),
  sidecar("video/x-riff-based", "video", "riff", VIDEO),
];

export const MEDIA_TYPES = FORMATS.map((f) => f.media_type) as [string, ...string[]];

/** Media types compare case-insensitively (RFC 6838); the catalog keeps one canonical spelling. */
export function formatOf(mediaType: string): FormatDefinition | undefined {
  const wanted = mediaType.toLowerCase();
  return FORMATS.find((f) => f.media_type.toLowerCase() === wanted);
}
