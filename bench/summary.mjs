// The last step of `npm run bench`: every goal row the bench scripts recorded in this run, as one table.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

const file = join(import.meta.dirname, "..", "dist", "bench", "goals.jsonl");
const rows = existsSync(file)
  ? readFileSync(file, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line))
  : [];
console.log(
  `\nGoals (#19 performance, #20 recovery), this run: ${rows.filter((r) => r.pass).length} PASS, ${rows.filter((r) => !r.pass).length} MISS\n`,
);
const width = Math.min(70, Math.max(20, ...rows.map((r) => r.what.length)));
for (const r of rows) {
  console.log(`${r.pass ? "PASS" : "MISS"}  ${r.what.padEnd(width)}  ${r.figure}  (goal ${r.goal})`);
}
