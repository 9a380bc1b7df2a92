// #19 diagnostic: the express answer's read of the published output and sidecar (jobs/repo/publication.ts
// PUBLISHED_OBJECTS_SQL) against the form it replaced, on SQLite with the service's migrations and one tenant holding
// N objects: the rows each plan walks and its time. The old `id IN (… UNION ALL …)` was planned as a walk of the
// tenant's objects (its tenant index); the primary-key form reads two rows whatever the tenant holds.
//
//   node bench/express-objects-read.mjs [objects=200000]
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { bundleForNode } from "./lib/node-bundle.mjs";

const ROOT = join(import.meta.dirname, "..");
const n = Number(process.argv[2] ?? 200_000);
const { PUBLISHED_OBJECTS_SQL } = await import(
  bundleForNode("express-objects-read-entry", `export { PUBLISHED_OBJECTS_SQL } from "./src/jobs/repo/publication";`)
);
const BEFORE = `SELECT * FROM objects WHERE tenant_id = ? AND id IN (
           SELECT published_object_id FROM assets WHERE tenant_id = ? AND id = ?
           UNION ALL SELECT sidecar_object_id FROM assets WHERE tenant_id = ? AND id = ?)`;

const db = new DatabaseSync(":memory:");
for (const f of readdirSync(join(ROOT, "migrations"))
  .filter((f) => f.endsWith(".sql"))
  .sort())
  db.exec(readFileSync(join(ROOT, "migrations", f), "utf8"));
const tenant = "ten_bench";
db.exec("BEGIN");
const object = db.prepare(
  "INSERT INTO objects (id, tenant_id, asset_id, role, r2_key, etag, byte_length, sha256, media_type, created_at) VALUES (?, ?, ?, ?, ?, 'e', 1, 's', 'image/jpeg', 0)",
);
for (let i = 0; i < n; i++) object.run(`obj_${i}`, tenant, `ast_${Math.floor(i / 3)}`, "source", `k/${i}`);
db.prepare(
  "INSERT INTO assets (id, tenant_id, kind, status, publication_id, published_object_id, manifest_label, created_at, updated_at) VALUES ('ast_pub', ?, 'image', 'published', 'pub_1', 'obj_7', 'urn:x', 0, 0)",
).run(tenant);
db.exec("COMMIT");

const binds = [tenant, tenant, "ast_pub", tenant, "ast_pub"];
for (const [name, sql] of [
  ["before (IN … UNION ALL)", BEFORE],
  ["after (id = scalar OR id = scalar)", PUBLISHED_OBJECTS_SQL],
]) {
  const plan = db
    .prepare(`EXPLAIN QUERY PLAN ${sql}`)
    .all(...binds)
    .map((r) => r.detail)
    .filter((d) => /objects/.test(d));
  const statement = db.prepare(sql);
  statement.all(...binds);
  const runs = 20;
  const t = performance.now();
  let rows = 0;
  for (let i = 0; i < runs; i++) rows = statement.all(...binds).length;
  console.log(`${name}: ${((performance.now() - t) / runs).toFixed(3)} ms a read, ${rows} row(s); plan: ${plan.join("; ")}`);
}
console.log(`(one tenant holding ${n} objects)`);
