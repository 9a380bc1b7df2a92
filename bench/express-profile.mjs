// #19: a CPU profile of express signing inside workerd, as `npm start` runs it. Connects to the Worker's V8
// inspector (wrangler dev's workerd serves one per worker; find it with `curl <inspector>/json`), samples while
// express requests of a 1 MP JPEG run one at a time, and prints where the Worker's CPU went: self time of the
// hottest functions and inclusive time of the request's steps, per request.
//
//   node bench/express-profile.mjs ws://127.0.0.1:<port>/core:user:svc-dev [requests=10]
//   (SVC_API_BASE_URL/SVC_API_KEY or .svc/dev.env as bench/express.mjs; writes dist/bench/express.cpuprofile, and
//   express-<isolate>.cpuprofile for each PROFILE_OTHERS isolate)
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expressClient, jpegVariant } from "./lib/express-requests.mjs";
import { devService } from "./lib/verify-requests.mjs";
import { printTable, startProfiles, summarizeProfile } from "./lib/workerd-profile.mjs";

const ROOT = join(import.meta.dirname, "..");
const [wsUrl, countArg] = process.argv.slice(2);
if (!wsUrl) throw new Error("usage: node bench/express-profile.mjs <inspector ws url> [requests]");
const n = Number(countArg ?? 10);

const { base, key } = devService();
const file = join(ROOT, "dist", "bench", "express-1280x800.jpg");
if (!existsSync(file)) throw new Error("run `node bench/express.mjs --http` once first (it writes the source JPEG)");
const jpeg = new Uint8Array(readFileSync(file));
const { upload, signExpress: sign } = expressClient({ base, key });
const variant = (i) => jpegVariant(jpeg, i);

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
  if (url !== wsUrl) {
    const name = url.split("/").pop();
    console.log(`${name}: ${(summarizeProfile(profile).busy / n).toFixed(2)} ms/request`);
    writeFileSync(join(ROOT, "dist", "bench", `express-${name.replaceAll(":", "-")}.cpuprofile`), JSON.stringify(profile));
  }
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
