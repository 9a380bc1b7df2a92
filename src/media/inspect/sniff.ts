import { hasId3, isAdif, isAdts, isFlac, isMpegAudio, parseAdif, parseAdts, parseFlac, parseMpegAudio, skipId3 } from "./audio";
import { isHdf5, isNpy, isPickle, isSfnt, parseHdf5, parseNpy, parsePickle, parseSfnt } from "./binary";
import { CorruptError, corrupt } from "./bytes";
import type { Detection } from "./detection";
import { isPdf, isZip, parsePdf, parseZip } from "./documents";
import { isGif, parseGif } from "./gif";
import { parseIsobmff } from "./isobmff";
import { isIsobmff } from "./isobmff-box";
import { isJpeg, parseJpeg } from "./jpeg";
import { isJxl, parseJxl } from "./jxl";
import { isPng, parsePng } from "./png";
import { isRiff, parseRiff } from "./riff";
import { isUtf8Text, parseText } from "./text";
import { isTiff, parseTiff } from "./tiff";

/** Outcome of content sniffing, independent of any declared media type. Exactly one variant. */
export type SniffResult =
  /** The bytes are a known container; `detection.media_type` is null when that container is no reviewed format by itself. */
  | { status: "detected"; detection: Detection }
  /** No known signature. */
  | { status: "unknown" }
  /** A known signature whose structure is broken (truncated, a length that does not fit, a bad marker). */
  | { status: "corrupt"; container: string; message: string };

interface Family {
  container: string;
  probe(b: Uint8Array): boolean;
  parse(b: Uint8Array): Detection;
}

/** ID3v2-prefixed audio: MP3, ADTS AAC, or FLAC as c2pa-rs writes it (an ID3 tag carrying the manifest). */
function parseId3Prefixed(b: Uint8Array): Detection {
  const { end, c2pa } = skipId3(b, 0);
  if (isFlac(b, end)) return parseFlac(b, end, c2pa);
  if (isAdif(b, end)) return parseAdif(c2pa);
  if (isAdts(b, end)) return parseAdts(b, end, c2pa);
  if (isMpegAudio(b, end)) return parseMpegAudio(b, end, c2pa);
  corrupt("ID3v2 tag not followed by MPEG audio, AAC or FLAC");
}

/**
 * Families in probe order: distinctive magic numbers first, then frame-synced audio, then the weak
 * signatures (PDF anywhere in the first KiB, HDF5 after a user block), and text last because any byte
 * string without a signature may still be valid UTF-8.
 */
const FAMILIES: Family[] = [
  { container: "jpeg", probe: isJpeg, parse: parseJpeg },
  { container: "png", probe: isPng, parse: parsePng },
  { container: "gif", probe: isGif, parse: parseGif },
  { container: "riff", probe: isRiff, parse: parseRiff },
  { container: "tiff", probe: isTiff, parse: parseTiff },
  { container: "jxl", probe: isJxl, parse: parseJxl },
  { container: "isobmff", probe: isIsobmff, parse: parseIsobmff },
  { container: "zip", probe: isZip, parse: parseZip },
  { container: "npy", probe: isNpy, parse: parseNpy },
  { container: "pickle", probe: isPickle, parse: parsePickle },
  { container: "sfnt", probe: isSfnt, parse: parseSfnt },
  { container: "flac", probe: (b) => isFlac(b), parse: (b) => parseFlac(b, 0, false) },
  { container: "mpeg-audio", probe: (b) => hasId3(b), parse: parseId3Prefixed },
  { container: "adif", probe: (b) => isAdif(b), parse: () => parseAdif(false) },
  { container: "adts", probe: (b) => isAdts(b), parse: (b) => parseAdts(b, 0, false) },
  { container: "mpeg-audio", probe: (b) => isMpegAudio(b), parse: (b) => parseMpegAudio(b, 0, false) },
  { container: "pdf", probe: isPdf, parse: parsePdf },
  { container: "hdf5", probe: isHdf5, parse: parseHdf5 },
  { container: "text", probe: isUtf8Text, parse: parseText },
];

/**
 * Identifies the container of `bytes` from their content alone and reads its facts. Never throws; linear
 * in the input size.
 */
export function sniff(bytes: Uint8Array): SniffResult {
  if (bytes.length === 0) return { status: "unknown" };
  for (const family of FAMILIES) {
    try {
      if (!family.probe(bytes)) continue;
      return { status: "detected", detection: family.parse(bytes) };
    } catch (err) {
      if (err instanceof CorruptError) return { status: "corrupt", container: family.container, message: err.message };
      // A parser bug must not escape: report it as corrupt with a marker the fuzz tests look for.
      return { status: "corrupt", container: family.container, message: `inspector error: ${String(err)}` };
    }
  }
  return { status: "unknown" };
}
