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
import { printTable, startProfiles, summarizeProfile } from "./lib/workerd-profile.mjs";

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
// The Worker's isolate, and the other isolates of the same workerd (PROFILE_OTHERS: local D1, R2, queues — `npm
// start`'s simulators) for their CPU totals.
const others = (process.env.PROFILE_OTHERS ?? "").split(",").filter(Boolean);
const profiling = await startProfiles([wsUrl, ...others]);
const times = [];
for (const a of assets) {
  const t = performance.now();
  const r = await sign(a);
  times.push(performance.now() - t);
  if (r.status !== 200) console.log("answer", r.status, JSON.stringify(r.body).slice(0, 300));
}
const profiles = await profiling.stop();
const worker = profiles.find((p) => p.url === wsUrl);
if (!worker) throw new Error(`${wsUrl}: the Worker's inspector did not answer`);
for (const { url, profile } of profiles)
  if (url !== wsUrl) console.log(`${url.split("/").pop()}: ${(summarizeProfile(profile).busy / n).toFixed(2)} ms/request`);
writeFileSync(join(ROOT, "dist", "bench", "express.cpuprofile"), JSON.stringify(worker.profile));

// self and inclusive time per function (name + file:line), ms per request
const sourceOf = (url) => (url ? url.split("/").slice(-2).join("/") : "");
const { busy, self, incl } = summarizeProfile(worker.profile, { sourceOf });
times.sort((a, b) => a - b);
console.log(
  `${n} express requests, wall p50 ${times[n >> 1].toFixed(0)} ms; Worker CPU (non-idle samples) ${(busy / n).toFixed(2)} ms/request`,
);
printTable("self time, ms/request", self, { per: n, top: 40, unit: "ms/req" });
printTable("inclusive time, ms/request", incl, { per: n, top: 90, unit: "ms/req" });
