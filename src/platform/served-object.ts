/*
 * How the service serves stored bytes. Anything it serves (published files, sidecar manifests, previews,
 * reports, resolution-API manifest stores, the storage capability answers) may hold content a stranger wrote:
 * a signed HTML page, an SVG or XML with scripts, a manifest whose claims are free text. The API origin is the
 * one the verify page, the documentation and API clients trust, so such bytes must never run there.
 */

/** How a browser should present the bytes: save them (`attachment`) or show them (`inline`). */
export type Disposition = "attachment" | "inline";

/** One object about to be served. */
export interface ServedObject {
  /** The stored media type; sent unchanged as Content-Type (nosniff makes the browser keep to it). */
  mediaType: string;
  /** The name to save it under; sanitized here. Null or empty: no filename parameter. */
  filename?: string | null;
  /**
   * Requested presentation. `inline` is honoured only for passive types (see PASSIVE_TYPES) and for documents
   * the service rendered itself; anything else is an attachment.
   */
  disposition: Disposition;
  /**
   * Set only for a document the service rendered itself, with every value from stored data escaped (a
   * verification report): it may be shown inline whatever its type, and `extraCsp` (e.g. its own style,
   * allowed by hash) is appended to the sandbox policy, never replacing it.
   */
  serviceRendered?: { extraCsp?: string[] };
}

/**
 * The sandbox policy every served object gets: an opaque origin, no scripts, no plugins, no forms, no network.
 * Harmless for passive types (a browser showing a JPEG needs none of it).
 */
export const SERVED_OBJECT_CSP = "sandbox; default-src 'none'";

/**
 * Types a browser only ever displays (never executes, never parses into a document that could script): the
 * only ones that may be served `inline`. Everything else (HTML, XHTML, SVG, XML, PDF, JavaScript, unknown
 * types) is an attachment.
 */
const PASSIVE_TYPES = new Set([
  "image/jpeg",
  "image/png",
  "image/gif",
  "image/webp",
  "image/avif",
  "audio/mpeg",
  "audio/mp4",
  "audio/wav",
  "video/mp4",
  "text/plain",
  "application/json",
]);

const essence = (mediaType: string) => mediaType.split(";")[0]!.trim().toLowerCase();

/** True when `mediaType` may be shown inline (see PASSIVE_TYPES). */
export function isPassiveType(mediaType: string): boolean {
  return PASSIVE_TYPES.has(essence(mediaType));
}

/** RFC 5987 `attr-char`: what `filename*` may carry unescaped. */
const ATTR_CHAR = /[A-Za-z0-9!#$&+\-.^_`|~]/;
const MAX_FILENAME_CHARS = 200;

/**
 * A filename reduced to what is safe in a header and on a disk: control characters (CR/LF included), quotes,
 * backslashes and path separators become `_`; leading dots and white space go (no hidden or relative names);
 * at most 200 characters. Empty when nothing usable is left.
 */
export function safeFilename(name: string): string {
  const cleaned = [...name.normalize("NFC")]
    .map((ch) => (/[\u0000-\u001f\u007f-\u009f"\\/\u2028\u2029]/u.test(ch) ? "_" : ch))
    .join("")
    .replace(/^[\s.]+/u, "")
    .trimEnd();
  return [...cleaned].slice(0, MAX_FILENAME_CHARS).join("");
}

/**
 * `Content-Disposition` (RFC 6266): the type, then `filename="..."` (printable ASCII only, non-ASCII as `_`),
 * then, when the name is not plain ASCII (or holds `%`), `filename*=UTF-8''...` (RFC 5987 percent-encoding) with the real name.
 */
export function contentDisposition(disposition: Disposition, filename?: string | null): string {
  const name = filename ? safeFilename(filename) : "";
  if (!name) return disposition;
  const ascii = name.replace(/[^\x20-\x7e]/gu, "_");
  const parts = [disposition, `filename="${ascii}"`];
  // filename* also when the name holds `%`: some browsers percent-decode a plain filename.
  if (ascii !== name || ascii.includes("%")) {
    const encoded = [...utf8Bytes(name)]
      .map((b) =>
        b < 0x80 && ATTR_CHAR.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, "0")}`,
      )
      .join("");
    parts.push(`filename*=UTF-8''${encoded}`);
  }
  return parts.join("; ");
}

function utf8Bytes(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

/**
 * The headers for serving stored bytes. Invariant, for every object the service serves from any origin it
 * controls: `X-Content-Type-Options: nosniff`; `Content-Security-Policy` starting with `sandbox;
 * default-src 'none'`; `Content-Disposition` set, and `attachment` for every type that is not passive unless
 * the service rendered the document itself, so an uploaded HTML, SVG, XML or PDF is saved, never rendered
 * with the origin's rights. Callers add their own length, ETag and caching headers.
 */
export function servedObjectHeaders(object: ServedObject): Record<string, string> {
  const mayInline = isPassiveType(object.mediaType) || object.serviceRendered !== undefined;
  const disposition: Disposition = object.disposition === "inline" && mayInline ? "inline" : "attachment";
  return {
    "Content-Type": object.mediaType,
    "Content-Disposition": contentDisposition(disposition, object.filename),
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": [SERVED_OBJECT_CSP, ...(object.serviceRendered?.extraCsp ?? [])].join("; "),
  };
}

/** The headers for an answer that carries no object (a storage capability's PUT answer): nosniff and the sandbox. */
export function servedAnswerHeaders(): Record<string, string> {
  return { "X-Content-Type-Options": "nosniff", "Content-Security-Policy": SERVED_OBJECT_CSP };
}

/**
 * The query parameters that make R2 (S3 GetObject) answer a presigned GET with the same type and
 * disposition (R2 cannot add nosniff or a CSP; its origin holds no credentials of ours).
 */
export function presignedResponseParams(object: ServedObject): Record<string, string> {
  const headers = servedObjectHeaders(object);
  return { "response-content-type": headers["Content-Type"]!, "response-content-disposition": headers["Content-Disposition"]! };
}
