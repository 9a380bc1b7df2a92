import { createRouter } from "../platform/context";
import { register as listAudit } from "./audit/routes/list-audit";

/** Governance: the audit log, exports, deletions and legal holds (issue #18). */
export function governanceRoutes() {
  const app = createRouter();
  for (const register of [listAudit]) register(app);
  return app;
}
