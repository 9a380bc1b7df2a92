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

const STYLE = `:root{color-scheme:light dark;--bg:#f6f6f3;--surface:#fff;--text:#1a1a1a;--muted:#4d4d4d;--border:#c4c4bf;--accent:#0b57d0;--accent-text:#fff;--focus:#0b57d0;--good:#146c2e;--good-bg:#e6f4ea;--warn:#7a4a00;--warn-bg:#fdf0d5;--bad:#b3261e;--bad-bg:#fce8e6;--info:#0b57d0;--info-bg:#e8f0fe;--neutral:#404040;--neutral-bg:#ececea;--code-bg:#efefec}
@media (prefers-color-scheme:dark){:root{--bg:#121212;--surface:#1d1d1d;--text:#ededed;--muted:#b8b8b8;--border:#4a4a4a;--accent:#8ab4f8;--accent-text:#0d1b33;--focus:#8ab4f8;--good:#7ed99a;--good-bg:#10301a;--warn:#ffc266;--warn-bg:#3a2a0a;--bad:#ff9b91;--bad-bg:#3f1613;--info:#8ab4f8;--info-bg:#14284d;--neutral:#cfcfcf;--neutral-bg:#2a2a2a;--code-bg:#2a2a2a}}
*,*::before,*::after{box-sizing:border-box}
[hidden]{display:none!important}
html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--text);font:1rem/1.55 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
main{max-width:46rem;margin:0 auto;padding:1.5rem 1rem 3rem}
.card-body,.panel,.chosen{overflow-wrap:anywhere}
h1{font-size:1.65rem;line-height:1.25;margin:0 0 .5rem}
a{color:var(--accent)}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.lede{color:var(--muted);margin:0 0 1.25rem}
.muted{color:var(--muted)}
.small{font-size:.875rem}
.vh{position:absolute!important;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0 0 0 0);clip-path:inset(50%);white-space:nowrap;border:0}
.drop{display:block;border:2px dashed var(--border);border-radius:12px;background:var(--surface);padding:1.75rem 1rem;text-align:center;cursor:pointer;transition:border-color .15s,background-color .15s}
.drop:hover,.drop.over{border-color:var(--accent);background:var(--info-bg)}
#file:focus+.drop{outline:3px solid var(--focus);outline-offset:2px;border-color:var(--accent)}
.drop-title{display:block;font-size:1.15rem;font-weight:600}
.pick{display:inline-block;margin-top:.75rem;padding:.55rem 1.1rem;border-radius:8px;background:var(--accent);color:var(--accent-text);font-weight:600}
.hint{display:block;color:var(--muted);font-size:.9rem;margin:.6rem 0 0}
.chosen{display:flex;align-items:center;gap:.75rem;margin:.75rem 0 0;overflow-wrap:anywhere}
.chosen img{flex:none;width:56px;height:56px;object-fit:cover;border-radius:6px;border:1px solid var(--border);background:var(--surface)}
.sidecar{margin-top:1rem}
.sidecar summary{cursor:pointer;color:var(--accent);font-weight:500}
.sidecar-body{padding:.5rem 0 0}
.sidecar label{display:block;font-weight:600;margin-bottom:.25rem}
input[type=file]{font:inherit;max-width:100%}
.actions{display:flex;flex-wrap:wrap;gap:.75rem;align-items:center;margin-top:1rem}
button{font:inherit;font-weight:600;min-height:44px;padding:.55rem 1.25rem;border-radius:8px;border:2px solid var(--accent);background:var(--accent);color:var(--accent-text);cursor:pointer}
button:disabled{opacity:.55;cursor:not-allowed}
.result{margin-top:1.5rem}
.card{display:flex;gap:.9rem;align-items:flex-start;padding:1rem 1.1rem;border:1px solid var(--border);border-left:6px solid var(--tone);border-radius:12px;background:var(--tone-bg)}
.tone-good{--tone:var(--good);--tone-bg:var(--good-bg)}
.tone-warn{--tone:var(--warn);--tone-bg:var(--warn-bg)}
.tone-bad,.tone-error{--tone:var(--bad);--tone-bg:var(--bad-bg)}
.tone-info{--tone:var(--info);--tone-bg:var(--info-bg)}
.tone-neutral{--tone:var(--neutral);--tone-bg:var(--neutral-bg)}
.badge{flex:none;display:grid;place-items:center;width:2.25rem;height:2.25rem;border-radius:50%;background:var(--tone);color:var(--surface);font-weight:700;font-size:1.2rem;line-height:1}
.card-body{min-width:0;flex:1}
.card-title{margin:0;font-size:1.35rem;line-height:1.3;color:var(--tone)}
.card-text{margin:.35rem 0 0}
.card-facts{margin:.5rem 0 0;color:var(--muted);font-size:.9rem;overflow-wrap:anywhere}
.spinner{flex:none;width:1.5rem;height:1.5rem;border-radius:50%;border:3px solid var(--border);border-top-color:var(--accent);animation:spin .8s linear infinite;margin-top:.3rem}
@keyframes spin{to{transform:rotate(360deg)}}
@media (prefers-reduced-motion:reduce){.spinner{animation:none}.drop{transition:none}}
.sections{display:grid;gap:1rem;margin-top:1rem}
.sections>p{margin:0}
.two{display:grid;gap:1rem;grid-template-columns:repeat(auto-fit,minmax(15rem,1fr))}
.panel{background:var(--surface);border:1px solid var(--border);border-radius:12px;padding:1rem 1.1rem;min-width:0}
.panel h3{margin:0 0 .5rem;font-size:1.05rem}
.panel p{margin:0}
.list{margin:0;padding-left:1.2rem}
.list li+li{margin-top:.35rem}
.kv{display:grid;grid-template-columns:minmax(7rem,max-content) minmax(0,1fr);gap:.35rem 1rem;margin:0}
.kv dt{color:var(--muted)}
.kv dd{margin:0;overflow-wrap:anywhere}
.match+.match{margin-top:.75rem;padding-top:.75rem;border-top:1px solid var(--border)}
.checks{width:100%;border-collapse:collapse}
.checks th,.checks td{text-align:left;padding:.45rem .25rem;border-top:1px solid var(--border);vertical-align:top}
.checks thead th{border-top:0;color:var(--muted);font-size:.875rem;font-weight:600}
.checks tbody th{font-weight:400}
.state{display:inline-flex;gap:.4rem;align-items:baseline;font-weight:600}
.mark{display:inline-block;width:1.1em;text-align:center}
.s-yes{color:var(--good)}.s-no{color:var(--bad)}.s-unk{color:var(--warn)}.s-na,.s-off{color:var(--muted);font-weight:500}
.note{display:block;color:var(--muted);font-weight:400;font-size:.875rem}
.warnings .list li::marker{color:var(--warn)}
code,pre{font:.875rem/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:var(--code-bg);border-radius:4px}
code{padding:.05rem .3rem;overflow-wrap:anywhere}
pre{padding:.75rem;margin:.5rem 0 0;white-space:pre-wrap;overflow-wrap:anywhere}
.tech summary{cursor:pointer;font-weight:600}
.tech[open] summary{margin-bottom:.75rem}
.tech h3{margin-top:1rem}
footer{margin-top:2.5rem;color:var(--muted);font-size:.9rem}
@media (max-width:26rem){h1{font-size:1.4rem}.kv{grid-template-columns:minmax(0,1fr);gap:0}.kv dd{margin-bottom:.5rem}.card{padding:.9rem;gap:.7rem}.panel{padding:.9rem}}`;

/** The client; `/*__CONFIG__*\/null` is replaced by the JSON configuration. ES2017, no template literals. */
const SCRIPT_SOURCE = String.raw`(function () {
  "use strict";
  var CFG = /*__CONFIG__*/null;
  function $(id) { return document.getElementById(id); }
  var form = $("verify-form"), input = $("file"), manifest = $("manifest"), drop = $("drop"), chosen = $("file-chosen"),
    live = $("verdict"), details = $("details"), submit = $("submit");
  var seq = 0, blockedUntil = 0, preview = null, timer = 0, depth = 0;
  var ICON = { good: "\u2713", warn: "!", bad: "\u2715", error: "!", info: "\u21bb", neutral: "?" };
  // [key, label, whether "No" is a failure (red) rather than just an absence (grey)]
  var SIGNALS = [
    ["c2pa_manifest_present", "Content Credentials present", false],
    ["c2pa_signature_valid", "Signature valid", true],
    ["signer_trusted", "Signer trusted", true],
    ["timestamp_valid", "Trusted timestamp valid", true],
    ["ocsp_status", "Certificate not revoked (OCSP)", true],
    ["watermark_present", "Invisible watermark found", false],
    ["watermark_payload_valid", "Watermark payload intact", true],
    ["fingerprint_match", "Fingerprint matches a publication", false],
    ["anchor_match", "Recorded in the transparency log", false]
  ];

  function str(v) { return typeof v === "string" ? v : v == null ? "" : String(v); }
  function append(node, kids) {
    (Array.isArray(kids) ? kids : [kids]).forEach(function (k) {
      if (k == null || k === false) return;
      node.appendChild(typeof k === "object" ? k : document.createTextNode(String(k)));
    });
    return node;
  }
  function el(tag, cls, kids) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (kids != null) append(node, kids);
    return node;
  }
  function hide(node) { node.setAttribute("aria-hidden", "true"); return node; }
  function code(v) { return el("code", null, str(v)); }
  function plural(n, word) { return n + " " + word + (n === 1 ? "" : "s"); }
  function fmtBytes(n) {
    if (!(n >= 0)) return "";
    if (n < 1024) return plural(n, "byte");
    var units = ["KB", "MB", "GB"], v = n / 1024, i = 0;
    while (v >= 1024 && i < units.length - 1) { v /= 1024; i++; }
    return (v < 10 ? v.toFixed(1) : String(Math.round(v))) + " " + units[i];
  }
  function timeEl(iso) {
    var s = str(iso), d = new Date(s), t = el("time", null, s);
    if (!isNaN(d.getTime())) {
      t.dateTime = s;
      t.title = s;
      try { t.textContent = d.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "long" }); } catch (e) { t.textContent = d.toString(); }
    }
    return t;
  }

  function showChosen(file) {
    if (preview) { URL.revokeObjectURL(preview); preview = null; }
    chosen.replaceChildren();
    if (!file) { chosen.hidden = true; return; }
    if (/^image\/(jpeg|png|gif|webp|avif|bmp|svg\+xml)$/.test(file.type)) {
      preview = URL.createObjectURL(file);
      var img = el("img");
      img.alt = "";
      img.width = 56;
      img.height = 56;
      img.decoding = "async";
      img.addEventListener("error", function () { img.remove(); });
      img.src = preview;
      chosen.appendChild(img);
    }
    append(chosen, el("span", null, [el("strong", null, file.name || "Unnamed file"), " ", el("span", "muted", "(" + fmtBytes(file.size) + ")")]));
    chosen.hidden = false;
  }

  function card(tone, title, text, facts, status) {
    var box = el("div", "card tone-" + tone);
    if (status) box.dataset.status = status;
    var body = el("div", "card-body", el("h2", "card-title", title));
    body.firstChild.id = "verdict-title";
    if (text) body.appendChild(el("p", "card-text", text));
    if (facts) body.appendChild(el("p", "card-facts", facts));
    box.appendChild(hide(el("span", "badge", ICON[tone] || "?")));
    box.appendChild(body);
    live.replaceChildren(box);
  }
  function panel(title, cls) { return el("section", "panel " + cls, el("h3", null, title)); }
  function listPanel(title, items, empty, cls) {
    var p = panel(title, cls);
    var list = Array.isArray(items) ? items.filter(function (x) { return typeof x === "string" && x; }) : [];
    if (list.length) p.appendChild(el("ul", "list", list.map(function (x) { return el("li", null, x); })));
    else p.appendChild(el("p", "muted", empty));
    return p;
  }
  function kv(rows) {
    var dl = el("dl", "kv");
    rows.forEach(function (row) {
      var v = row[1];
      if (v == null || v === "") return;
      dl.appendChild(el("dt", null, row[0]));
      dl.appendChild(el("dd", null, typeof v === "object" ? v : str(v)));
    });
    return dl.childNodes.length ? dl : null;
  }
  function said(v) { return v === true ? "Yes" : v === false ? "No" : "Not stated"; }
  function signerPanel(s) {
    var p = panel("Signed by", "signer");
    p.appendChild(kv([
      ["Organization", str(s.organization)],
      ["Name", str(s.common_name)],
      ["Issued by", str(s.issuer)],
      ["Signed at", s.timestamp ? timeEl(s.timestamp) : null],
      ["Timestamp authority", str(s.timestamp_authority)],
      ["Certificate valid until", s.not_after ? timeEl(s.not_after) : null]
    ]) || el("p", "muted", "The certificate names no signer."));
    return p;
  }
  function claimsPanel(c) {
    var p = panel("What the credentials say", "claims");
    p.appendChild(kv([
      ["Origin", str(c.origin) || "Not stated"],
      ["Made with", str(c.generator) || "Not stated"],
      ["AI model", str(c.model) || "None named"],
      ["AI generated", said(c.ai_generated)],
      ["AI assisted", said(c.ai_assisted)],
      ["Created", c.created_at ? timeEl(c.created_at) : "Not stated"]
    ]));
    return p;
  }
  // A check that depends on another one does not apply when that one is "No" (a payload needs a watermark).
  var NEEDS = { watermark_payload_valid: "watermark_present", c2pa_signature_valid: "c2pa_manifest_present",
    signer_trusted: "c2pa_manifest_present", timestamp_valid: "c2pa_manifest_present", ocsp_status: "c2pa_manifest_present",
    anchor_match: "c2pa_manifest_present" };
  function signalState(key, v, failure, sig) {
    if (NEEDS.hasOwnProperty(key) && sig && sig[NEEDS[key]] === false) return ["na", "Not applicable", "\u2013", ""];
    if (key === "ocsp_status") {
      if (v === "good") return ["yes", "Yes", "\u2713", "The issuer confirms the certificate is good."];
      if (v === "revoked") return ["no", "No", "\u2715", "The issuer revoked the certificate."];
      if (v === "unknown") return ["unk", "Unknown", "?", "The issuer does not know this certificate."];
      if (v === "unavailable") return ["unk", "Could not check", "?", "The issuer's revocation service did not answer."];
      return ["na", "Not checked", "\u2013", ""];
    }
    if (v === true) return ["yes", "Yes", "\u2713", ""];
    if (v === false) return ["no", "No", "\u2715", "", failure ? "no" : "off"];
    if (v == null) return ["na", "Not checked", "\u2013", ""];
    return ["unk", str(v), "?", ""];
  }
  function signalsPanel(sig) {
    var p = panel("Checks", "signals");
    var rows = SIGNALS.slice(), known = SIGNALS.map(function (s) { return s[0]; });
    Object.keys(sig).forEach(function (k) { if (known.indexOf(k) < 0) rows.push([k, k.replace(/_/g, " "), false]); });
    var tbody = el("tbody");
    rows.forEach(function (row) {
      var st = signalState(row[0], sig[row[0]], row[2], sig);
      var th = el("th", null, row[1]);
      th.scope = "row";
      var state = el("span", "state s-" + (st[4] || st[0]), [hide(el("span", "mark", st[2])), st[1]]);
      var tr = el("tr", null, [th, el("td", null, [state, st[3] ? el("span", "note", st[3]) : null])]);
      tr.dataset.signal = row[0];
      tr.dataset.state = st[0];
      tbody.appendChild(tr);
    });
    var head = el("tr", null, [el("th", null, "Check"), el("th", null, "Result")]);
    head.firstChild.scope = "col";
    head.lastChild.scope = "col";
    p.appendChild(el("table", "checks", [el("thead", null, head), tbody]));
    return p;
  }
  function matchesPanel(ms) {
    var p = panel("Matching originals", "matches");
    p.appendChild(el("p", "muted", "This copy was linked to a signed original through:"));
    ms.forEach(function (m) {
      if (!m || typeof m !== "object") return;
      var fp = m.kind === "fingerprint";
      p.appendChild(el("div", "match", kv([
        ["Found through", m.kind === "watermark" ? "Invisible watermark" : fp ? "Content fingerprint" : str(m.kind)],
        ["Publication", m.publication_id ? code(m.publication_id) : null],
        ["Its credentials", m.manifest_id ? code(m.manifest_id) : "None recorded"],
        ["Match strength", typeof m.score === "number" ? Math.round(m.score * 100) + "%" : null],
        ["Distance", fp && typeof m.distance === "number" ? String(m.distance) : null],
        ["Algorithm", m.algorithm ? code(m.algorithm) : null]
      ])));
    });
    return p;
  }
  function relatedPanel(rs) {
    var p = panel("Related publications", "related");
    p.appendChild(el("p", "muted", "Similar content was also published elsewhere. This is for information only and does not change the result above."));
    rs.forEach(function (m) {
      if (!m || typeof m !== "object") return;
      p.appendChild(el("div", "match", kv([
        ["Its credentials", m.manifest_id ? code(m.manifest_id) : "None recorded"],
        ["Published", m.published_at ? timeEl(m.published_at) : null],
        ["Found through", m.kind === "fingerprint" ? "Content fingerprint" : str(m.kind)],
        ["Distance", typeof m.distance === "number" ? String(m.distance) : null],
        ["Algorithm", m.algorithm ? code(m.algorithm) : null]
      ])));
    });
    return p;
  }
  function techPanel(r) {
    var d = el("details", "panel tech", el("summary", null, "C2PA details"));
    d.appendChild(kv([
      ["Status code", code(r.status)],
      ["Manifest id", r.manifest_id ? code(r.manifest_id) : "None"],
      ["Media type", r.media_type ? code(r.media_type) : null],
      ["Status table", r.status_vocabulary_version ? code(r.status_vocabulary_version) : null],
      ["Certificate serial", r.signer && r.signer.serial_number ? code(r.signer.serial_number) : null],
      ["Verification id", r.verification_id ? code(r.verification_id) : null]
    ]));
    d.appendChild(el("h3", null, "Developer explanation"));
    d.appendChild(el("pre", null, str(r.developer_explanation) || "None given."));
    return d;
  }

  function renderResult(r, file) {
    var meta = (CFG.titles.hasOwnProperty(r.status) && CFG.titles[r.status]) || { title: "Result: " + str(r.status), tone: "neutral" };
    var facts = [];
    if (typeof r.confidence === "number") facts.push("Confidence " + Math.round(r.confidence * 100) + "%");
    if (r.media_type) facts.push(str(r.media_type));
    if (file && file.name) facts.push(file.name);
    card(meta.tone, meta.title, str(r.user_explanation), facts.join(" \u00b7 "), str(r.status));
    var parts = [el("div", "two", [
      listPanel("What this proves", r.proves, "Nothing: this result supports no claim about the file.", "proves"),
      listPanel("What this does not prove", r.does_not_prove, "Nothing listed.", "does-not-prove")
    ])];
    if (r.signer && typeof r.signer === "object") parts.push(signerPanel(r.signer));
    if (r.claims && typeof r.claims === "object") parts.push(claimsPanel(r.claims));
    parts.push(signalsPanel(r.signals && typeof r.signals === "object" ? r.signals : {}));
    if (Array.isArray(r.matches) && r.matches.length) parts.push(matchesPanel(r.matches));
    if (Array.isArray(r.related_publications) && r.related_publications.length) parts.push(relatedPanel(r.related_publications));
    if (Array.isArray(r.warnings) && r.warnings.length) parts.push(listPanel("Warnings", r.warnings, "", "warnings"));
    parts.push(techPanel(r));
    details.replaceChildren.apply(details, parts);
    details.hidden = false;
  }

  function errorOf(body) {
    var e = body && typeof body === "object" ? (body.error && typeof body.error === "object" ? body.error : body) : {};
    return {
      code: typeof e.code === "string" ? e.code : "",
      message: typeof e.message === "string" ? e.message : typeof e.detail === "string" ? e.detail : "",
      requestId: typeof e.request_id === "string" ? e.request_id : body && typeof body.request_id === "string" ? body.request_id : ""
    };
  }
  function technical(status, e) {
    var bits = ["HTTP " + status];
    if (e.code) bits.push("code " + e.code);
    if (e.requestId) bits.push("request " + e.requestId);
    return el("p", "muted small", "For support: " + bits.join(", ") + ".");
  }
  function showProblem(tone, title, text, extra) {
    clearInterval(timer);
    card(tone, title, text, "", "");
    details.replaceChildren();
    if (extra) details.appendChild(extra);
    details.hidden = !extra;
  }
  function retryAfterSeconds(v) {
    var s = str(v).trim();
    if (/^\d+$/.test(s)) return Math.max(1, parseInt(s, 10));
    var t = Date.parse(s);
    return isNaN(t) ? 60 : Math.max(1, Math.ceil((t - Date.now()) / 1000));
  }
  function showRateLimit(seconds, extra) {
    showProblem("warn", "Too many checks for now",
      "This public page allows a limited number of checks per minute from each network. Please wait " + plural(seconds, "second") + ", then try again.", extra);
    var p = el("p", "retry");
    details.insertBefore(p, details.firstChild);
    details.hidden = false;
    submit.disabled = true;
    function tick() {
      var left = Math.ceil((blockedUntil - Date.now()) / 1000);
      if (left > 0) { p.textContent = "You can try again in " + plural(left, "second") + "."; return; }
      clearInterval(timer);
      p.textContent = "You can try again now.";
      submit.disabled = false;
    }
    tick();
    timer = setInterval(tick, 1000);
  }
  function renderError(res, body) {
    var e = errorOf(body);
    if (res.status === 429 || e.code === "svc.ratelimit.exceeded") {
      var wait = retryAfterSeconds(res.headers.get("retry-after"));
      blockedUntil = Date.now() + wait * 1000;
      showRateLimit(wait, technical(res.status, e));
      return;
    }
    var title = "The file could not be checked";
    var text = e.message || "The service answered with HTTP " + res.status + ".";
    if (res.status === 413 || e.code === "svc.request.too_large") title = "This file is too large";
    else if (res.status === 415 || e.code === "svc.verify.unsupported_file_type") title = "This kind of file cannot be checked";
    else if (res.status >= 500) title = "Something went wrong on our side";
    showProblem("error", title, text, technical(res.status, e));
  }

  function setBusy(on, file) {
    form.setAttribute("aria-busy", on ? "true" : "false");
    submit.disabled = on || Date.now() < blockedUntil;
    if (!on) return;
    clearInterval(timer);
    var box = el("div", "card tone-neutral busy", [hide(el("span", "spinner")), el("div", "card-body", el("p", "card-text", "Checking " + (file.name || "the file") + "\u2026"))]);
    live.replaceChildren(box);
    details.hidden = true;
    details.replaceChildren();
  }

  function verify(chosenFile) {
    var file = chosenFile || (input.files && input.files[0]);
    if (!file) { showProblem("error", "Choose a file first", "Drop a file on the box above, or use \u201cChoose a file\u201d."); return; }
    if (Date.now() < blockedUntil) { showRateLimit(Math.ceil((blockedUntil - Date.now()) / 1000)); return; }
    if (file.size > CFG.maxBytes) {
      showProblem("error", "This file is too large", "Files up to " + fmtBytes(CFG.maxBytes) + " can be checked here; this one is " + fmtBytes(file.size) + ".");
      return;
    }
    var data = new FormData();
    data.append("file", file, file.name || "file");
    var side = manifest.files && manifest.files[0];
    if (side) data.append("manifest", side, side.name || "manifest.c2pa");
    var mine = ++seq;
    setBusy(true, file);
    fetch(CFG.endpoint, { method: "POST", body: data, credentials: "omit", cache: "no-store", headers: { accept: "application/json" } })
      .then(function (res) {
        return res.text().then(function (text) {
          var body = null;
          try { body = JSON.parse(text); } catch (e) { body = null; }
          return { res: res, body: body };
        });
      })
      .then(function (got) {
        if (mine !== seq) return;
        setBusy(false);
        if (got.res.ok && got.body && typeof got.body.status === "string") renderResult(got.body, file);
        else renderError(got.res, got.body);
      }, function () {
        if (mine !== seq) return;
        setBusy(false);
        showProblem("error", "Could not reach the verification service", "Check your connection and try again.");
      });
  }

  form.addEventListener("submit", function (ev) { ev.preventDefault(); verify(); });
  input.addEventListener("change", function () {
    var file = input.files && input.files[0];
    showChosen(file);
    if (file) verify(file);
  });
  manifest.addEventListener("change", function () { if (input.files && input.files[0]) verify(); });

  // Drop anywhere on the page (the drop zone lights up); a drop on the manifest field stays native.
  function hasFiles(ev) {
    var types = ev.dataTransfer && ev.dataTransfer.types;
    return !!types && Array.prototype.indexOf.call(types, "Files") >= 0 && ev.target !== manifest;
  }
  window.addEventListener("dragenter", function (ev) { if (!hasFiles(ev)) return; ev.preventDefault(); depth++; drop.classList.add("over"); });
  window.addEventListener("dragover", function (ev) { if (!hasFiles(ev)) return; ev.preventDefault(); ev.dataTransfer.dropEffect = "copy"; });
  window.addEventListener("dragleave", function (ev) { if (!hasFiles(ev)) return; depth = Math.max(0, depth - 1); if (!depth) drop.classList.remove("over"); });
  window.addEventListener("drop", function (ev) {
    if (!hasFiles(ev)) return;
    ev.preventDefault();
    depth = 0;
    drop.classList.remove("over");
    var file = ev.dataTransfer.files && ev.dataTransfer.files[0];
    if (!file) return;
    try { var dt = new DataTransfer(); dt.items.add(file); input.files = dt.files; } catch (e) { /* older browsers: verify the dropped file directly */ }
    showChosen(file);
    verify(file);
  });
})();`;

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

function mib(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}

export function verifyPageHtml(options: VerifyPageOptions, script: string, style: string = STYLE): string {
  const endpoint = options.endpoint ?? "/v1/verify";
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="data:,">
<title>Verify a file \u00b7 Content Credentials</title>
<style>${style}</style>
</head>
<body>
<main>
<header>
<h1>Check a file\u2019s Content Credentials</h1>
<p class="lede">Drop a photo, video, audio file or document to see who signed it, whether it changed since, and what that does and does not prove.</p>
</header>
<form id="verify-form" action="${endpoint}" method="post" enctype="multipart/form-data" aria-busy="false">
<input id="file" name="file" type="file" class="vh" aria-labelledby="drop-title" aria-describedby="drop-hint">
<label id="drop" class="drop" for="file">
<span id="drop-title" class="drop-title">Drop a file here, or choose one</span>
<span class="pick" aria-hidden="true">Choose a file</span>
<span id="drop-hint" class="hint">Up to ${mib(options.maxBytes)}. The file is checked, not kept.</span>
</label>
<p id="file-chosen" class="chosen" hidden></p>
<details class="sidecar">
<summary>Its credentials are in a separate .c2pa file</summary>
<div class="sidecar-body">
<label for="manifest">Manifest file (optional)</label>
<input id="manifest" name="manifest" type="file" accept=".c2pa,application/c2pa" aria-describedby="manifest-hint">
<p id="manifest-hint" class="hint">Some files keep their Content Credentials beside them, as a sidecar. Add it here together with the file.</p>
</div>
</details>
<div class="actions"><button id="submit" type="submit">Verify</button></div>
<noscript><p class="hint">Without JavaScript, Verify shows the raw result as JSON.</p></noscript>
</form>
<section id="result" class="result" aria-label="Result">
<div id="verdict" class="verdict" role="status" aria-live="polite" aria-atomic="true"></div>
<div id="details" class="sections" hidden></div>
</section>
<footer>
<p>This public check stores neither the file nor the result. It reads the file\u2019s C2PA manifest, checks its signature, signer and timestamp, and looks for this service\u2019s invisible watermark and fingerprints.</p>
<p>Developers: the same check is <code>POST /v1/verify</code> in the <a href="/docs#verify">API reference</a>.</p>
</footer>
</main>
<script>${script}</script>
</body>
</html>`;
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
