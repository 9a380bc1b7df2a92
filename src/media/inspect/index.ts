import { FORMATS, formatOf } from "../../catalog/formats";
import type { InspectionResult, MediaInspector, NormalizedInspectionFacts } from "../types";
import { blankFacts, type Detection } from "./detection";
import { type SniffResult, sniff } from "./sniff";

export type { Detection, MeasuredFacts } from "./detection";
export { type SniffResult, sniff } from "./sniff";

/**
 * Declared media types that mean a reviewed format under another name. Matching is case-insensitive and
 * ignores parameters (`; charset=…`).
 */
export const MEDIA_TYPE_ALIASES: Readonly<Record<string, string>> = {
  "image/jpg": "image/jpeg",
  "image/pjpeg": "image/jpeg",
  "image/x-png": "image/png",
  "image/x-tiff": "image/tiff",
  "image/dng": "image/x-adobe-dng",
  "image/x-dng": "image/x-adobe-dng",
  "image/x-jxl": "image/jxl",
  "image/svg": "image/svg+xml",
  "audio/x-wav": "audio/wav",
  "audio/wave": "audio/wav",
  "audio/vnd.wave": "audio/wav",
  "audio/mp3": "audio/mpeg",
  "audio/x-mp3": "audio/mpeg",
  "audio/mpeg3": "audio/mpeg",
  "audio/x-mpeg": "audio/mpeg",
  "audio/x-m4a": "audio/mp4",
  "audio/m4a": "audio/mp4",
  "audio/x-flac": "audio/flac",
  "audio/x-aac": "audio/aac",
  "video/avi": "video/x-msvideo",
  "video/msvideo": "video/x-msvideo",
  "video/x-avi": "video/x-msvideo",
  "application/x-pdf": "application/pdf",
  "application/zip": "application/x-zip-based",
  "application/x-zip-compressed": "application/x-zip-based",
  "font/opentype": "font/otf",
  "font/sfnt": "font/otf",
  "font/ttf": "font/otf",
  "application/font-sfnt": "font/otf",
  "application/x-font-otf": "font/otf",
  "application/x-font-ttf": "font/otf",
};

const CANONICAL = new Map(FORMATS.map((f) => [f.media_type.toLowerCase(), f.media_type]));

/** The reviewed media type a declaration names (aliases resolved), or null when it names none. */
export function canonicalMediaType(declared: string): string | null {
  const base = (declared.split(";")[0] ?? "").trim().toLowerCase();
  const alias = MEDIA_TYPE_ALIASES[base];
  return CANONICAL.get(base) ?? (alias !== undefined ? alias : null);
}

/**
 * Model formats without a reliable magic number (protobuf-based ONNX and TensorFlow graphs, raw weight
 * files, pickle protocols 0–1) cannot be sniffed. A declaration of one of them is accepted for bytes that
 * match no reviewed format (or are plain text, which a protobuf can be), reported with container `opaque`.
 * Some also accept the generic containers their tools write (`zip`, `hdf5`, legacy `pickle`).
 */
const MODEL_DECLARATIONS: Readonly<Record<string, { opaque: boolean; containers: readonly string[] }>> = {
  "application/onnx": { opaque: true, containers: [] },
  "application/x-protobuf": { opaque: true, containers: [] },
  "application/x-tensorflow": { opaque: true, containers: ["hdf5", "zip"] },
  "application/x-tensorflow-savedmodel": { opaque: true, containers: ["zip"] },
  "application/x-jax": { opaque: true, containers: ["zip", "npy"] },
  "application/x-mlnet": { opaque: true, containers: ["zip"] },
  "application/x-mxnet": { opaque: true, containers: [] },
  "application/x-openvino-weights": { opaque: true, containers: [] },
  "application/x-keras": { opaque: false, containers: ["zip", "hdf5"] },
  "application/x-pickle": { opaque: true, containers: [] },
  "application/x-pytorch": { opaque: false, containers: ["pickle"] },
  "application/x-openvino-ir+xml": { opaque: false, containers: ["xml"] },
};

function facts(accepted: string, d: Detection | null, byteLength: number): NormalizedInspectionFacts {
  const measured = d ? d.facts : blankFacts("opaque");
  return {
    ...measured,
    media_type: accepted,
    modality: formatOf(accepted)!.modality,
    byte_length: byteLength,
  };
}

/** Decides the result from a sniff and a declaration (see ByteSniffingInspector for the rules). */
export function decide(s: SniffResult, declared: string, byteLength: number): InspectionResult {
  if (byteLength === 0) return { status: "corrupt", message: "empty input" };
  if (s.status === "corrupt") return { status: "corrupt", message: `${s.container}: ${s.message}` };
  const canonical = canonicalMediaType(declared);
  const d = s.status === "detected" ? s.detection : null;

  if (canonical !== null && d && (d.media_type === canonical || d.also.includes(canonical))) {
    const violations = d.contract_violations ?? [];
    if (canonical === "video/mp4" && violations.length > 0) {
      return { status: "codec_unsupported", message: `video/mp4 outside the contract: ${violations.join("; ")}` };
    }
    return { status: "ok", facts: facts(canonical, d, byteLength) };
  }

  const model = canonical !== null ? MODEL_DECLARATIONS[canonical] : undefined;
  if (model) {
    const opaque = !d || d.media_type === "text/plain";
    if (model.opaque && opaque) return { status: "ok", facts: facts(canonical!, null, byteLength) };
    if (d && model.containers.includes(d.container)) return { status: "ok", facts: facts(canonical!, d, byteLength) };
  }

  if (!d) return { status: "unsupported_media_type", message: "the bytes are not any reviewed format" };
  if (d.media_type === null) {
    const families = d.also.length > 0 ? `; declare it as ${d.also.join(" or ")}` : "";
    return {
      status: "unsupported_media_type",
      message: `the bytes are ${d.label ?? d.container}, not a reviewed format by itself${families}`,
    };
  }
  const shown = canonical ?? declared.trim();
  return {
    status: "media_type_mismatch",
    declared: shown,
    sniffed: d.media_type,
    message: `declared ${shown} but the bytes are ${d.media_type}`,
  };
}

/**
 * Inspects media by reading its container structure (no decoding, no I/O).
 *
 * Invariant: `inspect` never throws and never reads outside `bytes`; every length field is checked against
 * its parent and the buffer, nesting depth is capped, and every loop advances by at least one byte or one
 * bounded record, so time is linear in the input size. Results:
 * - `ok` when the sniffed format is the declared one (after aliases), or a family/equivalent type the bytes
 *   satisfy (`video/x-bmff-based` for any ISOBMFF, `application/x-zip-based` for any ZIP, `image/heif` for
 *   HEIC, `application/xml` for SVG, `text/plain` for any text, …), or a magic-less model declaration
 *   (container `opaque`); `facts.media_type` is the accepted declaration and `facts.modality` its catalog
 *   modality.
 * - `codec_unsupported` for `video/mp4` outside its contract (one H.264 8-bit 4:2:0 SDR video track, at most
 *   one AAC-LC audio track, no other track, not fragmented), naming every reason.
 * - `media_type_mismatch` when the bytes are another reviewed format.
 * - `unsupported_media_type` when they are no reviewed format.
 * - `corrupt` for empty, truncated or structurally broken input of a recognised container.
 */
export class ByteSniffingInspector implements MediaInspector {
  inspect(bytes: Uint8Array, declaredMediaType: string): InspectionResult {
    try {
      return decide(sniff(bytes), String(declaredMediaType ?? ""), bytes.length);
    } catch (err) {
      // sniff() and decide() do not throw; this is a last line of defence for the invariant.
      return { status: "corrupt", message: `inspector error: ${String(err)}` };
    }
  }
}
