import type { CaptureCapability } from "../capture/trust";
import { type AlgorithmDefinition, isEffectiveDefault } from "../catalog/algorithms";
import { FORMATS, maximumBytesOf } from "../catalog/formats";
import { publishedLimits } from "../catalog/limits";
import { RECIPE_CATALOG_VERSION, type RecipeDefinition } from "../catalog/recipes";
import { type CapabilityRegistry, definitionSha256, type RecipeStatus } from "../catalog/registry";

/** Domain views of the capability registry; no HTTP here. */

export async function recipeView(status: RecipeStatus) {
  const r: RecipeDefinition = status.recipe;
  return {
    recipe_id: r.recipe_id,
    recipe_url: `/v1/recipes/${r.recipe_id}`,
    name: r.name,
    summary: r.summary,
    kind: r.kind,
    version: r.version,
    schema_version: r.schema_version,
    catalog_version: RECIPE_CATALOG_VERSION,
    definition_sha256: await definitionSha256(r),
    available: status.available,
    unavailable_reason: status.reason,
    required_capabilities: r.required_capabilities,
    required_steps: r.required_steps,
    media_types: r.media_types,
    supported_media_types: status.active_media_types,
  };
}

/** Capture as a deployment without a trust snapshot reports it. */
const NO_CAPTURE: CaptureCapability = { available: false, attestation_kinds: [], reason: "not_configured" };

export function capabilitiesView(registry: CapabilityRegistry, capture: CaptureCapability = NO_CAPTURE) {
  const recipes = registry.recipes();
  const available = (a: AlgorithmDefinition) => registry.algorithmAvailability(a).available;
  const algorithm = (kind: "watermark" | "fingerprint") =>
    registry
      .algorithms()
      .filter(({ algorithm }) => algorithm.kind === kind)
      .map(({ algorithm, availability }) => ({
        algorithm: algorithm.algorithm,
        modality: algorithm.modality,
        // What a sign request naming none gets here (e.g. our svc-wm-tiledss-1 while pixelseal has no weights).
        default: isEffectiveDefault(algorithm, available),
        recommended: algorithm.is_default,
        locked: algorithm.locked ?? false,
        availability,
      }));
  return {
    schema_version: "svc.capability-discovery.v1" as const,
    contract: {
      api_version: "1.0.0",
      openapi_url: "/openapi.json",
      recipe_catalog_version: RECIPE_CATALOG_VERSION,
      event_catalog_version: "svc.customer-events.v1",
    },
    capture,
    media: registry.formats().map(({ format, availability }) => ({
      media_type: format.media_type,
      modality: format.modality,
      manifest_delivery: format.lane === "sidecar" ? ("sidecar" as const) : ("embedded" as const),
      watermark_offered: format.watermark,
      extension: format.extension,
      availability,
      upload: { maximum_bytes: maximumBytesOf(format), modes: ["single" as const, "multipart" as const] },
    })),
    recipes: recipes
      .filter((s) => s.recipe.lane !== "sidecar" || s.available)
      .map((s) => ({
        recipe_id: s.recipe.recipe_id,
        kind: s.recipe.kind,
        version: s.recipe.version,
        availability: { available: s.available, reason: s.reason, missing_capabilities: s.missing_capabilities },
        active: { supported_media_types: s.active_media_types },
      })),
    watermark_algorithms: algorithm("watermark"),
    fingerprint_algorithms: algorithm("fingerprint"),
    limits: publishedLimits(),
  };
}

export function imageProfilesView(registry: CapabilityRegistry) {
  const recipes = registry.recipes();
  const algorithms = registry.algorithms();
  return {
    profiles: FORMATS.filter((f) => f.modality === "image" && f.lane !== "sidecar").map((format) => {
      const availability = registry.formatAvailability(format);
      const designed = recipes.filter((s) => s.recipe.media_types.includes(format.media_type));
      const active = designed.filter((s) => s.active_media_types.includes(format.media_type));
      const availableAlgorithms = (kind: "watermark" | "fingerprint") =>
        algorithms
          .filter(({ algorithm, availability: a }) => algorithm.kind === kind && algorithm.modality === "image" && a.available)
          .map(({ algorithm }) => algorithm.algorithm);
      const operationsOf = (list: RecipeStatus[]) => {
        const ops = new Set<"sign" | "watermark" | "fingerprint">();
        for (const s of list) {
          if (s.recipe.required_steps.includes("sign")) ops.add("sign");
          if (s.recipe.required_steps.includes("watermark")) ops.add("watermark");
          if (s.recipe.required_steps.includes("fingerprint")) ops.add("fingerprint");
        }
        return [...ops];
      };
      return {
        profile_id: format.extension,
        media_type: format.media_type,
        accepted: {
          operations: operationsOf(active),
          recipes: active.map((s) => s.recipe.recipe_id),
          watermark_algorithms: format.watermark && availability.available ? availableAlgorithms("watermark") : [],
          fingerprint_algorithms: availability.available ? availableAlgorithms("fingerprint") : [],
        },
        planned: { operations: operationsOf(designed), recipes: designed.map((s) => s.recipe.recipe_id) },
        limits: { maximum_bytes: maximumBytesOf(format) },
        availability,
      };
    }),
  };
}
