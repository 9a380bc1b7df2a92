import { createRouter } from "../platform/context";
import { registerGetHealthz } from "./get-healthz";
import { registerGetHealthzDb } from "./get-healthz-db";
import { registerGetReadyz } from "./get-readyz";
import { registerGetReadyzGovernance } from "./get-readyz-governance";
import { registerDevOcsp } from "./dev-ocsp";
import { registerPostDevTsa } from "./post-dev-tsa";

/** Probes: unversioned, anonymous. */
export function systemRoutes() {
  const app = createRouter();
  registerGetHealthz(app);
  registerGetHealthzDb(app);
  registerGetReadyz(app);
  registerGetReadyzGovernance(app);
  registerPostDevTsa(app);
  registerDevOcsp(app);
  return app;
}
