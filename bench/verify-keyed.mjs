// Keyed verify on `npm start`: POST /v1/verify (multipart, an all-scope dev API key) of a signed 1 MP JPEG, one
// request at a time (ms p50) and 8 in flight (req/s), beside GET /healthz with 8 in flight in the same run (the
// baseline: what the same server answers when a request does no work).
// The goal row verifies files this service published (upload, express sign with watermark and fingerprints,
// download; bench/lib/verify-requests.mjs publishedFiles), a different publication each request: what a tenant
// verifies after publishing. Such a file reuses the pixel facts measured at its publication
// (src/verifications/pixel-memo.ts). The cold row (informational) verifies files signed in this script with the dev
// PKI of .dev.vars (signer chain + the internal TSA), as the service signs, so the server trusts them, but never
// published by it: every pixel signal is measured in the request, as for any file signed elsewhere.
// Usage: start the service (`npm start`, or PORT=<port> npm start), then `node bench/verify-keyed.mjs [--skip-cold]`
// (SVC_API_BASE_URL / SVC_API_KEY from .svc/dev.env unless set).
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { goal } from "./lib/goals.mjs";
import { devService, keyedFiles, publishedFiles, verifier } from "./lib/verify-requests.mjs";

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

// Every request verifies a file of its own: the service keeps a store's trust verdict from its third read
// (media/c2pa/trust-verdicts.ts), and a goal about verification must not measure that cache.
const REQUESTS = 5 + 20 + 120 + 1;
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
/** One row: 5 warm-up requests, 20 alone, 120 with 8 in flight, /healthz with 8 in flight beside it. */
async function measure(files) {
  const verify = verifier({ base, key, files });
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
  return {
    first,
    alone: p50(alone),
    health,
    rate,
    memo: /measured by this service at publication/.test(first.developer_explanation ?? ""),
  };
}
function print(title, files, r) {
  console.log(`\n${title} (${files[0].length} bytes, a different file each request) on ${base} (${new Date().toISOString()})`);
  console.log(
    `  verdict ${r.first.status ?? "?"}, manifest ${r.first.manifest_id ?? "?"}; pixel facts from publication: ${r.memo ? "yes" : "no"}`,
  );
  console.log(`  one request alone      ${r.alone.toFixed(1).padStart(7)} ms p50 (20 requests)`);
  console.log(`  8 in flight            ${r.rate.toFixed(1).padStart(7)} req/s (120 requests)`);
  console.log(`  GET /healthz, 8 in flight ${r.health.toFixed(0).padStart(5)} req/s (baseline, same run)`);
}

// Measured once the publications' deferred work and express safety nets (120 s) have run: a real client verifies its
// file long after that, and the rate measured is the verify's alone.
const files = await publishedFiles(REQUESTS, { base, key, settleMs: 125_000 });
writeFileSync(join(OUT, "verify-keyed-1mp.jpg"), files[0]);
const published = await measure(files);
print("Keyed POST /v1/verify of 1 MP JPEGs this service published", files, published);
// The cold path, informational (in the goal row's note, not a goal of its own).
let coldNote = "";
if (!process.argv.includes("--skip-cold")) {
  const cold = await keyedFiles(REQUESTS);
  const r = await measure(cold);
  print("Keyed POST /v1/verify of 1 MP JPEGs signed elsewhere with a trusted key (cold: every pixel signal measured)", cold, r);
  coldNote = `; cold path (signed elsewhere, pixels measured in the request): ${r.rate.toFixed(0)} req/s, ${r.alone.toFixed(0)} ms alone`;
}
const rate = published.rate;
const health = published.health;
const alone = [published.alone];
goal({
  what: "keyed verify of a signed 1 MP JPEG on npm start, 8 in flight",
  figure: `${rate.toFixed(0)} req/s (${p50(alone).toFixed(0)} ms alone; /healthz ${health.toFixed(0)} req/s)`,
  goal: "≥ 60 req/s",
  pass: rate >= 60,
  note: `bench/verify-keyed.mjs against a running npm start: files this service published${published.memo ? " (pixel facts from publication)" : ""}${coldNote}`,
});
