import { createRouter } from "../platform/context";
import { registerReleaseHistorySnapshot } from "./routes/delete-snapshot";

/** History: releasing a pagination traversal (DELETE /v1/history/snapshots), for every list of the API. */
export function historyRoutes() {
  const app = createRouter();
  registerReleaseHistorySnapshot(app);
  return app;
}
