import { describe, expect, it } from "vitest";
import { capabilitiesView, imageProfilesView } from "../../../src/capabilities/service";
import { canonicalJson } from "../../../src/catalog/canonical-json";
import { FORMATS } from "../../../src/catalog/formats";
import { installedProviders } from "../../../src/catalog/installed";
import { RECIPES, recipeById } from "../../../src/catalog/recipes";
import { CapabilityRegistry, definitionSha256 } from "../../../src/catalog/registry";

describe("capability registry", () => {
  it("without a signing credential, only the watermark-only recipe is available (it writes no manifest), for the decoded image types, WAV, FLAC and MP3", () => {
    const registry = new CapabilityRegistry(installedProviders({ signing: false }));
    const images = ["image/avif", "image/jpeg", "image/png", "image/tiff", "image/webp"];
    // A format is enabled when a manifest can be attached: none without a credential.
    expect(registry.formats().every((f) => !f.availability.available)).toBe(true);
    const available = registry.recipes().filter((r) => r.available);
    expect(available.map((r) => r.recipe.recipe_id)).toEqual(["rcp_system_watermark_only"]);
    expect([...available[0]!.active_media_types].sort()).toEqual(["audio/flac", "audio/mpeg", "audio/wav", ...images]);
    expect(
      registry
        .recipes()
        .filter((r) => !r.available)
        .every((r) => r.reason === "capability_not_installed"),
    ).toBe(true);
  });

  it("a recipe becomes available for exactly the media types every required pipeline covers", () => {
    const registry = new CapabilityRegistry([
      { capability: "media.inspect", media_types: "*" },
      { capability: "storage.publish", media_types: "*" },
      { capability: "c2pa.sign.embedded", media_types: ["image/jpeg", "image/png", "image/gif"] },
    ]);
    const signOnly = registry.recipeStatus(recipeById("rcp_system_sign_only")!);
    expect(signOnly).toMatchObject({ available: true, reason: null, active_media_types: ["image/jpeg", "image/png", "image/gif"] });
    const structural = registry.recipeStatus(recipeById("rcp_system_structural_sign_only")!);
    expect(structural.active_media_types).toEqual(["image/gif"]);
    const watermark = registry.recipeStatus(recipeById("rcp_system_watermark_then_sign")!);
    expect(watermark).toMatchObject({ available: false, reason: "capability_not_installed" });
    expect(watermark.missing_capabilities).toEqual(["watermark.embed", "fingerprint.compute"]);
    const jpeg = FORMATS.find((f) => f.media_type === "image/jpeg")!;
    expect(registry.formatAvailability(jpeg).available).toBe(true);
    const pdf = FORMATS.find((f) => f.media_type === "application/pdf")!;
    expect(registry.formatAvailability(pdf)).toMatchObject({ available: false, missing_capabilities: ["c2pa.sign.sidecar"] });
  });

  it("a sidecar recipe is listed in capabilities only while one of its formats is enabled, with exactly those formats", () => {
    const registry = new CapabilityRegistry([
      { capability: "media.inspect", media_types: "*" },
      { capability: "storage.publish", media_types: "*" },
      { capability: "c2pa.sign.sidecar", media_types: ["application/pdf", "text/plain"] },
    ]);
    const view = capabilitiesView(registry);
    const sidecars = view.recipes.filter((r) => r.recipe_id.startsWith("rcp_private_sidecar"));
    expect(sidecars.map((r) => [r.recipe_id, r.active.supported_media_types])).toEqual([
      ["rcp_private_sidecar_document_sign_only", ["application/pdf"]],
      ["rcp_private_sidecar_text_sign_only", ["text/plain"]],
    ]);
    expect(view.media.find((m) => m.media_type === "application/pdf")!.availability.available).toBe(true);
  });

  it("learned algorithms stay unavailable for want of weights, even when a pipeline claims them", () => {
    const registry = new CapabilityRegistry([
      { capability: "watermark.pixelseal", media_types: "*" },
      { capability: "fingerprint.pdq", media_types: "*" },
    ]);
    const byName = Object.fromEntries(registry.algorithms().map((a) => [a.algorithm.algorithm, a.availability]));
    expect(byName.pixelseal).toMatchObject({ available: false, reason: "model_weights_not_installed" });
    expect(byName.dinov2).toMatchObject({ available: false, reason: "model_weights_not_installed" });
    expect(byName.pdq).toMatchObject({ available: true });
  });

  it("image profiles list accepted operations only where they work", () => {
    const registry = new CapabilityRegistry([
      { capability: "media.inspect", media_types: "*" },
      { capability: "storage.publish", media_types: "*" },
      { capability: "c2pa.sign.embedded", media_types: ["image/png"] },
    ]);
    const png = imageProfilesView(registry).profiles.find((p) => p.media_type === "image/png")!;
    expect(png.accepted.operations).toEqual(["sign"]);
    expect(png.accepted.recipes).toEqual(["rcp_system_sign_only"]);
    expect(png.planned.operations.sort()).toEqual(["fingerprint", "sign", "watermark"]);
  });
});

describe("upload ceilings", () => {
  it("embedded formats stop where the signer does; sidecars take more", async () => {
    const { DEFAULT_MAX_EMBEDDED_BYTES } = await import("../../../src/media/c2pa/signer");
    const { EMBEDDED_MAXIMUM_BYTES, maximumBytesOf, formatOf } = await import("../../../src/catalog/formats");
    expect(EMBEDDED_MAXIMUM_BYTES).toBe(DEFAULT_MAX_EMBEDDED_BYTES);
    expect(maximumBytesOf(formatOf("image/jpeg")!)).toBe(DEFAULT_MAX_EMBEDDED_BYTES);
    expect(maximumBytesOf(formatOf("application/pdf")!)).toBeGreaterThan(DEFAULT_MAX_EMBEDDED_BYTES);
  });
});

describe("recipe definitions", () => {
  it("covers every recipe of SPEC with the right kinds", () => {
    const kinds = Object.fromEntries(RECIPES.map((r) => [r.recipe_id, r.kind]));
    expect(kinds).toMatchObject({
      rcp_system_sign_only: "sign_only",
      rcp_system_watermark_only: "watermark_only",
      rcp_system_watermark_then_sign: "watermark_then_sign",
      rcp_system_express_watermark_then_sign: "watermark_then_sign",
    });
    for (const r of RECIPES) {
      expect(r.recipe_id).toMatch(/^rcp_[a-z0-9_]{3,64}$/);
      expect(r.media_types.length, r.recipe_id).toBeGreaterThan(0);
    }
    // audio/mp4 has no watermark: only sign-only applies.
    const withMp4 = RECIPES.filter((r) => r.media_types.includes("audio/mp4")).map((r) => r.kind);
    expect(new Set(withMp4)).toEqual(new Set(["sign_only"]));
  });

  it("definition hashes are stable and change with the definition", async () => {
    const r = recipeById("rcp_system_sign_only")!;
    const a = await definitionSha256(r);
    expect(await definitionSha256({ ...r })).toBe(a);
    expect(await definitionSha256({ ...r, version: 2 })).not.toBe(a);
    // Key order does not matter.
    const reordered = Object.fromEntries(Object.entries(r).reverse()) as typeof r;
    expect(await definitionSha256(reordered)).toBe(a);
  });

  it("canonical JSON sorts keys at every depth and drops undefined", () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 1, y: 2 }], c: undefined } })).toBe('{"a":{"d":[1,{"y":2,"z":1}]},"b":1}');
    expect(() => canonicalJson({ x: Number.NaN })).toThrow(new TypeError("non-finite number"));
  });
});
