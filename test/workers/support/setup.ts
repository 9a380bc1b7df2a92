import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";

/*
 * Runs before each test file. Files share one workerd per vitest worker (`isolate: false`: the WebAssembly engines
 * compile once per worker instead of once per file), so each file starts from an empty database here, as if it had
 * its own: rows of earlier files (publications in the global soft-binding index, log entries, dev OCSP revocations)
 * must not change what this file sees.
 */
const db = (env as unknown as { DB: D1Database }).DB;
await applyD1Migrations(db, (env as unknown as { TEST_MIGRATIONS: Parameters<typeof applyD1Migrations>[1] }).TEST_MIGRATIONS);
const tables = await db
  .prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name <> 'd1_migrations'",
  )
  .all<{ name: string }>();
// Append-only tables refuse DELETE by trigger (the audit log): lift those triggers for the wipe and put them back.
const guards = await db
  .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE '%append_only_delete'")
  .all<{ name: string; sql: string }>();
await db.batch([
  db.prepare("PRAGMA defer_foreign_keys = true"),
  ...guards.results.map(({ name }) => db.prepare(`DROP TRIGGER "${name}"`)),
  ...tables.results.map(({ name }) => db.prepare(`DELETE FROM "${name}"`)),
  ...guards.results.map(({ sql }) => db.prepare(sql)),
]);
