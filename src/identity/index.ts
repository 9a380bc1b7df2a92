import { createRouter } from "../platform/context";
import { registerGetDeveloperOnboarding } from "./routes/get-developer-onboarding";
import { registerGetMe } from "./routes/get-me";

export function identityRoutes() {
  const app = createRouter();
  registerGetMe(app);
  registerGetDeveloperOnboarding(app);
  return app;
}
