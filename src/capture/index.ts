import { createRouter } from "../platform/context";
import * as createAdmission from "./routes/create-admission";
import * as createChallenge from "./routes/create-challenge";
import * as createEnrollment from "./routes/create-enrollment";
import * as createIdentity from "./routes/create-identity";
import * as getAdmission from "./routes/get-admission";
import * as getIdentity from "./routes/get-identity";
import * as listAdmissions from "./routes/list-admissions";
import * as listIdentities from "./routes/list-identities";
import * as revokeIdentity from "./routes/revoke-identity";

/** Capture (SPEC "Capture"): identity enrolment and its completion, identities (list, detail, revoke), admission challenges and admissions. */
export function captureRoutes() {
  const app = createRouter();
  for (const route of [
    createEnrollment,
    listIdentities,
    createIdentity,
    getIdentity,
    revokeIdentity,
    createChallenge,
    listAdmissions,
    createAdmission,
    getAdmission,
  ])
    route.register(app);
  return app;
}
