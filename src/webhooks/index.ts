import { createRouter } from "../platform/context";
import { registerCreateWebhookEndpoint } from "./create-endpoint";
import { registerDeliveryRoutes } from "./deliveries";
import { registerEndpointStateRoutes } from "./endpoint-state";
import { registerGetEventCatalog } from "./event-catalog";
import { registerGetWebhookEndpoint } from "./get-endpoint";
import { registerListWebhookEndpoints } from "./list-endpoints";
import { registerReplayRoutes } from "./replay";
import { registerSecretRotationRoutes } from "./secret-rotation";
import { registerSendWebhookTest } from "./send-test";
import { registerDeleteWebhookEndpoint, registerUpdateWebhookEndpoint } from "./update-endpoint";

/** Webhook endpoints, deliveries, attempts, replays and the event catalog (SPEC "Webhook endpoints"). */
export function webhookRoutes() {
  const app = createRouter();
  registerListWebhookEndpoints(app);
  registerCreateWebhookEndpoint(app);
  // Static paths before `{endpoint_id}` so they win.
  registerGetEventCatalog(app);
  registerDeliveryRoutes(app);
  registerReplayRoutes(app);
  registerGetWebhookEndpoint(app);
  registerUpdateWebhookEndpoint(app);
  registerDeleteWebhookEndpoint(app);
  registerEndpointStateRoutes(app);
  registerSecretRotationRoutes(app);
  registerSendWebhookTest(app);
  return app;
}
