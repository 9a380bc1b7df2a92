import { createRouter } from "../platform/context";
import * as completeSecretOverlap from "./routes/complete-secret-overlap";
import * as createEndpoint from "./routes/create-endpoint";
import * as deleteEndpoint from "./routes/delete-endpoint";
import * as disableEndpoint from "./routes/disable-endpoint";
import * as enableEndpoint from "./routes/enable-endpoint";
import * as eventCatalog from "./routes/event-catalog";
import * as getDelivery from "./routes/get-delivery";
import * as getEndpoint from "./routes/get-endpoint";
import * as listAttempts from "./routes/list-attempts";
import * as listDeliveries from "./routes/list-deliveries";
import * as listEndpoints from "./routes/list-endpoints";
import * as replayDelivery from "./routes/replay-delivery";
import * as replayEvent from "./routes/replay-event";
import * as rotateSecret from "./routes/rotate-secret";
import * as sendTest from "./routes/send-test";
import * as updateEndpoint from "./routes/update-endpoint";

/** Webhook endpoints, deliveries, attempts, replays and the event catalog (SPEC "Webhook endpoints"). */
export function webhookRoutes() {
  const app = createRouter();
  // Static paths (event-catalog, deliveries/…) before `{endpoint_id}` so they win: registration order is routing order.
  for (const route of [
    listEndpoints,
    createEndpoint,
    eventCatalog,
    listDeliveries,
    getDelivery,
    listAttempts,
    replayDelivery,
    replayEvent,
    getEndpoint,
    updateEndpoint,
    deleteEndpoint,
    disableEndpoint,
    enableEndpoint,
    rotateSecret,
    completeSecretOverlap,
    sendTest,
  ])
    route.register(app);
  return app;
}
