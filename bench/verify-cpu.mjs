// workerd CPU per request of POST /v1/verify on a running `npm start` (#19), beside GET /healthz: the user time and
// system time of every workerd process of this checkout (wrangler's proxy and the Worker's, with D1 and the Durable
// Objects' SQLite), from /proc, over N requests one at a time. On a shared machine wall-clock figures swing with
// other load; CPU per request much less, which makes it the figure to compare before/after (alternate runs).
// Rows: /healthz; public verify of the 2.8 MP photograph (bench/verify.mjs); keyed verify of signed 1 MP JPEGs
// (bench/verify-keyed.mjs). Each verify is of a file of its own, from an address of its own.
//   node bench/verify-cpu.mjs [--requests N] [--skip-keyed]      (Linux; SVC_API_BASE_URL / SVC_API_KEY as the others)
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { devService, keyedFiles, publicFiles, verifier } from "./lib/verify-requests.mjs";

const ROOT = join(import.meta.dirname, "..");
const requests = Number(process.argv[process.argv.indexOf("--requests") + 1]) || 30;
const WARM = 5;
const { base, key } = devService();
const pids = execFileSync("pgrep", ["-f", `${ROOT}/node_modules/@cloudflare/workerd`])
  .toString()
  .trim()
  .split("\n");
/** CPU ms (user + system) of this checkout's workerd processes so far (clock ticks of 10 ms). */
const cpu = () =>
  pids.reduce((sum, pid) => {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return sum + (Number(fields[11]) + Number(fields[12])) * 10;
  }, 0);
const healthz = async () => {
  const res = await fetch(`${base}/healthz`);
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`GET /healthz: HTTP ${res.status}`);
};
const rows = [
  ["GET /healthz", healthz],
  ["public verify, 2.8 MP photo", verifier({ base, key: null, files: await publicFiles(requests + WARM) })],
];
if (!process.argv.includes("--skip-keyed"))
  rows.push(["keyed verify, signed 1 MP JPEG", verifier({ base, key, files: await keyedFiles(requests + WARM) })]);
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
console.log(
  `workerd CPU per request on ${base} (${new Date().toISOString()}, load ${readFileSync("/proc/loadavg", "utf8").split(" ")[0]})`,
);
for (const [name, call] of rows) {
  for (let i = 0; i < WARM; i++) await call();
  const before = cpu();
  const wall = [];
  for (let i = 0; i < requests; i++) {
    const t = performance.now();
    await call();
    wall.push(performance.now() - t);
  }
  console.log(
    `  ${name.padEnd(32)} workerd CPU ${((cpu() - before) / requests).toFixed(1).padStart(6)} ms/req   wall p50 ${median(wall).toFixed(1).padStart(6)} ms   (${requests} requests)`,
  );
}
