import { z } from "@hono/zod-openapi";
import { MEDIA_TYPES } from "../catalog/formats";
import { RECIPE_CATALOG_VERSION } from "../catalog/recipes";
import { UNAVAILABLE_REASONS } from "../catalog/registry";

export const MediaTypeSchema = z
  .enum(MEDIA_TYPES)
  .openapi("MediaType", { description: "A reviewed media type (SPEC Formats).", example: "image/jpeg" });

export const AvailabilitySchema = z
  .object({
    available: z.boolean().openapi({ description: "Whether this works in this deployment now.", example: false }),
    reason: z
      .enum(UNAVAILABLE_REASONS)
      .nullable()
      .openapi({ description: "Why it is unavailable; null when available.", example: "capability_not_installed" }),
    missing_capabilities: z
      .array(z.string())
      .openapi({ description: "Pipelines this deployment lacks for it.", example: ["c2pa.sign.embedded"] }),
  })
  .openapi("Availability");

export const RecipeCatalogResponseSchema = z
  .object({
    recipe_id: z
      .string()
      .regex(/^rcp_[a-z0-9_]{3,64}$/)
      .openapi({ description: "Recipe id.", example: "rcp_system_sign_only" }),
    recipe_url: z
      .string()
      .regex(/^\/v1\/recipes\/rcp_[a-z0-9_]{3,64}$/)
      .openapi({ description: "Path of this recipe.", example: "/v1/recipes/rcp_system_sign_only" }),
    name: z.string().max(200).openapi({ description: "Display name.", example: "Sign only" }),
    summary: z.string().openapi({
      description: "What the recipe does, in one sentence.",
      example: "Embed a signed C2PA manifest; the media is otherwise unchanged.",
    }),
    kind: z
      .enum(["sign_only", "watermark_only", "watermark_then_sign"])
      .openapi({ description: "What the recipe does to the media.", example: "sign_only" }),
    version: z
      .number()
      .int()
      .min(1)
      .openapi({ description: "Definition version; any change to the definition is a new version.", example: 1 }),
    schema_version: z.string().max(100).openapi({ description: "Schema of the definition.", example: "svc.recipe.v1" }),
    catalog_version: z.literal(RECIPE_CATALOG_VERSION).openapi({ description: "Catalog version." }),
    definition_sha256: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .openapi({ description: "SHA-256 (lowercase hex) of the definition's canonical JSON.", example: "0".repeat(64) }),
    available: z.boolean().openapi({ description: "Whether the recipe can run in this deployment now.", example: false }),
    unavailable_reason: z
      .enum(UNAVAILABLE_REASONS)
      .nullable()
      .openapi({ description: "Why not; null when available.", example: "capability_not_installed" }),
    required_capabilities: z.array(z.string()).openapi({
      description: "Pipelines the recipe needs, in order.",
      example: ["media.inspect", "c2pa.sign.embedded", "storage.publish"],
    }),
    required_steps: z.array(z.string()).openapi({ description: "Job steps, in order.", example: ["inspect", "sign", "publish"] }),
    media_types: z.array(MediaTypeSchema).openapi({ description: "Media types the recipe is designed for." }),
    supported_media_types: z
      .array(MediaTypeSchema)
      .openapi({ description: "Media types it accepts in this deployment now (empty while unavailable)." }),
  })
  .openapi("RecipeCatalogResponse");

export const RecipeListResponseSchema = z
  .object({
    catalog_version: z.literal(RECIPE_CATALOG_VERSION).openapi({ description: "Catalog version." }),
    recipes: z
      .array(RecipeCatalogResponseSchema)
      .openapi({ description: "Every recipe of the catalog, with its availability in this deployment." }),
  })
  .openapi("RecipeListResponse");

const AlgorithmSchema = z
  .object({
    algorithm: z.string().openapi({ description: "Algorithm name as accepted by the sign request.", example: "pdq" }),
    modality: z.enum(["image", "audio", "video"]).openapi({ description: "Media modality.", example: "image" }),
    default: z.boolean().openapi({
      description:
        "What a sign request that names no algorithm of this kind gets for its modality in this deployment (the watermark, or one of the default fingerprints).",
      example: false,
    }),
    recommended: z.boolean().openapi({
      description:
        "The contract's recommended default for its modality, whether or not this deployment has it (a learned model without weights is recommended but not the default here).",
      example: false,
    }),
    locked: z.boolean().openapi({ description: "Always computed when signing (fingerprints only).", example: false }),
    availability: AvailabilitySchema,
  })
  .openapi("AlgorithmCapability");

const bytes = (description: string, example: number) => z.number().int().openapi({ description, example });

const LimitsSchema = z
  .object({
    embedded_signing_maximum_bytes: bytes(
      "Largest upload of a format whose manifest is embedded (signing holds it in memory); sidecar formats take `media[].upload.maximum_bytes`.",
      10485760,
    ),
    streamed_signing_maximum_bytes: z.record(z.string(), z.number().int()).openapi({
      description:
        "Media types signed by streaming above `embedded_signing_maximum_bytes` (the asset is never held in memory), with their largest upload. Not watermarked; a WAV is fingerprinted from its first 32 MiB; a FLAC this large is signed without fingerprints (sign-only recipe).",
      example: { "video/mp4": 2147483648, "audio/wav": 1073741824 },
    }),
    decode_maximum_pixels: z.number().int().openapi({
      description:
        "Most pixels an image may have for work that decodes it (watermark, fingerprints, previews, content lookups); signing alone is bounded by bytes.",
      example: 12000000,
    }),
    watermark_minimum_edge_pixels: z
      .number()
      .int()
      .openapi({ description: "The image watermark needs at least this many pixels on the image's shorter side.", example: 128 }),
    json_body_maximum_bytes: bytes("Largest JSON request body.", 1048576),
    multipart: z
      .object({
        minimum_part_bytes: bytes("Every part but the last is at least this large.", 5242880),
        maximum_parts: z.number().int().openapi({ description: "Most parts of one multipart upload.", example: 10000 }),
      })
      .openapi({ description: "Multipart upload limits." }),
    sign_batch_maximum_items: z.number().int().openapi({ description: "Most items of one POST /v1/sign/batch.", example: 100 }),
    verify: z
      .object({
        file_maximum_bytes: bytes("Largest `file` part of POST /v1/verify.", 26214400),
        manifest_maximum_bytes: bytes("Largest `manifest` (sidecar .c2pa) part of POST /v1/verify.", 10485760),
        manifest_uri_maximum_bytes: bytes("Largest manifest store fetched from `manifest_uri`.", 10485760),
        stored_object_maximum_bytes: bytes(
          "Largest stored object verified by `asset_id` (POST /v1/verify) or `object_id` (POST /v1/verifications) when it is read whole; the media types of `streamed_object_maximum_bytes` are verified by streaming up to their own limit. Above its limit an object is refused with 413 `svc.request.too_large`.",
          52428800,
        ),
        streamed_object_maximum_bytes: z.record(z.string(), z.number().int()).openapi({
          description:
            "Media types verified by streaming by `asset_id` or `object_id` above `embedded_signing_maximum_bytes` (never held in memory: the manifest store is validated alone and the hard binding hashed as the object streams), with their largest object. Only a hard binding of the form this service signs by streaming is judged so; another form of file above `engine_read_maximum_bytes` is refused with 413 `svc.request.too_large`.",
          example: { "video/mp4": 2147483648, "audio/wav": 1073741824 },
        }),
        request_maximum_bytes: bytes(
          "Largest multipart body of POST /v1/verify (a full-size file and manifest together, plus framing).",
          36765696,
        ),
        engine_read_maximum_bytes: bytes(
          "Largest file (or sidecar manifest) the C2PA engine reads: it holds up to about three times a file's size in memory. A file with a manifest that needs the engine (any manifest but the JPEG form this service signs, when it verifies completely) above its limit is refused with 413 `svc.request.too_large`.",
          12582912,
        ),
        larger_files: z.string().openapi({
          description: "How to verify a file larger than `file_maximum_bytes`, and why the limit is below the largest upload.",
        }),
      })
      .openapi({ description: "Verification limits." }),
    content_lookup_maximum_bytes: bytes("Largest asset sent to POST /v1/soft-binding-resolution/matches/byContent.", 26214400),
  })
  .openapi("ServiceLimits", { description: "Every size, pixel and count limit the service enforces, with the value it enforces." });

export const CapabilitiesResponseSchema = z
  .object({
    schema_version: z.literal("svc.capability-discovery.v1").openapi({ description: "Schema of this document." }),
    contract: z
      .object({
        api_version: z.string().openapi({ description: "Version of the OpenAPI contract.", example: "1.0.0" }),
        openapi_url: z.string().openapi({ description: "Where the OpenAPI 3.1 document is served.", example: "/openapi.json" }),
        recipe_catalog_version: z.string().openapi({ description: "Recipe catalog version.", example: RECIPE_CATALOG_VERSION }),
        event_catalog_version: z.string().openapi({ description: "Customer event catalog version.", example: "svc.customer-events.v1" }),
      })
      .openapi({ description: "Versions of the contract this deployment serves." }),
    capture: z
      .object({
        available: z.boolean().openapi({
          description: "Capture admission (device attestation) is offered: a trust snapshot is configured for at least one kind.",
          example: true,
        }),
        attestation_kinds: z.array(z.enum(["app_attest", "play_integrity", "hardware_key_attestation"])).openapi({
          description:
            "Attestation kinds this deployment can verify now (roots, app keys and, for Android, the revocation list configured).",
        }),
        reason: z.string().nullable().openapi({
          description:
            "Why capture is unavailable: `not_configured` (no trust snapshot), `configuration_invalid` (it does not parse), `no_trusted_apps`; null when available.",
          example: null,
        }),
      })
      .openapi({ description: "Capture admission capability." }),
    media: z
      .array(
        z.object({
          media_type: MediaTypeSchema,
          modality: z.string().openapi({ description: "Media family.", example: "image" }),
          manifest_delivery: z.enum(["embedded", "sidecar"]).openapi({
            description: "Whether the manifest is embedded or delivered as a .c2pa file beside the asset.",
            example: "embedded",
          }),
          watermark_offered: z
            .boolean()
            .openapi({ description: "Whether watermark recipes can apply to this type (by design).", example: true }),
          extension: z.string().openapi({ description: "File extension of downloads.", example: "jpg" }),
          availability: AvailabilitySchema,
          upload: z
            .object({
              maximum_bytes: z.number().int().openapi({ description: "Largest accepted upload in bytes.", example: 52428800 }),
              modes: z.array(z.enum(["single", "multipart"])).openapi({ description: "Upload modes accepted." }),
            })
            .openapi({ description: "Upload limits." }),
        }),
      )
      .openapi({
        description: "Every reviewed format. Submit only those with `availability.available` true, within `upload.maximum_bytes`.",
      }),
    recipes: z
      .array(
        z.object({
          recipe_id: z.string().openapi({ description: "Recipe id.", example: "rcp_system_sign_only" }),
          kind: z.string().openapi({ description: "Recipe kind.", example: "sign_only" }),
          version: z.number().int().openapi({ description: "Active version.", example: 1 }),
          availability: AvailabilitySchema,
          active: z
            .object({
              supported_media_types: z
                .array(MediaTypeSchema)
                .openapi({ description: "Exactly the enabled formats this recipe accepts now." }),
            })
            .openapi({ description: "What the recipe's active version accepts in this deployment now." }),
        }),
      )
      .openapi({ description: "Recipes. A sidecar recipe is listed only while at least one of its formats is enabled." }),
    watermark_algorithms: z.array(AlgorithmSchema).openapi({ description: "Watermark algorithms and their availability." }),
    fingerprint_algorithms: z.array(AlgorithmSchema).openapi({ description: "Fingerprint algorithms and their availability." }),
    limits: LimitsSchema,
  })
  .openapi("CapabilitiesResponse");

export const ImageProfilesResponseSchema = z
  .object({
    profiles: z
      .array(
        z
          .object({
            profile_id: z.string().openapi({ description: "Profile id (the media type's short name).", example: "jpeg" }),
            media_type: MediaTypeSchema,
            accepted: z
              .object({
                operations: z
                  .array(z.enum(["sign", "watermark", "fingerprint"]))
                  .openapi({ description: "Operations that work on this type now." }),
                recipes: z.array(z.string()).openapi({ description: "Recipes accepting this type now." }),
                watermark_algorithms: z.array(z.string()).openapi({ description: "Watermark algorithms available now." }),
                fingerprint_algorithms: z.array(z.string()).openapi({ description: "Fingerprint algorithms available now." }),
              })
              .openapi({ description: "What works now. Only these fields describe accepted capability." }),
            planned: z
              .object({
                operations: z
                  .array(z.enum(["sign", "watermark", "fingerprint"]))
                  .openapi({ description: "Operations the reviewed design covers." }),
                recipes: z.array(z.string()).openapi({ description: "Recipes designed for this type." }),
              })
              .openapi({ description: "The reviewed envelope; not a promise of availability." }),
            limits: z
              .object({ maximum_bytes: z.number().int().openapi({ description: "Upload ceiling in bytes.", example: 52428800 }) })
              .openapi({ description: "Limits." }),
            availability: AvailabilitySchema,
          })
          .openapi("ImageProfile"),
      )
      .openapi({ description: "One profile per reviewed image format with an embedded manifest." }),
  })
  .openapi("ImageProfilesResponse");
