import { createRouter } from "../platform/context";
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
