import { getTableColumns, getTableName, is, Param, Placeholder, sql, type Table } from "drizzle-orm";
import type { Database } from "./client";

/*
 * Statements built by drizzle once per shape and bound per call (#19). Building a query's SQL text in drizzle costs
 * more CPU in workerd than D1 running a small statement, and a hot path (a run's steps, admission, the idempotency
 * claim, the request logs) runs the same few shapes over and over: drizzle builds each shape once with named
 * placeholders, and every call binds its values to that text.
 *
 * Invariant: a shape's text is drizzle's own for that query, and its bound values are drizzle's own for the same
 * values (test/node/db/statements.test.ts pins every shape). The values are bound as drizzle binds placeholders: a
 * placeholder given bare in `.set()` or `.values()` (typed `as never`) is encoded by its column (`mapToDriverValue`,
 * as drizzle encodes a plain value there), while a placeholder in a condition (`eq(column, p("x"))`) or wrapped in
 * `sql` is bound as given. So a condition's or a `sql`-wrapped value must be one D1 binds as its column stores it
 * (text, a number, null): never a boolean, JSON or date column's JS value.
 */

export type Built = { sql: string; params: unknown[] };

/** A statement shape: `build` runs once (on first use), each call binds `values` to its text. */
export function shape<V extends Record<string, unknown>>(
  build: (db: Database, p: (name: keyof V & string) => Placeholder) => { toSQL(): Built },
) {
  let built: Built | null = null;
  return (db: Database, values: V): D1PreparedStatement => {
    built ??= build(db, (name) => sql.placeholder(name)).toSQL();
    return db.$client.prepare(built.sql).bind(...bindValues(built.params, values));
  };
}

/**
 * drizzle's `fillPlaceholders`, except that null is bound as null (not passed to the column's encoder), as drizzle
 * binds a plain null value: a boolean column's encoder would make it 0, a JSON column's the text "null".
 */
function bindValues(params: unknown[], values: Record<string, unknown>): unknown[] {
  return params.map((p) => {
    const placeholder = is(p, Placeholder) ? p : is(p, Param) && is(p.value, Placeholder) ? p.value : null;
    if (!placeholder) return p;
    if (!(placeholder.name in values)) throw new Error(`No value for placeholder "${placeholder.name}" was provided`);
    const value = values[placeholder.name];
    return value === null || p === placeholder ? value : (p as Param).encoder.mapToDriverValue(value);
  });
}

/** A drizzle query as a raw D1 statement (built as drizzle builds it, on every call), for a batch of raw statements. */
export const statementOf = (db: Database, query: { toSQL(): Built }) => {
  const { sql: text, params } = query.toSQL();
  return db.$client.prepare(text).bind(...params);
};

/** A raw D1 row (SQL column names) as drizzle's select returns it: property names, each value decoded by its column. */
export function rowOf<T extends Table>(table: T, raw: Record<string, unknown>): T["$inferSelect"] {
  const row: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    const value = raw[column.name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as T["$inferSelect"];
}

/** Every raw row of a result (absent: none) as drizzle's select of the whole table returns them. */
export const rowsOf = <T extends Table>(table: T, result: D1Result | undefined): T["$inferSelect"][] =>
  (result?.results ?? []).map((r) => rowOf(table, r as Record<string, unknown>));

/**
 * An insert of `rows`, each row's own properties as placeholders (`name_i` for row i), in a statement built once per
 * table, set of properties per row, and conflict clause: a property a row leaves out (or gives as undefined) gets its
 * column default, as in drizzle's insert of the same rows; each value is encoded by its column. Only for tables without
 * `$defaultFn`/`$onUpdateFn` columns: drizzle would compute such a value once, when the shape is built.
 */
const MAX_INSERT_SHAPES = 256;
const insertShapes = new Map<string, ReturnType<typeof shape<Record<string, unknown>>>>();
export function insertStatement<T extends Table>(
  db: Database,
  table: T,
  rows: Record<string, unknown>[],
  options: { onConflictDoNothing?: boolean } = {},
): D1PreparedStatement {
  const keys = rows.map((row) => Object.keys(row).filter((k) => row[k] !== undefined));
  const id = `${getTableName(table)}${options.onConflictDoNothing ? " nothing" : ""} ${keys.map((k) => k.join(",")).join(" | ")}`;
  let built = insertShapes.get(id);
  if (!built) {
    // Enforced, not only stated: a per-row default computed at build time would be reused by every later insert.
    for (const column of Object.values(getTableColumns(table)))
      if (column.defaultFn || column.onUpdateFn)
        throw new Error(`insertStatement: ${getTableName(table)}.${column.name} has a default function`);
    built = shape<Record<string, unknown>>((d) => {
      const insert = d
        .insert(table)
        .values(keys.map((k, i) => Object.fromEntries(k.map((key) => [key, sql.placeholder(`${key}_${i}`)]))) as never);
      return options.onConflictDoNothing ? insert.onConflictDoNothing() : insert;
    });
    // Bounded: rows whose optional properties vary make more shapes; the oldest is dropped (built again if needed).
    if (insertShapes.size >= MAX_INSERT_SHAPES) insertShapes.delete(insertShapes.keys().next().value as string);
    insertShapes.set(id, built);
  }
  return built(db, Object.fromEntries(rows.flatMap((row, i) => keys[i]!.map((key) => [`${key}_${i}`, row[key]]))));
}
