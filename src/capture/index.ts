import { createRouter } from "../platform/context";
import * as createChallenge from "./routes/create-challenge";
import * as createEnrollment from "./routes/create-enrollment";
import * as createIdentity from "./routes/create-identity";
import * as getIdentity from "./routes/get-identity";
import * as listIdentities from "./routes/list-identities";
import * as revokeIdentity from "./routes/revoke-identity";

/** Capture identities: enrolment, its completion, listing, detail, revocation and admission challenges (SPEC "Capture"). Admissions come later (issue #16). */
export function captureRoutes() {
  const app = createRouter();
  for (const route of [createEnrollment, listIdentities, createIdentity, getIdentity, revokeIdentity, createChallenge]) route.register(app);
  return app;
}
