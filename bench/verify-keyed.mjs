// Keyed verify on `npm start`: POST /v1/verify (multipart, an all-scope dev API key) of a signed 1 MP JPEG, one
// request at a time (ms p50) and 8 in flight (req/s), beside GET /healthz with 8 in flight in the same run (the
// baseline: what the same server answers when a request does no work). The JPEG is signed in this script with the
// dev PKI of .dev.vars (signer chain + the internal TSA), as the service signs, so the server trusts it.
// Usage: start the service (`npm start`, or PORT=<port> npm start), then `node bench/verify-keyed.mjs`
// (SVC_API_BASE_URL / SVC_API_KEY from .svc/dev.env unless set).
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { goal } from "./lib/goals.mjs";
import { devService, keyedFiles, verifier } from "./lib/verify-requests.mjs";

const ROOT = join(import.meta.dirname, "..");
const OUT = join(ROOT, "dist", "bench");
mkdirSync(OUT, { recursive: true });
const { base, key } = devService();
if (!base || !key || !existsSync(join(ROOT, ".dev.vars"))) {
  console.error("verify-keyed: run `npm start` first (it writes .dev.vars and .svc/dev.env).");
  process.exit(1);
}
try {
  const health = await fetch(`${base}/healthz`);
  if (!health.ok) throw new Error(`HTTP ${health.status}`);
} catch (error) {
  console.error(`verify-keyed: ${base} does not answer (${error.message}); start the service first (npm start).`);
  process.exit(1);
}

// Every request verifies a file of its own (the same pixels, a store signed anew): the service keeps a store's
// trust verdict from its third read (media/c2pa/trust-verdicts.ts), and a goal about verification must not
// measure that cache.
const REQUESTS = 5 + 20 + 120 + 1;
const files = await keyedFiles(REQUESTS);
writeFileSync(join(OUT, "verify-keyed-1mp.jpg"), files[0]);
const verify = verifier({ base, key, files });
const healthz = async () => {
  const res = await fetch(`${base}/healthz`);
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`GET /healthz: HTTP ${res.status}`);
};
const p50 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
/** Requests per second with `inFlight` concurrent callers for `count` requests in all. */
async function throughput(call, count, inFlight) {
  let next = 0;
  const t = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next++ < count) await call();
    }),
  );
  return count / ((performance.now() - t) / 1000);
}

const first = await verify();
for (let i = 0; i < 4; i++) await verify(); // warm the isolate (engine init, JIT, caches)
const alone = [];
for (let i = 0; i < 20; i++) {
  const t = performance.now();
  await verify();
  alone.push(performance.now() - t);
}
await throughput(healthz, 100, 8);
const health = await throughput(healthz, 400, 8);
const rate = await throughput(verify, 120, 8);

console.log(
  `\nKeyed POST /v1/verify of signed 1 MP JPEGs (${files[0].length} bytes, a different file each request) on ${base} (${new Date().toISOString()})`,
);
console.log(`  verdict ${first.status ?? first.overall ?? "?"}, manifest ${first.manifest?.validation_state ?? first.manifest_id ?? "?"}`);
console.log(`  one request alone      ${p50(alone).toFixed(1).padStart(7)} ms p50 (20 requests)`);
console.log(`  8 in flight            ${rate.toFixed(1).padStart(7)} req/s (120 requests)`);
console.log(`  GET /healthz, 8 in flight ${health.toFixed(0).padStart(5)} req/s (baseline, same run)`);
goal({
  what: "keyed verify of a signed 1 MP JPEG on npm start, 8 in flight",
  figure: `${rate.toFixed(0)} req/s (${p50(alone).toFixed(0)} ms alone; /healthz ${health.toFixed(0)} req/s)`,
  goal: "≥ 60 req/s",
  pass: rate >= 60,
  note: "bench/verify-keyed.mjs against a running npm start",
});
