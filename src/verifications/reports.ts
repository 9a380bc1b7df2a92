import type { Database } from "../db/client";
import { utf8 } from "../platform/bytes";
import { sha256Hex } from "../platform/crypto";
import { newId } from "../platform/ids";
import { iso } from "../platform/openapi";
import { findReport, findVerification, insertReport, type ReportRow } from "./repo";
import { REPORT_VERSION } from "./report/document-schema";
import { renderReportHtml } from "./report/html";
import { renderReportJson, reportDocument, type VerificationRow } from "./report-render";

/*
 * Deterministic verification reports. Creating one renders the stored verification row (nothing else: no clock,
 * no request data) into canonical JSON and a self-contained HTML document, and stores both with their SHA-256;
 * a stored report's bytes are served unchanged, forever (a report is immutable). Every creation records a new
 * report (its own id and created_at, which live outside the documents), and the documents of two reports of the
 * same evidence and report version are byte-identical, hashes included.
 */

export const REPORT_FORMATS = {
  html: { mediaType: "text/html; charset=utf-8", ext: "html" },
  json: { mediaType: "application/json; charset=utf-8", ext: "json" },
} as const;
export type ReportFormat = keyof typeof REPORT_FORMATS;

const filename = (row: Pick<ReportRow, "verificationId">, format: ReportFormat) =>
  `verification-report-${row.verificationId}.${REPORT_FORMATS[format].ext}`;

/** A report's metadata as answered: where each format is served, with its hash, size and file name. */
export function reportView(row: ReportRow) {
  const format = (f: ReportFormat, text: string, sha256: string) => ({
    url: `/v1/verification-reports/${row.id}?format=${f}`,
    media_type: REPORT_FORMATS[f].mediaType,
    sha256,
    byte_length: utf8(text).length,
    filename: filename(row, f),
  });
  return {
    report_id: row.id,
    verification_id: row.verificationId,
    report_version: row.reportVersion,
    created_at: iso(row.createdAt),
    formats: { html: format("html", row.html, row.htmlSha256), json: format("json", row.json, row.jsonSha256) },
  };
}

/** Both renderings of one verification row, with their hashes. Pure: the same row gives the same output. */
export async function renderReport(verification: VerificationRow) {
  const doc = reportDocument(verification);
  const json = renderReportJson(doc);
  const jsonSha256 = await sha256Hex(json);
  const html = renderReportHtml(doc, jsonSha256);
  return { json, jsonSha256, html, htmlSha256: await sha256Hex(html) };
}

/** Recording a report: the stored report, or the tenant has no such verification. */
export type CreateReportResult = { kind: "created"; report: ReportRow } | { kind: "verification_not_found" };

export async function createReport(db: Database, tenantId: string, verificationId: string): Promise<CreateReportResult> {
  const verification = await findVerification(db, tenantId, verificationId);
  if (!verification) return { kind: "verification_not_found" };
  const rendered = await renderReport(verification);
  const report = await insertReport(db, {
    id: newId("verificationReport"),
    tenantId,
    verificationId: verification.id,
    reportVersion: REPORT_VERSION,
    html: rendered.html,
    json: rendered.json,
    htmlSha256: rendered.htmlSha256,
    jsonSha256: rendered.jsonSha256,
    createdAt: Date.now(),
  });
  return { kind: "created", report };
}

/** One format of a stored report, as stored: `body` hashes to `sha256`. */
export interface ReportFile {
  body: string;
  sha256: string;
  mediaType: string;
  filename: string;
}

/** One format of the tenant's report, or the tenant has no such report. */
export type ReportFileResult = { kind: "found"; file: ReportFile } | { kind: "not_found" };

export async function reportFile(db: Database, tenantId: string, reportId: string, format: ReportFormat): Promise<ReportFileResult> {
  const row = await findReport(db, tenantId, reportId);
  if (!row) return { kind: "not_found" };
  return {
    kind: "found",
    file: {
      body: format === "html" ? row.html : row.json,
      sha256: format === "html" ? row.htmlSha256 : row.jsonSha256,
      mediaType: REPORT_FORMATS[format].mediaType,
      filename: filename(row, format),
    },
  };
}
