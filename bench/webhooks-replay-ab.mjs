// Diagnostics (not in `npm run bench`): the request path of the webhook bench's event replay
// (POST /v1/webhook-events/{id}/replay with an Idempotency-Key) on two checkouts, both Workers running at once and
// measured in alternating blocks (A, B, B, A, ...), in workerd CPU per request read from /proc (each side's own
// workerd process), and its wall time. Each event has a delivery in progress at each of its 20 endpoints, so a
// replay runs all its SQL (recipients, upserts, the fanned-out mark), its idempotency claim and completion, its audit
// entry and its request log, and queues nothing: no consumer work mixes into the figure.
//   node bench/webhooks-replay-ab.mjs <checkout A> <checkout B> [blocks=8] [requests per block=100]
// Both run this checkout's harness (test/support/worker.ts, its migrations) on their own bundles: same schema needed.
import { execFileSync } from "node:child_process";
import { createHmac, randomBytes, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { bundleWorker, startWorker } from "../test/support/worker.ts";

const [a, b, blocksArg, perBlockArg] = process.argv.slice(2);
if (!a || !b) throw new Error("usage: node bench/webhooks-replay-ab.mjs <checkout A> <checkout B> [blocks] [requests per block]");
const blocks = Number(blocksArg ?? 8);
const perBlock = Number(perBlockArg ?? 100);
const ENDPOINTS = 20;
/** Requests in flight (the webhook bench sends 8 at once); REPLAY_AB_IN_FLIGHT=1 shows one request's latency. */
const IN_FLIGHT = Number(process.env.REPLAY_AB_IN_FLIGHT ?? 8);

function bundleOf(checkout) {
  const root = resolve(checkout);
  if (root === resolve(import.meta.dirname, "..")) return bundleWorker();
  const outdir = execFileSync("mktemp", ["-d"], { encoding: "utf8" }).trim();
  execFileSync(resolve(root, "node_modules/.bin/wrangler"), ["deploy", "--dry-run", "--outdir", outdir], {
    cwd: root,
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", WRANGLER_HIDE_BANNER: "true" },
    stdio: "ignore",
  });
  return resolve(outdir, "index.js");
}

/** This process's child processes (pgrep answers 1, no output, when there are none). */
function children() {
  let out = "";
  try {
    out = execFileSync("pgrep", ["-P", String(process.pid)], { encoding: "utf8" });
  } catch {}
  return new Set(out.split("\n").filter(Boolean));
}

/** CPU ms of the given processes (utime + stime, 10 ms ticks). */
function cpuMs(pids) {
  let ms = 0;
  for (const pid of pids) {
    const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    ms += (Number(f[11]) + Number(f[12])) * 10;
  }
  return ms;
}

const id32 = () => Array.from(randomBytes(16), (x) => "abcdefghijklmnopqrstuvwxyz234567"[x & 31]).join("");

/** A Worker with a tenant, a key, 20 endpoints and `events` events, each with a delivery in progress per endpoint. */
async function side(label, script, events) {
  const before = children();
  const pepper = randomBytes(32).toString("base64url");
  const worker = await startWorker({
    script,
    bindings: {
      SVC_KEY_PEPPER: pepper,
      SVC_CURSOR_SECRET: randomBytes(32).toString("base64url"),
      SVC_CAPABILITY_SECRET: randomBytes(32).toString("base64url"),
    },
  });
  const pids = [...children()].filter((p) => !before.has(p));
  const key = `svc_live_${"b".repeat(51)}a`;
  const now = Date.now();
  await worker.db
    .prepare("INSERT INTO tenants (id, name, status, created_at) VALUES ('ten_benchreplayabaa', 'bench', 'active', ?)")
    .bind(now)
    .run();
  await worker.db
    .prepare(
      "INSERT INTO api_keys (id, tenant_id, name, secret_hash, display_prefix, scopes, status, created_at) VALUES ('key_benchreplayabaa', 'ten_benchreplayabaa', 'bench', ?, 'svc_live_bbbbbb', ?, 'active', ?)",
    )
    .bind(createHmac("sha256", pepper).update(key).digest("hex"), JSON.stringify(["webhooks:read", "webhooks:write"]), now)
    .run();
  const endpoints = Array.from({ length: ENDPOINTS }, () => `whe_${id32()}`);
  for (const e of endpoints)
    await worker.db
      .prepare(
        `INSERT INTO webhook_endpoints (id, tenant_id, url, event_catalog_version, events, max_concurrency, rate_limit_per_minute, auto_disable_after_failures, state, consecutive_failures, secret_ciphertext, created_at, updated_at)
         VALUES (?, 'ten_benchreplayabaa', 'https://hooks.example.com/svc', 'svc.customer-events.v1', '["asset.watermarked"]', 20, 600, 100, 'active', 0, 'unused', ?, ?)`,
      )
      .bind(e, now, now)
      .run();
  const ids = [];
  for (let i = 0; i < events; i++) {
    const id = `whevt_${id32()}`;
    ids.push(id);
    await worker.db
      .prepare(
        "INSERT INTO webhook_events (id, tenant_id, type, body, test, target_endpoint_id, fanned_out_at, created_at) VALUES (?, 'ten_benchreplayabaa', 'asset.watermarked', '{}', 0, NULL, ?, ?)",
      )
      .bind(id, now, now)
      .run();
    for (const e of endpoints)
      await worker.db
        .prepare(
          "INSERT INTO webhook_deliveries (id, tenant_id, endpoint_id, event_id, event_type, status, attempt_count, attempt_base, replay_count, next_attempt_at, lease_until, created_at, updated_at) VALUES (?, 'ten_benchreplayabaa', ?, ?, 'asset.watermarked', 'delivering', 1, 0, 0, NULL, ?, ?, ?)",
        )
        .bind(`whd_${id32()}`, e, id, now + 3_600_000, now, now)
        .run();
  }
  let next = 0;
  return {
    label,
    pids,
    worker,
    /** `n` replays, IN_FLIGHT at a time, each with a fresh key: CPU ms and wall ms. */
    async block(n) {
      const cpu0 = cpuMs(pids);
      const t0 = performance.now();
      let left = n;
      await Promise.all(
        Array.from({ length: IN_FLIGHT }, async () => {
          while (left > 0) {
            left--;
            const id = ids[next++ % ids.length];
            const res = await worker.fetch(`/v1/webhook-events/${id}/replay`, {
              method: "POST",
              headers: { authorization: `Bearer ${key}`, "idempotency-key": randomUUID() },
            });
            const text = await res.text();
            if (res.status !== 200 || JSON.parse(text).delivery_count !== 0) throw new Error(`${label}: replay ${res.status} ${text}`);
          }
        }),
      );
      // The request logs' and audit chain's writes that follow the answers, inside the block's CPU.
      await new Promise((r) => setTimeout(r, 100));
      return { cpu: cpuMs(pids) - cpu0, wall: performance.now() - t0 };
    },
  };
}

const sides = [await side("A", bundleOf(a), 50), await side("B", bundleOf(b), 50)];
try {
  // Warm both (JIT, caches, the key cache) outside the measurement.
  for (const s of sides) await s.block(50);
  const runs = { A: [], B: [] };
  for (let i = 0; i < blocks; i++) {
    for (const s of i % 2 === 0 ? sides : [...sides].reverse()) {
      const r = await s.block(perBlock);
      runs[s.label].push(r);
      console.log(
        `${s.label} block ${runs[s.label].length}: ${(r.cpu / perBlock).toFixed(2)} ms workerd CPU, ${(r.wall / perBlock).toFixed(2)} ms wall per request`,
      );
    }
  }
  const median = (xs) => [...xs].sort((x, y) => x - y)[xs.length >> 1];
  for (const label of ["A", "B"])
    console.log(
      `${label} (${label === "A" ? a : b}) median of ${blocks} blocks of ${perBlock}: ${(median(runs[label].map((r) => r.cpu)) / perBlock).toFixed(2)} ms workerd CPU, ${(median(runs[label].map((r) => r.wall)) / perBlock).toFixed(2)} ms wall per request`,
    );
  const pair = (f) => median(runs.A.map((r, i) => f(runs.B[i]) / f(r)));
  console.log(`B against A, median over blocks: CPU ×${pair((r) => r.cpu).toFixed(3)}, wall ×${pair((r) => r.wall).toFixed(3)}`);
} finally {
  for (const s of sides) await s.worker.dispose();
}
