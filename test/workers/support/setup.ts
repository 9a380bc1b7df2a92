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
await db.batch([db.prepare("PRAGMA defer_foreign_keys = true"), ...tables.results.map(({ name }) => db.prepare(`DELETE FROM "${name}"`))]);
