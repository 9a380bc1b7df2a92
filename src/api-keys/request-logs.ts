import type { MiddlewareHandler } from "hono";
import type { Database } from "../db/client";
import type { AppEnv } from "../platform/context";
import { insertRequestLogs, type RequestLogInsert } from "./repo/request-logs";

/** How long a log row waits for others to share its D1 write (the rows of requests answered meanwhile). */
const FLUSH_DELAY_MS = 25;
/** Past this many waiting rows the write starts at once. */
const FLUSH_AT_ROWS = 200;

/** Rows waiting for a write. */
let waiting: RequestLogInsert[] = [];

/**
 * Queues one row and, after FLUSH_DELAY_MS, writes every row then waiting in one D1 batch: rows of requests
 * answered close together share one write, the first of them writing for all, the others finding nothing left.
 * Each request waits on its own promise only (Workers refuse a promise shared across requests).
 */
async function queueRow(db: Database, row: RequestLogInsert): Promise<void> {
  waiting.push(row);
  if (waiting.length < FLUSH_AT_ROWS) await new Promise((resolve) => setTimeout(resolve, FLUSH_DELAY_MS));
  if (waiting.length === 0) return;
  const rows = waiting;
  waiting = [];
  await insertRequestLogs(db, rows).catch(() => undefined); // best effort: a failed write drops its rows, never a request
}

/**
 * Records each request made with an API key after it is answered: method, operation template, status and
 * duration. Best effort (a failed write is dropped, never the request) and off the response path; rows are
 * written a few at a time (queueRow).
 */
export const requestLog: MiddlewareHandler<AppEnv> = async (c, next) => {
  const started = Date.now();
  await next();
  const principal = c.get("principal");
  const operation = c.get("operation");
  if (principal?.kind !== "api_key" || !operation) return;
  const row = {
    requestId: c.get("requestId"),
    tenantId: principal.tenantId,
    apiKeyId: principal.apiKeyId,
    method: c.req.method,
    operation: operation.key.split(" ")[1] ?? operation.key,
    status: c.res.status,
    durationMs: Date.now() - started,
    createdAt: started,
  };
  c.executionCtx.waitUntil(queueRow(c.var.db, row));
};
