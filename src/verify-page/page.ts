import { SCRIPT_SOURCE } from "./client-script";
import { VerifyDocument } from "./document";
import { STYLE } from "./style";
import { STATUS_TITLES } from "./titles";

/**
 * The public verify page (GET /verify): one server-rendered HTML document with its CSS and a small vanilla
 * script inline, no framework and no request to anywhere but this origin. The script posts the chosen file to
 * POST /v1/verify (multipart, no credential: the public variant) and renders the VerificationResult with DOM
 * nodes and textContent only: nothing from a response ever becomes markup. The Content-Security-Policy allows
 * exactly this script and this style sheet by their SHA-256 hashes and enforces Trusted Types, so an HTML sink
 * (innerHTML and friends) would throw even if one were added by mistake.
 *
 * Everything here is static for a given configuration: the document and its hashes are built once per isolate.
 */

export interface VerifyPageOptions {
  /** Largest file POST /v1/verify accepts (checked in the browser before uploading). */
  maxBytes: number;
  /** Where the script posts the file; same origin. */
  endpoint?: string;
}

export interface VerifyPage {
  html: string;
  /** The inline script and style sheet, exactly as they appear in `html`. */
  script: string;
  style: string;
  /** `sha256-...` sources of the Content-Security-Policy. */
  scriptHash: string;
  styleHash: string;
  headers: Record<string, string>;
}

const PLACEHOLDER = "/*__CONFIG__*/null";

/** JSON that is safe inside a <script> element (no `</script`, no line separators). */
function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

export function verifyPageScript(options: VerifyPageOptions): string {
  const config = { maxBytes: options.maxBytes, endpoint: options.endpoint ?? "/v1/verify", titles: STATUS_TITLES };
  const script = SCRIPT_SOURCE.replace(PLACEHOLDER, () => scriptJson(config));
  if (/<\/(script|style)/i.test(script) || /<\/style/i.test(STYLE))
    throw new Error("verify page: an inline block would close its element early");
  return script;
}

/**
 * hono/jsx writes void elements as `<meta/>` and boolean attributes as `hidden=""`; the page has always been served
 * as plain HTML5 (`<meta>`, `hidden`), and tests read it that way. Only markup is touched: the script and style
 * blocks contain neither pattern, and buildVerifyPage checks that both survive byte for byte.
 */
function html5(markup: string): string {
  return markup.replace(/<(meta|link|input)\b([^<>]*?)\/>/g, "<$1$2>").replace(/(<[a-z][^<>]*?) hidden=""/g, "$1 hidden");
}

export function verifyPageHtml(options: VerifyPageOptions, script: string, style: string = STYLE): string {
  const endpoint = options.endpoint ?? "/v1/verify";
  const body = VerifyDocument({ endpoint, maxBytes: options.maxBytes, script, style });
  return `<!doctype html>\n${html5(body.toString())}`;
}

/** `sha256-<base64>` of UTF-8 text, as a CSP source expression. */
export async function cspHash(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  let binary = "";
  for (const b of digest) binary += String.fromCharCode(b);
  return `sha256-${btoa(binary)}`;
}

export function verifyPageCsp(scriptHash: string, styleHash: string): string {
  return [
    "default-src 'self'",
    `script-src '${scriptHash}'`,
    `style-src '${styleHash}'`,
    "img-src 'self' blob: data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "require-trusted-types-for 'script'",
    "trusted-types 'none'",
  ].join("; ");
}

export async function buildVerifyPage(options: VerifyPageOptions): Promise<VerifyPage> {
  const script = verifyPageScript(options);
  const html = verifyPageHtml(options, script, STYLE);
  if (!html.includes(`<style>${STYLE}</style>`) || !html.includes(`<script>${script}</script>`))
    throw new Error("verify page: an inline block is not byte-identical to its hashed text");
  const [scriptHash, styleHash] = await Promise.all([cspHash(script), cspHash(STYLE)]);
  return {
    html,
    script,
    style: STYLE,
    scriptHash,
    styleHash,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": verifyPageCsp(scriptHash, styleHash),
      "x-content-type-options": "nosniff",
      "referrer-policy": "no-referrer",
      "x-frame-options": "DENY",
      "cross-origin-opener-policy": "same-origin",
      "cache-control": "no-cache",
    },
  };
}
