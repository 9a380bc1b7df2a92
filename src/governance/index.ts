import { createRouter } from "../platform/context";
import { register as listAudit } from "./audit/routes/list-audit";
import { register as createDeletion } from "./deletions/routes/create-deletion";
import { register as getDeletion } from "./deletions/routes/get-deletion";
import { register as listDeletions } from "./deletions/routes/list-deletions";
import { register as createExport } from "./exports/routes/create-export";
import { register as downloadArchive } from "./exports/routes/download-archive";
import { register as getExport } from "./exports/routes/get-export";
import { register as listExports } from "./exports/routes/list-exports";
import { register as listLegalHolds } from "./legal-holds/routes/list-legal-holds";

/** Governance: the audit log, exports, deletions and legal holds (issue #18). */
export function governanceRoutes() {
  const app = createRouter();
  for (const register of [
    listAudit,
    createExport,
    listExports,
    getExport,
    downloadArchive,
    listDeletions,
    createDeletion,
    getDeletion,
    listLegalHolds,
  ])
    register(app);
  return app;
}
