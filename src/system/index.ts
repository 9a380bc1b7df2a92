import { createRouter } from "../platform/context";
import { registerDevOcsp } from "./dev-ocsp";
import { registerPostDevTsa } from "./post-dev-tsa";
import { registerGetHealthz } from "./routes/get-healthz";
import { registerGetHealthzDb } from "./routes/get-healthz-db";
import { registerGetReadyz } from "./routes/get-readyz";
import { registerGetReadyzGovernance } from "./routes/get-readyz-governance";

/** Probes: unversioned, anonymous. */
export function systemRoutes() {
  const app = createRouter();
  registerGetHealthz(app);
  registerGetHealthzDb(app);
  registerGetReadyz(app);
  registerGetReadyzGovernance(app);
  return app;
}

/**
 * Development routes (dev TSA, dev OCSP responder and its revocations), mounted only in a development app
 * (createApp({ development: true })): a production Worker has no such route, not even in its OpenAPI document.
 * Each handler also re-checks SVC_ENVIRONMENT, so a production env reaching a development app still gets 404.
 */
export function developmentRoutes() {
  const app = createRouter();
  registerPostDevTsa(app);
  registerDevOcsp(app);
  return app;
}
