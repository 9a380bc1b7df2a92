import { z } from "@hono/zod-openapi";
import { idSchema } from "../platform/ids";

/*
 * POST /v1/feedback (issue #18). SPEC does not show the bodies; this is our design. The message is free text that
 * may name or describe people, so it is stored only encrypted and never echoed back, logged or audited.
 */

export const FEEDBACK_KINDS = ["bug", "idea", "question", "verification_dispute", "other"] as const;
/** Longest message, in characters (UTF-16 code units, as JSON strings count them). */
export const FEEDBACK_MESSAGE_MAX = 4000;

export const FeedbackRequestSchema = z
  .object({
    kind: z.enum(FEEDBACK_KINDS).openapi({
      description:
        "What the feedback is: `bug`, `idea`, `question`, `verification_dispute` (a verification result you believe is wrong: name the verification, and the asset or job when known) or `other`.",
      example: "verification_dispute",
    }),
    message: z
      .string()
      .min(1)
      .max(FEEDBACK_MESSAGE_MAX)
      .refine((s) => s.trim().length > 0, "The message must not be blank.")
      .openapi({
        description: `The feedback, 1 to ${FEEDBACK_MESSAGE_MAX} characters and not blank. It may contain personal data: it is stored only encrypted under the tenant's data key and never returned, logged or put in the audit log.`,
        example: "The verification of this image says invalid, but it was signed by our camera app.",
      }),
    asset_id: idSchema("asset", "An asset the feedback is about (optional; checked for its format only).").optional(),
    job_id: idSchema("job", "A job the feedback is about (optional; checked for its format only).").optional(),
    verification_id: idSchema("verification", "A verification the feedback is about (optional; checked for its format only).").optional(),
  })
  .strict()
  .openapi("FeedbackRequest");

export type FeedbackRequest = z.infer<typeof FeedbackRequestSchema>;

export const FeedbackResponseSchema = z
  .object({
    id: idSchema("feedback", "The feedback's id (quote it when following up)."),
    kind: z.enum(FEEDBACK_KINDS).openapi({ description: "The kind given.", example: "verification_dispute" }),
    message_length: z.number().int().openapi({ description: "Characters stored (the message itself is never returned).", example: 82 }),
    asset_id: idSchema("asset", "The related asset given, or null.").nullable(),
    job_id: idSchema("job", "The related job given, or null.").nullable(),
    verification_id: idSchema("verification", "The related verification given, or null.").nullable(),
    created_at: z.string().datetime().openapi({ description: "When it was received.", example: "2026-11-25T12:00:00.000Z" }),
  })
  .openapi("Feedback");
