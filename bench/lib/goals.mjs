// One way for every benchmark to state a #19 performance goal: the figure, the baseline it is measured against in
// the same run, the goal, and PASS/MISS. Each bench script prints its own table and appends its goal rows to
// dist/bench/goals.jsonl; `npm run bench` ends with bench/summary.mjs printing all of them as one table.
import { appendFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";

const OUT = join(import.meta.dirname, "..", "..", "dist", "bench");

/**
 * Records and prints one goal row.
 * @param {object} row
 * @param {string} row.what      the table row, e.g. "GET /v1/me vs GET /healthz (bare Miniflare)"
 * @param {string} row.figure    what was measured, with units, e.g. "0.74× (851 vs 1,150 req/s)"
 * @param {string} row.goal      the goal as written in the issue, e.g. "≥ 0.7×"
 * @param {boolean} row.pass     whether the figure meets the goal
 * @param {string} [row.note]    how it was measured (run size, concurrency) when the table alone does not say
 */
export function goal({ what, figure, goal: target, pass, note }) {
  mkdirSync(OUT, { recursive: true });
  appendFileSync(join(OUT, "goals.jsonl"), `${JSON.stringify({ what, figure, goal: target, pass, note, at: new Date().toISOString() })}\n`);
  console.log(`  goal  ${pass ? "PASS" : "MISS"}  ${what}: ${figure} (goal ${target})${note ? ` — ${note}` : ""}`);
}

/** Formats a ratio as the tables print it. */
export const ratio = (x) => `${x.toFixed(2)}×`;
