import { beforeAll, describe, expect, it } from "vitest";
import { canonicalJson } from "../../../src/catalog/canonical-json";
import { REPORT_VERSION } from "../../../src/verifications/report/document-schema";
import { renderReportHtml } from "../../../src/verifications/report/html";
import { escapeHtml, renderReportJson, reportDocument, type VerificationRow } from "../../../src/verifications/report-render";
import { addKey, api, createTenant, fixture, json, sha256HexOf, type TestTenant } from "../support/helpers";
import { signedCopy, verifyFile } from "../support/verify-helpers";

/** One tenant with two verification records: a job's publication-time self-check and an authenticated verify call. */
interface Setup {
  tenant: TestTenant;
  checkId: string;
  verifyId: string;
  verifyBody: any;
}
let setup: Setup;

beforeAll(async () => {
  const tenant = await createTenant();
  const { job, bytes } = await signedCopy(tenant.key, fixture("sample.jpg"), "image/jpeg");
  const res = await verifyFile(bytes, { key: tenant.key });
  const verifyBody = await json(res);
  expect(res.status, JSON.stringify(verifyBody)).toBe(200);
  setup = { tenant, checkId: job.result.verification_id, verifyId: verifyBody.verification_id, verifyBody };
}, 120_000);

const createReport = (key: string, verificationId: string, headers?: Record<string, string>) =>
  api(`/v1/verification-evidence/${verificationId}/reports`, { method: "POST", key, headers });

async function download(key: string, url: string, headers?: Record<string, string>) {
  const res = await api(url, { key, headers });
  const bytes = new Uint8Array(await res.arrayBuffer());
  return { res, bytes, text: new TextDecoder().decode(bytes) };
}

/** What a self-contained document must never contain: scripts, links, or anything fetched from elsewhere. */
function expectSelfContained(html: string) {
  const lower = html.toLowerCase();
  for (const banned of [
    "<script",
    "<link",
    "<img",
    "<iframe",
    "<object",
    "<embed",
    "<form",
    "<base",
    " src=",
    " href=",
    "url(",
    "@import",
    "http://",
    "https://",
    "javascript:",
    " on",
  ]) {
    if (banned === " on") expect(lower, "event handler attribute").not.toMatch(/<[^>]+\son[a-z]+\s*=/);
    else expect(lower, banned).not.toContain(banned);
  }
}

describe("verification reports", () => {
  it("a verify call's report: 201 with both formats; the bytes match their hashes and headers", async () => {
    const { tenant, verifyId, verifyBody } = setup;
    const res = await createReport(tenant.key, verifyId);
    const report = await json(res);
    expect(res.status, JSON.stringify(report)).toBe(201);
    expect(report).toMatchObject({ verification_id: verifyId, report_version: REPORT_VERSION });
    expect(report.report_id).toMatch(/^vrp_[a-z2-7]{16}$/);
    expect(res.headers.get("location")).toBe(`/v1/verification-reports/${report.report_id}`);
    expect(report.formats.html.url).toBe(`/v1/verification-reports/${report.report_id}?format=html`);
    expect(report.formats.json.url).toBe(`/v1/verification-reports/${report.report_id}?format=json`);

    for (const format of ["json", "html"] as const) {
      const meta = report.formats[format];
      const { res: got, bytes } = await download(tenant.key, meta.url);
      expect(got.status).toBe(200);
      expect(await sha256HexOf(bytes)).toBe(meta.sha256);
      expect(bytes.length).toBe(meta.byte_length);
      expect(got.headers.get("etag")).toBe(`"${meta.sha256}"`);
      expect(got.headers.get("content-type")).toBe(format === "html" ? "text/html; charset=utf-8" : "application/json; charset=utf-8");
      expect(got.headers.get("content-disposition")).toBe(`inline; filename="verification-report-${verifyId}.${format}"`);
      expect(meta.filename).toBe(`verification-report-${verifyId}.${format}`);
      // A matching If-None-Match answers 304 without a body.
      const again = await api(meta.url, { key: tenant.key, headers: { "if-none-match": `"${meta.sha256}"` } });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe("");
    }
    // Without `format`, the JSON document.
    const plain = await download(tenant.key, `/v1/verification-reports/${report.report_id}`);
    expect(await sha256HexOf(plain.bytes)).toBe(report.formats.json.sha256);

    // The JSON parses, is canonical, and renders the stored verdict.
    const doc = JSON.parse(plain.text);
    expect(canonicalJson(doc)).toBe(plain.text);
    expect(doc).toMatchObject({
      report_version: REPORT_VERSION,
      verification_id: verifyId,
      kind: "verification",
      overall: "valid",
      status: "verified_manifest",
      status_vocabulary_version: "svc.verification-status.v1",
      confidence: verifyBody.confidence,
      user_explanation: verifyBody.user_explanation,
      proves: verifyBody.proves,
      does_not_prove: verifyBody.does_not_prove,
      signer: verifyBody.signer,
      claims: verifyBody.claims,
      signals: verifyBody.signals,
      warnings: verifyBody.warnings,
      developer_explanation: verifyBody.developer_explanation,
      subject: { type: "uploaded_object", media_type: "image/jpeg" },
      c2pa: { manifest_id: verifyBody.manifest_id, validation_state: "Trusted", failure_codes: [] },
    });
    expect(doc.c2pa.success_codes).toEqual(expect.arrayContaining(["claimSignature.validated"]));
    for (const code of doc.c2pa.success_codes) expect(verifyBody.developer_explanation).toContain(code);

    // The HTML is a readable, self-contained document with everything a person needs.
    const { text: html } = await download(tenant.key, report.formats.html.url);
    expect(html.startsWith("<!DOCTYPE html>")).toBe(true);
    expectSelfContained(html);
    for (const needle of [
      "Verified Content Credentials",
      escapeHtml(verifyBody.user_explanation),
      ...verifyBody.proves.map(escapeHtml),
      ...verifyBody.does_not_prove.map(escapeHtml),
      escapeHtml(verifyBody.signer.common_name),
      escapeHtml(verifyBody.claims.generator),
      "Claim signature valid",
      "Signer trusted",
      "claimSignature.validated",
      escapeHtml(verifyBody.manifest_id),
      verifyId,
      doc.validated_at,
      report.formats.json.sha256,
      "What this does not prove",
      "@media print",
    ]) {
      expect(html, needle).toContain(needle);
    }
  });

  it("is deterministic: two reports of the same evidence are byte-identical; other evidence differs", async () => {
    const { tenant, verifyId, checkId } = setup;
    const a = await json(await createReport(tenant.key, verifyId));
    const b = await json(await createReport(tenant.key, verifyId));
    expect(a.report_id).not.toBe(b.report_id);
    expect(b.formats.html.sha256).toBe(a.formats.html.sha256);
    expect(b.formats.json.sha256).toBe(a.formats.json.sha256);
    for (const format of ["html", "json"] as const) {
      const x = await download(tenant.key, a.formats[format].url);
      const y = await download(tenant.key, b.formats[format].url);
      expect(y.text).toBe(x.text);
    }
    // Another verification record (the job's self-check of the same file) renders differently.
    const c = await json(await createReport(tenant.key, checkId));
    expect(c.formats.json.sha256).not.toBe(a.formats.json.sha256);
    expect(c.formats.html.sha256).not.toBe(a.formats.html.sha256);
    // So does a second verify call of the same file: it is a different record (its own id and time).
    const { bytes } = await signedCopy(tenant.key, fixture("sample.png"), "image/png");
    const first = await json(await verifyFile(bytes, { key: tenant.key }));
    const second = await json(await verifyFile(bytes, { key: tenant.key }));
    const r1 = await json(await createReport(tenant.key, first.verification_id));
    const r2 = await json(await createReport(tenant.key, second.verification_id));
    expect(r1.formats.json.sha256).not.toBe(r2.formats.json.sha256);
  }, 180_000);

  it("a job's publication-time self-check renders as a publication check", async () => {
    const { tenant, checkId } = setup;
    const res = await createReport(tenant.key, checkId);
    expect(res.status).toBe(201);
    const report = await json(res);
    const { text } = await download(tenant.key, report.formats.json.url);
    const doc = JSON.parse(text);
    expect(canonicalJson(doc)).toBe(text);
    expect(doc).toMatchObject({
      kind: "publication_check",
      verification_id: checkId,
      overall: "valid",
      status: null,
      confidence: null,
      signer: null,
      subject: { type: "asset", validation_path: "c2pa.embedded" },
      c2pa: { validation_state: "Trusted", asset_binding_checked: true, failure_codes: [] },
    });
    expect(doc.subject.job_id).toMatch(/^job_/);
    expect(doc.c2pa.manifest_id).toMatch(/^urn:c2pa:/);
    expect(doc.c2pa.success_codes).toEqual(expect.arrayContaining(["claimSignature.validated", "timeStamp.validated"]));
    expect(doc.proves).toEqual(
      expect.arrayContaining(["The published bytes were byte-for-byte what was signed (the hard binding matched)."]),
    );
    expect(doc.does_not_prove.length).toBeGreaterThan(0);
    const { text: html } = await download(tenant.key, report.formats.html.url);
    expectSelfContained(html);
    expect(html).toContain("Checked at publication: trusted credentials");
    expect(html).toContain("timeStamp.validated");
    expect(html).toContain(escapeHtml(doc.c2pa.manifest_id));
  });

  it("the renderer is a pure function of the row, and escapes whatever a manifest says", async () => {
    const hostile = '<script>alert("x")</script><img src=x onerror=alert(1)> https://evil.example/a.css';
    const row: VerificationRow = {
      id: "vfy_abcdefghij234567",
      tenantId: "ten_abcdefghij234567",
      subjectType: "uploaded_object",
      overall: "indeterminate",
      assetId: null,
      jobId: null,
      objectId: null,
      policyVersion: null,
      sourceByteLength: 10,
      sourceMediaType: "image/jpeg",
      validationPath: "c2pa.embedded",
      evidence: JSON.stringify({
        engine: "c2pa-wasm 0.13.3",
        result: {
          status: "valid_manifest_untrusted_signer",
          status_vocabulary_version: "svc.verification-status.v1",
          confidence: 0.55,
          signals: { c2pa_manifest_present: true, signer_trusted: false, [hostile]: hostile },
          claims: { origin: hostile, generator: hostile, model: null, ai_generated: null, ai_assisted: true, created_at: null },
          matches: [],
          warnings: [hostile],
          developer_explanation: `status valid_manifest_untrusted_signer (x); c2pa-rs validation_state Valid for urn:c2pa:1; failure codes: signingCredential.untrusted, ${hostile}; success codes: claimSignature.validated.`,
          user_explanation: "u",
          proves: [hostile],
          does_not_prove: [],
          manifest_id: hostile,
          signer: {
            common_name: hostile,
            organization: hostile,
            issuer: null,
            serial_number: null,
            not_after: null,
            timestamp: null,
            timestamp_authority: null,
          },
          media_type: "image/jpeg",
        },
      }),
      status: "valid_manifest_untrusted_signer",
      statusVocabularyVersion: "svc.verification-status.v1",
      manifestId: hostile,
      createdAt: 1_800_000_000_000,
      validatedAt: 1_800_000_000_000,
    };
    const doc = reportDocument(row);
    expect(reportDocument({ ...row, createdAt: 1 })).toEqual(doc); // created_at is not part of the document
    const jsonText = renderReportJson(doc);
    expect(renderReportJson(reportDocument(row))).toBe(jsonText);
    const html = renderReportHtml(doc, await sha256HexOf(new TextEncoder().encode(jsonText)));
    expect(renderReportHtml(reportDocument(row), await sha256HexOf(new TextEncoder().encode(jsonText)))).toBe(html);
    expect(html).not.toContain("<script");
    expect(html).not.toMatch(/<img/i);
    expect(html).not.toMatch(/<[^>]+\son[a-z]+\s*=/i);
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    // Only well-formed code tokens are taken from the explanation.
    expect(doc.c2pa).toMatchObject({
      validation_state: "Valid",
      failure_codes: ["signingCredential.untrusted"],
      success_codes: ["claimSignature.validated"],
    });
    expect(doc.title).toBe("Intact credentials from an untrusted signer");
  });

  it("replays a report creation under the same Idempotency-Key", async () => {
    const { tenant, verifyId } = setup;
    const key = crypto.randomUUID();
    const first = await createReport(tenant.key, verifyId, { "idempotency-key": key });
    const again = await createReport(tenant.key, verifyId, { "idempotency-key": key });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect((await json(again)).report_id).toBe((await json(first)).report_id);
  });

  it("errors: malformed ids and formats 422, unknown 404, another tenant 404, missing scope 403, no key 401", async () => {
    const { tenant, verifyId } = setup;
    const report = await json(await createReport(tenant.key, verifyId));

    for (const [path, method] of [
      ["/v1/verification-evidence/not-an-id/reports", "POST"],
      ["/v1/verification-evidence/vrp_abcdefghij234567/reports", "POST"],
      ["/v1/verification-reports/vfy_abcdefghij234567", "GET"],
      [`/v1/verification-reports/${report.report_id}?format=pdf`, "GET"],
    ] as const) {
      const res = await api(path, { method, key: tenant.key });
      expect(res.status, path).toBe(422);
      expect((await json(res)).code).toBe("svc.request.invalid");
    }
    const unknownVerification = await createReport(tenant.key, "vfy_aaaaaaaaaaaaaaaa");
    expect(unknownVerification.status).toBe(404);
    expect((await json(unknownVerification)).code).toBe("svc.resource.not_found");
    expect((await api("/v1/verification-reports/vrp_aaaaaaaaaaaaaaaa", { key: tenant.key })).status).toBe(404);

    const other = await createTenant();
    for (const [path, method, missing] of [
      [`/v1/verification-evidence/${verifyId}/reports`, "POST", "/v1/verification-evidence/vfy_aaaaaaaaaaaaaaaa/reports"],
      [`/v1/verification-reports/${report.report_id}?format=html`, "GET", "/v1/verification-reports/vrp_aaaaaaaaaaaaaaaa?format=html"],
    ] as const) {
      const foreign = await api(path, { method, key: other.key });
      const absent = await api(missing, { method, key: other.key });
      expect(foreign.status).toBe(404);
      expect({ ...(await json(foreign)), request_id: "" }).toEqual({ ...(await json(absent)), request_id: "" });
    }

    const { key: verifyOnly } = await addKey(tenant.tenantId, { scopes: ["verify:write"] });
    for (const res of [await createReport(verifyOnly, verifyId), await api(report.formats.json.url, { key: verifyOnly })]) {
      expect(res.status).toBe(403);
      expect(Object.keys(await json(res))).toEqual(["detail"]);
    }
    expect((await api(report.formats.html.url, {})).status).toBe(401);
    expect((await createReport(null as unknown as string, verifyId)).status).toBe(401);
  });
});
