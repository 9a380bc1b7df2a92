import type { components } from "./openapi.js";

export type FieldDetail = components["schemas"]["FieldDetail"];
export type JobReference = NonNullable<components["schemas"]["ErrorResponse"]["job_reference"]>;

/**
 * An error answer of the API, built from its error envelope (`ErrorResponse`), or from the `detail`-only body of
 * 401/403 (`HttpErrorResponse`), whose `code` is then `http_<status>`. Invariant: carries nothing of the request,
 * so neither the API key nor the Idempotency-Key can leak through a logged error; `request_id` is what to quote.
 */
export class SvcError extends Error {
  override readonly name = "SvcError";
  /** HTTP status. */
  readonly status: number;
  /** Stable reason code (branch on it, never on the message); `http_<status>` when the body had none. */
  readonly code: string;
  /** The request id (body, else the X-Request-Id header); null when the answer carried neither. */
  readonly request_id: string | null;
  /** Whether retrying the same request (same Idempotency-Key) can succeed: the envelope's flag, or a 429/503. */
  readonly retryable: boolean;
  readonly field_details: FieldDetail[];
  readonly documentation_url: string | null;
  readonly job_reference: JobReference | null;
  /** The stable `detail` of 401/403/422 bodies, when present. */
  readonly detail: string | null;
  /** Retry-After in seconds, when the answer carried one. */
  readonly retry_after: number | null;

  constructor(init: {
    status: number;
    code: string;
    message: string;
    request_id: string | null;
    retryable: boolean;
    field_details?: FieldDetail[];
    documentation_url?: string | null;
    job_reference?: JobReference | null;
    detail?: string | null;
    retry_after?: number | null;
  }) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.request_id = init.request_id;
    this.retryable = init.retryable;
    this.field_details = init.field_details ?? [];
    this.documentation_url = init.documentation_url ?? null;
    this.job_reference = init.job_reference ?? null;
    this.detail = init.detail ?? null;
    this.retry_after = init.retry_after ?? null;
  }

  /** What to log: the code, status and request id, never a credential. */
  override toString(): string {
    return `SvcError ${this.status} ${this.code}: ${this.message}${this.request_id ? ` (request_id ${this.request_id})` : ""}`;
  }
}

/** A job that reached a terminal state other than `completed`; `error_code` is what to report (SPEC "Client rules"). */
export class SvcJobError extends Error {
  override readonly name = "SvcJobError";
  readonly job_id: string;
  readonly state: string;
  readonly error_code: string | null;
  readonly job: components["schemas"]["JobResponse"];
  constructor(job: components["schemas"]["JobResponse"]) {
    super(
      `job ${job.job_id} ended ${job.state}${job.error_code ? ` (${job.error_code})` : ""}${job.error_message ? `: ${job.error_message}` : ""}`,
    );
    this.job_id = job.job_id;
    this.state = job.state;
    this.error_code = job.error_code;
    this.job = job;
  }
}

/** Downloaded bytes that do not match the size or SHA-256 the service stated for them. */
export class SvcIntegrityError extends Error {
  override readonly name = "SvcIntegrityError";
  /** Which object: the file or its sidecar manifest. */
  readonly subject: "file" | "sidecar_manifest";
  readonly expected: { sha256: string; byte_length: number };
  readonly actual: { sha256: string | null; byte_length: number };
  // fields assigned in the body, not as parameter properties: Node's type stripping runs this file as it is
  constructor(
    subject: "file" | "sidecar_manifest",
    expected: { sha256: string; byte_length: number },
    actual: { sha256: string | null; byte_length: number },
  ) {
    super(
      `${subject}: expected ${expected.byte_length} bytes with SHA-256 ${expected.sha256}, got ${actual.byte_length} bytes${actual.sha256 ? ` with ${actual.sha256}` : ""}`,
    );
    this.subject = subject;
    this.expected = expected;
    this.actual = actual;
  }
}

/** Retry-After as whole seconds (the contract's form) or an HTTP date; null when absent or unreadable. */
export function retryAfterSeconds(headers: Headers, now = Date.now()): number | null {
  const value = headers.get("retry-after");
  if (value === null) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - now) / 1000));
}

/** The most of an error answer's body read: an envelope is a few hundred bytes; a larger body is not one. */
export const ERROR_BODY_LIMIT = 64 * 1024;

/**
 * An error answer's body as text, read only up to `limit` bytes: null when it is larger (the rest is cancelled,
 * never buffered) or unreadable, so an endless body from a proxy or hostile endpoint cannot grow memory.
 */
export async function readErrorText(response: Response, limit = ERROR_BODY_LIMIT): Promise<string | null> {
  try {
    return new TextDecoder().decode(await readBody(response, limit));
  } catch {
    return null; // larger than the limit (the rest cancelled, never buffered) or unreadable
  }
}

/** Reads a response body, refusing (RangeError) more than `limit` bytes: the rest is cancelled, never buffered. */
export async function readBody(response: Response, limit = Number.POSITIVE_INFINITY): Promise<Uint8Array> {
  if (!response.body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let length = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    length += value.length;
    if (length > limit) {
      await reader.cancel().catch(() => undefined);
      throw new RangeError(`the body is larger than ${limit} bytes`);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(length);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.length;
  }
  return out;
}

/**
 * An error answer (status 400 or more) with its body already read up to ERROR_BODY_LIMIT (an empty body when
 * over it), so whatever parses it next (openapi-fetch, the retry check) reads a bounded body; other answers as they are.
 */
export async function boundErrorBody(response: Response): Promise<Response> {
  if (response.status < 400 || !response.body) return response;
  const text = await readErrorText(response);
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  headers.delete("content-encoding");
  return new Response(text || null, { status: response.status, statusText: response.statusText, headers });
}

/**
 * Reads an error answer into an SvcError. Any body is accepted (an envelope, a detail-only body, text from a
 * proxy, nothing): what cannot be read, or is larger than ERROR_BODY_LIMIT, falls back to the status, so a hostile
 * or truncated body never throws here.
 */
export async function errorFromResponse(response: Response, parsed?: unknown): Promise<SvcError> {
  let body: unknown = parsed;
  if (body === undefined) {
    const text = (await readErrorText(response)) ?? "";
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = null;
    }
  }
  return errorFromBody(response.status, response.headers, body);
}

export function errorFromBody(status: number, headers: Headers, body: unknown): SvcError {
  const b = body && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  const str = (v: unknown) => (typeof v === "string" ? v : null);
  const code = str(b.code) ?? `http_${status}`;
  const detail = str(b.detail);
  const retryAfter = retryAfterSeconds(headers);
  return new SvcError({
    status,
    code,
    message: str(b.message) ?? detail ?? `HTTP ${status}`,
    request_id: str(b.request_id) ?? headers.get("x-request-id"),
    retryable: typeof b.retryable === "boolean" ? b.retryable : status === 429 || status === 503,
    field_details: Array.isArray(b.field_details) ? (b.field_details as FieldDetail[]) : [],
    documentation_url: str(b.documentation_url),
    job_reference: b.job_reference && typeof b.job_reference === "object" ? (b.job_reference as JobReference) : null,
    detail,
    retry_after: retryAfter,
  });
}
