// A V8 CPU profile of the public POST /v1/verify of the 64 px JPEG on bare Miniflare (#19, bench/verify.mjs row 1),
// every isolate of the workerd (the Worker, the RateLimiter objects, the D1 simulator, ...) over its inspector, with
// the workerd CPU per request from /proc beside it. Each request carries its own bytes and its own client address,
// as in bench/verify.mjs. Diagnostics only (the inspector slows everything); compare its shares, not its totals.
//   node bench/verify-profile-bare.mjs [--inspector 8812] [--requests 400] [--top 40] [--concurrency 8]
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { bundleWorker, startWorker } from "../test/support/worker.ts";
import { inspectorTargets, printTable, startProfiles, summarizeProfile } from "./lib/workerd-profile.mjs";

const ROOT = join(import.meta.dirname, "..");
const arg = (name, fallback) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : fallback);
const port = Number(arg("--inspector", "8812"));
const requests = Number(arg("--requests", "400"));
const concurrency = Number(arg("--concurrency", "8"));
const top = Number(arg("--top", "40"));
const BOUNDARY = "svcbenchverifyboundary";

const script = bundleWorker();
const marks = readFileSync(script, "utf8")
  .split("\n")
  .flatMap((l, i) => (/^\/\/ ((src|node_modules)\/\S+)$/.test(l) ? [[i, l.slice(3)]] : []));
/** The source file of a bundle line (esbuild marks each module with a `// path` line). */
function sourceOf(url, line) {
  if (!url) return "(native)";
  if (!url.endsWith("index.js")) return url.split("/").pop();
  let lo = 0;
  let hi = marks.length - 1;
  let found = "index.js";
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (marks[mid][0] <= line) {
      found = marks[mid][1];
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found.replace(/^node_modules\/(@[^/]+\/[^/]+|[^/]+)\/.*/, "node_modules/$1");
}

const worker = await startWorker({
  script,
  inspectorPort: port,
  bindings: {
    SVC_KEY_PEPPER: randomBytes(32).toString("base64url"),
    SVC_CURSOR_SECRET: randomBytes(32).toString("base64url"),
    SVC_CAPABILITY_SECRET: randomBytes(32).toString("base64url"),
  },
});
const cpuMs = () => {
  const pids = execFileSync("pgrep", ["-P", String(process.pid), "workerd"])
    .toString()
    .trim()
    .split("\n");
  return pids.reduce((sum, pid) => {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return sum + (Number(fields[11]) + Number(fields[12])) * 10;
  }, 0);
};
const small = readFileSync(join(ROOT, "test/fixtures/media/sample.jpg"));
let n = 0;
function variant(jpeg, i) {
  const text = Buffer.from(`bench ${i}`);
  const com = Buffer.alloc(4);
  com.writeUInt16BE(0xfffe, 0);
  com.writeUInt16BE(text.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), com, text, jpeg.subarray(2)]);
}
const verify = async () => {
  const i = ++n;
  const body = Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="s.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`),
    variant(small, i),
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
  const res = await worker.mf.dispatchFetch("http://bench.local/v1/verify", {
    method: "POST",
    body,
    headers: {
      "content-type": `multipart/form-data; boundary=${BOUNDARY}`,
      "cf-connecting-ip": `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
    },
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`HTTP ${res.status} ${text.slice(0, 200)}`);
};
for (let i = 0; i < 100; i++) await verify();
const profiling = await startProfiles(await inspectorTargets(port));
const before = cpuMs();
let next = 0;
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (next++ < requests) await verify();
  }),
);
const cpu = (cpuMs() - before) / requests;
const all = new Map();
const lines = [];
for (const { url, profile } of await profiling.stop()) {
  const summary = summarizeProfile(profile, { sourceOf });
  lines.push(`  ${url.split("/").pop().padEnd(40)} ${(summary.busy / requests).toFixed(3)} ms/req`);
  if (summary.busy / requests > 0.05) {
    printTable(`self time by source file: ${url.split("/").pop()}`, summary.fileSelf, { per: requests, top: 15, unit: "ms/req" });
    printTable(`inclusive time by function: ${url.split("/").pop()}`, summary.incl, { per: requests, top, unit: "ms/req" });
  }
  for (const [k, v] of summary.self) all.set(`${url.split("/").pop()} ${k}`, (all.get(`${url.split("/").pop()} ${k}`) ?? 0) + v);
}
printTable("self time by function, every isolate", all, { per: requests, top, unit: "ms/req" });
console.log(`\nbusy time per isolate (${requests} requests, ${concurrency} in flight):\n${lines.join("\n")}`);
console.log(`workerd CPU (all threads, from /proc, profiler on): ${cpu.toFixed(2)} ms/req`);
await worker.dispose();
