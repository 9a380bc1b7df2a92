import { createRouter } from "../platform/context";
import { registerCreateApiKey } from "./create-api-key";
import { registerGetApiKey } from "./get-api-key";
import { registerListApiKeys } from "./list-api-keys";
import { registerListApiKeyScopes } from "./list-scopes";
import { registerRequestLogRoutes } from "./request-logs";
import { registerRestrictionRoutes } from "./restrictions";
import { registerRetentionRoutes } from "./retention";
import { registerRevokeApiKey } from "./revoke-api-key";
import { registerRotationRoutes } from "./rotation";
import { registerSigningProfileRoutes } from "./signing-profile";

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
