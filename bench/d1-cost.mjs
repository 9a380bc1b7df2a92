// Where a D1 call's cost goes on bare Miniflare (#19 diagnostics): a small Worker (bench/d1-cost-entry.ts) runs one
// shape of D1 work per request — none, one trivial statement, batches of them, the verification's index lookup
// (exact ISCC, gated PDQ, gated windows with 15 query windows) whole or in parts, with one probe value a band instead
// of 17–32, each statement 8 times (cached text, and a text new each request), and lookups sharing a call — against
// the migrated schema with an empty index, and prints the workerd CPU per request (from /proc) per shape, in
// alternating blocks. Answers: per call, per statement, per parameter, and what compiling an uncached text costs.
// `full` is indexMatches as the service runs it (concurrent lookups share a call: soft-bindings/shared-batch.ts);
// `fullcap` the same statements each in a call of its own; `coal` a minimal group commit for comparison.
//   node bench/d1-cost.mjs [shapes, comma-separated] [requests per block] [rounds]
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";

const ROOT = join(import.meta.dirname, "..");
const modes = (process.argv[2] ?? "none,one,batch3,exact,full,full1,pdqonly,regonly,onex8,exactx8,pdqx8,pdqx8v,regx8,coal").split(",");
const requests = Number(process.argv[3] ?? 600);
const rounds = Number(process.argv[4] ?? 4);
const out = mkdtempSync(join(tmpdir(), "svc-d1-cost-"));
execFileSync(
  join(ROOT, "node_modules", ".bin", "esbuild"),
  [join(ROOT, "bench", "d1-cost-entry.ts"), "--bundle", "--format=esm", "--platform=neutral", `--outfile=${join(out, "index.js")}`],
  { stdio: "ignore" },
);
const mf = new Miniflare(
  convertV4MiniflareOptions({
    workers: [
      {
        name: "d1cost",
        modules: [{ type: "ESModule", path: join(out, "index.js") }],
        modulesRoot: out,
        compatibilityDate: "2026-10-01",
        d1Databases: ["DB"],
      },
    ],
  }),
);
const db = await mf.getD1Database("DB");
const statements = readdirSync(join(ROOT, "migrations"))
  .filter((f) => f.endsWith(".sql"))
  .sort()
  .flatMap((file) => readFileSync(join(ROOT, "migrations", file), "utf8").split("--> statement-breakpoint"))
  .filter((s) => s.trim());
await db.batch(statements.map((s) => db.prepare(s)));
const pids = execFileSync("pgrep", ["-P", String(process.pid), "workerd"])
  .toString()
  .trim()
  .split("\n");
const cpu = () =>
  pids.reduce((sum, pid) => {
    const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return sum + (Number(f[11]) + Number(f[12])) * 10;
  }, 0);
async function block(mode, n) {
  const c = cpu();
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next++ < n) {
        const r = await mf.dispatchFetch(`http://d1cost/${mode}`);
        if (r.status !== 200) throw new Error(`${mode}: ${await r.text()}`);
        await r.text();
      }
    }),
  );
  return (cpu() - c) / n;
}
for (const m of modes) await block(m, 100);
const res = Object.fromEntries(modes.map((m) => [m, []]));
for (let r = 0; r < rounds; r++) for (const m of r % 2 ? [...modes].reverse() : modes) res[m].push(await block(m, requests));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`load ${readFileSync("/proc/loadavg", "utf8").split(" ")[0]}, ${rounds} rounds of ${requests}, 8 in flight`);
for (const m of modes)
  console.log(`${m.padEnd(10)} ${median(res[m]).toFixed(3)} ms CPU/req  runs ${res[m].map((x) => x.toFixed(2)).join(" ")}`);
console.log(await (await mf.dispatchFetch("http://d1cost/stats")).text());
await mf.dispose();
