import { z } from "@hono/zod-openapi";
import { idSchema } from "../platform/ids";
import { Timestamp } from "../platform/openapi";
import { NextCursorSchema } from "../platform/pagination";

/** Lone surrogates would be sealed as U+FFFD but committed to as escapes: the commitment could not be re-checked. */
const wellFormed = (s: string) => !/\p{Cs}/u.test(s);
const WELL_FORMED = "Must be well-formed Unicode (no lone surrogate code units).";

export const CreatorIdSchema = idSchema("creatorIdentity", "Creator identity id.");

export const CreatorIdParams = z.object({ creator_identity_id: CreatorIdSchema });

export const CONSOLE_DISCLOSURES = ["none", "attributed", "name", "name_and_email"] as const;
export const SHARE_DISCLOSURES = ["none", "attributed", "name"] as const;
export type ConsoleDisclosure = (typeof CONSOLE_DISCLOSURES)[number];
export type ShareDisclosure = (typeof SHARE_DISCLOSURES)[number];

const DISCLOSURE_LEVELS =
  "`none`: nothing, not even that a creator is attributed. `attributed`: the opaque `creator_ref` and commitment only. `name`: also the name. `name_and_email`: also the e-mail.";

const ConsoleDisclosureSchema = z.enum(CONSOLE_DISCLOSURES).openapi({
  description: `What the owning tenant's own audience (\`owning_tenant\`) is shown. ${DISCLOSURE_LEVELS}`,
  example: "name_and_email",
});
const ShareDisclosureSchema = z.enum(SHARE_DISCLOSURES).openapi({
  description: `What anyone else (\`public\`: verifiers, shared results) is shown. ${DISCLOSURE_LEVELS} The e-mail is never public.`,
  example: "name",
});
const NoticeVersionSchema = z
  .string()
  .min(1)
  .max(100)
  .nullable()
  .openapi({ description: "Version of the privacy notice the tenant shows its creators; null for none.", example: "2026-10" });

export const CreatorDisclosurePolicySchema = z
  .object({
    brand_name: z.string().openapi({ description: "Name the tenant is shown as in disclosures.", example: "Example Newsroom" }),
    console_disclosure: ConsoleDisclosureSchema,
    share_disclosure: ShareDisclosureSchema,
    notice_version: NoticeVersionSchema,
    updated_at: Timestamp("When the policy was last replaced; null while the defaults apply.").nullable(),
  })
  .openapi("CreatorDisclosurePolicyResponse", { description: "The tenant's creator disclosure policy." });

export const PutCreatorDisclosurePolicySchema = z
  .object({
    brand_name: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .refine(wellFormed, WELL_FORMED)
      .openapi({ description: "Name the tenant is shown as, 1 to 200 characters.", example: "Example Newsroom" }),
    console_disclosure: ConsoleDisclosureSchema.default("name_and_email"),
    share_disclosure: ShareDisclosureSchema.default("name"),
    notice_version: NoticeVersionSchema.optional(),
  })
  .strict()
  .openapi("CreatorDisclosurePolicyRequest", { description: "The whole policy; omitted fields take their defaults." });

export const CONSENT_BASES = ["consent", "contract", "legal_obligation", "vital_interests", "public_task", "legitimate_interests"] as const;

export const CreatorConsentRequestSchema = z
  .object({
    basis: z.enum(CONSENT_BASES).openapi({
      description:
        "The lawful basis the tenant holds for processing this person's identity (the bases of GDPR Art. 6(1)). The service records it and does not obtain consent itself.",
      example: "consent",
    }),
    obtained_at: z.string().datetime().openapi({
      description: "When the tenant obtained the basis (for `consent`: when the person agreed).",
      example: "2026-11-20T09:00:00.000Z",
    }),
    notice_version: NoticeVersionSchema.optional().openapi({
      description: "Version of the notice the person was shown; null or omitted for none.",
      example: "2026-10",
    }),
    reference: z.string().min(1).max(200).nullable().optional().openapi({
      description:
        "The tenant's own reference to its record of the basis (a contract or consent-record id). Opaque: never put personal data here.",
      example: "consent-record-4711",
    }),
  })
  .strict()
  .openapi("CreatorConsentRequest", {
    description:
      "The tenant's attestation that it holds a lawful basis; recorded as given, with the time it was recorded and the API key that gave it.",
  });

export const CreateCreatorIdentityRequestSchema = z
  .object({
    email: z
      .string()
      .max(320)
      .regex(/^\s*[^\s@]+@[^\s@]+\.[^\s@]+\s*$/, "Not an e-mail address.")
      .refine(wellFormed, WELL_FORMED)
      .openapi({
        description:
          "The creator's e-mail, at most 320 characters. Stored only encrypted; trimmed and lowercased (the normalised form is what is disclosed and committed to).",
        example: "<email>",
      }),
    name: z.string().trim().min(1).max(200).refine(wellFormed, WELL_FORMED).nullable().optional().openapi({
      description: "The creator's display name (1 to 200 characters), or null. Stored only encrypted.",
      example: "<name>",
    }),
    consent: CreatorConsentRequestSchema,
  })
  .strict()
  .openapi("CreateCreatorIdentityRequest", { description: "Enrols a creator identity." });

export const CreatorIdentityResponseSchema = z
  .object({
    creator_id: CreatorIdSchema,
    created_at: Timestamp("When the identity was enrolled."),
    assurance_level: z.enum(["self_asserted", "verified"]).openapi({
      description: "`self_asserted`: the tenant asserted the identity; the service did not verify it (all identities today).",
      example: "self_asserted",
    }),
    status: z.enum(["active", "withdrawn", "erased"]).openapi({
      description:
        "`active`: attributable and disclosable per policy. `withdrawn`: disclosure stopped, new attributions refused. `erased`: personal data deleted by governance; the commitment can no longer be resolved.",
      example: "active",
    }),
    display_name_present: z
      .boolean()
      .openapi({ description: "Whether a name was enrolled (the name itself is never shown here).", example: true }),
    erased_at: Timestamp("When the personal data was erased.").nullable(),
    withdrawn_at: Timestamp("When the identity was withdrawn.").nullable(),
  })
  .openapi("CreatorIdentityResponse", { description: "An enrolled creator identity. Never carries the name or e-mail." });

export const CreatorIdentityPageSchema = z
  .object({
    items: z.array(CreatorIdentityResponseSchema).openapi({ description: "Identities, newest first." }),
    next_cursor: NextCursorSchema,
  })
  .openapi("CreatorIdentityPage", { description: "One page of creator identities." });

export const AUDIENCES = ["owning_tenant", "public", "operator"] as const;
export type Audience = (typeof AUDIENCES)[number];
export const DISCLOSURE_STATES = ["disclosed", "withheld", "withdrawn", "erased", "unavailable"] as const;
export type DisclosureState = (typeof DISCLOSURE_STATES)[number];

export const CreatorDisclosureResponseSchema = z
  .object({
    schema_version: z
      .literal("svc.creator-disclosure.v1")
      .openapi({ description: "Version of this document.", example: "svc.creator-disclosure.v1" }),
    assurance_level: z
      .enum(["self_asserted", "verified"])
      .openapi({ description: "How the identity was established.", example: "self_asserted" }),
    assurance_statement: z.string().openapi({
      description: "What the assurance level means, in plain language.",
      example: "Asserted by the tenant, which attests a lawful basis; not verified by the service.",
    }),
    audience: z.enum(AUDIENCES).openapi({ description: "The audience this answer is for.", example: "owning_tenant" }),
    disclosure_state: z.enum(DISCLOSURE_STATES).openapi({
      description:
        "`disclosed`: `end_user` carries what the policy allows this audience. `withheld`: the policy shows this audience no name (`none` or `attributed`). `withdrawn`, `erased`: the identity's state. `unavailable`: the identity would be disclosed but cannot be decrypted now (no master key configured, or its data key unusable); retry later.",
      example: "disclosed",
    }),
    tenant: z
      .object({
        brand_name: z.string().openapi({ description: "The tenant's brand name from its disclosure policy.", example: "Example Newsroom" }),
        notice_version: z.string().nullable().openapi({ description: "The policy's notice version.", example: "2026-10" }),
      })
      .openapi({ description: "The tenant that enrolled the creator." }),
    end_user: z
      .object({
        name: z.string().nullable().openapi({ description: "The creator's name; null when none was enrolled.", example: "<name>" }),
        email: z.string().optional().openapi({
          description: "The creator's normalised e-mail; present only where the policy is `name_and_email`.",
          example: "<email>",
        }),
      })
      .nullable()
      .openapi({ description: "The creator, only when `disclosed`, and only the fields the policy allows this audience." }),
    commitment: z
      .object({
        algorithm: z.literal("sha256").openapi({ description: "Hash of the commitment.", example: "sha256" }),
        value: z.string().openapi({
          description: "Lowercase hex SHA-256(salt ‖ UTF-8 canonical identity), as carried in manifests.",
          example: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
        }),
        salt: z.string().nullable().openapi({
          description:
            "The 32-byte salt, lowercase hex, only when every field of the canonical identity is disclosed (`name_and_email`); null otherwise, so a partial disclosure cannot be used to guess the rest.",
          example: null,
        }),
        canonical_form: z.string().openapi({
          description: "How the canonical identity is written.",
          example: 'JSON {"email":<normalised e-mail>,"name":<name or null>}, keys in this order, no whitespace',
        }),
      })
      .nullable()
      .openapi({
        description: "Lets a verifier holding a disclosed identity check it against a manifest; null when the policy is `none`.",
      }),
    creator_ref: z.string().nullable().openapi({
      description: "The opaque reference manifests carry; null when the policy is `none`.",
      example: "cref_abcdefghijklmnopqrstuvwxyz",
    }),
  })
  .openapi("CreatorDisclosureResponse", { description: "What the policy lets this audience know about a creator identity." });

export const DisclosureQuerySchema = z.object({
  audience: z.enum(AUDIENCES).default("owning_tenant").openapi({
    description:
      "`owning_tenant` (default): what the tenant's own audience may see (`console_disclosure`). `public`: what anyone would be shown (`share_disclosure`). `operator`: reserved to the service operator; an API key gets 403 `svc.creators.audience_not_allowed`.",
    example: "owning_tenant",
  }),
});
