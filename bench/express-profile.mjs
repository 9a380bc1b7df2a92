// #19: a CPU profile of express signing inside workerd, as `npm start` runs it. Connects to the Worker's V8
// inspector (wrangler dev's workerd serves one per worker; find it with `curl <inspector>/json`), samples while
// express requests of a 1 MP JPEG run one at a time, and prints where the Worker's CPU went: self time of the
// hottest functions and inclusive time of the request's steps, per request.
//
//   node bench/express-profile.mjs ws://127.0.0.1:<port>/core:user:svc-dev [requests=10]
//   (SVC_API_BASE_URL/SVC_API_KEY or .svc/dev.env as bench/express.mjs; writes dist/bench/express.cpuprofile)
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "..");
const [wsUrl, countArg] = process.argv.slice(2);
if (!wsUrl) throw new Error("usage: node bench/express-profile.mjs <inspector ws url> [requests]");
const n = Number(countArg ?? 10);

const vars = { SVC_API_BASE_URL: process.env.SVC_API_BASE_URL, SVC_API_KEY: process.env.SVC_API_KEY };
for (const line of readFileSync(join(ROOT, ".svc", "dev.env"), "utf8").split("\n")) {
  const [k, ...v] = line.split("=");
  if (k && !vars[k]) vars[k] = v.join("=");
}
const { SVC_API_BASE_URL: base, SVC_API_KEY: key } = vars;
const file = join(ROOT, "dist", "bench", "express-1280x800.jpg");
if (!existsSync(file)) throw new Error("run `node bench/express.mjs --http` once first (it writes the source JPEG)");
const jpeg = new Uint8Array(readFileSync(file));

const call = async (method, path, body, headers = {}) => {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...headers },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
};
const variant = (i) => {
  const com = new TextEncoder().encode(`svc profile ${i} ${Date.now()}`);
  const seg = new Uint8Array([0xff, 0xfe, (com.length + 2) >> 8, (com.length + 2) & 0xff, ...com]);
  return new Uint8Array([...jpeg.subarray(0, 2), ...seg, ...jpeg.subarray(2)]);
};
async function upload(bytes) {
  const created = await call("POST", "/v1/uploads", {
    byte_length: bytes.length,
    declared_media_type: "image/jpeg",
    mode: "single",
    sha256: createHash("sha256").update(bytes).digest("hex"),
    filename: "bench.jpg",
  });
  const u = created.body.upload;
  await (await fetch(u.url, { method: u.method, headers: u.headers, body: bytes })).arrayBuffer();
  await call("POST", `/v1/uploads/${created.body.upload_id}/complete`, {}, { "idempotency-key": crypto.randomUUID() });
  return created.body.asset_id;
}
const sign = (assetId) =>
  call(
    "POST",
    "/v1/sign",
    {
      asset_id: assetId,
      recipe_id: "rcp_system_express_watermark_then_sign",
      mode: "express",
      fingerprint_algorithms: ["iscc-image", "pdq"],
    },
    { "idempotency-key": crypto.randomUUID() },
  );

for (let i = 0; i < 2; i++) await sign(await upload(variant(`w${i}`))); // warm-up
const assets = [];
for (let i = 0; i < n; i++) assets.push(await upload(variant(i))); // uploads outside the profile
// the inspector session
const ws = new WebSocket(wsUrl);
await new Promise((resolve, reject) => {
  ws.onopen = resolve;
  ws.onerror = reject;
  ws.onclose = (e) => reject(new Error(`inspector closed: ${e.code}`));
});
let nextId = 1;
const pending = new Map();
ws.onmessage = (e) => {
  const m = JSON.parse(e.data);
  if (m.id && pending.has(m.id)) {
    pending.get(m.id)(m);
    pending.delete(m.id);
  }
};
const send = (method, params = {}) =>
  new Promise((resolve) => {
    const id = nextId++;
    pending.set(id, resolve);
    ws.send(JSON.stringify({ id, method, params }));
  });

// the other isolates of the same workerd (local D1, R2, queues: `npm start`'s simulators), for their CPU totals
const others = [];
for (const url of (process.env.PROFILE_OTHERS ?? "").split(",").filter(Boolean)) {
  const o = new WebSocket(url);
  await new Promise((r) => (o.onopen = r));
  let id = 0;
  const waits = new Map();
  o.onmessage = (e) => {
    const m = JSON.parse(e.data);
    waits.get(m.id)?.(m);
  };
  // an isolate's inspector sometimes never answers (busy or gone): it is left out rather than waited on forever
  const sendO = (method, params = {}) =>
    Promise.race([
      new Promise((r) => {
        waits.set(++id, r);
        o.send(JSON.stringify({ id, method, params }));
      }),
      new Promise((_, reject) => setTimeout(() => reject(new Error(`${url}: no answer to ${method}`)), 5000)),
    ]);
  try {
    await sendO("Profiler.enable");
    await sendO("Profiler.setSamplingInterval", { interval: 100 });
    await sendO("Profiler.start");
    others.push({ url, sendO, o });
  } catch (error) {
    console.log(String(error));
    o.close();
  }
}
await send("Profiler.enable");
await send("Profiler.setSamplingInterval", { interval: 100 });
await send("Profiler.start");
const times = [];
for (const a of assets) {
  const t = performance.now();
  const r = await sign(a);
  times.push(performance.now() - t);
  if (r.status !== 200) console.log("answer", r.status, JSON.stringify(r.body).slice(0, 300));
}
const { result } = await send("Profiler.stop");
ws.close();
for (const { url, sendO, o } of others) {
  const r = await sendO("Profiler.stop").then(
    (m) => m.result,
    (error) => console.log(String(error)),
  );
  if (!r) continue;
  o.close();
  const nodesO = new Map(r.profile.nodes.map((x) => [x.id, x]));
  let busy = 0;
  for (let i = 0; i < r.profile.samples.length; i++)
    if (nodesO.get(r.profile.samples[i]).callFrame.functionName !== "(idle)")
      busy += Math.min(0.3, (r.profile.timeDeltas[i + 1] ?? 0) / 1000);
  console.log(`${url.split("/").pop()}: ${(busy / n).toFixed(2)} ms/request (samples, each at most 0.3 ms)`);
}
const profile = result.profile;
writeFileSync(join(ROOT, "dist", "bench", "express.cpuprofile"), JSON.stringify(profile));

// self and inclusive time per function (name + file:line), ms per request
const nodes = new Map(profile.nodes.map((x) => [x.id, x]));
const parent = new Map();
for (const x of profile.nodes) for (const c of x.children ?? []) parent.set(c, x.id);
const label = (x) => {
  const f = x.callFrame;
  const url = f.url ? f.url.split("/").slice(-2).join("/") : "";
  return `${f.functionName || "(anonymous)"} ${url}:${f.lineNumber + 1}`;
};
const self = new Map();
const incl = new Map();
const deltas = profile.timeDeltas;
let total = 0;
for (let i = 0; i < profile.samples.length; i++) {
  // a sample stands for at most 0.3 ms: a longer gap is the thread off this isolate (another isolate, the OS)
  const dt = Math.min(0.3, (deltas[i + 1] ?? 0) / 1000);
  let id = profile.samples[i];
  const leaf = nodes.get(id);
  if (leaf.callFrame.functionName === "(idle)") continue;
  total += dt;
  self.set(label(leaf), (self.get(label(leaf)) ?? 0) + dt);
  const seen = new Set();
  while (id !== undefined) {
    const l = label(nodes.get(id));
    if (!seen.has(l)) {
      seen.add(l);
      incl.set(l, (incl.get(l) ?? 0) + dt);
    }
    id = parent.get(id);
  }
}
const per = (ms) => (ms / n).toFixed(2).padStart(7);
times.sort((a, b) => a - b);
console.log(`${n} express requests, wall p50 ${times[n >> 1].toFixed(0)} ms; Worker CPU (non-idle samples) ${per(total)} ms/request`);
console.log("\nself time, ms/request");
for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(per(v), k);
console.log("\ninclusive time, ms/request");
for (const [k, v] of [...incl].sort((a, b) => b[1] - a[1]).slice(0, 90)) console.log(per(v), k);
