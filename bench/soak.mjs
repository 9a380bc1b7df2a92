// `npm run campaign:soak` (#22, "Load"): a bounded soak of mixed traffic on `npm start` (wrangler dev, as a user runs
// it). It starts the service on SOAK_PORT (8819) with a short webhook retry schedule (SVC_WEBHOOK_RETRY_SCHEDULE, the
// variable that exists for it) and a local receiver on SOAK_RECEIVER_PORT (8820) that fails half of the attempts
// (seeded), registers webhook endpoints through the API, then runs a few concurrent clients for the duration:
// uploads (single and multipart), signs (sign-only, watermark, express), verifies (public and keyed; signed copies,
// stripped copies, unrelated images), job polls, list calls, API key create/use/revoke. It samples the workerd
// processes' RSS every ~10 s and, every minute over the inspector of the workerd that runs the Workers (wrangler dev
// starts it on a free port; wrangler's own inspector goes to SOAK_INSPECTOR_PORT, 8811), the Worker isolates' V8
// heap and ArrayBuffers after a full collection, and their wasm memories (lib/workerd-heap.mjs). After a drain period it checks every invariant and exits
// non-zero if one fails: 0 × 5xx, no unanswered request, every job terminal, every delivery delivered or ended with a
// reason (nothing pending), every verification answered as its subject demands, every revoked key refused, the
// Workers' retained memory flat (RSS is printed beside it: it also holds the simulators, uncollected garbage and slack).
//
//   node bench/soak.mjs [--minutes 10] [--clients 4] [--seed 22] [--schedule 2,4,8,16]
//   env: SOAK_MINUTES, SOAK_CLIENTS, SOAK_SEED, SOAK_RETRY_SCHEDULE, SOAK_PORT, SOAK_RECEIVER_PORT, SOAK_INSPECTOR_PORT,
//        SOAK_HEAP_EVERY_SECONDS, SOAK_HEAP_SNAPSHOTS (a directory: every heap snapshot is written there),
//        SOAK_RECEIVER_KEEPALIVE_MS
import { spawn } from "node:child_process";
import { createHash, randomUUID } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { prng } from "../test/support/prng.ts";
import { longWav, signingPool, stripJpeg, unrelatedPool } from "./lib/soak-media.mjs";
import { SoakReceiver } from "./lib/soak-receiver.mjs";
import { collectedHeap, findUserInspector, heapUsage, snapshotBuffers, snapshotGrowth } from "./lib/workerd-heap.mjs";
import { readMemory, workerdPids } from "./lib/workerd-memory.mjs";

const ROOT = join(import.meta.dirname, "..");
const { values: args } = parseArgs({
  options: {
    minutes: { type: "string" },
    clients: { type: "string" },
    seed: { type: "string" },
    schedule: { type: "string" },
  },
});
const MINUTES = Number(args.minutes ?? process.env.SOAK_MINUTES ?? 10);
const CLIENTS = Number(args.clients ?? process.env.SOAK_CLIENTS ?? 4);
const SEED = Number(args.seed ?? process.env.SOAK_SEED ?? 22);
const SCHEDULE = args.schedule ?? process.env.SOAK_RETRY_SCHEDULE ?? "2,4,8,16";
const PORT = Number(process.env.SOAK_PORT ?? 8819);
const RECEIVER_PORT = Number(process.env.SOAK_RECEIVER_PORT ?? 8820);
/** wrangler dev's own inspector port (otherwise 9229, which other sessions on the machine may hold). */
const INSPECTOR_PORT = Number(process.env.SOAK_INSPECTOR_PORT ?? 8811);
const BASE = `http://127.0.0.1:${PORT}`;
const DELAYS = SCHEDULE.split(",").map(Number);
if (!(MINUTES > 0) || !(CLIENTS >= 1) || DELAYS.some((d) => !(d >= 0))) throw new Error("soak: bad --minutes, --clients or --schedule");
/**
 * The Worker isolates' retained memory (after a full collection, every HEAP_EVERY_S: the V8 heap and the ArrayBuffers
 * outside it, wasm memories apart) is flat when the median of the run's last third is within this of its first
 * third's, and the figure after the drain too: max(16 MiB, 20 %). A leak of the
 * size RSS once suggested (≈ 25 MiB a minute) exceeds it in the first minutes; a healthy run moves by the requests
 * in flight at the sample (a few MiB of bodies and parsed manifests).
 */
const HEAP_TOLERANCE_BYTES = 16 * 2 ** 20;
const HEAP_TOLERANCE = 0.2;
/** Wasm memories that may appear after the first third (a kernel the warm-up's mix did not need yet). */
const WASM_MEMORIES_SLACK = 3;
const HEAP_EVERY_S = Number(process.env.SOAK_HEAP_EVERY_SECONDS ?? 60);
/** When set, every heap snapshot is written there (load them in DevTools' Memory panel to see what holds what). */
const SNAPSHOT_DIR = process.env.SOAK_HEAP_SNAPSHOTS;
/** Traffic before the measured run (the same mix), so its first minute is not the isolates' warm-up. */
const WARMUP_SECONDS = Number(process.env.SOAK_WARMUP_SECONDS ?? 60);
/** A request unanswered after this long counts as a hang. */
const REQUEST_TIMEOUT_MS = 120_000;
/** The drain waits for the retry schedule to run out (with its ±10 % jitter) and for the queues, then gives up. */
const DRAIN_LIMIT_MS = 180_000 + DELAYS.reduce((a, b) => a + b, 0) * 1100;

const MiB = 2 ** 20;
const failures = [];
const fail = (what) => {
  failures.push(what);
  if (failures.length <= 20) console.log(`  ✗ ${what}`);
};

// ---------------------------------------------------------------------------------------------------------------
const pick = (rand, list) => list[Math.floor(rand() * list.length)];
const sha256 = (bytes) => createHash("sha256").update(bytes).digest("hex");
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------------------------------
// Per-operation figures: latency of every answered request, and every non-2xx by status and code.
const ops = new Map();
function record(op, ms, status, code) {
  const o = ops.get(op) ?? { ms: [], errors: new Map() };
  ops.set(op, o);
  if (status !== null) o.ms.push(ms);
  if (status === null || status < 200 || status >= 300) {
    const label = status === null ? `unanswered (${code})` : `${status} ${code ?? ""}`.trim();
    o.errors.set(label, (o.errors.get(label) ?? 0) + 1);
  }
}
const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

/**
 * One request, timed and recorded under `op`. `expect` lists the statuses this call should get (the soak sends only
 * valid requests); anything else is recorded and fails the run. Returns { status, body, bytes } (status null when
 * no answer came).
 */
async function call(op, path, { method = "GET", key, json, body, headers = {}, expect = [200], raw = false } = {}) {
  const url = path.startsWith("http") ? path : `${BASE}${path}`;
  const h = { ...headers };
  if (key) h.authorization = `Bearer ${key}`;
  if (json !== undefined) h["content-type"] = "application/json";
  const t0 = performance.now();
  let res;
  try {
    res = await fetch(url, {
      method,
      headers: h,
      body: json !== undefined ? JSON.stringify(json) : body,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch (error) {
    const why = error?.name === "TimeoutError" ? "timeout" : (error?.cause?.code ?? error?.name ?? "error");
    record(op, performance.now() - t0, null, why);
    fail(`${op} ${method} ${path.slice(0, 80)}: no answer (${why})`);
    return { status: null, body: null, bytes: null };
  }
  const bytes = new Uint8Array(await res.arrayBuffer());
  const ms = performance.now() - t0;
  let parsed = null;
  if (!raw) {
    try {
      parsed = JSON.parse(new TextDecoder().decode(bytes));
    } catch {}
  }
  const code = res.status >= 300 ? (parsed?.code ?? parsed?.detail ?? "") : undefined;
  record(op, ms, res.status, code);
  if (res.status >= 500) fail(`${op}: ${res.status} ${code} (${parsed?.request_id ?? "no request id"})`);
  else if (!expect.includes(res.status)) fail(`${op}: ${res.status} ${code ?? ""} where ${expect.join("/")} was expected`);
  if (res.status >= 400 && (!parsed || (typeof parsed.code !== "string" && typeof parsed.detail !== "string")))
    fail(`${op}: ${res.status} without the error envelope`);
  return { status: res.status, body: parsed, bytes, headers: res.headers };
}

// ---------------------------------------------------------------------------------------------------------------
// The service: `npm start` on PORT, its key from .svc/dev.env, its workerd processes for the memory samples.
const receiver = new SoakReceiver({ port: RECEIVER_PORT, seed: SEED });
await receiver.start();
console.log(
  `soak: ${MINUTES} min, ${CLIENTS} clients, seed ${SEED}; npm start on :${PORT}; receiver on :${RECEIVER_PORT} failing 50 % of attempts`,
);
console.log(
  `soak: SVC_WEBHOOK_RETRY_SCHEDULE=${SCHEDULE} (delays in s before attempts 2…${DELAYS.length + 1}; the default is 5,300,1800,… over 3 days)`,
);
if (SNAPSHOT_DIR) mkdirSync(SNAPSHOT_DIR, { recursive: true });
if (process.env.MINIFLARE_WORKERD_V8_FLAGS)
  console.log(`soak: workerd V8 flags ${process.env.MINIFLARE_WORKERD_V8_FLAGS} (MINIFLARE_WORKERD_V8_FLAGS)`);
const service = spawn("npm", ["start"], {
  cwd: ROOT,
  env: {
    ...process.env,
    PORT: String(PORT),
    SVC_INSPECTOR_PORT: String(INSPECTOR_PORT),
    SVC_WEBHOOKS_ALLOW_LOOPBACK: "1",
    SVC_WEBHOOK_RETRY_SCHEDULE: SCHEDULE,
  },
  stdio: ["ignore", "ignore", "pipe"],
  detached: true,
});
let serviceLog = "";
service.stderr.on("data", (d) => {
  serviceLog = (serviceLog + d).slice(-6000);
});
let stopping = false;
async function stopService() {
  if (stopping) return;
  stopping = true;
  for (const signal of ["SIGINT", "SIGTERM"]) {
    try {
      process.kill(-service.pid, signal);
    } catch {}
    await sleep(1500);
  }
  await receiver.stop().catch(() => {});
}
for (const signal of ["SIGINT", "SIGTERM"])
  process.on(signal, () => {
    void stopService().then(() => process.exit(130));
  });

let exitCode = 1;
try {
  exitCode = await soak();
} catch (error) {
  console.log(`soak: aborted: ${error?.stack ?? error}\n--- npm start (tail) ---\n${serviceLog}`);
} finally {
  await stopService();
}
process.exit(exitCode);

async function ready() {
  const until = Date.now() + 600_000;
  while (Date.now() < until) {
    if (service.exitCode !== null) throw new Error(`npm start exited (${service.exitCode})`);
    try {
      if ((await fetch(`${BASE}/healthz`)).ok) return;
    } catch {}
    await sleep(500);
  }
  throw new Error("npm start was not ready within 600 s");
}

/** CPU seconds (user + system) of `pids` so far, from /proc. */
function cpuSeconds(pids) {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(f[11]) + Number(f[12]);
    } catch {}
  }
  return ticks / 100;
}

async function soak() {
  const startedAt = Date.now();
  await ready();
  console.log(`soak: npm start ready after ${((Date.now() - startedAt) / 1000).toFixed(0)} s`);
  const devEnv = Object.fromEntries(
    readFileSync(join(ROOT, ".svc", "dev.env"), "utf8")
      .split("\n")
      .filter((line) => line.includes("="))
      .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
  );
  const KEY = devEnv.SVC_API_KEY;
  const pids = workerdPids(service.pid);
  if (pids.length === 0) throw new Error("no workerd process under npm start");

  // -- Webhook endpoints, registered through the API (leftovers of an earlier soak on this receiver are deleted).
  const prefix = receiver.url("/soak-");
  const existing = await call("webhooks.list", "/v1/webhook-endpoints?limit=100", { key: KEY });
  for (const e of existing.body?.data ?? [])
    if (e.url.startsWith(`http://127.0.0.1:${RECEIVER_PORT}/`) && e.state !== "deleted")
      await call("webhooks.delete", `/v1/webhook-endpoints/${e.endpoint_id}`, { method: "DELETE", key: KEY, expect: [200, 204] });
  const endpoints = [];
  for (const name of ["a", "b"]) {
    const path = `/soak-${name}-${SEED}-${startedAt}`;
    const created = await call("webhooks.create", "/v1/webhook-endpoints", {
      method: "POST",
      key: KEY,
      headers: { "idempotency-key": randomUUID() },
      json: {
        url: receiver.url(path),
        event_catalog_version: "svc.customer-events.v1",
        events: ["asset.signed", "asset.watermarked", "job.failed"],
        max_concurrency: 4,
        rate_limit_per_minute: 600,
        // At 50 % failures, 100 consecutive ones never happen; the soak is about retries, not auto-disable.
        auto_disable_after_failures: 100,
      },
      expect: [201],
    });
    if (created.status !== 201) throw new Error(`endpoint not created: ${created.status}`);
    receiver.secrets.set(path, created.body.secret);
    endpoints.push({ id: created.body.endpoint.endpoint_id, path });
  }
  console.log(`soak: endpoints ${endpoints.map((e) => e.id).join(", ")} → ${prefix}…`);

  // -- Shared state of the clients.
  const pool = signingPool();
  const unrelated = unrelatedPool();
  const bigWav = longWav(6 * MiB);
  const jobs = new Map(); // job_id → { kind, name, state }
  const signedJpegs = []; // { bytes, watermarked, name } — the latest signed photographs, for verifies
  const revokedKeys = []; // { id, secret }
  const verifyOutcomes = new Map(); // `${subject} ${status}` → count
  let addressCounter = 0;

  async function upload(file, mode) {
    const bytes = file.bytes;
    const parts =
      mode === "multipart"
        ? bytes.length > 5 * MiB
          ? [
              { part_number: 1, byte_length: 5 * MiB },
              { part_number: 2, byte_length: bytes.length - 5 * MiB },
            ]
          : [{ part_number: 1, byte_length: bytes.length }]
        : [];
    const created = await call(`uploads.create (${mode})`, "/v1/uploads", {
      method: "POST",
      key: KEY,
      json: { byte_length: bytes.length, declared_media_type: file.type, mode, sha256: sha256(bytes), filename: file.name, parts },
      expect: [201],
    });
    if (created.status !== 201) return null;
    const u = created.body;
    const done = [];
    if (mode === "single") {
      const put = await call("uploads.put", u.upload.url, { method: u.upload.method, headers: u.upload.headers, body: bytes, raw: true });
      if (put.status !== 200) return null;
    } else {
      let at = 0;
      for (const part of u.parts) {
        const chunk = bytes.subarray(at, at + part.byte_length);
        at += part.byte_length;
        const put = await call("uploads.put-part", part.url, { method: part.method, headers: part.headers, body: chunk, raw: true });
        if (put.status !== 200) return null;
        done.push({ part_number: part.part_number, etag: put.headers.get("etag") });
      }
    }
    const completed = await call(`uploads.complete (${mode})`, `/v1/uploads/${u.upload_id}/complete`, {
      method: "POST",
      key: KEY,
      headers: { "idempotency-key": randomUUID() },
      json: mode === "multipart" ? { parts: done } : {},
    });
    return completed.status === 200 ? completed.body : null;
  }

  const TERMINAL = new Set(["completed", "failed", "rejected", "canceled", "expired"]);
  async function poll(jobId, until) {
    let wait = 1000;
    for (;;) {
      const got = await call("jobs.get", `/v1/jobs/${jobId}`, { key: KEY });
      if (got.status !== 200) return null;
      jobs.get(jobId).state = got.body.state;
      if (TERMINAL.has(got.body.state)) return got.body;
      if (Date.now() > until) return got.body;
      await sleep(wait);
      wait = Math.min(wait * 2, 8000);
    }
  }

  async function keep(assetId, download, watermarked, file) {
    const d =
      download ??
      (
        await call("assets.download", `/v1/assets/${assetId}/download`, {
          method: "POST",
          key: KEY,
          headers: { "idempotency-key": randomUUID() },
        })
      ).body;
    if (!d?.url) return;
    const got = await call("download.get", d.url, { headers: d.headers, raw: true });
    if (got.status !== 200) return;
    if (sha256(got.bytes) !== d.sha256) fail(`download of ${assetId}: bytes differ from the announced sha256`);
    if (d.media_type === "image/jpeg") {
      signedJpegs.push({ bytes: got.bytes, watermarked, full: Boolean(file.full), assetId });
      if (signedJpegs.length > 24) signedJpegs.shift();
    }
  }

  /** Upload, sign with one of the three ways, follow the job to its end, download the output. */
  async function uploadAndSign(rand, until) {
    const way = pick(rand, ["sign-only", "sign-only", "watermark", "express", "express"]);
    const audio = rand() < 0.2;
    const multipart = rand() < 0.3;
    // Watermarks go to what can carry them (full-size photographs; audio of at least 9 s); the long WAV is the
    // two-part multipart upload.
    const file = audio
      ? multipart && rand() < 0.5
        ? { name: "speech-music-long.wav", type: "audio/wav", bytes: bigWav }
        : pick(rand, way === "sign-only" ? pool.audio : pool.markableAudio)
      : pick(rand, way === "sign-only" ? pool.photos : pool.markablePhotos);
    const up = await upload(file, multipart ? "multipart" : "single");
    if (!up) return;
    const express = way === "express" && file.type === "image/jpeg";
    const kind = way === "sign-only" ? "sign-only" : express ? "express" : "watermark";
    const recipe = way === "sign-only" ? "rcp_system_sign_only" : "rcp_system_watermark_then_sign";
    const op = `sign (${kind}${audio ? ", audio" : ""})`;
    const signed = await call(op, "/v1/sign", {
      method: "POST",
      key: KEY,
      headers: { "idempotency-key": randomUUID() },
      json: { asset_id: up.asset_id, recipe_id: recipe, ...(express ? { mode: "express" } : {}) },
      expect: express ? [200, 202] : [202],
    });
    if (!signed.body?.job_id) return;
    const jobId = signed.body.job_id;
    jobs.set(jobId, { kind: `${kind}${audio ? ", audio" : ""}`, name: file.name, state: signed.body.state });
    const job = signed.status === 200 && TERMINAL.has(signed.body.state) ? signed.body : await poll(jobId, until);
    if (job?.state === "completed")
      await keep(up.asset_id, signed.status === 200 ? signed.body.download : null, kind !== "sign-only", file);
    else if (job && TERMINAL.has(job.state)) fail(`job ${jobId} (${op}, ${file.name}) ended ${job.state} ${job.error_code}`);
  }

  /** A verification of a signed copy, a stripped copy or an unrelated image, public (own address) or keyed. */
  async function verify(rand) {
    const keyed = rand() < 0.5;
    const r = rand();
    let subject;
    let bytes;
    if (r < 0.35 && signedJpegs.length) {
      const s = pick(rand, signedJpegs);
      subject = "signed copy";
      bytes = s.bytes;
    } else if (r < 0.7 && signedJpegs.length) {
      const s = pick(rand, signedJpegs);
      subject = `stripped copy (${s.full ? "photograph" : "256 px scene"}, ${s.watermarked ? "watermarked" : "sign-only"})`;
      bytes = stripJpeg(s.bytes);
    } else {
      const u = pick(rand, unrelated);
      subject = u.name.startsWith("c2pa") ? "signed elsewhere" : "unrelated photo";
      bytes = u.bytes;
    }
    const form = new FormData();
    form.append("file", new File([bytes], "subject.jpg", { type: "image/jpeg" }));
    const n = ++addressCounter;
    const got = await call(keyed ? "verify (keyed)" : "verify (public)", "/v1/verify", {
      method: "POST",
      key: keyed ? KEY : undefined,
      body: form,
      // wrangler dev keeps a CF-Connecting-IP the caller sends: each public verify comes from its own address, as
      // many visitors would (the public limit is 10 a minute per address).
      headers: keyed ? {} : { "cf-connecting-ip": `10.${200 + (n >> 16)}.${(n >> 8) & 255}.${n & 255}` },
    });
    const status = got.body?.status ?? got.body?.result?.status;
    const label = `${subject}: ${got.status === 200 ? status : got.status}`;
    verifyOutcomes.set(label, (verifyOutcomes.get(label) ?? 0) + 1);
    if (got.status !== 200) return;
    if (typeof status !== "string") fail(`verify of a ${subject}: 200 without a status`);
    else if (subject === "signed copy" && !status.startsWith("verified")) fail(`verify of a signed copy: ${status}`);
    // A stripped copy of a photograph is recovered by its watermark or fingerprints; a 256 px scene signed only
    // may fall under PDQ's quality gate (README, fingerprint recall), so only its answer is required.
    else if (subject.startsWith("stripped copy (photograph") && !["watermark_only", "fingerprint_match_only"].includes(status))
      fail(`verify of a ${subject}: ${status} (not recovered)`);
    else if (!subject.includes("copy") && (status.startsWith("verified") || status.endsWith("_only")))
      fail(`verify of an image the soak never signed (${subject}): ${status}`);
  }

  async function lists(rand) {
    const which = pick(rand, [
      "/v1/jobs?limit=25",
      "/v1/assets?limit=25",
      "/v1/verifications?limit=25",
      "/v1/receipts?limit=25",
      "/v1/webhook-endpoints?limit=50",
      `/v1/webhook-endpoints/${pick(rand, endpoints).id}/deliveries`,
    ]);
    const op = `list ${which.split("?")[0].replace(/whe_[a-z2-7]+/, "{id}")}`;
    const page = await call(op, which, { key: KEY });
    if (page.status === 200 && page.body?.next_cursor && rand() < 0.5 && which.includes("limit=25")) {
      const base = which.split("?")[0];
      await call(`${op} (next page)`, `${base}?limit=25&cursor=${encodeURIComponent(page.body.next_cursor)}`, { key: KEY });
    }
  }

  async function keys() {
    const created = await call("api-keys.create", "/v1/api-keys", {
      method: "POST",
      key: KEY,
      headers: { "idempotency-key": randomUUID() },
      json: { name: `soak ${randomUUID().slice(0, 8)}`, scopes: ["identity:read", "jobs:read"] },
      expect: [201],
    });
    if (created.status !== 201) return;
    const { api_key, secret } = created.body;
    await call("me (new key)", "/v1/me", { key: secret });
    const revoked = await call("api-keys.revoke", `/v1/api-keys/${api_key.id ?? api_key.api_key_id}`, {
      method: "DELETE",
      key: KEY,
      expect: [200, 204],
    });
    if (revoked.status === 200 || revoked.status === 204) revokedKeys.push({ id: api_key.id ?? api_key.api_key_id, secret });
  }

  async function pollKnown(rand) {
    const ids = [...jobs.keys()];
    if (ids.length) await call("jobs.get", `/v1/jobs/${pick(rand, ids)}`, { key: KEY });
  }

  async function uploadOnly(rand) {
    await upload(pick(rand, pool.photos), rand() < 0.5 ? "multipart" : "single");
  }

  /** `CLIENTS` clients, each drawing its next piece of work from its own seeded stream, until `until`. */
  async function runClients(until, salt) {
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, c) => {
        const rand = prng(SEED * 1000 + salt * 100 + c);
        while (Date.now() < until) {
          const r = rand();
          if (r < 0.3) await uploadAndSign(rand, until);
          else if (r < 0.6) await verify(rand);
          else if (r < 0.78) await lists(rand);
          else if (r < 0.86) await pollKnown(rand);
          else if (r < 0.93) await keys();
          else await uploadOnly(rand);
        }
      }),
    );
  }

  // -- Warm-up: a minute of the same traffic, outside the figures (its jobs and events are still checked at the
  // end), so the first measured minute is not the isolates' compilation and first allocations.
  console.log(`soak: warm-up, ${WARMUP_SECONDS} s of the same traffic (not in the figures)…`);
  const warm = prng(SEED * 7919);
  await Promise.all([uploadAndSign(warm, Date.now() + 180_000), verify(warm), lists(warm), keys()]);
  await runClients(Date.now() + WARMUP_SECONDS * 1000, 1);
  const warmRss = readMemory(workerdPids(service.pid)).rss;
  ops.clear();
  verifyOutcomes.clear();

  // -- The isolates' heaps, over the inspector of the workerd that runs the Workers (lib/workerd-heap.mjs): the
  // Workers' (API and media; the Durable Objects run in the API Worker's isolate) after a full collection, the
  // simulators' (D1, R2, queues: Workers of Miniflare's own) as they are, and every isolate's committed V8 heap.
  const inspector = await findUserInspector(workerdPids(service.pid));
  if (!inspector) fail("memory: the inspector of the Workers' workerd was not found (their retained memory is not measured)");
  const workerTargets = (inspector?.targets ?? []).filter((t) => t.id.startsWith("core:user:svc"));
  const heapSamples = []; // { t, phase, live: { id → bytes }, buffers: { id → snapshotBuffers }, committed, simulators: { id → bytes } }
  const firstSummary = new Map();
  const lastSummary = new Map();
  let heapBusy = null;
  const stateBytes = () => directoryBytes(join(ROOT, ".wrangler", "state"));
  async function heapSample(phase, runStartedAt) {
    const t = (Date.now() - runStartedAt) / 1000;
    const entry = { t, phase, live: {}, heap: {}, buffers: {}, committed: 0, committedOf: 0, simulators: {}, state: stateBytes() };
    for (const target of workerTargets) {
      try {
        const c = await collectedHeap(target.url, { keepText: Boolean(SNAPSHOT_DIR) });
        if (SNAPSHOT_DIR) {
          const file = join(
            SNAPSHOT_DIR,
            `${target.id.replace(/[^a-z0-9-]+/gi, "_")}-${String(Math.round(t)).padStart(4, "0")}s.heapsnapshot`,
          );
          writeFileSync(file, c.text);
        }
        entry.buffers[target.id] = snapshotBuffers(c.byConstructor);
        entry.heap[target.id] = c.after.used;
        // What our code keeps: the V8 heap and the ArrayBuffers outside it, but not the wasm linear memories (kernels
        // and engines held once per isolate; each keeps the size its largest input needed: checked apart below).
        entry.live[target.id] = c.after.used + entry.buffers[target.id].otherArrayBufferBytes;
        if (!firstSummary.has(target.id)) firstSummary.set(target.id, c.byConstructor);
        lastSummary.set(target.id, c.byConstructor);
      } catch (error) {
        entry.live[target.id] = null;
        entry.heap[target.id] = null;
        console.log(`  heap of ${target.id} not measured at ${t.toFixed(0)} s: ${error.message}`);
      }
    }
    const usages = await Promise.all(
      (inspector?.targets ?? []).map((target) =>
        heapUsage(target.url).then(
          (u) => [target.id, u],
          () => [target.id, null],
        ),
      ),
    );
    for (const [id, u] of usages) {
      if (!u) continue;
      entry.committed += u.total;
      entry.committedOf++;
      if (/^(d1|r2|queues):/.test(id)) entry.simulators[id] = u.used;
    }
    heapSamples.push(entry);
  }
  const liveOfWorkers = (e) => {
    const values = Object.values(e.live);
    return values.length && values.every((v) => v !== null) ? values.reduce((a, b) => a + b, 0) : null;
  };

  // -- The run.
  const durationMs = MINUTES * 60_000;
  const runStart = Date.now();
  const deadline = runStart + durationMs;
  const samples = [];
  const cpu0 = cpuSeconds(pids);
  const sample = () => {
    const now = workerdPids(service.pid);
    if (now.join() !== pids.join()) fail(`workerd processes changed during the run: ${pids.join(",")} → ${now.join(",")}`);
    const m = readMemory(now);
    const each = now.map((pid) => readMemory([pid]).rss);
    samples.push({ t: (Date.now() - runStart) / 1000, rss: m.rss, anon: m.anon, file: m.file, each, load: loadavg()[0] });
  };
  sample();
  if (inspector) await heapSample("run", runStart);
  const heapTimer = setInterval(() => {
    if (!inspector || heapBusy) return;
    heapBusy = heapSample("run", runStart).finally(() => {
      heapBusy = null;
    });
  }, HEAP_EVERY_S * 1000);
  const sampler = setInterval(() => {
    try {
      sample();
    } catch (error) {
      fail(`memory sample: ${error.message}`);
    }
  }, 10_000);
  console.log(`soak: running ${MINUTES} min (load average ${loadavg()[0].toFixed(1)} on ${cpus().length} cores)…`);
  const progress = setInterval(() => {
    const requests = [...ops.values()].reduce((n, o) => n + o.ms.length, 0);
    const last = samples.at(-1);
    console.log(
      `  ${((Date.now() - runStart) / 60000).toFixed(1)} min: ${requests} requests, ${jobs.size} jobs, ${receiver.requests} webhook attempts, workerd RSS ${(last.rss / MiB).toFixed(0)} MiB, load ${last.load.toFixed(1)}`,
    );
  }, 60_000);
  await runClients(deadline, 2);
  clearInterval(sampler);
  clearInterval(progress);
  clearInterval(heapTimer);
  await heapBusy;
  sample();
  if (inspector) await heapSample("end of run", runStart);
  const runSeconds = (Date.now() - runStart) / 1000;
  const cpuRun = cpuSeconds(pids) - cpu0;

  // -- Drain: every job terminal, every delivery finished, within the retry schedule's span and a margin.
  const drainStart = Date.now();
  console.log(`soak: drain (up to ${(DRAIN_LIMIT_MS / 1000).toFixed(0)} s: the retry schedule's span and a margin)…`);
  const deliveries = new Map(); // delivery_id → delivery
  async function readDeliveries() {
    deliveries.clear();
    for (const e of endpoints) {
      let cursor = null;
      for (let page = 0; page < 1000; page++) {
        const got = await call(
          "drain: list deliveries",
          `/v1/webhook-endpoints/${e.id}/deliveries?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
          { key: KEY },
        );
        if (got.status !== 200) break;
        for (const d of got.body.data) deliveries.set(d.delivery_id, { ...d, path: e.path });
        cursor = got.body.next_cursor;
        if (!cursor) break;
      }
    }
  }
  let settled = false;
  while (Date.now() - drainStart < DRAIN_LIMIT_MS) {
    for (const [id, j] of jobs)
      if (!TERMINAL.has(j.state)) {
        const got = await call("drain: jobs.get", `/v1/jobs/${id}`, { key: KEY });
        if (got.status === 200) j.state = got.body.state;
      }
    await readDeliveries();
    const openJobs = [...jobs.values()].filter((j) => !TERMINAL.has(j.state)).length;
    const openDeliveries = [...deliveries.values()].filter((d) => d.status === "pending" || d.status === "delivering").length;
    if (openJobs === 0 && openDeliveries === 0) {
      settled = true;
      break;
    }
    await sleep(5000);
  }
  const drainSeconds = (Date.now() - drainStart) / 1000;
  // The heap once the traffic and the retries are over: what is left is what the isolates keep.
  if (inspector) await heapSample("after the drain", runStart);
  // Nothing may move after settling: one more read after a pause shows the same count and states.
  await sleep(5000);
  const before = new Map([...deliveries].map(([id, d]) => [id, d.status]));
  await readDeliveries();
  for (const [id, d] of deliveries)
    if (before.get(id) !== d.status) fail(`delivery ${id} moved after the drain: ${before.get(id)} → ${d.status}`);

  // -- The tenant's whole job history: nothing left running anywhere (earlier runs included).
  const tenantJobStates = new Map();
  {
    let cursor = null;
    for (let page = 0; page < 1000; page++) {
      const got = await call("drain: list jobs", `/v1/jobs?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, {
        key: KEY,
      });
      if (got.status !== 200) break;
      for (const j of got.body.items) tenantJobStates.set(j.state, (tenantJobStates.get(j.state) ?? 0) + 1);
      cursor = got.body.next_cursor;
      if (!cursor) break;
    }
  }
  // -- Revoked keys are refused.
  let revokedRefused = 0;
  for (const k of revokedKeys) {
    const got = await call("drain: me (revoked key)", "/v1/me", { key: k.secret, expect: [401] });
    if (got.status === 401) revokedRefused++;
  }

  // -- Figures.
  const lines = [];
  const out = (s = "") => lines.push(s);
  out(
    `\n=== soak summary (seed ${SEED}, ${CLIENTS} clients, ${runSeconds.toFixed(0)} s of traffic, drain ${drainSeconds.toFixed(0)} s) ===`,
  );
  const loads = samples.map((s) => s.load);
  out(
    `machine: ${cpus().length} cores, load average during the run ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} (mean ${(loads.reduce((a, b) => a + b, 0) / loads.length).toFixed(1)}); workerd CPU ${cpuRun.toFixed(0)} s over ${runSeconds.toFixed(0)} s (${((100 * cpuRun) / runSeconds).toFixed(0)} % of one core)`,
  );
  out(`retry schedule: SVC_WEBHOOK_RETRY_SCHEDULE=${SCHEDULE} (${DELAYS.length + 1} attempts at most)`);
  out("");
  out(`${"operation".padEnd(44)} ${"n".padStart(6)} ${"p50 ms".padStart(8)} ${"p99 ms".padStart(8)}  non-2xx`);
  let total = 0;
  let fivexx = 0;
  for (const [op, o] of [...ops.entries()].sort((a, b) => a[0].localeCompare(b[0]))) {
    const sorted = o.ms.slice().sort((a, b) => a - b);
    total += o.ms.length;
    for (const [label, n] of o.errors) if (/^5\d\d/.test(label)) fivexx += n;
    const errors = [...o.errors].map(([label, n]) => `${n} × ${label}`).join(", ") || "0";
    out(
      `${op.padEnd(44)} ${String(o.ms.length).padStart(6)} ${(quantile(sorted, 0.5) ?? 0).toFixed(0).padStart(8)} ${(quantile(sorted, 0.99) ?? 0).toFixed(0).padStart(8)}  ${errors}`,
    );
  }
  const trafficRequests = [...ops.entries()].filter(([op]) => !op.startsWith("drain")).reduce((n, [, o]) => n + o.ms.length, 0);
  out(`requests: ${total} answered (${trafficRequests} during the run, ${(trafficRequests / runSeconds).toFixed(1)}/s); 5xx: ${fivexx}`);
  out("");
  out("verifications (subject: answer):");
  for (const [label, n] of [...verifyOutcomes].sort((a, b) => b[1] - a[1])) out(`  ${String(n).padStart(5)}  ${label}`);

  // Jobs.
  const jobStates = new Map();
  for (const j of jobs.values()) {
    const k = `${j.state} (${j.kind})`;
    jobStates.set(k, (jobStates.get(k) ?? 0) + 1);
  }
  out("");
  out(`jobs of this run (warm-up included): ${jobs.size} — ${[...jobStates].map(([k, n]) => `${n} ${k}`).join(", ")}`);
  out(`jobs of the tenant (all runs): ${[...tenantJobStates].map(([k, n]) => `${n} ${k}`).join(", ")}`);
  for (const [id, j] of jobs) if (!TERMINAL.has(j.state)) fail(`job ${id} (${j.kind}, ${j.name}) not terminal after the drain: ${j.state}`);
  for (const [state, n] of tenantJobStates) if (!TERMINAL.has(state)) fail(`${n} job(s) of the tenant left ${state}`);

  // Deliveries, against what the receiver saw.
  const byState = new Map();
  for (const d of deliveries.values()) {
    const k = `${d.status}${d.terminal_reason ? ` (${d.terminal_reason})` : ""}`;
    byState.set(k, (byState.get(k) ?? 0) + 1);
    if (d.status === "pending" || d.status === "delivering") fail(`delivery ${d.delivery_id} still ${d.status} after the drain`);
    if ((d.status === "dead" || d.status === "failed") && !d.terminal_reason)
      fail(`delivery ${d.delivery_id} ${d.status} without a reason`);
    const seen = receiver.seen.get(`${d.path} ${d.event_id}`);
    if (d.status === "delivered" && !seen?.acknowledged) fail(`delivery ${d.delivery_id} delivered but the receiver acknowledged nothing`);
    if (d.status === "dead" && d.terminal_reason === "retries_exhausted") {
      if (seen?.acknowledged) fail(`delivery ${d.delivery_id} dead, but the receiver acknowledged it`);
      if (d.attempt_count !== DELAYS.length + 1)
        fail(`delivery ${d.delivery_id} dead after ${d.attempt_count} attempts, not ${DELAYS.length + 1}`);
    }
    if (d.attempt_count > DELAYS.length + 1) fail(`delivery ${d.delivery_id}: ${d.attempt_count} attempts, beyond the schedule`);
  }
  const byEvent = new Map([...deliveries.values()].map((d) => [`${d.path} ${d.event_id}`, d]));
  let acknowledgedTwice = 0;
  for (const [key, s] of receiver.seen) {
    if (!byEvent.has(key)) fail(`receiver got ${key}, which no delivery of the soak's endpoints names`);
    if (s.acknowledged > 1) acknowledgedTwice++;
  }
  const attempts = [...deliveries.values()].reduce((n, d) => n + d.attempt_count, 0);
  const events = new Set([...deliveries.values()].map((d) => d.event_id)).size;
  const completedJobs = [...jobs.values()].filter((j) => j.state === "completed").length;
  out("");
  out(
    `webhooks (warm-up included): ${events} events → ${deliveries.size} deliveries to ${endpoints.length} endpoints — ${[...byState].map(([k, n]) => `${n} ${k}`).join(", ")}`,
  );
  out(
    `  ${attempts} attempts recorded; the receiver saw ${receiver.requests} (${[...receiver.answers].map(([k, n]) => `${n} × ${k}`).join(", ")}), ${receiver.badSignatures} with a bad signature, ${acknowledgedTwice} acknowledged twice`,
  );
  // Attempts the service recorded that never reached the receiver: read their records (what the sender saw).
  const unseen = [...deliveries.values()].filter(
    (d) => d.attempt_count > (receiver.seen.get(`${d.path} ${d.event_id}`)?.attempts.length ?? 0),
  );
  const unseenErrors = new Map();
  for (const d of unseen.slice(0, 60)) {
    const got = await call("drain: list attempts", `/v1/webhook-endpoints/deliveries/${d.delivery_id}/attempts?limit=100`, { key: KEY });
    const arrived = receiver.seen.get(`${d.path} ${d.event_id}`)?.attempts.length ?? 0;
    // The receiver's count is a floor for the answered ones; tally the attempts the service recorded without an answer.
    const noAnswer = (got.body?.data ?? []).filter((a) => a.response_code === null);
    for (const a of noAnswer) unseenErrors.set(a.error ?? "null", (unseenErrors.get(a.error ?? "null") ?? 0) + 1);
    if ((got.body?.data ?? []).length - noAnswer.length > arrived)
      fail(`delivery ${d.delivery_id}: answers recorded that the receiver never gave`);
  }
  if (unseen.length)
    out(
      `  ${unseen.length} deliveries have attempts the receiver never saw; their unanswered attempts (${Math.min(60, unseen.length)} read): ${[...unseenErrors].map(([k, n]) => `${n} × ${k}`).join(", ")} (an attempt written on a pooled connection as the receiver closes it after 5 s idle: reset before any request is read; SOAK_RECEIVER_KEEPALIVE_MS=120000 removes them)`,
    );
  if (receiver.badSignatures) fail(`${receiver.badSignatures} webhook requests failed signature verification`);
  if (receiver.unknownPaths) fail(`${receiver.unknownPaths} webhook requests to paths the soak never registered`);
  // Every completed job of this run emits at least asset.signed or asset.watermarked to each endpoint.
  if (events < completedJobs) fail(`${completedJobs} jobs completed but only ${events} events were delivered or ended`);
  if (!settled) fail(`the drain did not settle within ${(DRAIN_LIMIT_MS / 1000).toFixed(0)} s`);
  out(`api keys: ${revokedKeys.length} created, used and revoked; ${revokedRefused} refused (401) afterwards`);

  // Memory. The check is the Workers' retained memory (a leak in our code is reachable, so it survives the collection);
  // RSS is printed beside it with what else the process holds.
  const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const mib = (x) => (x / MiB).toFixed(0);
  const mib1 = (x) => (x / MiB).toFixed(1);
  out("");
  const runHeap = heapSamples.filter((e) => e.phase !== "after the drain" && liveOfWorkers(e) !== null);
  const drained = heapSamples.find((e) => e.phase === "after the drain");
  if (runHeap.length >= 3) {
    const third = runSeconds / 3;
    const firstLive = median(runHeap.filter((e) => e.t <= third).map(liveOfWorkers));
    const lastLive = median(runHeap.filter((e) => e.t >= runSeconds - third).map(liveOfWorkers));
    const allowed = Math.max(HEAP_TOLERANCE_BYTES, HEAP_TOLERANCE * firstLive);
    out(
      `Worker isolates' retained memory after a full collection (V8 heap + ArrayBuffers other than wasm memories; ${workerTargets.map((t) => t.id.replace("core:user:", "")).join(" + ")}; every ${HEAP_EVERY_S} s, MiB): ${runHeap.map((e) => mib1(liveOfWorkers(e))).join(" ")}${drained ? ` | after the drain ${drained && liveOfWorkers(drained) !== null ? mib1(liveOfWorkers(drained)) : "not measured"}` : ""}`,
    );
    for (const target of workerTargets)
      out(
        `  ${target.id}: V8 heap ${heapSamples.map((e) => (e.heap[target.id] == null ? "–" : mib1(e.heap[target.id]))).join(" ")} MiB; other ArrayBuffers ${heapSamples.map((e) => (e.buffers[target.id] ? mib1(e.buffers[target.id].otherArrayBufferBytes) : "–")).join(" ")} MiB; wasm memories ${heapSamples.map((e) => (e.buffers[target.id] ? `${e.buffers[target.id].wasmMemories}:${mib(e.buffers[target.id].wasmMemoryBytes)}` : "–")).join(" ")} (count:MiB)`,
      );
    const growth = lastLive - firstLive;
    out(
      `  first third median ${mib1(firstLive)} MiB, last third median ${mib1(lastLive)} MiB: ${growth >= 0 ? "+" : ""}${mib1(growth)} MiB (allowed ${mib1(allowed)} MiB: max(${mib(HEAP_TOLERANCE_BYTES)} MiB, ${HEAP_TOLERANCE * 100} %)) → ${growth <= allowed ? "no leak" : "GROWING"}`,
    );
    // Wasm memories: one per kernel or engine and isolate, created by the warm-up's mix (a kind first met later adds
    // its own); each grows to its largest input and never shrinks, so their bytes step up and stay (bounded by the
    // input limits). An instance kept per request would add memories: more than a few after the first third fails.
    for (const target of workerTargets) {
      const counts = (keep) =>
        heapSamples
          .filter(keep)
          .map((e) => e.buffers[target.id]?.wasmMemories)
          .filter((n) => n !== undefined);
      const early = Math.max(...counts((e) => e.t <= third && e.phase === "run"));
      const late = Math.max(...counts(() => true));
      if (late > early + WASM_MEMORIES_SLACK)
        fail(`${target.id}: ${late} wasm memories at the end, ${early} in the first third (instances kept per request?)`);
    }
    if (growth > allowed)
      fail(`the Workers' retained memory grew ${mib1(growth)} MiB from the first to the last third (allowed ${mib1(allowed)} MiB)`);
    const idle = drained ? liveOfWorkers(drained) : null;
    if (idle === null) fail("the Workers' retained memory after the drain was not measured");
    else if (idle - firstLive > allowed)
      fail(
        `the Workers' retained memory after the drain is ${mib1(idle - firstLive)} MiB above the first third's (allowed ${mib1(allowed)} MiB)`,
      );
    for (const target of workerTargets) {
      const a = firstSummary.get(target.id);
      const b = lastSummary.get(target.id);
      if (!a || !b) continue;
      const rows = snapshotGrowth(a, b, 8).filter((r) => r.size > 0);
      if (rows.length)
        out(
          `  ${target.id}, largest changes from the first snapshot to the last (self size): ${rows.map((r) => `${r.key} ${r.size >= 0 ? "+" : ""}${(r.size / 1024).toFixed(0)} KiB (${r.count >= 0 ? "+" : ""}${r.count})`).join("; ")}`,
        );
    }
    const simIds = [...new Set(heapSamples.flatMap((e) => Object.keys(e.simulators)))].sort();
    out(
      `  simulator isolates' heap (garbage included, MiB, first → last): ${simIds.map((id) => `${id} ${mib1(heapSamples.find((e) => e.simulators[id] !== undefined).simulators[id])} → ${mib1(heapSamples.findLast((e) => e.simulators[id] !== undefined).simulators[id])}`).join(", ")}`,
    );
    out(
      `  every isolate's committed V8 heap (${heapSamples[0].committedOf} isolates, MiB): ${heapSamples.map((e) => mib(e.committed)).join(" ")}; local state on disk (.wrangler/state: D1, R2, Durable Objects' SQLite, MiB): ${heapSamples.map((e) => mib(e.state)).join(" ")}`,
    );
  } else {
    out("Worker isolates' retained memory: not computed (fewer than 3 samples)");
    fail("memory: the Workers' retained memory was not measured (fewer than 3 samples)");
  }
  const windowSeconds = Math.min(60, runSeconds / 3);
  const first = samples.filter((s) => s.t <= windowSeconds).map((s) => s.rss);
  const last = samples.filter((s) => s.t >= runSeconds - windowSeconds).map((s) => s.rss);
  const rssGrowth = median(last) / median(first) - 1;
  out(`workerd RSS after the warm-up: ${mib(warmRss)} MiB`);
  out(
    `workerd RSS (${pids.length} process${pids.length > 1 ? "es" : ""}, every 10 s, ${samples.length} samples): ${samples.map((s) => mib(s.rss)).join(" ")} MiB`,
  );
  out(
    `  first ${windowSeconds.toFixed(0)} s median ${mib(median(first))} MiB, last ${windowSeconds.toFixed(0)} s median ${mib(median(last))} MiB: ${rssGrowth >= 0 ? "+" : ""}${(rssGrowth * 100).toFixed(1)} %; peak ${mib(Math.max(...samples.map((s) => s.rss)))} MiB (not the check: RSS also holds the simulators' SQLite caches, garbage not yet collected and allocator slack)`,
  );
  out(
    `  of which RssAnon (V8 heaps of every isolate, wasm memories, runtime and SQLite buffers): ${samples.map((s) => mib(s.anon)).join(" ")} MiB`,
  );
  out(`  and RssFile (file-backed pages: the local D1/R2 files, code): ${samples.map((s) => mib(s.file)).join(" ")} MiB`);
  out(
    `  per process (pids ${pids.join(", ")}${inspector ? `; ${inspector.pid} runs the Workers and the simulators, the other is wrangler's proxy` : ""}): first ${samples[0].each.map(mib).join(" / ")} MiB, last ${samples.at(-1).each.map(mib).join(" / ")} MiB`,
  );
  if (fivexx) fail(`${fivexx} × 5xx`);

  out("");
  out(failures.length ? `FAILED: ${failures.length} invariant(s) broken` : "all invariants held");
  for (const f of failures.slice(0, 40)) out(`  ✗ ${f}`);
  console.log(lines.join("\n"));

  // The soak's endpoints are deleted (soft): a later run or user of this dev tenant gets no deliveries to them.
  for (const e of endpoints)
    await call("cleanup: delete endpoint", `/v1/webhook-endpoints/${e.id}`, { method: "DELETE", key: KEY, expect: [200, 204] });
  return failures.length ? 1 : 0;
}

/** Bytes of the files under `dir` (0 when it does not exist). */
function directoryBytes(dir) {
  let total = 0;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory()) total += directoryBytes(path);
    else
      try {
        total += statSync(path).size;
      } catch {}
  }
  return total;
}
