// Diagnostics (not in `npm run bench`): what webhook_deliveries' secondary indexes cost a delivery's state changes,
// on the real schema (every migration) in Node's SQLite, alternating variants. One delivery's cycle in the webhook
// bench is three row updates (the replay's restart, the consumer's claim, the acknowledged record), each rewriting
// the indexes on the columns it sets: (status, next_attempt_at), (status, lease_until), (updated_at) and
// (tenant_id, created_at, status). Variants: all of them (the schema), each one dropped, all four dropped (the upper
// bound of any index lever), and partial forms (only the rows a sweep or purge reads).
//   node --experimental-sqlite bench/webhooks-index-cost.mjs [rows=30000] [repeats=5]
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";

const rows = Number(process.argv[2] ?? 30_000);
const repeats = Number(process.argv[3] ?? 5);
const dir = join(import.meta.dirname, "..", "migrations");
const schema = readdirSync(dir)
  .filter((f) => f.endsWith(".sql"))
  .sort()
  .flatMap((f) => readFileSync(join(dir, f), "utf8").split("--> statement-breakpoint"))
  .filter((s) => s.trim());
const drop = (name) => `DROP INDEX webhook_deliveries_${name};`;
const variants = {
  "schema (all indexes)": "",
  "without (status, next_attempt_at)": drop("status_next_idx"),
  "without (status, lease_until)": drop("status_lease_idx"),
  "without (updated_at)": drop("updated_idx"),
  "without (tenant_id, created_at, status)": drop("tenant_created_status_idx"),
  "without all four": ["status_next_idx", "status_lease_idx", "updated_idx", "tenant_created_status_idx"].map(drop).join(" "),
  "(updated_at) partial on finished rows": `${drop("updated_idx")} CREATE INDEX webhook_deliveries_updated_idx ON webhook_deliveries (updated_at) WHERE status IN ('delivered', 'failed', 'dead');`,
  "(status, next_attempt_at) partial on pending": `${drop("status_next_idx")} CREATE INDEX webhook_deliveries_status_next_idx ON webhook_deliveries (status, next_attempt_at) WHERE status = 'pending';`,
};
const id = (i) => `whd_${String(i).padStart(26, "0")}`;
const results = new Map();
for (let rep = 0; rep < repeats; rep++)
  for (const [name, sql] of Object.entries(variants)) {
    const db = new DatabaseSync(":memory:");
    for (const s of schema) db.exec(s);
    db.exec(sql);
    const insert = db.prepare(
      "INSERT INTO webhook_deliveries (id, tenant_id, endpoint_id, event_id, event_type, status, created_at, updated_at) VALUES (?, 't', ?, ?, 'x', 'delivered', ?, ?)",
    );
    db.exec("BEGIN");
    for (let i = 0; i < rows; i++) insert.run(id(i), `e${i % 20}`, `ev${Math.floor(i / 20)}`, i, i);
    db.exec("COMMIT");
    // The three updates as the service writes them (repo/deliveries.ts, repo/attempts.ts), one row at a time.
    const restart = db.prepare(
      "UPDATE webhook_deliveries SET status = 'pending', replay_count = replay_count + 1, attempt_base = attempt_count, next_attempt_at = ?, terminal_reason = NULL, updated_at = ? WHERE id = ? AND +status IN ('delivered', 'failed', 'dead')",
    );
    const claim = db.prepare(
      "UPDATE webhook_deliveries SET status = 'delivering', attempt_count = attempt_count + 1, lease_until = ?, updated_at = ? WHERE id = ? AND +status = 'pending'",
    );
    const record = db.prepare(
      "UPDATE webhook_deliveries SET status = 'delivered', next_attempt_at = NULL, lease_until = NULL, response_code = 200, response_body_sha256 = 'x', terminal_reason = NULL, updated_at = ? WHERE id = ? AND +status = 'delivering'",
    );
    let t = 2 * rows;
    let changed = 0;
    const t0 = performance.now();
    db.exec("BEGIN");
    for (let i = 0; i < rows; i += 2) {
      t++;
      changed +=
        Number(restart.run(t, t, id(i)).changes) + Number(claim.run(t + 1000, t, id(i)).changes) + Number(record.run(t, id(i)).changes);
    }
    db.exec("COMMIT");
    if (changed !== 3 * Math.ceil(rows / 2)) throw new Error(`${name}: ${changed} rows changed`);
    results.set(name, [...(results.get(name) ?? []), ((performance.now() - t0) * 1000) / Math.ceil(rows / 2)]);
    db.close();
  }
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
console.log(`µs of SQLite per delivery cycle (restart, claim, record), median of ${repeats}, ${rows} deliveries in the table:`);
for (const [name, xs] of results) console.log(`${median(xs).toFixed(1).padStart(7)} µs  ${name}`);
