// The `npm run bench` rows measured over HTTP on `npm start` (wrangler dev, as a user runs it): one service is
// started on BENCH_LIVE_PORT (8790), the rows run against it with the dev key `npm start` writes to .svc/dev.env,
// and the service is stopped. Each row states its same-run baseline itself (GET /healthz on the same service).
import { execFileSync, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "..");
const port = process.env.BENCH_LIVE_PORT ?? "8790";
const base = `http://127.0.0.1:${port}`;

const child = spawn("npm", ["start"], {
  cwd: ROOT,
  env: { ...process.env, PORT: port },
  stdio: ["ignore", "ignore", "pipe"],
  detached: true,
});
let log = "";
child.stderr.on("data", (d) => {
  log = (log + d).slice(-4000);
});

async function ready() {
  const until = Date.now() + 300_000;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`npm start exited (${child.exitCode})\n${log}`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`npm start was not ready within 300 s\n${log}`);
}

try {
  await ready();
  const env = Object.fromEntries(
    readFileSync(join(ROOT, ".svc", "dev.env"), "utf8")
      .split("\n")
      .filter((line) => line.includes("="))
      .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
  );
  const rowEnv = { ...process.env, SVC_API_BASE_URL: base, SVC_API_KEY: env.SVC_API_KEY };
  for (const script of [["bench/express.mjs", "--http"], ["bench/verify-keyed.mjs"]]) {
    execFileSync(process.execPath, script, { cwd: ROOT, env: rowEnv, stdio: "inherit" });
  }
} finally {
  // SIGINT stops wrangler dev; SIGTERM as well, for a start still applying its migrations.
  for (const signal of ["SIGINT", "SIGTERM"]) {
    try {
      process.kill(-child.pid, signal);
    } catch {}
    await new Promise((r) => setTimeout(r, 1000));
  }
}
