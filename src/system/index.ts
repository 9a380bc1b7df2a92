import { createRouter } from "../platform/context";
import { registerGetHealthz } from "./get-healthz";
import { registerGetHealthzDb } from "./get-healthz-db";
import { registerGetReadyz } from "./get-readyz";
import { registerGetReadyzGovernance } from "./get-readyz-governance";

/** Probes: unversioned, anonymous. */
export function systemRoutes() {
  const app = createRouter();
  registerGetHealthz(app);
  registerGetHealthzDb(app);
  registerGetReadyz(app);
  registerGetReadyzGovernance(app);
  return app;
}
