import { testEnv } from "../support/helpers";

/**
 * Alters the stored audit log as someone with direct database access would: the append-only triggers lifted for the
 * one statement and put back in the same batch.
 */
export async function tamper(sql: string, ...binds: unknown[]) {
  const db = testEnv.DB;
  const guards = await db
    .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'audit_events_append_only%'")
    .all<{ name: string; sql: string }>();
  await db.batch([
    ...guards.results.map(({ name }) => db.prepare(`DROP TRIGGER "${name}"`)),
    db.prepare(sql).bind(...binds),
    ...guards.results.map(({ sql: create }) => db.prepare(create)),
  ]);
}
