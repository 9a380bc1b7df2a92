// Where a public verify of a tiny JPEG spends its time beyond /healthz, on bare Miniflare (one workerd), each
// figure in the same run: /healthz; POST /v1/verify of unknown bytes (the rate limit, the multipart body, the sniff,
// then 415); the 64 px JPEG with no manifest (plus decode, fingerprints, one D1 index lookup, the verdict).
// Usage: node bench/verify-overhead.mjs [--requests N]
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
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
async function load(send) {
  for (let i = 0; i < 50; i++) await send();
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < requests) {
        next++;
        await send();
      }
    }),
  );
  return requests / ((performance.now() - started) / 1000);
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
const post =
  (body, expect, extra = {}) =>
  async () => {
    const res = await mf.dispatchFetch("http://bench.local/v1/verify", {
      method: "POST",
      body,
      headers: { "content-type": `multipart/form-data; boundary=${BOUNDARY}`, "cf-connecting-ip": nextAddress(), ...extra },
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
  if (process.env.EXP) {
    rows.push([
      "EXP no limit: unknown bytes",
      await load(post(form(Buffer.from("\x00\x01 unknown"), "a.bin", "application/octet-stream"), 415, { "x-exp": "1" })),
    ]);
    rows.push(["EXP no limit: 64 px JPEG", await load(post(form(small, "sample.jpg", "image/jpeg"), 200, { "x-exp": "1" }))]);
  }
}
await mf.dispose();
const base = rows.filter((r) => r[0] === "GET /healthz").reduce((a, r) => Math.max(a, r[1]), 0);
for (const [name, rps] of rows)
  console.log(
    `${name.padEnd(48)} ${rps.toFixed(0).padStart(6)} req/s  ${(1000 / rps).toFixed(2).padStart(6)} ms/req  ${(rps / base).toFixed(2)}×`,
  );
