// Local development helpers behind `npm start`, `npm run dev:key` and `npm run dev:tenant`.
// They run under the Node 22 that package.json installs (npm puts node_modules/.bin first on PATH).
import { execFileSync } from "node:child_process";
import { createHmac, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { mintAnchorKeyPem, mintDevPki } from "../../src/dev/pki.ts";
import { DEV_SESSION_AUDIENCE, DEV_SESSION_ISSUER, mintDevSessionKey } from "../../src/dev/session-issuer.ts";
import { SCOPES } from "../../src/platform/auth/scopes.ts";
import { base32, newId } from "../../src/platform/ids.ts";

export { newId };

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const DEV_VARS = join(ROOT, ".dev.vars");
export const SVC_DIR = join(ROOT, ".svc");
export const DEV_ENV = join(SVC_DIR, "dev.env");
export const DEV_STATE = join(SVC_DIR, "dev-state.json");
export const DEV_ROOT_PEM = join(SVC_DIR, "dev-root.pem");
export const ALL_SCOPES = Object.keys(SCOPES);

/** Telemetry and outside calls of wrangler off: scripts must work offline and quietly. */
export const QUIET_ENV = {
  ...process.env,
  WRANGLER_SEND_METRICS: "false",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  WRANGLER_HIDE_BANNER: "true",
  CI: process.env.CI ?? "true",
  // wrangler dev's local trace store (on by default since wrangler 4.1xx) writes every request's and subrequest's
  // spans to SQLite with an fsync on the Worker's thread: 2-3 ms of workerd CPU per request (more per D1 or Durable
  // Object call), measured in #19. Nothing here reads those traces; X_LOCAL_OBSERVABILITY=true turns them back on.
  X_LOCAL_OBSERVABILITY: process.env.X_LOCAL_OBSERVABILITY ?? "false",
};

const WRANGLER = join(ROOT, "node_modules", ".bin", "wrangler");
/** The wrangler.toml environment of local development; the top level is production. */
export const DEV_WRANGLER_ENV = ["--env", "dev"];

export function wrangler(args, options = {}) {
  return execFileSync(WRANGLER, args, { cwd: ROOT, env: QUIET_ENV, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], ...options });
}

export const newApiKeySecret = () => `svc_live_${base32(randomBytes(32))}`;
/** Must equal hashApiKeySecret in src/platform/auth/keys.ts (a test checks it). */
export const hashApiKeySecret = (pepper, secret) => createHmac("sha256", pepper).update(secret).digest("hex");

/** A multi-line value as quoted() wrote it (as read back, or as just added), back to its lines. */
export const unquoted = (value) => value.replace(/^"(.*)"$/s, "$1").replace(/\\n/g, "\n");

function parseVars(text) {
  const vars = {};
  for (const line of text.split("\n")) {
    const m = /^([A-Z0-9_]+)=(.*)$/.exec(line.trim());
    if (m) vars[m[1]] = m[2].replace(/^"(.*)"$/, "$1");
  }
  return vars;
}

/** A multi-line value for .dev.vars (dotenv expands \n inside double quotes). */
const quoted = (value) => `"${value.trim().replace(/\r?\n/g, "\\n")}"`;

/**
 * Creates .dev.vars with fresh local secrets on first run, and adds any a newer version needs: the key pepper,
 * cursor and capability secrets, and a development PKI (root, intermediate, C2PA signer and TSA certificates,
 * minted in code) whose root is written to .svc/dev-root.pem so any C2PA reader can check our output.
 */
export async function ensureDevVars() {
  const existing = existsSync(DEV_VARS) ? readFileSync(DEV_VARS, "utf8") : "";
  const vars = parseVars(existing);
  const wanted = {
    SVC_KEY_PEPPER: () => randomBytes(32).toString("base64url"),
    SVC_CURSOR_SECRET: () => randomBytes(32).toString("base64url"),
    SVC_CAPABILITY_SECRET: () => randomBytes(32).toString("base64url"),
    SVC_DATA_MASTER_KEYS: () => `dev1:${randomBytes(32).toString("base64url")}`,
  };
  let text = existing;
  const add = (name, value) => {
    vars[name] = value;
    text += `${text && !text.endsWith("\n") ? "\n" : ""}${name}=${value}\n`;
  };
  for (const [name, make] of Object.entries(wanted)) if (!vars[name]) add(name, make());
  if (!vars.SVC_C2PA_SIGNER_CHAIN_PEM || !vars.SVC_TRUST_ANCHORS_PEM) {
    const ocspUrl = `http://127.0.0.1:${port()}/dev/ocsp`;
    const pki = await mintDevPki({ ocspUrl });
    add("SVC_C2PA_SIGNER_CHAIN_PEM", quoted(pki.signerChainPem));
    add("SVC_C2PA_SIGNER_KEY_PEM", quoted(pki.signerKeyPkcs8Pem));
    add("SVC_TSA_CHAIN_PEM", quoted(pki.tsaChainPem));
    add("SVC_TSA_KEY_PEM", quoted(pki.tsaKeyPkcs8Pem));
    add("SVC_TRUST_ANCHORS_PEM", quoted(pki.rootCertPem));
    add("SVC_DEV_OCSP_URL", ocspUrl);
    add("SVC_OCSP_RESPONDER_CERT_PEM", quoted(pki.ocsp.responderCertPem));
    add("SVC_OCSP_RESPONDER_KEY_PEM", quoted(pki.ocsp.responderKeyPkcs8Pem));
    add("SVC_OCSP_CA_CERT_PEM", quoted(pki.ocsp.caCertPem));
    if (!vars.SVC_TSA_URL) add("SVC_TSA_URL", "internal");
    mkdirSync(SVC_DIR, { recursive: true });
    writeFileSync(DEV_ROOT_PEM, `${pki.rootCertPem.trim()}\n`);
  }
  if (!vars.SVC_ANCHOR_KEY_PEM) add("SVC_ANCHOR_KEY_PEM", quoted(await mintAnchorKeyPem()));
  // Console sessions (#18): the dev identity provider's key pair; the Worker gets its public JWKS inline.
  if (!vars.SVC_DEV_SESSION_KEY_PEM || !vars.SVC_SESSION_JWKS) {
    const issuer = await mintDevSessionKey();
    add("SVC_DEV_SESSION_KEY_PEM", quoted(issuer.privateKeyPkcs8Pem));
    add("SVC_SESSION_JWKS", `'${issuer.jwks}'`);
  }
  if (!vars.SVC_SESSION_ISSUER) add("SVC_SESSION_ISSUER", DEV_SESSION_ISSUER);
  if (!vars.SVC_SESSION_AUDIENCE) add("SVC_SESSION_AUDIENCE", DEV_SESSION_AUDIENCE);
  if (!vars.SVC_IDP_WEBHOOK_SECRET) add("SVC_IDP_WEBHOOK_SECRET", `whsec_${randomBytes(24).toString("base64")}`);
  if (text !== existing) writeFileSync(DEV_VARS, text, { mode: 0o600 });
  return vars;
}

/**
 * The local D1 database of `wrangler dev --env dev` (the same SQLite files under .wrangler/state), opened once per
 * script in this process. `wrangler d1 migrations apply --local` starts a new workerd for every migration it applies
 * (41 on a fresh checkout, plus one to list them: over a minute on a loaded 2-core machine) and each `wrangler d1 execute` one more;
 * one Miniflare here costs one start for the whole script.
 */
let localDb;
async function openLocalDb() {
  if (localDb) return localDb;
  const [{ Miniflare, convertV4MiniflareOptions }, { unstable_readConfig }] = await Promise.all([import("miniflare"), import("wrangler")]);
  const config = unstable_readConfig({ config: join(ROOT, "wrangler.toml"), env: DEV_WRANGLER_ENV[1] });
  const info = config.d1_databases.find((d) => d.binding === "DB");
  if (!info) throw new Error("svc: wrangler.toml [env.dev] has no D1 binding DB");
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      modules: true,
      script: "",
      // Where wrangler dev and wrangler d1 … --local keep it (relative to wrangler.toml), under the same id.
      resourcePersistencePath: join(ROOT, ".wrangler", "state", "v3"),
      d1Databases: { DATABASE: info.preview_database_id ?? info.database_id ?? info.binding },
    }),
  );
  localDb = {
    mf,
    db: await mf.getD1Database("DATABASE"),
    migrationsDir: join(ROOT, info.migrations_dir ?? "migrations"),
    // wrangler's bookkeeping table, so `wrangler d1 migrations list/apply --local` agree with what ran here.
    migrationsTable: `"${(info.migrations_table || "d1_migrations").replace(/"/g, '""')}"`,
  };
  return localDb;
}

/** Releases the local database (its workerd) before wrangler dev opens the same files, or before a script exits. */
export async function closeLocalDb() {
  const open = localDb;
  localDb = undefined;
  if (open) await open.mf.dispose();
}

/**
 * Applies the migrations not yet applied, in wrangler's order and with wrangler's bookkeeping (a row per migration in
 * d1_migrations, inserted in the migration's own transaction), as `wrangler d1 migrations apply DB --local` does.
 */
export async function applyMigrations() {
  const { db, migrationsDir, migrationsTable } = await openLocalDb();
  await db
    .prepare(`CREATE TABLE IF NOT EXISTS ${migrationsTable}(
		id         INTEGER PRIMARY KEY AUTOINCREMENT,
		name       TEXT UNIQUE,
		applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
);`)
    .run();
  const applied = new Set((await db.prepare(`SELECT name FROM ${migrationsTable} ORDER BY id`).all()).results.map((r) => r.name));
  const names = readdirSync(migrationsDir, { withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith(".sql"))
    .map((e) => e.name)
    .sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
  for (const name of names.filter((n) => !applied.has(n))) {
    const migration = readFileSync(join(migrationsDir, name), "utf8");
    // One statement list in one transaction: a migration that fails leaves neither its changes nor its row.
    await db.batch([db.prepare(`${migration}\nINSERT INTO ${migrationsTable} (name)\nvalues ('${name.replace(/'/g, "''")}');`)]);
  }
}

/** One statement on the local database, its values bound; the rows it returns. */
export async function d1(statement, ...values) {
  const { db } = await openLocalDb();
  return (
    await db
      .prepare(statement)
      .bind(...values)
      .all()
  ).results;
}

export async function createKey(pepper, tenantId, name) {
  const secret = newApiKeySecret();
  const keyId = newId("apiKey");
  await d1(
    "INSERT INTO api_keys (id, tenant_id, name, secret_hash, display_prefix, scopes, status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    keyId,
    tenantId,
    name,
    hashApiKeySecret(pepper, secret),
    secret.slice(0, 15),
    JSON.stringify(ALL_SCOPES),
    "active",
    Date.now(),
  );
  return { keyId, secret };
}

export async function createTenantWithKey(pepper, name, email) {
  const tenantId = newId("tenant");
  await d1(
    "INSERT INTO tenants (id, name, contact_email, status, created_at) VALUES (?, ?, ?, ?, ?)",
    tenantId,
    name,
    email,
    "active",
    Date.now(),
  );
  return { tenantId, ...(await createKey(pepper, tenantId, `${name} (all scopes)`)) };
}

export async function keyIsActive(pepper, secret) {
  if (!secret) return false;
  const rows = await d1("SELECT id FROM api_keys WHERE secret_hash = ? AND status = 'active'", hashApiKeySecret(pepper, secret));
  return rows.length === 1;
}

export async function tenantExists(tenantId) {
  return Boolean(tenantId) && (await d1("SELECT id FROM tenants WHERE id = ?", tenantId)).length === 1;
}

export function baseUrl() {
  return `http://127.0.0.1:${port()}`;
}

export function port() {
  return Number(process.env.PORT || 8787);
}

/**
 * The address the running `npm start` serves, for scripts that rewrite an env file while it runs (dev:key,
 * dev:tenant): PORT when given, else the loopback address the last `npm start` wrote to .svc/dev.env (it may have
 * been started with PORT=…), else the default. Without this a fresh key was written beside http://127.0.0.1:8787
 * while the service ran elsewhere.
 */
export function servedBaseUrl(env = process.env, file = DEV_ENV) {
  const chosen = `http://127.0.0.1:${Number(env.PORT || 8787)}`;
  if (env.PORT || !existsSync(file)) return chosen;
  const written = parseVars(readFileSync(file, "utf8")).SVC_API_BASE_URL ?? "";
  return /^http:\/\/127\.0\.0\.1:\d{1,5}$/.test(written) ? written : chosen;
}

export function readState() {
  return existsSync(DEV_STATE) ? JSON.parse(readFileSync(DEV_STATE, "utf8")) : {};
}

export function writeDevFiles(state, secret, file = DEV_ENV, base = baseUrl()) {
  mkdirSync(SVC_DIR, { recursive: true });
  if (state) writeFileSync(DEV_STATE, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  const lines = `SVC_API_BASE_URL=${base}\nSVC_API_KEY=${secret}\n`;
  writeFileSync(file, lines, { mode: 0o600 });
  return lines;
}

export function readDevEnvKey() {
  if (!existsSync(DEV_ENV)) return null;
  return parseVars(readFileSync(DEV_ENV, "utf8")).SVC_API_KEY ?? null;
}
