import { createRouter } from "../platform/context";
import { registerReports } from "./reports";
import { register as createVerification } from "./routes/create-verification";
import { register as getEvidence } from "./routes/get-evidence";
import { register as getHistory } from "./routes/get-history";
import { register as getVerification } from "./routes/get-verification";
import { register as getVerifyResult } from "./routes/get-verify-result";
import { register as listVerifications } from "./routes/list-verifications";
import { register as verify } from "./routes/verify";
import { registerShares } from "./shares";

/*
 * Read side of verification records: a completed job's check of its own output (made with the reference engine
 * at publication), an authenticated POST /v1/verify, and a completed stored-object verification. All share one
 * `vfy_` namespace, so every id resolves here (evidence, history) and at GET /v1/verifications/{id} (routes/get-verification.ts).
 */

export function verificationRoutes() {
  const app = createRouter();
  verify(app);
  getVerifyResult(app);
  createVerification(app);
  getVerification(app);
  registerReports(app);
  registerShares(app);
  getEvidence(app);
  getHistory(app);
  listVerifications(app);
  return app;
}
