import { corrupt, indexOf, latin1 } from "./bytes";
import { type Detection, detection, positiveInt } from "./detection";

/**
 * Text formats: strictly valid UTF-8 (optional BOM) with no NUL byte. Markup is recognised from the prolog
 * (XML declaration, comments, doctype) and the root element only; well-formedness is not checked.
 */

/** Whether all of `b` is well-formed UTF-8 (no overlongs, surrogates or code points above U+10FFFF) without NULs. */
export function isUtf8Text(b: Uint8Array): boolean {
  let i = 0;
  const n = b.length;
  while (i < n) {
    const c = b[i]!;
    if (c < 0x80) {
      if (c === 0) return false;
      i++;
      continue;
    }
    let need: number;
    let min: number;
    let cp: number;
    if (c >= 0xc2 && c <= 0xdf) {
      need = 1;
      min = 0x80;
      cp = c & 0x1f;
    } else if (c >= 0xe0 && c <= 0xef) {
      need = 2;
      min = 0x800;
      cp = c & 0x0f;
    } else if (c >= 0xf0 && c <= 0xf4) {
      need = 3;
      min = 0x10000;
      cp = c & 0x07;
    } else return false;
    if (i + need >= n) return false;
    for (let k = 1; k <= need; k++) {
      const d = b[i + k];
      if (d === undefined || (d & 0xc0) !== 0x80) return false;
      cp = (cp << 6) | (d & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return false;
    i += need + 1;
  }
  return true;
}

const PREFIX = 64 * 1024;

interface Prolog {
  xmlDeclaration: boolean;
  doctype: string | null;
  root: string | null;
  rootTag: string | null;
}

/** Reads the prolog of markup within the first 64 KiB (a latin1 view: markup syntax is ASCII). */
function prolog(s: string): Prolog {
  const out: Prolog = { xmlDeclaration: false, doctype: null, root: null, rootTag: null };
  let i = s.startsWith("\xef\xbb\xbf") ? 3 : 0;
  for (;;) {
    while (i < s.length && /\s/.test(s[i]!)) i++;
    if (s.startsWith("<?", i)) {
      const end = s.indexOf("?>", i + 2);
      if (end < 0) return out;
      if (/^<\?xml\s/i.test(s.slice(i, i + 6))) out.xmlDeclaration = true;
      i = end + 2;
    } else if (s.startsWith("<!--", i)) {
      const end = s.indexOf("-->", i + 4);
      if (end < 0) return out;
      i = end + 3;
    } else if (/^<!doctype/i.test(s.slice(i, i + 9))) {
      // Up to the closing '>' outside an internal subset [ ... ].
      let depth = 0;
      let j = i + 9;
      for (; j < s.length; j++) {
        const ch = s[j];
        if (ch === "[") depth++;
        else if (ch === "]") depth--;
        else if (ch === ">" && depth <= 0) break;
      }
      if (j >= s.length) return out;
      out.doctype = s.slice(i + 9, j).trim();
      i = j + 1;
    } else {
      const m = /^<([A-Za-z_][\w:.-]*)/.exec(s.slice(i, i + 256));
      if (m) {
        out.root = m[1]!;
        const end = s.indexOf(">", i);
        out.rootTag = end < 0 ? null : s.slice(i, end + 1);
      }
      return out;
    }
  }
}

function attributes(tag: string): Map<string, string> {
  const out = new Map<string, string>();
  const re = /\s([A-Za-z_:][\w:.-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
  for (let m = re.exec(tag); m; m = re.exec(tag)) out.set(m[1]!, m[2] ?? m[3] ?? "");
  return out;
}

/** Longer than any length a document states: the value is not read (the regex below stays on short input). */
const MAX_LENGTH_CHARS = 64;

/**
 * SVG lengths in user units or px only; anything relative or physical is not a pixel size. The number's pattern has
 * one way to match each digit run: the former `[0-9]*\.?[0-9]+` split a run of digits every way before failing, so a
 * 16,000-digit `width` took 8.5 s (#22).
 */
function svgLength(value: string | undefined): number | null {
  if (value === undefined || value.length > MAX_LENGTH_CHARS) return null;
  const m = /^\s*(\d+(?:\.\d+)?|\.\d+)\s*(px)?\s*$/.exec(value);
  return m ? positiveInt(Math.round(Number(m[1]))) : null;
}

function svgSize(tag: string | null): { width: number | null; height: number | null } {
  if (!tag) return { width: null, height: null };
  const attrs = attributes(tag);
  let width = svgLength(attrs.get("width"));
  let height = svgLength(attrs.get("height"));
  const box = attrs
    .get("viewBox")
    ?.trim()
    .split(/[\s,]+/)
    .map(Number);
  if (box && box.length === 4 && box.every(Number.isFinite)) {
    width ??= positiveInt(Math.round(box[2]!));
    height ??= positiveInt(Math.round(box[3]!));
  }
  return { width, height };
}

const XHTML_NS = "http://www.w3.org/1999/xhtml";

export function parseText(b: Uint8Array): Detection {
  const s = latin1(b, 0, b.length, PREFIX);
  const p = prolog(s);
  const local = p.root?.split(":").pop()?.toLowerCase() ?? null;
  const trimmedEnd = (() => {
    let e = b.length - 1;
    while (e >= 0 && (b[e] === 0x20 || b[e] === 0x0a || b[e] === 0x0d || b[e] === 0x09)) e--;
    return e >= 0 ? b[e] : undefined;
  })();
  const looksXml = p.xmlDeclaration || (p.root !== null && trimmedEnd === 0x3e);
  const htmlDoctype = p.doctype !== null && /^html\b/i.test(p.doctype);

  if (local === "svg" && looksXml) {
    // A cut SVG is not a document the signer can embed into: its root must be closed (or self-closed).
    const tail = latin1(b, Math.max(0, b.length - 256), b.length, 256).trimEnd();
    const selfClosed = p.rootTag?.trimEnd().endsWith("/>") && tail.endsWith("/>");
    if (!selfClosed && !/<\/(?:[\w.-]+:)?svg\s*>$/i.test(tail)) corrupt("SVG document is not closed (truncated?)");
    const { width, height } = svgSize(p.rootTag);
    return detection("image/svg+xml", "xml", { width, height, has_c2pa_manifest: indexOf(b, "c2pa:manifest") >= 0 }, [
      "application/xml",
      "text/xml",
      "text/plain",
    ]);
  }
  if (local === "html" && (p.xmlDeclaration || (p.rootTag !== null && attributes(p.rootTag).get("xmlns") === XHTML_NS))) {
    return detection("application/xhtml+xml", "xml", {}, ["text/html", "application/xml", "text/xml", "text/plain"]);
  }
  if (htmlDoctype || local === "html" || local === "head" || local === "body") {
    return detection("text/html", "html", {}, ["text/plain"]);
  }
  if (local === "net" && looksXml) {
    return detection("application/x-openvino-ir+xml", "xml", {}, ["application/xml", "text/xml", "text/plain"]);
  }
  if (looksXml) return detection("application/xml", "xml", {}, ["text/xml", "text/plain"]);
  return detection("text/plain", "text", {});
}
