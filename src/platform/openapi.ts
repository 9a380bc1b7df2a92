import { z } from "@hono/zod-openapi";
import { ErrorResponseSchema } from "./errors";

/** `{ content: { application/json: { schema } }, description }` for createRoute responses. */
export function json<T extends z.ZodType>(schema: T, description: string) {
  return { content: { "application/json": { schema } }, description };
}

export const errorResponse = (description: string) => json(ErrorResponseSchema, description);

export const NOT_FOUND = {
  404: errorResponse("Not found for this tenant (`svc.resource.not_found`; another tenant's resource answers the same)."),
};

export const IdempotencyKeyHeader = z
  .string()
  .max(200)
  .regex(/^[!-~]+$/)
  .optional()
  .openapi({
    description:
      "A fresh UUID per logical operation, reused when retrying it. Replays return the stored response; a different request under the same key answers 409.",
    example: "6f1f7d0e-6b8a-4f7a-9d1e-2f3c4b5a6d7e",
  });

export const Timestamp = (description: string) => z.string().datetime().openapi({ description, example: "2026-11-22T10:00:00.000Z" });

export function iso(ms: number): string;
export function iso(ms: number | null): string | null;
export function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}
