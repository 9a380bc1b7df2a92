import { createRouter } from "../platform/context";
import * as createCreatorIdentity from "./routes/create-creator-identity";
import * as getCreatorDisclosure from "./routes/get-creator-disclosure";
import * as getCreatorIdentity from "./routes/get-creator-identity";
import * as getDisclosurePolicy from "./routes/get-disclosure-policy";
import * as listCreatorIdentities from "./routes/list-creator-identities";
import * as putDisclosurePolicy from "./routes/put-disclosure-policy";
import * as withdrawCreatorIdentity from "./routes/withdraw-creator-identity";

/** Creator identities and the tenant's disclosure policy (SPEC "Creators"). */
export function creatorRoutes() {
  const app = createRouter();
  for (const route of [
    getDisclosurePolicy,
    putDisclosurePolicy,
    listCreatorIdentities,
    createCreatorIdentity,
    getCreatorIdentity,
    getCreatorDisclosure,
    withdrawCreatorIdentity,
  ])
    route.register(app);
  return app;
}
