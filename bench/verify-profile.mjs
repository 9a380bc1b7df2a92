// A V8 CPU profile of POST /v1/verify inside workerd (#19), taken over the inspector of a running `npm start`
// (wrangler dev), with the time per source file of the bundle and per function, self and inclusive. Each sample
// counts the sampling interval (on a loaded machine a descheduled thread leaves long gaps; --wall charges them).
//   node bench/verify-profile.mjs --inspector <port> [--keyed [--published [--settle-ms MS]]] [--requests N] [--top N] [--out FILE]
//   node bench/verify-profile.mjs --in FILE [--wall]          (the tables of a profile saved with --out)
// <port>: the inspector of the user workerd of `npm start`: the workerd started with --inspector-addr=127.0.0.1:0
// listens on several ports (`ss -ltnp`); the one whose /json (sent with `Host: localhost:<port>`) lists
// core:user:svc-dev. Public: the 2.8 MP photograph of bench/verify.mjs, each request its own bytes and address.
// --keyed: signed 1 MP JPEGs with the dev key (as bench/verify-keyed.mjs's cold row); with --published, 1 MP JPEGs
// the service published itself (its goal row). The profile covers the Worker's isolate
// only, unless --isolates: then every isolate of the session (D1, R2, the entry Worker…) is profiled beside it.
// SVC_API_BASE_URL / SVC_API_KEY from .svc/dev.env unless set.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { devService, keyedFiles, publicFiles, publishedFiles, verifier } from "./lib/verify-requests.mjs";
import { inspectorTargets, printTable, startProfiles, summarizeProfile } from "./lib/workerd-profile.mjs";

const ROOT = join(import.meta.dirname, "..");
const arg = (name, fallback) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : fallback);
const keyed = process.argv.includes("--keyed");
const requests = Number(arg("--requests", "40"));
const top = Number(arg("--top", "45"));
const inspector = arg("--inspector");
const saved = arg("--in"); // analyse a profile written by --out instead of taking one
if (!inspector && !saved) throw new Error("--inspector <port> (or --in FILE) is required");
const { base, key } = devService();

async function take() {
  // ---- the requests
  // --published: files this service published (express sign, downloaded), whose pixel facts come from publication.
  const files = keyed
    ? process.argv.includes("--published")
      ? await publishedFiles(requests + 5, { base, key, settleMs: Number(arg("--settle-ms", "125000")) })
      : await keyedFiles(requests + 5)
    : await publicFiles(requests + 5);
  const verify = verifier({ base, key: keyed ? key : null, files });

  // ---- the inspector (workerd sometimes leaves a first session's Profiler.enable unanswered: startProfiles asks again)
  for (let i = 0; i < 5; i++) await verify(); // warm: engine, JIT, caches
  // --isolates: every isolate of the session (D1's and R2's simulators, the entry Worker, the Durable Objects…), each
  // summarized apart after the Worker's tables: where a request's workerd CPU goes outside the Worker.
  const user = `ws://127.0.0.1:${inspector}/core:user:svc-dev`;
  const others = process.argv.includes("--isolates")
    ? (await inspectorTargets(inspector)).filter((u) => !u.endsWith("/core:user:svc-dev"))
    : [];
  const profiling = await startProfiles([user, ...others.map((u) => u.replace("ws://localhost:", "ws://127.0.0.1:"))]);
  const t0 = performance.now();
  const wall = [];
  let last;
  for (let i = 0; i < requests; i++) {
    const t = performance.now();
    last = await verify();
    wall.push(performance.now() - t);
  }
  const elapsed = performance.now() - t0;
  const stopped = await profiling.stop();
  const taken = stopped.find((p) => p.url.endsWith("/core:user:svc-dev"));
  if (!taken) throw new Error("the inspector does not answer Profiler.stop");
  const isolates = stopped.filter((p) => p !== taken).map((p) => ({ name: p.url.split("/").pop(), profile: p.profile }));
  const profile = { ...taken.profile, svc: { wall, elapsed, requests, status: last.status, keyed, isolates } };
  if (arg("--out")) writeFileSync(arg("--out"), JSON.stringify(profile));
  return profile;
}
const profile = saved ? JSON.parse(readFileSync(saved, "utf8")) : await take();
const { wall, elapsed, status } = profile.svc;
const keyedRun = profile.svc.keyed ?? keyed;

// ---- source file of a bundle line: esbuild marks each module with a `// path` line
const bundles = new Map();
function bundlePath() {
  if (arg("--bundle")) return arg("--bundle");
  const dir = join(ROOT, ".wrangler", "tmp");
  const dev = readdirSync(dir)
    .filter((d) => d.startsWith("dev-") && existsSync(join(dir, d, "index.js")))
    .sort((a, b) => statSync(join(dir, b)).mtimeMs - statSync(join(dir, a)).mtimeMs);
  return join(dir, dev[0], "index.js");
}
function sourceOf(url, line) {
  if (!url) return "(native)";
  if (!bundles.has(url)) {
    let marks = [];
    try {
      // workerd names the Worker's bundle `index.js`: the newest bundle of wrangler dev (or --bundle).
      const path = url === "index.js" ? bundlePath() : new URL(url);
      const text = readFileSync(path, "utf8").split("\n");
      marks = text.flatMap((l, i) => (/^\/\/ ((src|node_modules)\/\S+)$/.test(l) ? [[i, l.slice(3)]] : []));
    } catch {}
    bundles.set(url, marks);
  }
  const marks = bundles.get(url);
  let lo = 0;
  let hi = marks.length - 1;
  let found = url.split("/").pop();
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (marks[mid][0] <= line) {
      found = marks[mid][1];
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found.replace(/^node_modules\/(@[^/]+\/[^/]+|[^/]+)\/.*/, "node_modules/$1");
}

const {
  busy,
  self: fnSelf,
  incl: fnIncl,
  fileSelf,
  fileIncl,
} = summarizeProfile(profile, { sourceOf, wall: process.argv.includes("--wall") });
const per = (ms) => (ms / requests).toFixed(2).padStart(7);
const table = (title, map, count = top) => printTable(title, map, { per: requests, top: count, unit: "ms/req" });
wall.sort((a, b) => a - b);
console.log(
  `${keyedRun ? "keyed, signed 1 MP" : "public, 2.8 MP photo"}: ${requests} requests one at a time, wall p50 ${wall[wall.length >> 1].toFixed(1)} ms, ` +
    `${(elapsed / requests).toFixed(1)} ms/req; user-isolate ${process.argv.includes("--wall") ? "busy time" : "CPU (samples × interval)"} (not idle) ${per(busy)} ms/req; status ${status}`,
);
table("self time by source file", fileSelf, 30);
table("inclusive time by source file (any frame of the file on the stack)", fileIncl, 30);
table("self time by function", fnSelf);
table("inclusive time by function", fnIncl, 70);
// --isolates: the other isolates' busy time per request, and the largest functions of the busiest.
const isolates = (profile.svc.isolates ?? [])
  .map((i) => ({ ...i, summary: summarizeProfile(i.profile, { wall: process.argv.includes("--wall") }) }))
  .filter((i) => i.summary.busy > 0)
  .sort((a, b) => b.summary.busy - a.summary.busy);
if (isolates.length) {
  console.log("\nother isolates, busy ms/req");
  for (const i of isolates) console.log(`${per(i.summary.busy)} ms/req  ${i.name}`);
  for (const i of isolates.slice(0, 3))
    printTable(`${i.name}: self time by function`, i.summary.self, { per: requests, top: 15, unit: "ms/req" });
}
