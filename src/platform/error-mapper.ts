import type { ErrorHandler, NotFoundHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import { storageFailureOf } from "../db/storage-guard";
import { type AppEnv, publicOrigin } from "./context";
import { ApiError, ERROR_CODES, errorBody, HttpProblem } from "./errors";
import { isClaimLost } from "./idempotency/repo";
import { log } from "./logger";
import { REQUEST_ID_HEADER } from "./request-id";

const STORAGE_UNAVAILABLE_MESSAGE =
  "A dependency is unavailable (the database, object storage, a queue or a coordinating object failed). Retry with the same Idempotency-Key.";

const JSON_HEADERS = { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" };

/**
 * The one place errors become responses. Known errors keep their code; a storage binding's failure (db/storage-guard.ts)
 * is a 503 `svc.dependency.unavailable` with Retry-After; anything else is a 500 `svc.internal` whose details go to
 * the log with the request id, never to the client.
 */
export const onError: ErrorHandler<AppEnv> = (err, c) => {
  const requestId = c.get("requestId") ?? "req_unknown";
  const headers = new Headers({ ...JSON_HEADERS, [REQUEST_ID_HEADER]: requestId });
  if (err instanceof HttpProblem) {
    if (err.status === 401) headers.set("www-authenticate", 'Bearer realm="svc"');
    return new Response(JSON.stringify({ detail: err.detail }), { status: err.status, headers });
  }
  let apiError: ApiError;
  const storage = err instanceof ApiError ? null : storageFailureOf(err);
  if (err instanceof ApiError) {
    apiError = err;
  } else if (isClaimLost(err)) {
    // A keyed write's batch refused because its lease lapsed and a retry holds the key now (platform/idempotency
    // completionInBatch): nothing was written; the holder's request is the one in progress.
    apiError = new ApiError(
      "svc.idempotency.request_in_progress",
      "A request with this Idempotency-Key took it over and is still being processed; retry with the same key.",
      { headers: { "Retry-After": "1" } },
    );
  } else if (err instanceof HTTPException && err.status === 400) {
    // Hono's body parsers: unparsable JSON or form bodies are contract violations.
    apiError = new ApiError("svc.request.invalid", "The request body could not be parsed.", {
      fieldDetails: [{ location: "body", field: "(root)", code: "invalid_body", message: err.message }],
    });
  } else if (err instanceof HTTPException && err.status === 415) {
    apiError = new ApiError("svc.request.unsupported_media_type");
  } else if (err instanceof HTTPException && err.status === 413) {
    apiError = new ApiError("svc.request.too_large");
  } else if (storage) {
    // D1, R2, a queue or a Durable Object failed under this request: an outage to retry, not a defect. The write paths keep a
    // retry convergent (batched writes, idempotency keys released on a retryable answer).
    log.warn("storage unavailable", { request_id: requestId, binding: storage.binding, op: storage.op, error: String(err) });
    apiError = new ApiError("svc.dependency.unavailable", STORAGE_UNAVAILABLE_MESSAGE, { headers: { "Retry-After": "1" } });
  } else {
    log.error("unhandled error", { request_id: requestId, error: String(err), stack: (err as Error)?.stack });
    apiError = new ApiError("svc.internal");
  }
  for (const [k, v] of Object.entries(apiError.extra.headers ?? {})) headers.set(k, v);
  const body = errorBody(apiError.code, apiError.message, { requestId, origin: publicOrigin(c) }, apiError.extra);
  return new Response(JSON.stringify(body), { status: ERROR_CODES[apiError.code].status, headers });
};

export const onNotFound: NotFoundHandler<AppEnv> = (c) =>
  onError(new ApiError("svc.route.not_found", `No operation at ${c.req.method} ${new URL(c.req.url).pathname}.`), c) as Response;
