// `npm run bench`: request cost of the platform layers on bare Miniflare (one workerd, no wrangler dev proxy).
// Every figure is printed beside a baseline measured in the same run (GET /healthz: routing, request id and
// error mapping only), so the ratios say what authentication, D1 and the handlers add on this machine.
import { createHmac, randomBytes } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { gzipSync } from "node:zlib";
import { bundleWorker, startWorker } from "../test/support/worker.ts";
import { goal, ratio } from "./lib/goals.mjs";

const script = bundleWorker();
const pepper = randomBytes(32).toString("base64url");
const worker = await startWorker({
  script,
  bindings: {
    SVC_KEY_PEPPER: pepper,
    SVC_CURSOR_SECRET: randomBytes(32).toString("base64url"),
    SVC_CAPABILITY_SECRET: randomBytes(32).toString("base64url"),
  },
});
const mf = worker.mf;
const db = worker.db;
const key = `svc_live_${"a".repeat(52)}`;
await db
  .prepare("INSERT INTO tenants (id, name, status, created_at) VALUES ('ten_benchbenchbench', 'bench', 'active', ?)")
  .bind(Date.now())
  .run();
const scopes = JSON.stringify(["capabilities:read", "identity:read", "jobs:read", "api_keys:read"]);
await db
  .prepare(
    "INSERT INTO api_keys (id, tenant_id, name, secret_hash, display_prefix, scopes, status, created_at) VALUES ('key_benchbenchbench', 'ten_benchbenchbench', 'bench', ?, 'svc_live_aaaaaa', ?, 'active', ?)",
  )
  .bind(createHmac("sha256", pepper).update(key).digest("hex"), scopes, Date.now())
  .run();

let clients = 0;
async function measure(path, { auth = false, requests = 2000, concurrency = 8, body = null } = {}) {
  const headers = auth ? { authorization: `Bearer ${key}` } : {};
  // A POST body is rebuilt per request; each request comes from its own address (the public verify limit is per IP).
  const init = () =>
    body
      ? {
          method: "POST",
          body: body(),
          headers: {
            ...headers,
            "content-type": `multipart/form-data; boundary=${BOUNDARY}`,
            "cf-connecting-ip": `10.${(++clients >> 16) & 255}.${(clients >> 8) & 255}.${clients & 255}`,
          },
        }
      : { headers };
  for (let i = 0; i < 50; i++) await (await mf.dispatchFetch(`http://bench.local${path}`, init())).arrayBuffer();
  const latencies = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < requests) {
        next++;
        const t0 = performance.now();
        const res = await mf.dispatchFetch(`http://bench.local${path}`, init());
        await res.arrayBuffer();
        if (res.status >= 400) throw new Error(`${path}: ${res.status}`);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { rps: requests / seconds, p50: latencies[Math.floor(latencies.length / 2)], p99: latencies[Math.floor(latencies.length * 0.99)] };
}

const sampleJpeg = readFileSync(new URL("../test/fixtures/media/sample.jpg", import.meta.url));
// A hand-built multipart body: Miniflare's dispatchFetch does not serialize Node's FormData.
const BOUNDARY = "svcbenchboundary";
const verifyBody = Buffer.concat([
  Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="sample.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`),
  sampleJpeg,
  Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
]);
const verifyForm = () => verifyBody;

const rows = [
  ["GET /healthz (baseline)", await measure("/healthz")],
  ["GET /v1/connect-catalog (anonymous JSON)", await measure("/v1/connect-catalog")],
  ["GET /v1/me (auth: HMAC, cached key record)", await measure("/v1/me", { auth: true })],
  ["GET /v1/capabilities (auth + registry view)", await measure("/v1/capabilities", { auth: true })],
  ["GET /v1/recipes (auth + 14 definition hashes)", await measure("/v1/recipes", { auth: true })],
  ["GET /v1/api-keys (auth + keyset page)", await measure("/v1/api-keys", { auth: true })],
  ["POST /v1/verify public, 64 px JPEG, no manifest", await measure("/v1/verify", { requests: 400, body: verifyForm })],
];
await mf.dispose();

const base = rows[0][1];
console.log(`\nPlatform request cost on bare Miniflare (${new Date().toISOString()}, 2000 requests, 8 in flight)\n`);
console.log("operation".padEnd(48), "req/s".padStart(8), "× base".padStart(8), "p50 ms".padStart(8), "p99 ms".padStart(8));
for (const [name, r] of rows) {
  console.log(
    name.padEnd(48),
    r.rps.toFixed(0).padStart(8),
    (base.rps / r.rps).toFixed(2).padStart(8),
    r.p50.toFixed(2).padStart(8),
    r.p99.toFixed(2).padStart(8),
  );
}
// #19: an authenticated request against the anonymous baseline, both measured above in this run.
const me = rows[2][1];
const meRatio = me.rps / base.rps;
const rps = (r) => Math.round(r.rps).toLocaleString("en-US");
goal({
  what: "GET /v1/me vs GET /healthz (bare Miniflare)",
  figure: `${ratio(meRatio)} (${rps(me)} vs ${rps(base)} req/s)`,
  goal: "≥ 0.7×",
  pass: meRatio >= 0.7,
  note: "2000 requests, 8 in flight, one key (warm isolate: key record and account row cached)",
});
const bytes = statSync(script).size;
// Everything wrangler would upload: the script plus every wasm module beside it, each gzipped as Cloudflare counts.
const dir = dirname(script);
const wasm = readdirSync(dir).filter((f) => f.endsWith(".wasm"));
const wasmGzip = wasm.reduce((n, f) => n + gzipSync(readFileSync(join(dir, f))).length, 0);
const scriptGzip = gzipSync(readFileSync(script)).length;
console.log(
  `\nBundle: script ${(bytes / 1024).toFixed(0)} KiB (${(scriptGzip / 1024).toFixed(0)} KiB gzip) + ${wasm.length} wasm modules (${(wasmGzip / 2 ** 20).toFixed(2)} MiB gzip) = ${((scriptGzip + wasmGzip) / 2 ** 20).toFixed(2)} MiB gzip of the 10 MiB paid-Workers limit.`,
);
