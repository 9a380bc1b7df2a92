import { createRouter } from "../platform/context";
import { registerGetDeveloperOnboarding } from "./routes/get-developer-onboarding";
import { registerGetMe } from "./routes/get-me";
import { register as registerIdpCallback } from "./routes/idp-callback";

export function identityRoutes() {
  const app = createRouter();
  registerGetMe(app);
  registerGetDeveloperOnboarding(app);
  registerIdpCallback(app);
  return app;
}
