import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { base64, utf8 } from "../../platform/bytes";
import { notFound, principalOf } from "../../platform/context";
import { etagMatches } from "../../platform/etag";
import { NOT_FOUND } from "../../platform/openapi";
import { servedObjectHeaders } from "../../platform/served-object";
import { VerificationReportDocumentSchema } from "../report/document-schema";
import { ReportParams } from "../report-schemas";
import { reportFile } from "../reports";

const getReportRoute = createRoute({
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

/**
 * The CSP source allowing a stored report's own `<style>` element, by its hash: the renderer writes exactly one
 * and escapes every stored value, so it is the renderer's. None: styles stay blocked.
 */
async function styleSource(html: string): Promise<string> {
  const style = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1];
  if (style === undefined) return "'none'";
  return `'sha256-${base64(new Uint8Array(await crypto.subtle.digest("SHA-256", utf8(style))))}'`;
}

export function register(app: Router) {
  app.openapi(getReportRoute, async (c) => {
    const format = c.req.valid("query").format;
    const found = await reportFile(c.var.db, principalOf(c).tenantId, c.req.valid("param").report_id, format);
    if (found.kind === "not_found") throw notFound("report");
    const { file } = found;
    const served = servedObjectHeaders({
      mediaType: file.mediaType,
      filename: file.filename,
      disposition: "inline",
      // Rendered by the service with every stored value escaped. The HTML needs nothing but its own <style>
      // (allowed by hash); in the sandbox a browser opening it runs nothing and gets no network access at all.
      serviceRendered: {
        extraCsp:
          format === "html"
            ? [`style-src ${await styleSource(file.body)}`, "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'"]
            : [],
      },
    });
    const headers: Record<string, string> = {
      ETag: `"${file.sha256}"`,
      // Immutable bytes, but access is rechecked: revalidate (cheaply, with the ETag) rather than serve from cache.
      "Cache-Control": "private, no-cache",
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": served["Content-Security-Policy"]!,
    };
    if (etagMatches(c.req.header("if-none-match"), file.sha256)) return c.body(null, 304, headers);
    return c.body(file.body, 200, { ...served, ...headers, ...(format === "html" ? { "Referrer-Policy": "no-referrer" } : {}) });
  });
}
