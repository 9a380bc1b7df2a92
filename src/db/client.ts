import { drizzle } from "drizzle-orm/d1";
import * as schema from "./schema";

export type Database = ReturnType<typeof build>;

function build(d1: D1Database) {
  return drizzle(d1, { schema });
}

/**
 * Building drizzle's relational config from the schema costs ≈ 6% of a keyed verify's CPU when done per call, so
 * one client is kept per D1 binding object (the same object for every request of an isolate). Weakly held: a
 * binding that goes away takes its client with it.
 */
const clients = new WeakMap<D1Database, Database>();

export function database(d1: D1Database): Database {
  let db = clients.get(d1);
  if (!db) {
    db = build(d1);
    clients.set(d1, db);
  }
  return db;
}
