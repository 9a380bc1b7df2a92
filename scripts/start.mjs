// `npm start`: local D1 migrations, a dev tenant and all-scope key (created once), then `wrangler dev --env dev`
// (the development environment of wrangler.toml; its top level is production).
import { execFileSync, spawn } from "node:child_process";
import { join } from "node:path";
import {
  applyMigrations,
  closeLocalDb,
  createKey,
  createTenantWithKey,
  DEV_ENV,
  DEV_WRANGLER_ENV,
  ensureDevVars,
  keyIsActive,
  port,
  QUIET_ENV,
  ROOT,
  readDevEnvKey,
  readState,
  tenantExists,
  writeDevFiles,
} from "./lib/dev.mjs";

// Our wasm kernels (watermark, fingerprints) are built from wasm/ before wrangler bundles the Worker.
execFileSync(process.execPath, [join(ROOT, "scripts", "build-wasm.mjs")], { stdio: ["ignore", "inherit", "inherit"] });

const vars = await ensureDevVars();
console.error("svc: applying local D1 migrations…");
await applyMigrations();

let state = readState();
let secret = readDevEnvKey();
if (!(await tenantExists(state.tenant_id))) {
  const created = await createTenantWithKey(vars.SVC_KEY_PEPPER, "Development", "dev@localhost");
  state = { tenant_id: created.tenantId, api_key_id: created.keyId };
  secret = created.secret;
  console.error(`svc: created dev tenant ${created.tenantId}`);
} else if (!(await keyIsActive(vars.SVC_KEY_PEPPER, secret))) {
  // The tenant exists but the recorded key is gone (revoked, or .svc was edited): issue a new one.
  const created = await createKey(vars.SVC_KEY_PEPPER, state.tenant_id, "Development (all scopes)");
  state = { ...state, api_key_id: created.keyId };
  secret = created.secret;
}
// wrangler dev opens the same database files next.
await closeLocalDb();
const lines = writeDevFiles(state, secret);
process.stdout.write(lines);
console.error(`svc: the same two lines are in ${DEV_ENV}; a fresh key: npm run dev:key`);

// Development switches read from the environment (never written to .dev.vars, so they last one run).
const devVars = process.env.SVC_WEBHOOKS_ALLOW_LOOPBACK === "1" ? ["--var", "SVC_WEBHOOKS_ALLOW_LOOPBACK:1"] : [];
if (devVars.length) console.error("svc: SVC_WEBHOOKS_ALLOW_LOOPBACK=1 — webhook endpoints may use http://127.0.0.1 receivers");
// A shorter webhook retry schedule (comma-separated seconds, src/webhooks/retry-policy.ts), e.g. for the soak (#22).
const retrySchedule = process.env.SVC_WEBHOOK_RETRY_SCHEDULE;
if (retrySchedule) {
  devVars.push("--var", `SVC_WEBHOOK_RETRY_SCHEDULE:${retrySchedule}`);
  console.error(`svc: SVC_WEBHOOK_RETRY_SCHEDULE=${retrySchedule} — webhook retries after these delays (s)`);
}
// The V8 inspector of the Worker isolates on a chosen port (the soak, #22, reads their heaps after a forced collection);
// wrangler's default (9229, or a free port) otherwise.
const inspectorPort = process.env.SVC_INSPECTOR_PORT;
if (inspectorPort) devVars.push("--inspector-port", String(Number(inspectorPort)));
const child = spawn(
  join(ROOT, "node_modules", ".bin", "wrangler"),
  // --test-scheduled: GET /__scheduled runs the cron sweeps at once (`npm run data-keys:rewrap` uses it).
  // Both Workers in one session: the API Worker (first config: it serves the port) and the media Worker
  // (wrangler.media.toml), which the API Worker's VIDEO service binding reaches for video fingerprints.
  [
    "dev",
    "-c",
    "wrangler.toml",
    "-c",
    "wrangler.media.toml",
    ...DEV_WRANGLER_ENV,
    "--ip",
    "127.0.0.1",
    "--port",
    String(port()),
    "--test-scheduled",
    ...devVars,
  ],
  {
    cwd: ROOT,
    env: QUIET_ENV,
    stdio: ["inherit", "inherit", "inherit"],
  },
);
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
