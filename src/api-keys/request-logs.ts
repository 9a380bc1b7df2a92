import type { MiddlewareHandler } from "hono";
import type { Database } from "../db/client";
import type { AppEnv } from "../platform/context";
import { insertRequestLogs, type RequestLogInsert } from "./repo/request-logs";

/** How long a log row waits for others to share its D1 write (the rows of requests answered meanwhile). */
const FLUSH_DELAY_MS = 25;
/** Past this many waiting rows the write starts at once. */
const FLUSH_AT_ROWS = 200;

/** Rows waiting for the next write, and that write (every request whose row waits keeps it alive by waitUntil). */
let waiting: RequestLogInsert[] = [];
let scheduled: Promise<void> | null = null;

/**
 * Queues one row for the isolate's next log write: rows of requests answered within FLUSH_DELAY_MS of each other
 * share one D1 batch instead of one write each. Every queued row is covered by the waitUntil of the request that
 * queued it, since the write it joins has not started yet.
 */
function queueRow(db: Database, row: RequestLogInsert): Promise<void> {
  waiting.push(row);
  if (!scheduled) {
    scheduled = (async () => {
      if (waiting.length < FLUSH_AT_ROWS) await new Promise((resolve) => setTimeout(resolve, FLUSH_DELAY_MS));
      const rows = waiting;
      waiting = [];
      scheduled = null;
      await insertRequestLogs(db, rows);
    })().catch(() => undefined); // best effort: a failed write drops its rows, never a request
  }
  return scheduled;
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
