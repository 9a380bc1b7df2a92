import { z } from "@hono/zod-openapi";
import { ErrorResponseSchema, HttpErrorResponseSchema, ValidationErrorResponseSchema } from "./errors";

/** `{ content: { application/json: { schema } }, description }` for createRoute responses. */
export function json<T extends z.ZodType>(schema: T, description: string) {
  return { content: { "application/json": { schema } }, description };
}

export const errorResponse = (description: string) => json(ErrorResponseSchema, description);

export const NOT_FOUND = { 404: errorResponse("Not found for this tenant (another tenant's resource answers the same).") };

/**
 * Responses every operation of a kind may give, added to the OpenAPI document from the policy table
 * (see docs/openapi-document.ts), so route files only declare what is specific to them.
 */
export const COMMON_RESPONSES = {
  validation: { 422: json(ValidationErrorResponseSchema, "The request does not match the contract (`svc.request.invalid`), or a cursor is unusable (`svc.cursor.invalid`).") },
  bearer: {
    401: json(HttpErrorResponseSchema, "Credential missing, malformed, expired, revoked or invalid. One identical body whatever the cause."),
    403: json(HttpErrorResponseSchema, "The key lacks the scope, or the identity is deactivated."),
    503: errorResponse("Credential verification unavailable (`svc.auth.unavailable`); retry."),
  },
  idempotent: {
    409: errorResponse("Idempotency-Key reused for a different request (`svc.idempotency.key_reused`), still in progress (`svc.idempotency.request_in_progress`), or a one-time secret that cannot be replayed (`secret_not_replayable`)."),
  },
  always: {
    413: errorResponse("The request body is too large (`svc.request.too_large`)."),
    500: errorResponse("Unexpected error (`svc.internal`); quote the request id."),
  },
} as const;

export const IdempotencyKeyHeader = z
  .string()
  .max(200)
  .regex(/^[!-~]+$/)
  .optional()
  .openapi({
    description: "A fresh UUID per logical operation, reused when retrying it. Replays return the stored response; a different request under the same key answers 409.",
    example: "6f1f7d0e-6b8a-4f7a-9d1e-2f3c4b5a6d7e",
  });

export const Timestamp = (description: string) =>
  z.string().datetime().openapi({ description, example: "2026-11-22T10:00:00.000Z" });

export function iso(ms: number): string;
export function iso(ms: number | null): string | null;
export function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}
