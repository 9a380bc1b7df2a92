import { sha256Hex } from "../platform/crypto";
import { ALGORITHMS, type AlgorithmDefinition, capabilityOfAlgorithm } from "./algorithms";
import { canonicalJson } from "./canonical-json";
import { FORMATS, type FormatDefinition } from "./formats";
import { RECIPES, type RecipeDefinition } from "./recipes";

/**
 * A capability a pipeline provides, for the media types it really handles (`"*"`: every type).
 * Pipelines add themselves to INSTALLED_PROVIDERS (installed.ts); capabilities, recipes and validation all
 * read availability from this one registry, so "available" is never written in two places.
 */
export interface CapabilityProvider {
  capability: string;
  media_types: readonly string[] | "*";
}

export const UNAVAILABLE_REASONS = ["capability_not_installed", "model_weights_not_installed", "no_enabled_media_types"] as const;
export type UnavailableReason = (typeof UNAVAILABLE_REASONS)[number];

export interface Availability {
  available: boolean;
  reason: UnavailableReason | null;
  /** Capabilities that are missing, when the reason is `capability_not_installed`. */
  missing_capabilities: string[];
}

export interface RecipeStatus extends Availability {
  recipe: RecipeDefinition;
  /** The recipe's media types that work in this deployment now. */
  active_media_types: string[];
}

export class CapabilityRegistry {
  constructor(private readonly providers: readonly CapabilityProvider[]) {}

  provides(capability: string, mediaType: string): boolean {
    return this.providers.some((p) => p.capability === capability && (p.media_types === "*" || p.media_types.includes(mediaType)));
  }

  private installedAnywhere(capability: string): boolean {
    return this.providers.some((p) => p.capability === capability);
  }

  /** A format is enabled when it can be inspected and a manifest can be attached in its lane. */
  formatAvailability(format: FormatDefinition): Availability {
    const needed = ["media.inspect", format.lane === "sidecar" ? "c2pa.sign.sidecar" : "c2pa.sign.embedded", "storage.publish"];
    const missing = needed.filter((c) => !this.provides(c, format.media_type));
    return missing.length === 0
      ? { available: true, reason: null, missing_capabilities: [] }
      : { available: false, reason: "capability_not_installed", missing_capabilities: missing };
  }

  algorithmAvailability(algorithm: AlgorithmDefinition): Availability {
    if (algorithm.requires_model_weights) {
      return { available: false, reason: "model_weights_not_installed", missing_capabilities: [] };
    }
    const capability = capabilityOfAlgorithm(algorithm);
    return this.installedAnywhere(capability)
      ? { available: true, reason: null, missing_capabilities: [] }
      : { available: false, reason: "capability_not_installed", missing_capabilities: [capability] };
  }

  recipeStatus(recipe: RecipeDefinition): RecipeStatus {
    const active = recipe.media_types.filter((m) => recipe.required_capabilities.every((c) => this.provides(c, m)));
    if (active.length > 0) return { recipe, available: true, reason: null, missing_capabilities: [], active_media_types: active };
    const missing = recipe.required_capabilities.filter((c) => !this.installedAnywhere(c));
    return {
      recipe,
      available: false,
      reason: missing.length > 0 ? "capability_not_installed" : "no_enabled_media_types",
      missing_capabilities: missing,
      active_media_types: [],
    };
  }

  formats() {
    return FORMATS.map((format) => ({ format, availability: this.formatAvailability(format) }));
  }

  algorithms() {
    return ALGORITHMS.map((algorithm) => ({ algorithm, availability: this.algorithmAvailability(algorithm) }));
  }

  recipes(): RecipeStatus[] {
    return RECIPES.map((r) => this.recipeStatus(r));
  }
}

const definitionHashes = new WeakMap<RecipeDefinition, Promise<string>>();

/** SHA-256 of the recipe definition's canonical JSON: changes if and only if the definition changes. */
export function definitionSha256(recipe: RecipeDefinition): Promise<string> {
  let hash = definitionHashes.get(recipe);
  if (!hash) {
    hash = sha256Hex(canonicalJson(recipe));
    definitionHashes.set(recipe, hash);
  }
  return hash;
}
