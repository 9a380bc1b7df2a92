// `npm run dev:session`: a console session token for the dev user (verified e-mail), signed by the dev identity
// provider whose key `npm start` put in .dev.vars. Its first use signs in: the service provisions the dev user's own
// account just in time. Prints `SVC_SESSION_TOKEN=…` (one hour); use it as `Authorization: Bearer <token>`.
import { DEV_SESSION_EMAIL, mintDevSessionToken } from "../src/dev/session-issuer.ts";
import { ensureDevVars, unquoted } from "./lib/dev.mjs";

const vars = await ensureDevVars();
const token = await mintDevSessionToken(unquoted(vars.SVC_DEV_SESSION_KEY_PEM), {
  issuer: vars.SVC_SESSION_ISSUER,
  audience: vars.SVC_SESSION_AUDIENCE.split(",")[0],
});
console.error(
  `svc: a session token for ${DEV_SESSION_EMAIL} (valid one hour); restart \`npm start\` if it was running before .dev.vars gained the session settings`,
);
process.stdout.write(`SVC_SESSION_TOKEN=${token}\n`);
