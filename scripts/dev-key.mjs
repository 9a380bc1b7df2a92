// `npm run dev:key`: a fresh all-scope key for the dev tenant, written to .svc/dev.env.
import {
  applyMigrations,
  closeLocalDb,
  createKey,
  DEV_ENV,
  ensureDevVars,
  readState,
  servedBaseUrl,
  tenantExists,
  writeDevFiles,
} from "./lib/dev.mjs";

const vars = await ensureDevVars();
await applyMigrations();
const state = readState();
if (!(await tenantExists(state.tenant_id))) {
  await closeLocalDb();
  console.error("svc: no dev tenant yet; run `npm start` first.");
  process.exit(1);
}
const created = await createKey(vars.SVC_KEY_PEPPER, state.tenant_id, "Development (all scopes)");
await closeLocalDb();
// Read before rewriting: the address the running `npm start` wrote (it may serve on PORT=…).
process.stdout.write(writeDevFiles({ ...state, api_key_id: created.keyId }, created.secret, DEV_ENV, servedBaseUrl()));
