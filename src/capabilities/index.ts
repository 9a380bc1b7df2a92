import { createRouter } from "../platform/context";
import { registerGetCapabilities } from "./get-capabilities";
import { registerGetRecipe } from "./get-recipe";
import { registerListImageProfiles } from "./list-image-profiles";
import { registerListRecipes } from "./list-recipes";

export function capabilityRoutes() {
  const app = createRouter();
  registerGetCapabilities(app);
  registerListImageProfiles(app);
  registerListRecipes(app);
  registerGetRecipe(app);
  return app;
}
