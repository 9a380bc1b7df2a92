import { z } from "@hono/zod-openapi";

/** The query of every Worker-served capability URL (storage objects, export archives): its expiry and signature. */
export const CapabilityQuery = z.object({
  expires: z
    .string()
    .regex(/^\d{1,16}$/)
    .openapi({ description: "Expiry (ms since epoch), as issued.", example: "1763800000000" }),
  signature: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}$/)
    .openapi({ description: "Capability signature, as issued.", example: "a".repeat(43) }),
});
