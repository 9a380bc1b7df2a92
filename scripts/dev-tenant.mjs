// `npm run dev:tenant -- NAME`: another tenant with its own all-scope key (to test isolation by hand).
import { join } from "node:path";
import { applyMigrations, closeLocalDb, createTenantWithKey, ensureDevVars, SVC_DIR, servedBaseUrl, writeDevFiles } from "./lib/dev.mjs";

const name = process.argv.slice(2).join(" ").trim();
if (!name) {
  console.error("usage: npm run dev:tenant -- NAME");
  process.exit(2);
}
const vars = await ensureDevVars();
await applyMigrations();
const created = await createTenantWithKey(vars.SVC_KEY_PEPPER, name, null);
await closeLocalDb();
const file = join(SVC_DIR, `tenant-${name.toLowerCase().replace(/[^a-z0-9]+/g, "-")}.env`);
process.stdout.write(writeDevFiles(null, created.secret, file, servedBaseUrl()));
console.error(`svc: tenant ${created.tenantId} created; the lines are also in ${file}`);
