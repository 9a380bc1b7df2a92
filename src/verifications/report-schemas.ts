import { z } from "@hono/zod-openapi";
import { idSchema } from "../platform/ids";
import { Timestamp } from "../platform/openapi";
import { REPORT_VERSION } from "./report/document-schema";

/* Verification reports: the recorded report and where each of its two formats is served. */

/** The `report_id` path parameter. */
export const ReportParams = z.object({
  report_id: idSchema("verificationReport", "Report id.").openapi({ param: { name: "report_id", in: "path" } }),
});

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
