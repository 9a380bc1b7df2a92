import { createSvcClient, type SvcClient, SvcError, SvcIntegrityError, SvcJobError, SvcWebhookError } from "@svc/client";
import type { Context } from "./command.ts";
import { CliError, EXIT, exitForStatus } from "./exit.ts";

/** The SDK client for this command line: keyed (exit 3 without a key) unless `auth` is "optional" and there is none. */
export function clientOf(ctx: Context, auth: "required" | "optional" | "none" = "required"): SvcClient {
  const apiKey = auth === "required" ? ctx.requireKey() : auth === "optional" ? (ctx.config.apiKey ?? undefined) : undefined;
  return createSvcClient({ baseUrl: ctx.config.baseUrl, ...(apiKey ? { apiKey } : {}) });
}

/** The root cause of a failed fetch (undici wraps it: TypeError "fetch failed" with `cause`). */
function networkCause(e: unknown): string | null {
  if (!(e instanceof TypeError)) return null;
  const cause = (e as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code || /fetch failed|network/i.test(e.message)) return cause?.code ?? cause?.message ?? e.message;
  return null;
}

/**
 * Any error of a command as a CliError with the exit code of its class. SDK errors keep their request id (what
 * to quote) and code; nothing of the request (key, Idempotency-Key) is in them to begin with.
 */
export function toCliError(e: unknown, ctx: { baseUrl: string; aborted: boolean }): CliError {
  if (e instanceof CliError) return e;
  if (e instanceof SvcError) {
    const details = [
      ...(e.code && !e.code.startsWith("http_") ? [`code: ${e.code}`] : []),
      ...e.field_details.map((f) => `${f.location ?? ""}${f.field ? ` ${f.field}` : ""}: ${f.message}`.trim()),
      ...(e.request_id ? [`request id: ${e.request_id}`] : []),
      ...(e.status === 429 && e.retry_after !== null ? [`retry after ${e.retry_after} s`] : []),
    ];
    return Object.assign(new CliError(exitForStatus(e.status), e.message, details), {
      status: e.status,
      code: e.code,
      requestId: e.request_id,
    });
  }
  if (e instanceof SvcJobError) return new CliError(EXIT.jobFailed, e.message);
  if (e instanceof SvcIntegrityError) return new CliError(EXIT.integrity, `download refused: ${e.message}`);
  if (e instanceof SvcWebhookError) return new CliError(EXIT.integrity, `webhook signature: ${e.message}`);
  if (ctx.aborted || (e instanceof DOMException && e.name === "AbortError")) return new CliError(EXIT.interrupted, "interrupted");
  if (e instanceof DOMException && e.name === "TimeoutError") return new CliError(EXIT.unavailable, "timed out");
  const cause = networkCause(e);
  if (cause) return new CliError(EXIT.network, `cannot reach ${ctx.baseUrl} (${cause})`);
  if (e instanceof RangeError) return new CliError(EXIT.rejected, e.message);
  return new CliError(EXIT.failure, e instanceof Error ? e.message : String(e));
}
