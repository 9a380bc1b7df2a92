import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../app-types";
import { base64, utf8 } from "../platform/bytes";
import { notFound, principalOf } from "../platform/context";
import { sha256Hex } from "../platform/crypto";
import { idSchema, newId } from "../platform/ids";
import { IdempotencyKeyHeader, iso, json, NOT_FOUND, Timestamp } from "../platform/openapi";
import { servedObjectHeaders } from "../platform/served-object";
import { findReport, findVerification, insertReport, type ReportRow } from "./repo";
import { REPORT_VERSION, VerificationReportDocumentSchema } from "./report/document-schema";
import { renderReportHtml } from "./report/html";
import { renderReportJson, reportDocument, type VerificationRow } from "./report-render";

/*
 * Deterministic verification reports. POST renders the stored verification row (nothing else: no clock, no
 * request data) into canonical JSON and a self-contained HTML document, stores both with their SHA-256 and
 * answers the report's metadata; GET serves the stored bytes unchanged, forever (a report is immutable).
 * Every POST records a new report (its own id and created_at, which live outside the documents), and the
 * documents of two reports of the same evidence and report version are byte-identical, hashes included.
 */

const VerificationParams = z.object({
  verification_id: idSchema("verification", "Verification id.").openapi({ param: { name: "verification_id", in: "path" } }),
});
const ReportParams = z.object({
  report_id: idSchema("verificationReport", "Report id.").openapi({ param: { name: "report_id", in: "path" } }),
});

const FORMATS = {
  html: { mediaType: "text/html; charset=utf-8", ext: "html" },
  json: { mediaType: "application/json; charset=utf-8", ext: "json" },
} as const;
type Format = keyof typeof FORMATS;

const ReportFormatSchema = z
  .object({
    url: z.string().openapi({
      description: "Path that serves this format (GET, `recovery:read`).",
      example: "/v1/verification-reports/vrp_abcdefghij234567?format=html",
    }),
    media_type: z.string().openapi({ description: "Content-Type it is served with.", example: "text/html; charset=utf-8" }),
    sha256: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .openapi({
        description: "SHA-256 (hex) of the exact bytes; also the ETag. The same evidence always gives the same hash.",
        example: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
      }),
    byte_length: z.number().int().openapi({ description: "Size of the exact bytes.", example: 14210 }),
    filename: z.string().openapi({
      description: "File name it is served under (Content-Disposition).",
      example: "verification-report-vfy_abcdefghij234567.html",
    }),
  })
  .openapi("VerificationReportFormat");

export const VerificationReportResponseSchema = z
  .object({
    report_id: idSchema("verificationReport", "Report id."),
    verification_id: idSchema("verification", "The verification the report renders."),
    report_version: z.string().openapi({
      description: "The renderer that made the documents; a new renderer is a new version, never a silent change.",
      example: REPORT_VERSION,
    }),
    created_at: Timestamp("When this report was recorded (not part of the documents)."),
    formats: z
      .object({
        html: ReportFormatSchema.openapi({
          description: "Self-contained, print-friendly HTML for people: no scripts, no links, no external resources.",
        }),
        json: ReportFormatSchema.openapi({
          description: "Canonical JSON (sorted keys, no white space) for machines: `VerificationReportDocument`.",
        }),
      })
      .openapi({ description: "The two renderings of the same evidence." }),
  })
  .openapi("VerificationReportResponse");

const createRouteDef = createRoute({
  method: "post",
  path: "/v1/verification-evidence/{verification_id}/reports",
  operationId: "createVerificationReport",
  tags: ["Verification"],
  summary: "Generate a deterministic report",
  description:
    "Renders the stored evidence of a verification (a verify call, a stored-object check or a job's publication-time check) into an HTML document for people and a canonical JSON document for machines, and records both as an immutable report. " +
    "Only the stored record is rendered (never the current time or a new id), so the same evidence always gives byte-identical documents and the same `sha256`; each call records a new report id. No body.",
  request: { params: VerificationParams, headers: z.object({ "idempotency-key": IdempotencyKeyHeader }) },
  responses: {
    201: {
      ...json(VerificationReportResponseSchema, "The report and where to download each format."),
      headers: { Location: { description: "Path of the report.", schema: { type: "string" } } },
    },
    ...NOT_FOUND,
  },
});

const getRouteDef = createRoute({
  method: "get",
  path: "/v1/verification-reports/{report_id}",
  operationId: "getVerificationReport",
  tags: ["Verification"],
  summary: "Download an immutable report",
  description:
    "Serves the stored bytes of one format, unchanged: `format=json` (the default) is the canonical `VerificationReportDocument`, `format=html` the printable document. " +
    "The ETag is the quoted SHA-256 of the bytes (If-None-Match answers 304), and Content-Disposition names the file. The bytes under a report id never change; `Cache-Control: private, no-cache` makes caches revalidate (a 304 is cheap), so access is rechecked on every use.",
  request: {
    params: ReportParams,
    query: z.object({
      format: z
        .enum(["json", "html"])
        .default("json")
        .openapi({ description: "Which rendering to download (default `json`).", example: "html" }),
    }),
    headers: z.object({
      "if-none-match": z.string().max(200).optional().openapi({
        description: "An ETag from an earlier download; when it matches, 304 without a body.",
        example: '"9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"',
      }),
    }),
  },
  responses: {
    200: {
      description: "The report in the requested format.",
      headers: {
        ETag: { description: "The quoted SHA-256 (hex) of the body.", schema: { type: "string" } },
        "Content-Disposition": {
          description: '`inline; filename="verification-report-<verification_id>.<html|json>"`.',
          schema: { type: "string" },
        },
      },
      content: {
        "application/json": { schema: VerificationReportDocumentSchema },
        "text/html": { schema: z.string().openapi({ description: "The HTML document (UTF-8).", example: "<!DOCTYPE html>..." }) },
      },
    },
    304: { description: "Not modified: If-None-Match names this format's ETag." },
    ...NOT_FOUND,
  },
});

const filename = (row: Pick<ReportRow, "verificationId">, format: Format) =>
  `verification-report-${row.verificationId}.${FORMATS[format].ext}`;

export function reportView(row: ReportRow) {
  const format = (f: Format, text: string, sha256: string) => ({
    url: `/v1/verification-reports/${row.id}?format=${f}`,
    media_type: FORMATS[f].mediaType,
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

/**
 * The CSP source allowing a stored report's own `<style>` element, by its hash: the renderer writes exactly one
 * and escapes every stored value, so it is the renderer's. None: styles stay blocked.
 */
async function styleSource(html: string): Promise<string> {
  const style = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1];
  if (style === undefined) return "'none'";
  return `'sha256-${base64(new Uint8Array(await crypto.subtle.digest("SHA-256", utf8(style))))}'`;
}

/** `"abc"`, `W/"abc"`, lists and `*`: does If-None-Match name this entity? */
function etagMatches(header: string | undefined, sha256: string): boolean {
  if (!header) return false;
  return header.split(",").some((t) => {
    const tag = t.trim();
    return tag === "*" || tag === `"${sha256}"` || tag === `W/"${sha256}"`;
  });
}

export function registerReports(app: Router) {
  app.openapi(createRouteDef, async (c) => {
    const tenantId = principalOf(c).tenantId;
    const db = c.var.db;
    const verification = await findVerification(db, tenantId, c.req.valid("param").verification_id);
    if (!verification) throw notFound("verification");
    const rendered = await renderReport(verification);
    const row = await insertReport(db, {
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
    c.header("Location", `/v1/verification-reports/${row.id}`);
    return c.json(reportView(row), 201);
  });

  app.openapi(getRouteDef, async (c) => {
    const tenantId = principalOf(c).tenantId;
    const { report_id } = c.req.valid("param");
    const format = c.req.valid("query").format;
    const row = await findReport(c.var.db, tenantId, report_id);
    if (!row) throw notFound("report");
    const sha256 = format === "html" ? row.htmlSha256 : row.jsonSha256;
    const served = servedObjectHeaders({
      mediaType: FORMATS[format].mediaType,
      filename: filename(row, format),
      disposition: "inline",
      // Rendered by the service with every stored value escaped. The HTML needs nothing but its own <style>
      // (allowed by hash); in the sandbox a browser opening it runs nothing and gets no network access at all.
      serviceRendered: {
        extraCsp:
          format === "html"
            ? [`style-src ${await styleSource(row.html)}`, "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'"]
            : [],
      },
    });
    const headers: Record<string, string> = {
      ETag: `"${sha256}"`,
      // Immutable bytes, but access is rechecked: revalidate (cheaply, with the ETag) rather than serve from cache.
      "Cache-Control": "private, no-cache",
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": served["Content-Security-Policy"]!,
    };
    if (etagMatches(c.req.header("if-none-match"), sha256)) return c.body(null, 304, headers);
    const body = format === "html" ? row.html : row.json;
    return c.body(body, 200, { ...served, ...headers, ...(format === "html" ? { "Referrer-Policy": "no-referrer" } : {}) });
  });
}
