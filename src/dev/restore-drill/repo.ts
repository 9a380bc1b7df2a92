/*
 * The restore drill's D1 work (development and operator use only; see index.ts): the schema read from SQLite itself,
 * the wipe, the restore's one transaction and its follow-ups. Table and column names come from the schema, never
 * from an archive.
 */

export interface Column {
  name: string;
  notnull: number;
  dflt_value: unknown;
  pk: number;
}

export async function columnsOf(d1: D1Database, table: string): Promise<Column[]> {
  return (await d1.prepare(`SELECT name, "notnull", dflt_value, pk FROM pragma_table_info(?)`).bind(table).all<Column>()).results;
}

/** Append-only and billing triggers, dropped for the drill's own transaction and put back in it. */
async function triggers(d1: D1Database): Promise<{ name: string; sql: string }[]> {
  return (await d1.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'").all<{ name: string; sql: string }>()).results;
}

/** Runs `statements` as one transaction with the triggers lifted inside it: restored or removed rows are history, not new events. */
async function batchWithoutTriggers(d1: D1Database, statements: D1PreparedStatement[]) {
  const guards = await triggers(d1);
  const results = await d1.batch([
    d1.prepare("PRAGMA defer_foreign_keys = true"),
    ...guards.map((t) => d1.prepare(`DROP TRIGGER "${t.name}"`)),
    ...statements,
    ...guards.map((t) => d1.prepare(t.sql)),
  ]);
  return results.slice(1 + guards.length, 1 + guards.length + statements.length);
}

const PUBLICATIONS_OF_TENANT = "SELECT publication_id FROM soft_bindings WHERE tenant_id = ?";

/**
 * Deletes every row of the tenant in one transaction: the tables keyed by its publications first (`derived`, found
 * through soft_bindings: the derived index, the pixel memos), then
 * every table with a tenant_id, the tenant row last. Returns the rows removed per table.
 */
export async function wipeTenantRows(d1: D1Database, tenantId: string, derived: readonly string[]): Promise<Record<string, number>> {
  const tables = (
    await d1
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name <> 'd1_migrations'",
      )
      .all<{ name: string }>()
  ).results.map((r) => r.name);
  const statements: D1PreparedStatement[] = [];
  const counted: string[] = [];
  for (const table of derived) {
    statements.push(d1.prepare(`DELETE FROM "${table}" WHERE publication_id IN (${PUBLICATIONS_OF_TENANT})`).bind(tenantId));
    counted.push(table);
  }
  for (const table of tables) {
    if (derived.includes(table)) continue;
    const columns = await columnsOf(d1, table);
    const key = table === "tenants" ? "id" : columns.some((c) => c.name === "tenant_id") ? "tenant_id" : null;
    if (!key) continue;
    statements.push(d1.prepare(`DELETE FROM "${table}" WHERE "${key}" = ?`).bind(tenantId));
    counted.push(table);
  }
  const results = await batchWithoutTriggers(d1, statements);
  const rows: Record<string, number> = {};
  counted.forEach((table, i) => {
    const changes = results[i]?.meta.changes ?? 0;
    if (changes > 0) rows[table] = changes;
  });
  return rows;
}

export async function tenantExists(d1: D1Database, tenantId: string): Promise<boolean> {
  return (await d1.prepare("SELECT 1 FROM tenants WHERE id = ?").bind(tenantId).first()) !== null;
}

/** One row's insert; `names` are columns of `table` (the caller filtered them by the table's own schema). */
export function insertRowStatement(d1: D1Database, table: string, names: readonly string[], row: Record<string, unknown>) {
  return d1
    .prepare(`INSERT INTO "${table}" (${names.map((n) => `"${n}"`).join(", ")}) VALUES (${names.map(() => "?").join(", ")})`)
    .bind(...names.map((n) => row[n] ?? null));
}

/** The restore's one transaction: the tenant comes back whole or not at all (a refusal throws, nothing written). */
export async function commitWithoutTriggers(d1: D1Database, statements: D1PreparedStatement[]): Promise<void> {
  await batchWithoutTriggers(d1, statements);
}

/** Rows of each derived table that point at the tenant's publications. */
export async function derivedCounts(d1: D1Database, tenantId: string, derived: readonly string[]): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of derived) {
    const row = await d1
      .prepare(`SELECT COUNT(*) AS n FROM "${table}" WHERE publication_id IN (${PUBLICATIONS_OF_TENANT})`)
      .bind(tenantId)
      .first<{ n: number }>();
    if (row && row.n > 0) counts[table] = row.n;
  }
  return counts;
}

export async function setObjectEtag(d1: D1Database, tenantId: string, objectId: string, etag: string): Promise<void> {
  await d1.prepare("UPDATE objects SET etag = ? WHERE id = ? AND tenant_id = ?").bind(etag, objectId, tenantId).run();
}
