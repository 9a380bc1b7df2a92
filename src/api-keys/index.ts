import { createRouter } from "../platform/context";
import { registerCreateApiKey } from "./routes/create-api-key";
import { registerGetApiKey } from "./routes/get-api-key";
import { registerListApiKeys } from "./routes/list-api-keys";
import { registerListApiKeyScopes } from "./routes/list-scopes";
import { registerRequestLogRoutes } from "./routes/request-logs";
import { registerRestrictionRoutes } from "./routes/restrictions";
import { registerRetentionRoutes } from "./routes/retention";
import { registerRevokeApiKey } from "./routes/revoke-api-key";
import { registerRotationRoutes } from "./routes/rotation";
import { registerSigningProfileRoutes } from "./routes/signing-profile";

export function apiKeyRoutes() {
  const app = createRouter();
  registerListApiKeys(app);
  registerCreateApiKey(app);
  // Before `{api_key_id}` so the static path wins.
  registerListApiKeyScopes(app);
  registerGetApiKey(app);
  registerRevokeApiKey(app);
  registerRestrictionRoutes(app);
  registerSigningProfileRoutes(app);
  registerRotationRoutes(app);
  registerRequestLogRoutes(app);
  registerRetentionRoutes(app);
  return app;
}
