import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { releasedCheck } from "../../history/repo";
import { principalOf } from "../../platform/context";
import { idSchema } from "../../platform/ids";
import { iso, json, Timestamp } from "../../platform/openapi";
import { NextCursorSchema, pageOf, pageQuerySchema, pageRequest } from "../../platform/pagination";
import { listRequestLogs, REQUEST_LOG_RETENTION_MS, summarizeRequestLogs } from "../repo/request-logs";

const RequestLogSchema = z
  .object({
    request_id: z.string().openapi({ description: "The request's id (its X-Request-Id).", example: "req_abcdefghij234567" }),
    api_key_id: z.string().openapi({ description: "The key used.", example: "key_abcdefghij234567" }),
    method: z.string().openapi({ description: "HTTP method.", example: "POST" }),
    operation: z.string().openapi({ description: "The operation's path template.", example: "/v1/sign" }),
    status: z.number().int().openapi({ description: "HTTP status answered.", example: 202 }),
    duration_ms: z.number().int().openapi({ description: "Time to answer.", example: 41 }),
    created_at: Timestamp("When the request arrived."),
  })
  .openapi("ApiRequestLogResponse");

const filters = {
  api_key_id: idSchema("apiKey", "Only requests of this key.").optional(),
};

const listRoute = createRoute({
  method: "get",
  path: "/v1/api-request-logs",
  operationId: "listApiRequestLogs",
  tags: ["API keys"],
  summary: "Recent requests of the tenant's keys",
  description:
    "Metadata only (never bodies, headers or secrets), newest first, kept 30 days, best effort: a request whose log write failed is simply absent. Requests refused before a key was recognised (401, 429) are not logged.",
  request: { query: z.object({ ...filters, ...pageQuerySchema(100, 50) }) },
  responses: {
    200: json(
      z
        .object({ items: z.array(RequestLogSchema).openapi({ description: "Requests, newest first." }), next_cursor: NextCursorSchema })
        .openapi("ApiRequestLogPage"),
      "One page of request logs.",
    ),
  },
});

const summaryRoute = createRoute({
  method: "get",
  path: "/v1/api-request-logs/summary",
  operationId: "getApiRequestLogSummary",
  tags: ["API keys"],
  summary: "Summary of recent requests",
  description: "Counts over the logged requests since `since` (default: 24 hours ago), by status class and by operation.",
  request: {
    query: z.object({
      ...filters,
      since: z
        .string()
        .datetime()
        .optional()
        .openapi({ description: "Start of the window (at most 30 days back).", example: "2026-11-21T00:00:00Z" }),
    }),
  },
  responses: {
    200: json(
      z
        .object({
          window_start: Timestamp("Start of the window."),
          window_end: Timestamp("End of the window (now)."),
          total: z.number().int().openapi({ description: "Requests logged in the window.", example: 120 }),
          by_status_class: z
            .record(z.string(), z.number().int())
            .openapi({ description: "Counts by status class.", example: { "2xx": 110, "4xx": 10 } }),
          by_operation: z
            .array(
              z.object({
                method: z.string().openapi({ description: "HTTP method.", example: "GET" }),
                operation: z.string().openapi({ description: "Path template.", example: "/v1/jobs/{job_id}" }),
                count: z.number().int().openapi({ description: "Requests.", example: 80 }),
                last_at: Timestamp("Most recent."),
              }),
            )
            .openapi({ description: "Operations, most used first." }),
        })
        .openapi("ApiRequestLogSummary"),
      "The summary.",
    ),
  },
});

export function registerRequestLogRoutes(app: Router) {
  app.openapi(listRoute, async (c) => {
    const { api_key_id, cursor, limit } = c.req.valid("query");
    const tenantId = principalOf(c).tenantId;
    const binding = { tenantId, collection: `api-request-logs?api_key_id=${api_key_id ?? ""}` };
    const page = await pageRequest(c.env.SVC_CURSOR_SECRET, binding, { cursor, limit }, Date.now(), releasedCheck(c.var.db, tenantId));
    const rows = await listRequestLogs(c.var.db, tenantId, api_key_id, page);
    const { rows: items, nextCursor } = await pageOf(
      c.env.SVC_CURSOR_SECRET,
      binding,
      page,
      rows.map((r) => ({ ...r, id: r.requestId })),
    );
    return c.json(
      {
        items: items.map((r) => ({
          request_id: r.requestId,
          api_key_id: r.apiKeyId,
          method: r.method,
          operation: r.operation,
          status: r.status,
          duration_ms: r.durationMs,
          created_at: iso(r.createdAt),
        })),
        next_cursor: nextCursor,
      },
      200,
    );
  });

  app.openapi(summaryRoute, async (c) => {
    const { api_key_id, since } = c.req.valid("query");
    const tenantId = principalOf(c).tenantId;
    const now = Date.now();
    const start = Math.max(since ? Date.parse(since) : now - 24 * 3600 * 1000, now - REQUEST_LOG_RETENTION_MS);
    const { byClass, byOperation } = await summarizeRequestLogs(c.var.db, tenantId, api_key_id, start);
    return c.json(
      {
        window_start: iso(start),
        window_end: iso(now),
        total: byClass.reduce((sum, r) => sum + r.n, 0),
        by_status_class: Object.fromEntries(byClass.map((r) => [`${r.cls}xx`, r.n])),
        by_operation: byOperation.map((r) => ({ method: r.method, operation: r.operation, count: r.n, last_at: iso(r.last ?? start) })),
      },
      200,
    );
  });
}
