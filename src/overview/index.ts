import { createRouter } from "../platform/context";
import { register as getOverview } from "./routes/get-overview";

/** The tenant overview (issue #18). */
export function overviewRoutes() {
  const app = createRouter();
  getOverview(app);
  return app;
}
