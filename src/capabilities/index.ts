import { createRouter } from "../platform/context";
import { registerGetCapabilities } from "./routes/get-capabilities";
import { registerGetRecipe } from "./routes/get-recipe";
import { registerListImageProfiles } from "./routes/list-image-profiles";
import { registerListRecipes } from "./routes/list-recipes";

export function capabilityRoutes() {
  const app = createRouter();
  registerGetCapabilities(app);
  registerListImageProfiles(app);
  registerListRecipes(app);
  registerGetRecipe(app);
  return app;
}
