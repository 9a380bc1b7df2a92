// `npm run bench:verify` (#19, public verify): two goal rows, each against a figure measured in the same run.
//  1. public POST /v1/verify of a 64 px JPEG vs GET /healthz on bare Miniflare (one workerd, no wrangler proxy);
//  2. public verify of a real 2.8 MP photograph (no manifest) on `npm start` (PORT 8802 unless BENCH_VERIFY_PORT):
//     ms single p50 and req/s with 8 in flight, beside GET /healthz over the same wrangler dev in the same run.
// The photograph: test/fixtures/media/photo-bridge.jpg (a real 1600x1004 photograph) scaled bilinearly to
// 2112x1326 (2.8 MP) and encoded at MozJPEG q30 (≈126 KiB, the size of the file), made here, not stored.
// Each request carries its own bytes (a counter in a JPEG comment: same pixels, different file) and its own
// client address (the public limit is per address), so nothing can be answered from a cache of earlier requests.
// `--skip-start`: only the bare Miniflare row. `--skip-bare`: only the npm start rows. `--quick`: fewer requests.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { bundleWorker, startWorker } from "../test/support/worker.ts";
import { goal, ratio } from "./lib/goals.mjs";

const ROOT = join(import.meta.dirname, "..");
const quick = process.argv.includes("--quick");
const BOUNDARY = "svcbenchverifyboundary";

/** A multipart body with one file field (Miniflare's dispatchFetch does not serialize Node's FormData). */
function form(bytes, name = "photo.jpg") {
  return Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: image/jpeg\r\n\r\n`),
    bytes,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}

/** The same JPEG with a COM segment after SOI carrying `n`: other bytes, same pixels. */
function variant(jpeg, n) {
  const text = Buffer.from(`bench ${n}`);
  const com = Buffer.alloc(4);
  com.writeUInt16BE(0xfffe, 0);
  com.writeUInt16BE(text.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), com, text, jpeg.subarray(2)]);
}

let clients = 0;
const nextAddress = () => {
  clients++;
  return `10.${(clients >> 16) & 255}.${(clients >> 8) & 255}.${clients & 255}`;
};

/** `requests` calls of `send`, `concurrency` in flight, after `warm` unmeasured ones: req/s, p50, p99 (ms). */
async function load(send, { requests, concurrency, warm = 20 }) {
  for (let i = 0; i < warm; i++) await send();
  const latencies = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < requests) {
        next++;
        const t0 = performance.now();
        await send();
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { rps: requests / seconds, p50: latencies[Math.floor(latencies.length / 2)], p99: latencies[Math.floor(latencies.length * 0.99)] };
}

async function expectOk(res, what) {
  const body = await res.text();
  if (res.status !== 200) throw new Error(`${what}: HTTP ${res.status} ${body.slice(0, 300)}`);
  return body;
}

const row = (name, r) =>
  console.log(name.padEnd(52), r.rps.toFixed(0).padStart(8), r.p50.toFixed(2).padStart(9), r.p99.toFixed(2).padStart(9));
const header = () => console.log("operation".padEnd(52), "req/s".padStart(8), "p50 ms".padStart(9), "p99 ms".padStart(9));

// ------------------------------------------------------------------------------------------------------------
// 1. Bare Miniflare: 64 px JPEG vs /healthz

async function bareMiniflare() {
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
  const healthz = async () => expectOk(await mf.dispatchFetch("http://bench.local/healthz"), "/healthz");
  const verify = async () =>
    expectOk(
      await mf.dispatchFetch("http://bench.local/v1/verify", {
        method: "POST",
        body: form(variant(small, n++), "sample.jpg"),
        headers: { "content-type": `multipart/form-data; boundary=${BOUNDARY}`, "cf-connecting-ip": nextAddress() },
      }),
      "POST /v1/verify",
    );
  const requests = quick ? 400 : 1000;
  const base = await load(healthz, { requests: requests * 2, concurrency: 8, warm: 50 });
  const small64 = await load(verify, { requests, concurrency: 8, warm: 50 });
  await mf.dispose();
  console.log(`\nPublic verify on bare Miniflare (${new Date().toISOString()}, 8 in flight)\n`);
  header();
  row("GET /healthz (baseline)", base);
  row("POST /v1/verify public, 64 px JPEG, no manifest", small64);
  const r = small64.rps / base.rps;
  goal({
    what: "public POST /v1/verify of a 64 px JPEG vs /healthz (bare Miniflare)",
    figure: `${small64.rps.toFixed(0)} req/s (${ratio(r)} of ${base.rps.toFixed(0)} req/s)`,
    goal: "≥ 500 req/s (≥ 0.45×)",
    pass: small64.rps >= 500 && r >= 0.45,
    note: `${requests} requests, 8 in flight, each its own address and bytes`,
  });
}

// ------------------------------------------------------------------------------------------------------------
// 2. npm start: a real 2.8 MP photograph

/** The bench photograph (see the header), made with the same @jsquash codecs the service uses. */
async function photograph() {
  const { benchPhotograph } = await import("./lib/images.mjs");
  const p = await benchPhotograph();
  return { ...p, bytes: Buffer.from(p.bytes) };
}

async function waitReady(base, child) {
  const deadline = Date.now() + 300_000; // migrations and the first bundle take long on a busy machine
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`npm start exited (${child.exitCode})`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error("npm start was not ready within 300 s");
}

async function onNpmStart() {
  const photo = await photograph();
  const port = process.env.BENCH_VERIFY_PORT ?? "8802";
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
  try {
    await waitReady(base, child).catch((e) => {
      throw new Error(`${e.message}\n${log}`);
    });
    let n = 0;
    const healthz = async () => expectOk(await fetch(`${base}/healthz`), "/healthz");
    let body = "";
    const verify = async () => {
      body = await expectOk(
        await fetch(`${base}/v1/verify`, {
          method: "POST",
          body: form(variant(photo.bytes, n++)),
          headers: { "content-type": `multipart/form-data; boundary=${BOUNDARY}`, "cf-connecting-ip": nextAddress() },
        }),
        "POST /v1/verify (photograph)",
      );
    };
    const hz = await load(healthz, { requests: quick ? 200 : 500, concurrency: 8, warm: 20 });
    const single = await load(verify, { requests: quick ? 15 : 30, concurrency: 1, warm: 5 });
    const parallel = await load(verify, { requests: quick ? 40 : 80, concurrency: 8, warm: 0 });
    const result = JSON.parse(body);
    console.log(
      `\nPublic verify of a real photograph on npm start (${new Date().toISOString()}; ${photo.width}x${photo.height}, ${(photo.bytes.length / 1024).toFixed(0)} KiB, status ${result.status})\n`,
    );
    header();
    row("GET /healthz over wrangler dev (baseline), 8 in flight", hz);
    row("POST /v1/verify public, 2.8 MP photo, one at a time", single);
    row("POST /v1/verify public, 2.8 MP photo, 8 in flight", parallel);
    goal({
      what: "public verify of a real 2.8 MP photograph (no manifest) on npm start, ms single p50",
      figure: `${single.p50.toFixed(1)} ms (/healthz ${hz.p50.toFixed(1)} ms p50 at 8 in flight)`,
      goal: "≤ 30 ms",
      pass: single.p50 <= 30,
      note: `${photo.width}x${photo.height} q30 ${(photo.bytes.length / 1024).toFixed(0)} KiB, each request its own bytes`,
    });
    goal({
      what: "public verify of a real 2.8 MP photograph on npm start, req/s at 8 in flight",
      figure: `${parallel.rps.toFixed(1)} req/s (/healthz ${hz.rps.toFixed(0)} req/s)`,
      goal: "≥ 40 req/s",
      pass: parallel.rps >= 40,
    });
  } finally {
    // SIGINT stops wrangler dev; SIGTERM as well, for a start still applying its migrations.
    for (const signal of ["SIGINT", "SIGTERM"]) {
      try {
        process.kill(-child.pid, signal);
      } catch {}
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
}

if (!process.argv.includes("--skip-bare")) await bareMiniflare();
if (!process.argv.includes("--skip-start")) await onNpmStart();
