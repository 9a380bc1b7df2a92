// #19 diagnostic: express signing A/B between running `npm start` checkouts (e.g. a build before a change and one
// after), interleaved request by request, with the workerd CPU of each checkout's own processes from /proc (the figure
// to compare on a shared machine; wall time beside it). Each checkout is named by its directory: its .svc/dev.env
// gives the service address and key, and its workerd processes are those of the session of the workerd that serves
// that address. CPU is read when the answer arrives ("answer") and again `--settle` ms later ("+after": work the
// request left for after its answer, such as waitUntil follow-ups).
//
//   node bench/express-ab.mjs A=/tmp/old B=/work/wt/express [--requests 15] [--settle 400] [--refused]
//
// --refused: the request's path up to admission alone (auth, the Idempotency-Key's claim, admission's read, the
// refusal and the key's completion), without the run: each side signs one asset once, then every measured request
// asks to sign that published asset again under a fresh key and is answered 409 `svc.sign.asset_published`. Its CPU
// is a few ms, so a lever on that path (a D1 round trip fewer) is not lost in the run's ≈ 100 ms.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { checkoutSides, cpuMsOf, numberOption } from "./lib/ab-checkouts.mjs";
import { expressClient, jpegVariant } from "./lib/express-requests.mjs";

const args = process.argv.slice(2);
const requests = numberOption(args, "--requests", 15);
const settle = numberOption(args, "--settle", 400);
const refused = args.includes("--refused");
const sides = checkoutSides(args);
if (sides.length < 1) throw new Error("usage: node bench/express-ab.mjs LABEL=<checkout dir> ... [--requests N] [--settle ms]");
const cpuOf = cpuMsOf;

const jpeg = new Uint8Array(readFileSync(join(import.meta.dirname, "..", "dist", "bench", "express-1280x800.jpg")));
const p50 = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const quartiles = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return `${s[Math.floor((s.length - 1) / 4)]}/${s[s.length >> 1]}/${s[Math.ceil((3 * (s.length - 1)) / 4)]}`;
};
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const results = Object.fromEntries(sides.map((s) => [s.label, { wall: [], cpu: [], after: [], statuses: new Set() }]));
for (const s of sides) s.client = expressClient({ base: s.base, key: s.key });
let n = 0;
if (refused) {
  for (const s of sides) {
    s.published = await s.client.upload(jpegVariant(jpeg, n++));
    const first = await s.client.signExpress(s.published);
    if (first.status !== 200) throw new Error(`${s.label}: the first sign answered ${first.status}`);
  }
}
for (let round = 0; round < requests + 2; round++) {
  // alternate the order, so neither side always follows the other
  const order = round % 2 ? [...sides].reverse() : sides;
  for (const s of order) {
    const assetId = refused ? s.published : await s.client.upload(jpegVariant(jpeg, n++));
    await sleep(settle);
    const c0 = cpuOf(s.pids);
    const t = performance.now();
    const res = await s.client.signExpress(assetId);
    const wall = performance.now() - t;
    const c1 = cpuOf(s.pids);
    await sleep(settle);
    const c2 = cpuOf(s.pids);
    const r = results[s.label];
    r.statuses.add(`${res.status} ${res.body?.state ?? res.body?.error?.code ?? res.body?.code}`);
    if (round < 2) continue;
    r.wall.push(wall);
    r.cpu.push(c1 - c0);
    r.after.push(c2 - c0);
  }
}
const load = readFileSync("/proc/loadavg", "utf8").split(" ")[0];
console.log(
  `express sign A/B, 1 MP JPEG${refused ? ", refused (asset published: auth, key claim, admission's read, refusal)" : ""}, ${requests} interleaved requests per side after 2 warm-ups (load ${load})`,
);
for (const s of sides) {
  const r = results[s.label];
  console.log(
    `  ${s.label.padEnd(6)} wall p50 ${p50(r.wall).toFixed(0)} ms; workerd CPU to the answer p50 ${p50(r.cpu)} mean ${mean(r.cpu).toFixed(1)} ms; ` +
      `p25/p50/p75 ${quartiles(r.cpu)}; with ${settle} ms after p50 ${p50(r.after)} mean ${mean(r.after).toFixed(1)} ms; answers ${[...r.statuses].join(", ")} (${s.dir})`,
  );
}
