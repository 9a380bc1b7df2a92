import { z } from "@hono/zod-openapi";
import { idSchema } from "../../platform/ids";
import { Timestamp } from "../../platform/openapi";
import { NextCursorSchema } from "../../platform/pagination";

const Hex64 = (description: string) =>
  z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .openapi({ description, example: "9f2c4e0b7a1d3c5e8f6a2b4d0c1e3f5a7b9d1c3e5f7a9b0d2c4e6f8a0b1c3d5e" });

export const ACTOR_KINDS = ["api_key", "console_user", "identity_provider", "payment_provider", "operator", "service"] as const;

export const AuditEntrySchema = z
  .object({
    id: idSchema("auditEvent", "Audit entry id."),
    seq: z.number().int().min(1).openapi({ description: "Position in the tenant's chain: 1, 2, 3… without gaps.", example: 42 }),
    occurred_at: Timestamp("When it happened."),
    action: z.string().openapi({
      description:
        "What was done: the operation (`METHOD /path` exactly as in this document) for an API write, or a named event: `creator.disclosure_read`; `session.provisioned`, `session.signed_in` (at most once a user an hour); `user.deactivated`, `user.reactivated`, `user.deleted`, `user.email_changed` (identity-provider callbacks); `payment.event_applied`; `export.completed`, `export.failed`; `deletion.completed`, `deletion.refused`, `deletion.failed`; `legal_hold.placed`, `legal_hold.released` (by the operator)",
      example: "POST /v1/api-keys/{api_key_id}/rotate",
    }),
    outcome: z.enum(["succeeded", "denied", "failed"]).openapi({
      description: "`denied`: the caller was refused (403) what it tried; `failed`: background work that did not complete.",
      example: "succeeded",
    }),
    actor: z
      .object({
        kind: z.enum(ACTOR_KINDS).openapi({
          description:
            "`api_key` or `console_user`: a caller of this API; `identity_provider` and `payment_provider`: their signed callbacks; `operator`: a person running an operator script; `service`: this service's background work.",
          example: "api_key",
        }),
        id: z
          .string()
          .nullable()
          .openapi({ description: "The key id, user id or provider's event id; null when none applies.", example: "key_abcdefghij234567" }),
      })
      .openapi({ description: "Who did it." }),
    credential_id: z.string().nullable().openapi({
      description: "The credential presented (API key id, or the console session's user id); null for callbacks and background work.",
      example: "key_abcdefghij234567",
    }),
    request_id: z
      .string()
      .nullable()
      .openapi({ description: "The request that did it (X-Request-Id), when there was one.", example: "req_abcdefghij234567" }),
    target: z
      .object({
        type: z
          .string()
          .nullable()
          .openapi({ description: "Kind of resource acted on (`api_key`, `asset`, `job`, …).", example: "api_key" }),
        id: z.string().nullable().openapi({ description: "Its id.", example: "key_bcdefghij2345678" }),
      })
      .openapi({ description: "What it was done to." }),
    status_code: z.number().int().nullable().openapi({ description: "The HTTP status answered, for API writes.", example: 201 }),
    detail: z
      .record(z.string(), z.unknown())
      .nullable()
      .openapi({
        description: "Small structured facts (ids, counts, reason codes). Never personal data or secrets.",
        example: { error_code: "svc.api_keys.scope_escalation" },
      }),
    prev_hash: Hex64("SHA-256 of the previous entry (64 zeros for the first)."),
    hash: Hex64(
      'SHA-256 (hex) of the UTF-8 JSON array ["svc.audit-entry.v1", tenant id, seq, id, occurred_at (epoch ms), action, outcome, actor kind, actor id, credential_id, request_id, target type, target id, status_code, detail (canonical JSON text with sorted keys, or null), prev_hash].',
    ),
  })
  .openapi("AuditEntry", { description: "One entry of the tenant's append-only, hash-chained audit log." });

export const AuditVerificationSchema = z
  .object({
    intact: z.boolean().openapi({ description: "Every entry links to the one before and hashes to its stored hash.", example: true }),
    entries: z.number().int().openapi({ description: "Entries checked.", example: 1200 }),
    last_seq: z.number().int().nullable().openapi({ description: "The last entry checked, when intact.", example: 1200 }),
    broken_at_seq: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "The first entry that does not verify, when not intact.", example: null }),
    reason: z
      .enum(["sequence_gap", "link_mismatch", "hash_mismatch"])
      .nullable()
      .openapi({ description: "Why it does not verify: an entry missing, a link broken, or an entry altered.", example: null }),
    witness: z.enum(["matches", "behind", "differs", "unchecked", "none"]).openapi({
      description:
        "The head the chain's writer last recorded outside the database: `matches` it; the log ends `behind` it (entries removed from the end); the entry at that position `differs` (the tail was rewritten); `unchecked` (the chain broke before it); `none` (nothing written yet).",
      example: "matches",
    }),
    complete: z.boolean().openapi({
      description:
        "False when the chain is longer than one request verifies (200,000 entries, read 2,000 per query, to stay within the platform's per-request query budget): `intact` then speaks for the entries up to `checked_through_seq` only, and `witness` is `unchecked` unless it lies within them.",
      example: true,
    }),
    checked_through_seq: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "The last entry that verified (null when none did).", example: 1200 }),
  })
  .openapi("AuditVerification", {
    description:
      "The chain's verification from its first entry. At most 200,000 entries per request; a longer chain answers `complete: false` with how far it verified, never an error.",
  });

export const AuditPageSchema = z
  .object({
    items: z.array(AuditEntrySchema).openapi({ description: "Entries, newest first." }),
    next_cursor: NextCursorSchema,
    head: z
      .object({
        seq: z.number().int().openapi({ description: "Position of the newest entry.", example: 42 }),
        hash: Hex64("Hash of the newest entry."),
      })
      .nullable()
      .openapi({
        description: "The newest entry of the chain when this page was read (keep it to detect a later rewrite). Null for an empty log.",
      }),
    verification: AuditVerificationSchema.nullable().openapi({
      description: "The whole chain's verification, when `verify=true` was asked; else null.",
    }),
  })
  .openapi("AuditPage");
