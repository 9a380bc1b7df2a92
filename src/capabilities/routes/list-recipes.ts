import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { registryFor } from "../../catalog/installed";
import { RECIPE_CATALOG_VERSION } from "../../catalog/recipes";
import { json } from "../../platform/openapi";
import { RecipeListResponseSchema } from "../schemas";
import { recipeView } from "../service";

const route = createRoute({
  method: "get",
  path: "/v1/recipes",
  operationId: "listRecipes",
  tags: ["Capabilities"],
  summary: "Recipe catalog",
  description:
    "Every recipe with its name, summary, version, definition hash, ordered capabilities and steps, and the media types it accepts now.",
  responses: { 200: json(RecipeListResponseSchema, "The recipe catalog.") },
});

export function registerListRecipes(app: Router) {
  app.openapi(route, async (c) =>
    c.json({ catalog_version: RECIPE_CATALOG_VERSION, recipes: await Promise.all(registryFor(c.env).recipes().map(recipeView)) }, 200),
  );
}
