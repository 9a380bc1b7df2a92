// #21: what the Worker's start-up pays for the MCP server. Starts the Worker bundle (bare Miniflare, as the e2e tests)
// N times per variant, variants interleaved, and reads workerd's CPU time (user + system of every workerd process
// this script started, from /proc; 10 ms ticks) at each step: start-up until ready (script compiled and its top level
// evaluated), the first GET /healthz, a second one, the first POST /mcp (tools/list), a second one. Medians.
// On a shared machine wall time swings with other load; CPU per step much less, and interleaving spreads the rest.
//   node bench/mcp-startup.mjs [--runs N] [--bundle DIR ...]   (Linux; each DIR is a `wrangler deploy --dry-run --outdir DIR`;
//                                                              without --bundle, the current checkout is bundled)
import "./lib/ts-resolve.mjs";
import { createHmac, randomBytes } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { bundleWorker, startWorker } from "../test/support/worker.ts";

const ROOT = join(import.meta.dirname, "..");
const args = process.argv.slice(2);
const runs = Number(args[args.indexOf("--runs") + 1]) || 5;
const bundles = args.flatMap((a, i) => (args[i - 1] === "--bundle" ? [join(a, "index.js")] : []));
if (bundles.length === 0) bundles.push(bundleWorker());
const { generateApiKeySecret } = await import(join(ROOT, "src/platform/auth/keys.ts"));
const { ALL_SCOPES } = await import(join(ROOT, "src/platform/auth/scopes.ts"));
const { newId } = await import(join(ROOT, "src/platform/ids.ts"));

/** CPU ms (user + system) so far of the workerd processes under this process. */
function workerdCpu() {
  let ms = 0;
  for (const pid of readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    let stat;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    } catch {
      continue;
    }
    const [head, rest] = [stat.slice(0, stat.lastIndexOf(")")), stat.slice(stat.lastIndexOf(")") + 2).split(" ")];
    if (!head.includes("(workerd") || Number(rest[1]) !== process.pid) continue;
    ms += (Number(rest[11]) + Number(rest[12])) * 10;
  }
  return ms;
}

async function once(script) {
  const pepper = randomBytes(32).toString("hex");
  const t0 = performance.now();
  const c0 = workerdCpu();
  const worker = await startWorker({ script, bindings: { SVC_KEY_PEPPER: pepper, SVC_CURSOR_SECRET: randomBytes(32).toString("hex") } });
  await worker.mf.ready;
  const row = { startCpu: workerdCpu() - c0, startWall: performance.now() - t0 };
  // an all-scope key written to D1, as the e2e tests do (not part of any measured step)
  const key = generateApiKeySecret();
  const tenant = newId("tenant");
  await worker.db
    .prepare("INSERT INTO tenants (id, name, contact_email, status, created_at) VALUES (?, 'bench', 'b@example.test', 'active', ?)")
    .bind(tenant, Date.now())
    .run();
  await worker.db
    .prepare(
      "INSERT INTO api_keys (id, tenant_id, name, secret_hash, display_prefix, scopes, status, created_at) VALUES (?, ?, 'bench', ?, ?, ?, 'active', ?)",
    )
    .bind(
      newId("apiKey"),
      tenant,
      createHmac("sha256", pepper).update(key).digest("hex"),
      key.slice(0, 15),
      JSON.stringify(ALL_SCOPES),
      Date.now(),
    )
    .run();
  const step = async (name, call) => {
    const c = workerdCpu();
    const t = performance.now();
    const res = await call();
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`${name}: HTTP ${res.status}`);
    row[`${name}Cpu`] = workerdCpu() - c;
    row[`${name}Wall`] = performance.now() - t;
  };
  const mcp = () =>
    worker.fetch("/mcp", {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, accept: "application/json, text/event-stream", "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
    });
  await step("healthz1", () => worker.fetch("/healthz"));
  await step("healthz2", () => worker.fetch("/healthz"));
  await step("mcp1", mcp);
  await step("mcp2", mcp);
  await worker.dispose();
  return row;
}

const results = bundles.map(() => []);
for (let r = 0; r < runs; r++) {
  // alternate the order each round, so neither variant always runs on the warmer machine
  const order = bundles.map((_, i) => i);
  if (r % 2) order.reverse();
  for (const i of order) results[i].push(await once(bundles[i]));
}
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const cols = ["start", "healthz1", "healthz2", "mcp1", "mcp2"];
console.log(
  `workerd CPU ms (wall ms), median of ${runs} interleaved runs; ${new Date().toISOString()}, load ${readFileSync("/proc/loadavg", "utf8").split(" ")[0]}`,
);
console.log(`${"bundle".padEnd(44)}${"MB".padStart(6)}  ${cols.map((c) => c.padStart(16)).join("")}`);
bundles.forEach((b, i) => {
  const cells = cols.map((c) =>
    `${median(results[i].map((x) => x[`${c}Cpu`]))} (${Math.round(median(results[i].map((x) => x[`${c}Wall`])))})`.padStart(16),
  );
  console.log(`${b.slice(-44).padEnd(44)}${(statSync(b).size / 1e6).toFixed(2).padStart(6)}  ${cells.join("")}`);
});
