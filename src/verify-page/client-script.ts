/**
 * The verify page's client (see page.ts for what it may and may not do). Its text, after the configuration is
 * substituted, is hashed into the CSP script-src source, so the page only runs exactly this script.
 */

/** The client; `/*__CONFIG__*\/null` is replaced by the JSON configuration. ES2017, no template literals. */
export const SCRIPT_SOURCE = String.raw`(function () {
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
