// Writes test/durations.json, the order test files start in (test/longest-first-sequencer.ts), from vitest's results
// cache of a full run (node_modules/.vite/vitest/<hash>/results.json: each file's time, hooks included). Run it after a
// full `npm test` on the 2-core CI machine (or a quiet machine like it) when the table has drifted:
//   node scripts/test-durations.mjs node_modules/.vite/vitest/*/results.json
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const sources = process.argv.slice(2);
if (sources.length === 0) {
  console.error("usage: node scripts/test-durations.mjs <vitest results.json>…");
  process.exit(2);
}
const files = {};
for (const source of sources) {
  const { projects } = JSON.parse(readFileSync(source, "utf8"));
  for (const [project, { files: results }] of Object.entries(projects))
    for (const [file, { duration }] of Object.entries(results)) files[`${project}:${file}`] = Math.round(duration / 100) / 10;
}
const sorted = Object.fromEntries(Object.entries(files).sort(([a], [b]) => (a < b ? -1 : 1)));
const out = join(import.meta.dirname, "..", "test", "durations.json");
writeFileSync(out, `${JSON.stringify({ unit: "seconds", files: sorted }, null, 2)}\n`);
console.error(`${out}: ${Object.keys(sorted).length} files`);
