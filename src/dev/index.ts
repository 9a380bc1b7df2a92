import { createRouter } from "../platform/context";
import { registerDevOcsp } from "./ocsp";
import { registerDevPayments } from "./payments";
import { registerPostDevTsa } from "./tsa";

export { devOcsp } from "./ocsp";
export { devTsa } from "./tsa";

/**
 * Development routes (dev TSA, dev OCSP responder and its revocations), mounted only in a development app
 * (createApp({ development: true })): a production Worker has no such route, not even in its OpenAPI document.
 * Each handler also re-checks SVC_ENVIRONMENT, so a production env reaching a development app still gets 404.
 */
export function developmentRoutes() {
  const app = createRouter();
  registerPostDevTsa(app);
  registerDevOcsp(app);
  registerDevPayments(app);
  return app;
}
