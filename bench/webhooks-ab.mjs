// Diagnostics (not in `npm run bench`): bench/webhooks.mjs on two checkouts, interleaved A, B, B, A, A, B, ... so that a
// shared machine's load falls on both alike. Usage:
//   node bench/webhooks-ab.mjs <checkout A> <checkout B> [pairs=4]
// Each run is the checkout's own bench/webhooks.mjs (its harness, test/support/worker.ts, included) on the checkout's
// own bundle (src/ and wrangler.toml), made once; every run starts a fresh Miniflare.
// Prints each run's deliveries/s, ratio to a bare POST from Node, and workerd CPU per delivery, then medians, and
// the median over pairs of B's figure against A's in the same pair (the two runs of a pair are back to back, so a
// load that drifts over minutes cancels there; the Node baseline is sampled separately and swings more).
// AB_SAME_BENCH=1: both sides run this checkout's bench/webhooks.mjs and harness on their own bundles (same
// schema needed), which also prints how long each round's replay requests took.
import { execFileSync } from "node:child_process";
import { resolve } from "node:path";
import { bundleWorker, WORKER_BUNDLE_ENV } from "../test/support/worker.ts";

const [a, b, pairsArg] = process.argv.slice(2);
if (!a || !b) throw new Error("usage: node bench/webhooks-ab.mjs <checkout A> <checkout B> [pairs]");
const pairs = Number(pairsArg ?? 4);

/** Bundles a checkout with its own wrangler (offline), as test/support/worker.ts does for this one. */
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

const bundles = { A: bundleOf(a), B: bundleOf(b) };
const own = resolve(import.meta.dirname, "webhooks.mjs");
const benches = process.env.AB_SAME_BENCH
  ? { A: own, B: own }
  : { A: resolve(a, "bench/webhooks.mjs"), B: resolve(b, "bench/webhooks.mjs") };
const runs = { A: [], B: [] };
for (let i = 0; i < pairs; i++) {
  for (const side of i % 2 === 0 ? ["A", "B"] : ["B", "A"]) {
    const out = execFileSync(process.execPath, [benches[side]], {
      encoding: "utf8",
      env: { ...process.env, [WORKER_BUNDLE_ENV]: bundles[side] },
    });
    const rps = Number(/\| all \| \d+ \| [\d.]+ \| ([\d.]+) \|/.exec(out)?.[1]);
    const ratio = Number(/costs ([\d.]+)× a bare POST/.exec(out)?.[1]);
    const cpu = Number(/workerd \(Worker, DOs, D1, Queues\) ([\d.]+) ms/.exec(out)?.[1]);
    const exact = /PASS {2}webhook per-endpoint concurrency/.test(out);
    const replays = Number(/\| all \| \d+ \| [\d.]+ \| [\d.]+ \| ([\d.]+) \|/.exec(out)?.[1]);
    runs[side].push({ rps, ratio, cpu, exact, replays });
    console.log(
      `${side} run ${runs[side].length}: ${rps}/s, ${ratio}× a bare POST, ${cpu} ms workerd CPU per delivery, limits exact: ${exact}` +
        (Number.isFinite(replays) ? `, replay requests ${replays} s of the rounds` : ""),
    );
  }
}
const median = (xs) => [...xs].sort((x, y) => x - y)[xs.length >> 1];
for (const side of ["A", "B"]) {
  const r = runs[side];
  console.log(
    `${side} (${side === "A" ? a : b}) median of ${r.length}: ${median(r.map((x) => x.rps))}/s, ${median(r.map((x) => x.ratio))}×, ${median(r.map((x) => x.cpu))} ms CPU per delivery`,
  );
}
const pairRatio = (f) => median(runs.A.map((x, i) => f(runs.B[i]) / f(x)));
console.log(
  `B against A, median over ${pairs} pairs: deliveries/s ×${pairRatio((x) => x.rps).toFixed(3)}, ratio to a bare POST ×${pairRatio((x) => x.ratio).toFixed(3)}, workerd CPU per delivery ×${pairRatio((x) => x.cpu).toFixed(3)}` +
    (runs.A.every((x) => Number.isFinite(x.replays)) ? `, replay requests' time ×${pairRatio((x) => x.replays).toFixed(3)}` : ""),
);
