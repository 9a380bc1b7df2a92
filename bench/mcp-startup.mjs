// #21: what the Worker's start-up pays for the MCP server. Starts the Worker bundle (bare Miniflare, as the e2e tests)
// N times per variant, variants interleaved, and reads workerd's CPU time (user + system of every workerd process
// this script started, from /proc; 10 ms ticks) at each step: start-up until ready (script compiled and its top level
// evaluated), the first GET /healthz, a second one, the first POST /mcp (tools/list), a second one. Medians.
// On a shared machine wall time swings with other load; CPU per step much less, and interleaving spreads the rest.
// Local start-up CPU is dominated by wasm compilation and D1 migrations (seconds), so two V8 figures follow, each
// the median of N fresh Node processes (the same engine as workerd): the compile (parse) time of each bundle as an
// ES module, and the evaluation time of the MCP SDK's modules this Worker uses (server, transport, validator; zod,
// which the rest of the Worker loads anyway, loaded first and not counted) — what start-up paid before #21 made the
// SDK load on the first POST /mcp.
//   node bench/mcp-startup.mjs [--runs N] [--skip-workerd] [--bundle DIR ...]   (Linux; each DIR is a `wrangler deploy --dry-run --outdir DIR`;
//                                                              without --bundle, the current checkout is bundled)
import "./lib/ts-resolve.mjs";
import { spawnSync } from "node:child_process";
import { createHmac, randomBytes } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";
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

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
console.log(`${new Date().toISOString()}, load ${readFileSync("/proc/loadavg", "utf8").split(" ")[0]}, ${runs} runs`);

if (!args.includes("--skip-workerd")) {
  const results = bundles.map(() => []);
  for (let r = 0; r < runs; r++) {
    // alternate the order each round, so neither variant always runs on the warmer machine
    const order = bundles.map((_, i) => i);
    if (r % 2) order.reverse();
    for (const i of order) results[i].push(await once(bundles[i]));
  }
  const cols = ["start", "healthz1", "healthz2", "mcp1", "mcp2"];
  console.log("workerd CPU ms (wall ms), medians of interleaved runs");
  console.log(`${"bundle".padEnd(44)}${"MB".padStart(6)}  ${cols.map((c) => c.padStart(16)).join("")}`);
  bundles.forEach((b, i) => {
    const cells = cols.map((c) =>
      `${median(results[i].map((x) => x[`${c}Cpu`]))} (${Math.round(median(results[i].map((x) => x[`${c}Wall`])))})`.padStart(16),
    );
    console.log(`${b.slice(-44).padEnd(44)}${(statSync(b).size / 1e6).toFixed(2).padStart(6)}  ${cells.join("")}`);
  });
}

/** CPU ms of `code` (an ES module body that prints one number) in fresh Node processes, median of `runs`. */
function nodeCpu(code, extra = []) {
  const xs = [];
  for (let r = 0; r < runs; r++) {
    const run = spawnSync(process.execPath, [...extra, "--input-type=module", "-e", code], { cwd: ROOT, encoding: "utf8" });
    if (run.status !== 0) throw new Error(run.stderr);
    xs.push(Number(run.stdout.trim()));
  }
  return median(xs).toFixed(1);
}
const cpuOf = "const d = process.cpuUsage(t); console.log((d.user + d.system) / 1000);";
for (const b of bundles) {
  const code = `import vm from "node:vm"; import { readFileSync } from "node:fs"; const src = readFileSync(${JSON.stringify(b)}, "utf8");
const t = process.cpuUsage(); new vm.SourceTextModule(src); ${cpuOf}`;
  console.log(`V8 compile (parse) of ${b.slice(-44)}: ${nodeCpu(code, ["--experimental-vm-modules", "--no-warnings"])} ms CPU`);
}
// The SDK's modules as the Worker's bundler includes them (one ES module; zod left to node_modules).
const sdk = await build({
  stdin: {
    contents: [
      'export { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";',
      'export { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";',
      'export { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";',
    ].join("\n"),
    resolveDir: ROOT,
  },
  bundle: true,
  format: "esm",
  platform: "neutral",
  mainFields: ["module", "main"],
  target: "es2022",
  write: false,
  external: ["zod", "zod/*"],
});
const dir = join(ROOT, "node_modules", ".cache", "svc-bench");
mkdirSync(dir, { recursive: true });
const sdkFile = join(dir, "mcp-sdk.mjs");
writeFileSync(sdkFile, sdk.outputFiles[0].text);
const zod = [...new Set([...sdk.outputFiles[0].text.matchAll(/from "(zod[^"]*)"/g)].map((m) => m[1]))];
const evalCode = `${zod.map((z) => `await import(${JSON.stringify(z)});`).join(" ")}
const t = process.cpuUsage(); await import(${JSON.stringify(sdkFile)}); ${cpuOf}`;
console.log(
  `V8 compile + evaluation of the MCP SDK's modules (${(sdk.outputFiles[0].text.length / 1e3).toFixed(0)} kB; ${zod.join(", ")} preloaded): ${nodeCpu(evalCode)} ms CPU`,
);
