// `npm run bench`: webhook delivery throughput to a local receiver across 20 endpoints, and what the per-endpoint
// Durable Object gate costs per delivery. The real Worker bundle runs in bare Miniflare (queues, DOs, D1); the
// receiver is a Node HTTP server verifying every request with `standardwebhooks`. Baseline in the same run:
// the same receiver POSTed to directly from Node at the same total concurrency.
import { createHmac, randomBytes, randomUUID } from "node:crypto";
import { until, WebhookReceiver } from "../test/support/webhook-receiver.ts";
import { startWorker } from "../test/support/worker.ts";

const ENDPOINTS = 20;
const TESTS_PER_ENDPOINT = 10; // SPEC: 10 test events per hour per endpoint
const REPLAY_ROUNDS = 2;

const receiver = new WebhookReceiver();
await receiver.start();
const pepper = randomBytes(32).toString("base64url");
const worker = await startWorker({
  bindings: {
    SVC_KEY_PEPPER: pepper,
    SVC_CURSOR_SECRET: randomBytes(32).toString("base64url"),
    SVC_CAPABILITY_SECRET: randomBytes(32).toString("base64url"),
    SVC_WEBHOOKS_ALLOW_LOOPBACK: "1",
  },
});
const key = `svc_live_${"b".repeat(51)}a`; // canonical: the last character carries one bit
await worker.db
  .prepare("INSERT INTO tenants (id, name, status, created_at) VALUES ('ten_benchwebhooksaa', 'bench', 'active', ?)")
  .bind(Date.now())
  .run();
await worker.db
  .prepare(
    "INSERT INTO api_keys (id, tenant_id, name, secret_hash, display_prefix, scopes, status, created_at) VALUES ('key_benchwebhooksaa', 'ten_benchwebhooksaa', 'bench', ?, 'svc_live_bbbbbb', ?, 'active', ?)",
  )
  .bind(createHmac("sha256", pepper).update(key).digest("hex"), JSON.stringify(["webhooks:read", "webhooks:write"]), Date.now())
  .run();
const svc = {
  worker,
  async call(method, path, options = {}) {
    const headers = { authorization: `Bearer ${key}` };
    if (options.body !== undefined) headers["content-type"] = "application/json";
    if (options.idempotencyKey) headers["idempotency-key"] = randomUUID();
    const res = await worker.fetch(path, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
    const text = await res.text();
    let body = null;
    try {
      body = JSON.parse(text);
    } catch {}
    return { status: res.status, text, body };
  },
  dispose: () => worker.dispose(),
};

try {
  const endpoints = [];
  for (let i = 0; i < ENDPOINTS; i++) {
    const path = `/bench-${i}`;
    const route = receiver.route(path);
    const created = await svc.call("POST", "/v1/webhook-endpoints", {
      body: {
        url: receiver.url(path),
        event_catalog_version: "svc.customer-events.v1",
        events: ["asset.watermarked"],
        max_concurrency: 20,
        rate_limit_per_minute: 600,
      },
      idempotencyKey: true,
    });
    if (created.status !== 201) throw new Error(`create endpoint: ${created.status} ${created.text}`);
    route.secrets.push(created.body.secret);
    endpoints.push({ id: created.body.endpoint.endpoint_id, route });
  }
  const received = () => endpoints.reduce((n, e) => n + e.route.received.length, 0);
  const acked = () => endpoints.reduce((n, e) => n + [...e.route.acknowledged.values()].reduce((a, b) => a + b, 0), 0);

  // Round 1: 10 test events per endpoint, requested concurrently; then replay rounds of every event.
  const rounds = [];
  const events = [];
  let target = 0;
  let t0 = performance.now();
  await Promise.all(
    endpoints.map(async (e) => {
      for (let k = 0; k < TESTS_PER_ENDPOINT; k++) {
        const res = await svc.call("POST", `/v1/webhook-endpoints/${e.id}/test`, { idempotencyKey: true });
        if (res.status !== 202) throw new Error(`test event: ${res.status} ${res.text}`);
        events.push(res.body.event_id);
      }
    }),
  );
  target += ENDPOINTS * TESTS_PER_ENDPOINT;
  await until(() => acked() >= target, 120_000, `${target} acknowledged deliveries`);
  rounds.push({ deliveries: ENDPOINTS * TESTS_PER_ENDPOINT, seconds: (performance.now() - t0) / 1000 });
  for (let r = 0; r < REPLAY_ROUNDS; r++) {
    t0 = performance.now();
    await Promise.all(
      Array.from({ length: 8 }, async (_, w) => {
        for (let i = w; i < events.length; i += 8) {
          const res = await svc.call("POST", `/v1/webhook-events/${events[i]}/replay`, { idempotencyKey: true });
          if (res.status !== 200 || res.body.delivery_count !== 1) throw new Error(`replay: ${res.status} ${res.text}`);
        }
      }),
    );
    target += events.length;
    await until(() => acked() >= target, 120_000, `${target} acknowledged deliveries`);
    rounds.push({ deliveries: events.length, seconds: (performance.now() - t0) / 1000 });
  }
  const unverified = endpoints.flatMap((e) => e.route.received).filter((r) => !r.verifiedWith[0]).length;

  // The gate's share: time each attempt spent acquiring its lease (recorded by the Worker), against the attempt itself.
  const rows = (await svc.worker.db.prepare("SELECT gate_ms, duration_ms FROM webhook_attempts").bind().all()).results;
  const gate = rows.map((r) => r.gate_ms).sort((a, b) => a - b);
  const attempt = rows.map((r) => r.duration_ms).sort((a, b) => a - b);
  const pct = (xs, p) => xs[Math.min(xs.length - 1, Math.floor(xs.length * p))];
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;

  // Baseline: the same receiver, POSTed to directly at the same concurrency (no queue, no gate, no D1, no signing).
  const direct = receiver.route("/direct");
  const n = 600;
  let next = 0;
  const b0 = performance.now();
  await Promise.all(
    Array.from({ length: 20 }, async () => {
      while (next < n) {
        next++;
        const res = await fetch(receiver.url("/direct"), {
          method: "POST",
          headers: { "content-type": "application/json", "webhook-id": `d${next}` },
          body: "{}",
        });
        await res.arrayBuffer();
      }
    }),
  );
  const directRps = n / ((performance.now() - b0) / 1000);
  void direct;

  const total = rounds.reduce((a, r) => a + r.deliveries, 0);
  const seconds = rounds.reduce((a, r) => a + r.seconds, 0);
  const rps = total / seconds;
  console.log("\nWebhook delivery (bench/webhooks.mjs): 20 endpoints, local receiver, every request verified with standardwebhooks");
  console.log("| round | deliveries | seconds | deliveries/s |");
  console.log("|---|---:|---:|---:|");
  for (const [i, r] of rounds.entries())
    console.log(
      `| ${i === 0 ? "test events" : `replay ${i}`} | ${r.deliveries} | ${r.seconds.toFixed(2)} | ${(r.deliveries / r.seconds).toFixed(1)} |`,
    );
  console.log(`| all | ${total} | ${seconds.toFixed(2)} | ${rps.toFixed(1)} |`);
  console.log(`receiver saw ${received()} requests, ${acked()} acknowledged, ${unverified} failing signature verification`);
  console.log(
    `baseline: direct POSTs from Node to the same receiver ${directRps.toFixed(0)}/s → delivery pipeline costs ${(directRps / rps).toFixed(1)}× a bare POST`,
  );
  console.log(
    `DO gate per delivery: mean ${mean(gate).toFixed(2)} ms, p50 ${pct(gate, 0.5)} ms, p99 ${pct(gate, 0.99)} ms; attempt (sign + POST + read) mean ${mean(attempt).toFixed(2)} ms, p50 ${pct(attempt, 0.5)} ms → gate/attempt ${(mean(gate) / Math.max(0.01, mean(attempt))).toFixed(2)}×`,
  );
} finally {
  await svc.dispose();
  await receiver.stop();
}
