import { createRouter } from "../platform/context";
import { register as closeShare } from "./routes/close-share";
import { register as createReport } from "./routes/create-report";
import { register as createShare } from "./routes/create-share";
import { register as createVerification } from "./routes/create-verification";
import { register as getEvidence } from "./routes/get-evidence";
import { register as getHistory } from "./routes/get-history";
import { register as getReport } from "./routes/get-report";
import { register as getSharedVerification } from "./routes/get-shared-verification";
import { register as getVerification } from "./routes/get-verification";
import { register as getVerifyResult } from "./routes/get-verify-result";
import { register as listShares } from "./routes/list-shares";
import { register as listVerifications } from "./routes/list-verifications";
import { register as verify } from "./routes/verify";

/*
 * The verification area in one list: POST /v1/verify, stored-object verifications, the records every check
 * writes (a verify call, a stored-object check, a job's publication-time check of its own output), reports
 * rendered from a record, and shares of one. Records share one `vfy_` namespace, so every id resolves at
 * GET /v1/verifications/{id} (routes/get-verification.ts), and a completed one as evidence and history.
 */

export function verificationRoutes() {
  const app = createRouter();
  verify(app);
  getVerifyResult(app);
  createVerification(app);
  getVerification(app);
  createReport(app);
  getReport(app);
  listShares(app);
  createShare(app);
  closeShare(app);
  getSharedVerification(app);
  getEvidence(app);
  getHistory(app);
  listVerifications(app);
  return app;
}
