import { createRouter } from "../platform/context";
import * as createEnrollment from "./routes/create-enrollment";
import * as createIdentity from "./routes/create-identity";

/** Capture identities: enrolment and its completion (SPEC "Capture"). Admissions come later (issue #16). */
export function captureRoutes() {
  const app = createRouter();
  for (const route of [createEnrollment, createIdentity]) route.register(app);
  return app;
}
