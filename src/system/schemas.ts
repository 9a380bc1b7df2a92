import { z } from "@hono/zod-openapi";

export const HealthResponseSchema = z
  .object({
    service: z.string().openapi({ description: "Service name.", example: "svc" }),
    source_revision: z.string().openapi({ description: "Revision of the deployed source.", example: "dev" }),
    status: z.literal("ok").openapi({ description: "Always `ok` when the Worker answers." }),
  })
  .openapi("HealthResponse");

export const DatabaseHealthResponseSchema = z
  .object({
    status: z.enum(["ok", "unavailable"]).openapi({ description: "Whether D1 answered a trivial query within 2 seconds.", example: "ok" }),
  })
  .openapi("DatabaseHealthResponse");

export const ReadinessResponseSchema = z
  .object({
    status: z
      .enum(["ready", "unavailable"])
      .openapi({ description: "Whether every required adapter is configured and answering.", example: "ready" }),
  })
  .openapi("ReadinessResponse");

export const GovernanceReadinessResponseSchema = z
  .object({
    capture_authority: z
      .boolean()
      .openapi({ description: "Capture admission (device attestation) can decide admissions.", example: false }),
    commercial_authority: z.boolean().openapi({ description: "Billing can admit and charge work.", example: false }),
    derived_index_reconciler: z
      .boolean()
      .openapi({ description: "The soft-binding index reconciler succeeded within the last 15 minutes.", example: false }),
    status: z
      .enum(["ready", "not_ready"])
      .openapi({ description: "`ready` only when all three authorities are ready.", example: "not_ready" }),
  })
  .openapi("GovernanceReadinessResponse");
