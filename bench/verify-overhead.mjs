// Where a public verify of a tiny JPEG spends its time beyond /healthz, on bare Miniflare (one workerd), each
// figure in the same run: /healthz; POST /v1/verify of unknown bytes (the rate limit, the multipart body, the sniff,
// then 415); the 64 px JPEG with no manifest (plus decode, fingerprints, one D1 index lookup, the verdict).
// Beside req/s, the CPU time workerd spent per request (all its isolates: the Worker, its Durable Objects, D1, R2;
// from /proc on Linux): on a shared machine wall-clock figures swing with other load, CPU per request much less.
// Usage: node bench/verify-overhead.mjs [--requests N]
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { bundleWorker, startWorker } from "../test/support/worker.ts";

const ROOT = join(import.meta.dirname, "..");
const requests = Number(process.argv[process.argv.indexOf("--requests") + 1]) || 600;
const BOUNDARY = "svcbenchverifyboundary";
const form = (bytes, name, type) =>
  Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`),
    bytes,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
let clients = 0;
const nextAddress = () => {
  clients++;
  return `10.${(clients >> 16) & 255}.${(clients >> 8) & 255}.${clients & 255}`;
};
/** CPU ms (user + system) of this process's workerd children so far, or NaN where /proc is not there. */
function workerdCpuMs() {
  if (!existsSync("/proc/self/stat")) return Number.NaN;
  let pids = [];
  try {
    pids = execFileSync("pgrep", ["-P", String(process.pid), "workerd"])
      .toString()
      .trim()
      .split("\n");
  } catch {
    return Number.NaN;
  }
  let ticks = 0;
  for (const pid of pids) {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    ticks += Number(fields[11]) + Number(fields[12]); // utime, stime (clock ticks, 100 a second on Linux)
  }
  return ticks * 10;
}
async function load(send) {
  for (let i = 0; i < 50; i++) await send();
  let next = 0;
  const cpu = workerdCpuMs();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < requests) {
        next++;
        await send();
      }
    }),
  );
  return { rps: requests / ((performance.now() - started) / 1000), cpuMs: (workerdCpuMs() - cpu) / requests };
}
const worker = await startWorker({
  script: bundleWorker(),
  bindings: {
    SVC_KEY_PEPPER: randomBytes(32).toString("base64url"),
    SVC_CURSOR_SECRET: randomBytes(32).toString("base64url"),
    SVC_CAPABILITY_SECRET: randomBytes(32).toString("base64url"),
  },
});
const mf = worker.mf;
const small = readFileSync(join(ROOT, "test/fixtures/media/sample.jpg"));
let n = 0;
const post = (body, expect) => async () => {
  const res = await mf.dispatchFetch("http://bench.local/v1/verify", {
    method: "POST",
    body,
    headers: { "content-type": `multipart/form-data; boundary=${BOUNDARY}`, "cf-connecting-ip": nextAddress() },
  });
  const text = await res.text();
  if (res.status !== expect) throw new Error(`HTTP ${res.status} ${text.slice(0, 200)}`);
};
const rows = [];
for (let round = 0; round < 2; round++) {
  rows.push(["GET /healthz", await load(async () => void (await (await mf.dispatchFetch("http://bench.local/healthz")).text()))]);
  rows.push([
    "verify: unknown bytes (limit + body + sniff, 415)",
    await load(post(form(Buffer.from(`\x00\x01\x02 unknown ${n++}`), "a.bin", "application/octet-stream"), 415)),
  ]);
  rows.push(["verify: 64 px JPEG", await load(post(form(small, "sample.jpg", "image/jpeg"), 200))]);
}
await mf.dispose();
const base = rows.filter((r) => r[0] === "GET /healthz").reduce((a, r) => Math.max(a, r[1].rps), 0);
for (const [name, { rps, cpuMs }] of rows)
  console.log(
    `${name.padEnd(48)} ${rps.toFixed(0).padStart(6)} req/s  ${(1000 / rps).toFixed(2).padStart(6)} ms/req  ${(rps / base).toFixed(2)}×  workerd CPU ${cpuMs.toFixed(2)} ms/req`,
  );
