import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { registryFor } from "../../catalog/installed";
import { recipeById } from "../../catalog/recipes";
import { ApiError } from "../../platform/errors";
import { json, NOT_FOUND } from "../../platform/openapi";
import { RecipeCatalogResponseSchema } from "../schemas";
import { recipeView } from "../service";

const route = createRoute({
  method: "get",
  path: "/v1/recipes/{recipe_id}",
  operationId: "getRecipe",
  tags: ["Capabilities"],
  summary: "Recipe detail",
  description: "One recipe of the catalog at its active version.",
  request: {
    params: z.object({
      recipe_id: z
        .string()
        .regex(/^rcp_[a-z0-9_]{3,64}$/)
        .openapi({ param: { name: "recipe_id", in: "path" }, description: "Recipe id.", example: "rcp_system_sign_only" }),
    }),
  },
  responses: { 200: json(RecipeCatalogResponseSchema, "The recipe."), ...NOT_FOUND },
});

export function registerGetRecipe(app: Router) {
  app.openapi(route, async (c) => {
    const recipe = recipeById(c.req.valid("param").recipe_id);
    if (!recipe) throw new ApiError("svc.resource.not_found", "No recipe with this id exists.");
    return c.json(await recipeView(registryFor(c.env).recipeStatus(recipe)), 200);
  });
}
