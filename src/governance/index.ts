import { createRouter } from "../platform/context";
import { register as listAudit } from "./audit/routes/list-audit";
import { register as createDeletion } from "./deletions/routes/create-deletion";
import { register as getDeletion } from "./deletions/routes/get-deletion";
import { register as listDeletions } from "./deletions/routes/list-deletions";
import { register as listLegalHolds } from "./legal-holds/routes/list-legal-holds";

/** Governance: the audit log, exports, deletions and legal holds (issue #18). */
export function governanceRoutes() {
  const app = createRouter();
  for (const register of [listAudit, listDeletions, createDeletion, getDeletion, listLegalHolds]) register(app);
  return app;
}
