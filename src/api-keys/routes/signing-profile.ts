import { z } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { ALGORITHMS } from "../../catalog/algorithms";
import { registryFor } from "../../catalog/installed";
import { recipeById } from "../../catalog/recipes";
import { ApiError, type FieldDetail } from "../../platform/errors";
import { Timestamp } from "../../platform/openapi";
import { type SigningProfile, signingProfileOf } from "../controls";
import { controlResponseFields, registerKeyControl } from "./key-control";

const RecipeId = z
  .string()
  .regex(/^rcp_[a-z0-9_]{3,64}$/)
  .refine((id) => recipeById(id) !== undefined, { message: "No such recipe." });

const namesOf = (kind: "watermark" | "fingerprint") =>
  [...new Set(ALGORITHMS.filter((a) => a.kind === kind).map((a) => a.algorithm))] as [string, ...string[]];
/** Algorithm names the capability registry knows (GET /v1/capabilities lists each with its availability). */
const WatermarkName = z
  .enum(namesOf("watermark"))
  .openapi({ description: "A watermark algorithm of the capability catalog.", example: "svc-wm-tiledss-1" });
const FingerprintName = z
  .enum(namesOf("fingerprint"))
  .openapi({ description: "A fingerprint algorithm of the capability catalog.", example: "pdq" });
const Strength = z.enum(["subtle", "balanced", "robust"]).openapi({ description: "Watermark strength.", example: "balanced" });
const unique = (a: readonly string[]) => new Set(a).size === a.length;
/** A set of fingerprint algorithms in a PUT body (the default set, or the allowed one). */
const fingerprintSet = () =>
  z.array(FingerprintName).min(1).max(20).refine(unique, { message: "Each algorithm may be named once." }).nullable().optional();

const ProfileResponseSchema = z
  .object({
    ...controlResponseFields(1),
    default_recipe_id: z
      .string()
      .nullable()
      .openapi({ description: "Recipe POST /v1/sign uses when the request names none.", example: "rcp_system_sign_only" }),
    allowed_recipe_ids: z
      .array(z.string())
      .nullable()
      .openapi({ description: "Recipes this key may sign with; null for any available recipe.", example: ["rcp_system_sign_only"] }),
    default_watermark_algorithm: z.string().nullable().openapi({
      description:
        "Watermark used when a sign request names none (for assets of the modality it is offered for); null: the system default.",
      example: "svc-wm-tiledss-1",
    }),
    allowed_watermark_algorithms: z
      .array(z.string())
      .nullable()
      .openapi({ description: "Watermark algorithms this key may use; null for any available.", example: ["svc-wm-tiledss-1"] }),
    default_watermark_strength: Strength.nullable().openapi({
      description: "Strength used when a sign request names none; null: balanced.",
      example: "robust",
    }),
    allowed_watermark_strengths: z
      .array(Strength)
      .nullable()
      .openapi({ description: "Strengths this key may use; null for any.", example: ["balanced", "robust"] }),
    default_fingerprint_algorithms: z
      .array(z.string())
      .nullable()
      .openapi({
        description:
          "Fingerprint set used when a sign request names none (those offered for the asset's modality); null: the system defaults.",
        example: ["pdq"],
      }),
    allowed_fingerprint_algorithms: z
      .array(z.string())
      .nullable()
      .openapi({
        description: "Fingerprint algorithms this key may use; null for any available. The locked image ISCC code is always added.",
        example: ["pdq"],
      }),
    updated_at: Timestamp("When it last changed.").nullable(),
  })
  .openapi("ApiKeySigningProfileResponse");

const PutProfileSchema = z
  .object({
    default_recipe_id: RecipeId.nullable().openapi({ description: "Default recipe; must be allowed.", example: "rcp_system_sign_only" }),
    allowed_recipe_ids: z
      .array(RecipeId)
      .min(1)
      .max(50)
      .nullable()
      .openapi({ description: "Allowed recipes; null for any.", example: ["rcp_system_sign_only"] }),
    default_watermark_algorithm: WatermarkName.nullable().optional().openapi({
      description: "Default watermark; must be available in this deployment and allowed. Omitted or null: the system default.",
      example: "svc-wm-tiledss-1",
    }),
    allowed_watermark_algorithms: z
      .array(WatermarkName)
      .min(1)
      .max(20)
      .refine(unique, { message: "Each algorithm may be named once." })
      .nullable()
      .optional()
      .openapi({ description: "Allowed watermark algorithms; omitted or null for any.", example: ["svc-wm-tiledss-1"] }),
    default_watermark_strength: Strength.nullable()
      .optional()
      .openapi({ description: "Default strength; must be allowed. Omitted or null: balanced.", example: "robust" }),
    allowed_watermark_strengths: z
      .array(Strength)
      .min(1)
      .max(3)
      .refine(unique, { message: "Each strength may be named once." })
      .nullable()
      .optional()
      .openapi({ description: "Allowed strengths; omitted or null for any.", example: ["balanced", "robust"] }),
    default_fingerprint_algorithms: fingerprintSet().openapi({
      description: "Default fingerprint set; each must be available in this deployment and allowed. Omitted or null: the system defaults.",
      example: ["pdq"],
    }),
    allowed_fingerprint_algorithms: fingerprintSet().openapi({
      description: "Allowed fingerprint algorithms; omitted or null for any. The locked image ISCC code is always computed.",
      example: ["pdq"],
    }),
    expected_version: z
      .number()
      .int()
      .min(0)
      .optional()
      .openapi({ description: "The version last read; refused (409) if it moved since.", example: 0 }),
  })
  .refine((p) => !p.default_recipe_id || !p.allowed_recipe_ids || p.allowed_recipe_ids.includes(p.default_recipe_id), {
    message: "The default recipe must be one of the allowed recipes.",
    path: ["default_recipe_id"],
  })
  .refine(
    (p) =>
      !p.default_watermark_algorithm ||
      !p.allowed_watermark_algorithms ||
      p.allowed_watermark_algorithms.includes(p.default_watermark_algorithm),
    {
      message: "The default watermark must be one of the allowed watermark algorithms.",
      path: ["default_watermark_algorithm"],
    },
  )
  .refine(
    (p) =>
      !p.default_watermark_strength ||
      !p.allowed_watermark_strengths ||
      p.allowed_watermark_strengths.includes(p.default_watermark_strength),
    {
      message: "The default strength must be one of the allowed strengths.",
      path: ["default_watermark_strength"],
    },
  )
  .refine(
    (p) =>
      !p.default_fingerprint_algorithms ||
      !p.allowed_fingerprint_algorithms ||
      p.default_fingerprint_algorithms.every((f) => p.allowed_fingerprint_algorithms!.includes(f)),
    {
      message: "Every default fingerprint algorithm must be allowed.",
      path: ["default_fingerprint_algorithms"],
    },
  )
  .openapi("PutApiKeySigningProfileRequest");

/** A profile's own fields, every one present: a field a stored profile (stored before it existed) or a body omits reads null. */
const profileFields = (p: Omit<SigningProfile, "version" | "updated_at">): Required<Omit<SigningProfile, "version" | "updated_at">> => ({
  default_recipe_id: p.default_recipe_id,
  allowed_recipe_ids: p.allowed_recipe_ids,
  default_watermark_algorithm: p.default_watermark_algorithm ?? null,
  allowed_watermark_algorithms: p.allowed_watermark_algorithms ?? null,
  default_watermark_strength: p.default_watermark_strength ?? null,
  allowed_watermark_strengths: p.allowed_watermark_strengths ?? null,
  default_fingerprint_algorithms: p.default_fingerprint_algorithms ?? null,
  allowed_fingerprint_algorithms: p.allowed_fingerprint_algorithms ?? null,
});

/** The stored profile as GET and PUT show it. */
const view = (keyId: string, p: SigningProfile) => ({
  api_key_id: keyId,
  version: p.version,
  ...profileFields(p),
  updated_at: p.updated_at,
});

/**
 * Defaults must work here: a default algorithm the capability registry reports unavailable (for example, model
 * weights not installed) is refused, since every sign relying on it would be. Allowed sets may name any known one.
 */
function unavailableDefaults(
  env: Parameters<typeof registryFor>[0],
  body: { default_watermark_algorithm?: string | null; default_fingerprint_algorithms?: string[] | null },
): FieldDetail[] {
  const registry = registryFor(env);
  const unavailable = (kind: "watermark" | "fingerprint", name: string) =>
    !ALGORITHMS.some((a) => a.kind === kind && a.algorithm === name && registry.algorithmAvailability(a).available);
  const details: FieldDetail[] = [];
  if (body.default_watermark_algorithm && unavailable("watermark", body.default_watermark_algorithm)) {
    details.push({
      location: "body",
      field: "default_watermark_algorithm",
      code: "unavailable",
      message: `${body.default_watermark_algorithm} is not available in this deployment.`,
    });
  }
  for (const name of body.default_fingerprint_algorithms ?? []) {
    if (unavailable("fingerprint", name))
      details.push({
        location: "body",
        field: "default_fingerprint_algorithms",
        code: "unavailable",
        message: `${name} is not available in this deployment.`,
      });
  }
  return details;
}

/** GET and PUT /v1/api-keys/{api_key_id}/signing-profile. */
export function registerSigningProfileRoutes(app: Router) {
  registerKeyControl<SigningProfile, z.infer<typeof PutProfileSchema>, undefined>(app, {
    segment: "signing-profile",
    noun: "SigningProfile",
    column: "signingProfile",
    read: signingProfileOf,
    responseSchema: ProfileResponseSchema,
    bodySchema: PutProfileSchema,
    get: { summary: "Get a key's signing profile", ok: "The signing profile." },
    put: {
      summary: "Replace a key's signing profile",
      description:
        "Signing defaults and allowed sets for POST /v1/sign with this key (recipe; watermark algorithm and strength; fingerprint set), effective from its next sign; admitted jobs keep what they were admitted with. The body replaces the whole profile: an omitted field is reset (null: the system default, or any). Defaults fill what a sign request leaves out, where the recipe uses them; allowed sets also bound what a request names (403 `svc.sign.option_not_allowed`, `svc.sign.recipe_not_allowed`). Algorithms are checked against the capability registry: unknown names answer 422 `svc.request.invalid`, a default this deployment cannot run answers 422 `svc.sign.algorithm_unavailable`.",
      ok: "The new profile.",
    },
    validate: (c, body) => {
      const unavailable = unavailableDefaults(c.env, body);
      if (unavailable.length > 0)
        throw new ApiError("svc.sign.algorithm_unavailable", unavailable.map((d) => d.message).join(" "), { fieldDetails: unavailable });
    },
    fields: profileFields,
    view,
  });
}
