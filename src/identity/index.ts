import { createRouter } from "../platform/context";
import { registerGetDeveloperOnboarding } from "./get-developer-onboarding";
import { registerGetMe } from "./get-me";

export function identityRoutes() {
  const app = createRouter();
  registerGetMe(app);
  registerGetDeveloperOnboarding(app);
  return app;
}
