import { JOB_ERROR_CODES } from "../jobs/job-errors";
import { ERROR_CODE_LIST, ERROR_CODES } from "../platform/errors";
import { SIGNAL_WEIGHTS, STATUS_CODES, STATUS_VOCABULARY, STATUS_VOCABULARY_VERSION } from "../verifications/vocabulary";

/** Server-rendered reference pages: no script, no framework, readable without JavaScript. */

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!);

const STYLE = `body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1b1b1b}
code,pre{font:13px ui-monospace,monospace;background:#f3f3f3;padding:.1rem .3rem;border-radius:3px}
.op{border:1px solid #ddd;border-radius:6px;padding:.5rem 1rem;margin:.75rem 0}
.m{display:inline-block;min-width:4.5rem;font-weight:700;text-transform:uppercase}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #eee;text-align:left;padding:.25rem .5rem;vertical-align:top}
.tag{margin-top:2rem}`;

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>${body}</body></html>`;
}

interface DocLike {
  info: { title: string; version: string; description?: string };
  paths?: Record<string, Record<string, unknown>>;
}

type Op = {
  summary?: string;
  description?: string;
  operationId?: string;
  tags?: string[];
  "x-svc-scope"?: string;
  "x-svc-scope-check"?: string;
  security?: unknown[];
  parameters?: { name: string; in: string; required?: boolean; description?: string }[];
  requestBody?: { content?: Record<string, { schema?: { $ref?: string } }> };
  responses?: Record<string, { description?: string }>;
};

export function apiReferencePage(doc: DocLike): string {
  const byTag = new Map<string, string[]>();
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, raw] of Object.entries(item)) {
      const op = raw as Op;
      if (!op || typeof op !== "object" || !("responses" in op)) continue;
      const tag = op.tags?.[0] ?? "Other";
      const params = (op.parameters ?? [])
        .map(
          (p) =>
            `<tr><td><code>${escapeHtml(p.name)}</code></td><td>${escapeHtml(p.in)}${p.required ? ", required" : ""}</td><td>${escapeHtml(p.description ?? "")}</td></tr>`,
        )
        .join("");
      const bodyRef = Object.values(op.requestBody?.content ?? {})[0]
        ?.schema?.$ref?.split("/")
        .pop();
      const responses = Object.entries(op.responses ?? {})
        .map(([status, r]) => `<tr><td><code>${escapeHtml(status)}</code></td><td>${escapeHtml(r.description ?? "")}</td></tr>`)
        .join("");
      const auth = op["x-svc-scope"]
        ? `Bearer key with scope <code>${escapeHtml(op["x-svc-scope"])}</code>`
        : op["x-svc-scope-check"] === "delegated"
          ? "Any valid bearer key; each operation performed with it checks its own scope"
          : "No credential";
      const html = `<section class="op" id="${escapeHtml(op.operationId ?? `${method}-${path}`)}"><h3><span class="m">${escapeHtml(method)}</span> <code>${escapeHtml(path)}</code></h3>
<p><strong>${escapeHtml(op.summary ?? "")}</strong>${op.description ? ` ${escapeHtml(op.description)}` : ""}</p><p>${auth}.</p>
${params ? `<table><tr><th>Parameter</th><th>In</th><th>Description</th></tr>${params}</table>` : ""}
${bodyRef ? `<p>Request body: <code>${escapeHtml(bodyRef)}</code> (see <a href="/openapi.json">openapi.json</a>)</p>` : ""}
<table><tr><th>Status</th><th>Meaning</th></tr>${responses}</table></section>`;
      byTag.set(tag, [...(byTag.get(tag) ?? []), html]);
    }
  }
  const toc = [...byTag.keys()].map((t) => `<a href="#tag-${escapeHtml(t)}">${escapeHtml(t)}</a>`).join(" · ");
  const sections = [...byTag.entries()]
    .map(([tag, ops]) => `<h2 class="tag" id="tag-${escapeHtml(tag)}">${escapeHtml(tag)}</h2>${ops.join("")}`)
    .join("");
  const intro = (doc.info.description ?? "")
    .split("\n")
    .filter(Boolean)
    .map(
      (line) =>
        `<p>${escapeHtml(line)
          .replace(/\*\*(.+?)\*\*/g, "<strong>$1</strong>")
          .replace(/`([^`]+)`/g, "<code>$1</code>")}</p>`,
    )
    .join("");
  return page(
    `${doc.info.title} API reference`,
    `<h1>${escapeHtml(doc.info.title)} <small>v${escapeHtml(doc.info.version)}</small></h1>${intro}
<p>Machine-readable: <a href="/openapi.json">/openapi.json</a> (OpenAPI 3.1). Error codes: <a href="/docs/errors">/docs/errors</a>. Verification statuses: <a href="/docs/verification-statuses">/docs/verification-statuses</a>.</p><nav>${toc}</nav>${sections}`,
  );
}

export function errorCodesPage(): string {
  const jobRows = Object.entries(JOB_ERROR_CODES)
    .map(([code, meaning]) => `<tr id="${escapeHtml(code)}"><td><code>${escapeHtml(code)}</code></td><td>${escapeHtml(meaning)}</td></tr>`)
    .join("");
  const rows = ERROR_CODE_LIST.map((code) => {
    const e = ERROR_CODES[code];
    return `<tr id="${escapeHtml(code)}"><td><code>${escapeHtml(code)}</code></td><td>${e.status}</td><td>${e.retryable ? "yes" : "no"}</td><td>${escapeHtml(e.summary)}</td></tr>`;
  }).join("");
  return page(
    "svc error codes",
    `<h1>Error codes</h1><p>Every error body is an <code>ErrorResponse</code> with one of these <code>code</code> values (401 and 403 carry only <code>detail</code>). Branch on the code, never on the message.</p>
<table><tr><th>Code</th><th>Status</th><th>Retryable</th><th>Meaning</th></tr>${rows}</table>
<h2 id="job-error-codes">Job error codes</h2><p>A job that ends <code>failed</code> or <code>rejected</code> reports one of these in <code>error_code</code> (with <code>error_message</code>).</p>
<table><tr><th>Code</th><th>Meaning</th></tr>${jobRows}</table>`,
  );
}

/** The verification status table (SPEC: published with its version): every code with its fixed rules. */
export function verificationStatusesPage(): string {
  const rows = STATUS_CODES.map((code) => {
    const d = STATUS_VOCABULARY[code];
    const list = (items: string[]) =>
      items.length ? `<ul>${items.map((i) => `<li>${escapeHtml(i)}</li>`).join("")}</ul>` : "<p>nothing</p>";
    const rule = d.confidence_rule === null ? "null (hard failure or undetermined)" : `${d.confidence_rule}, at most ${d.confidence_cap}`;
    return `<tr id="${escapeHtml(code)}"><td><code>${escapeHtml(code)}</code><br>${escapeHtml(d.overall)}</td><td>${escapeHtml(d.summary)}<p><em>${escapeHtml(d.user_explanation)}</em></p></td><td>${escapeHtml(rule)}</td><td>${list(d.proves)}</td><td>${list(d.does_not_prove)}</td></tr>`;
  }).join("");
  const weights = Object.entries(SIGNAL_WEIGHTS)
    .map(([k, v]) => `<code>${escapeHtml(k)}</code> ${v}`)
    .join(", ");
  return page(
    "svc verification statuses",
    `<h1>Verification statuses</h1><p>Vocabulary <code>${STATUS_VOCABULARY_VERSION}</code>: POST /v1/verify answers exactly one of these ${STATUS_CODES.length} codes. Machine-readable: <a href="/docs/verification-statuses.json">/docs/verification-statuses.json</a>.</p>
<p><strong>weighted_signals</strong>: the sum of the weights of the signals that came out positive (${weights}), a signal not computed counting 0, capped per code. <strong>recovered_match</strong>: 0.6 + 0.2 × the watermark detector's confidence (+0.05 when a fingerprint of the same publication agrees), or 0.5 + 0.25 × (1 − distance/threshold) for a fingerprint alone, capped per code.</p>
<p><strong>Similar content elsewhere</strong>: a fingerprint is computed from the content, not placed in the file by its signer, so identical or similar content published again (by anyone, the same customer included) never changes the status of a file with a valid manifest. Such publications are listed in <code>related_publications</code> with public facts only (their manifest id and publication time, never their owner or asset ids). Only a decoded watermark naming another publication than the manifest yields <code>conflicting_provenance</code>. A check that does not apply (a watermark payload when no watermark was found, a signature when there is no manifest) is left out of <code>signals</code> and reads "not applicable".</p>
<table><tr><th>Code / overall</th><th>Meaning</th><th>Confidence</th><th>Proves</th><th>Does not prove</th></tr>${rows}</table>`,
  );
}
