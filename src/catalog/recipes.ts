import { FORMATS, type FormatDefinition } from "./formats";

export const RECIPE_CATALOG_VERSION = "svc.recipe-catalog.v1" as const;
export const RECIPE_SCHEMA_VERSION = "svc.recipe.v1";

export type RecipeKind = "sign_only" | "watermark_only" | "watermark_then_sign";
export type RecipeStep = "inspect" | "watermark" | "fingerprint" | "sign" | "publish";

/**
 * A recipe definition: exactly what its `definition_sha256` covers. Changing any field is a new `version`.
 * `media_types` is the design coverage; which of them work now is decided by the registry.
 */
export interface RecipeDefinition {
  recipe_id: string;
  name: string;
  summary: string;
  kind: RecipeKind;
  version: number;
  schema_version: string;
  lane: "embedded" | "structural" | "sidecar";
  required_steps: RecipeStep[];
  required_capabilities: string[];
  media_types: string[];
  express: boolean;
}

const types = (pick: (f: FormatDefinition) => boolean) => FORMATS.filter(pick).map((f) => f.media_type);
const EXPRESS_TYPES = ["image/jpeg", "image/png", "image/webp", "image/tiff", "image/avif"];

const SIGN_CAPS = ["media.inspect", "c2pa.sign.embedded", "storage.publish"];
const WATERMARK_CAPS = ["media.inspect", "watermark.embed", "storage.publish"];

function recipe(r: Omit<RecipeDefinition, "version" | "schema_version"> & { version?: number }): RecipeDefinition {
  return { version: 1, schema_version: RECIPE_SCHEMA_VERSION, ...r };
}

function sidecarRecipe(recipe_id: string, name: string): RecipeDefinition {
  return recipe({
    recipe_id,
    name,
    summary: `${name}: the file is left byte-for-byte unchanged and a .c2pa manifest store that binds its hash is delivered beside it.`,
    kind: "sign_only",
    lane: "sidecar",
    required_steps: ["inspect", "sign", "publish"],
    required_capabilities: ["media.inspect", "c2pa.sign.sidecar", "storage.publish"],
    media_types: types((f) => f.sidecar_recipe === recipe_id),
    express: false,
  });
}

export const RECIPES: readonly RecipeDefinition[] = [
  recipe({
    recipe_id: "rcp_system_sign",
    name: "Sign",
    summary: "Embed a signed C2PA manifest and record fingerprints so a stripped copy can be recovered.",
    kind: "sign_only",
    lane: "embedded",
    required_steps: ["inspect", "fingerprint", "sign", "publish"],
    required_capabilities: [...SIGN_CAPS, "fingerprint.compute"],
    media_types: types((f) => f.lane === "embedded"),
    express: false,
  }),
  recipe({
    recipe_id: "rcp_system_sign_only",
    name: "Sign only",
    summary: "Embed a signed C2PA manifest; the media is otherwise unchanged.",
    kind: "sign_only",
    lane: "embedded",
    required_steps: ["inspect", "sign", "publish"],
    required_capabilities: SIGN_CAPS,
    media_types: types((f) => f.lane === "embedded" || f.lane === "structural"),
    express: false,
  }),
  recipe({
    recipe_id: "rcp_system_structural_sign_only",
    name: "Structural sign only",
    summary: "Embed a signed C2PA manifest in a container that is not decoded (no watermark possible).",
    kind: "sign_only",
    lane: "structural",
    required_steps: ["inspect", "sign", "publish"],
    required_capabilities: SIGN_CAPS,
    media_types: types((f) => f.lane === "structural"),
    express: false,
  }),
  recipe({
    recipe_id: "rcp_system_watermark_only",
    name: "Watermark only",
    summary: "Embed an invisible watermark and record fingerprints, without a manifest.",
    kind: "watermark_only",
    lane: "embedded",
    required_steps: ["inspect", "watermark", "fingerprint", "publish"],
    required_capabilities: [...WATERMARK_CAPS, "fingerprint.compute"],
    media_types: types((f) => f.watermark),
    express: false,
    // v2 (#20): FLAC joined the watermarked formats (its media_types).
    version: 2,
  }),
  recipe({
    recipe_id: "rcp_system_watermark_then_sign",
    name: "Watermark then sign",
    summary: "Embed an invisible watermark, record fingerprints, then embed a signed C2PA manifest that declares both.",
    kind: "watermark_then_sign",
    lane: "embedded",
    required_steps: ["inspect", "watermark", "fingerprint", "sign", "publish"],
    required_capabilities: [...WATERMARK_CAPS, "fingerprint.compute", "c2pa.sign.embedded"],
    media_types: types((f) => f.watermark),
    express: true,
    // v2 (#20): FLAC joined the watermarked formats (its media_types).
    version: 2,
  }),
  recipe({
    recipe_id: "rcp_system_express_watermark_then_sign",
    name: "Express watermark then sign",
    summary: "Watermark, fingerprint and sign an image in one uninterrupted job, answered in the request when it finishes in time.",
    kind: "watermark_then_sign",
    lane: "embedded",
    required_steps: ["inspect", "watermark", "fingerprint", "sign", "publish"],
    required_capabilities: [...WATERMARK_CAPS, "fingerprint.compute", "c2pa.sign.embedded"],
    media_types: EXPRESS_TYPES,
    express: true,
  }),
  recipe({
    recipe_id: "rcp_system_watermark_then_sign_unfingerprinted",
    name: "Watermark then sign (no optional fingerprints)",
    summary: "Embed an invisible watermark then a signed manifest; only the locked fingerprint is recorded.",
    kind: "watermark_then_sign",
    lane: "embedded",
    required_steps: ["inspect", "watermark", "sign", "publish"],
    required_capabilities: [...WATERMARK_CAPS, "c2pa.sign.embedded"],
    media_types: types((f) => f.watermark),
    express: false,
    // v2 (#20): FLAC joined the watermarked formats (its media_types).
    version: 2,
  }),
  sidecarRecipe("rcp_private_sidecar_audio_sign_only", "Audio sidecar sign only"),
  sidecarRecipe("rcp_private_sidecar_document_sign_only", "Document sidecar sign only"),
  sidecarRecipe("rcp_private_sidecar_font_sign_only", "Font sidecar sign only"),
  sidecarRecipe("rcp_private_sidecar_image_sign_only", "Image sidecar sign only"),
  sidecarRecipe("rcp_private_sidecar_model_sign_only", "Model sidecar sign only"),
  sidecarRecipe("rcp_private_sidecar_text_sign_only", "Text sidecar sign only"),
  sidecarRecipe("rcp_private_sidecar_video_sign_only", "Video sidecar sign only"),
];

export function recipeById(recipeId: string): RecipeDefinition | undefined {
  return RECIPES.find((r) => r.recipe_id === recipeId);
}
