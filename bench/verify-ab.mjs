// #19 diagnostic: verify A/B between running `npm start` checkouts (e.g. a worktree of the commit before a change and
// one after), interleaved block by block, with the workerd CPU of each checkout's own processes from /proc (the figure
// to compare on a shared machine; wall time beside it). Each checkout is named by its directory: its .svc/dev.env
// gives the service address and key, its .dev.vars the dev PKI its keyed files are signed with (each side verifies
// files signed by its own dev signer), and its workerd processes are those of the session serving that address.
// Rows: GET /healthz; the public verify of the 2.8 MP photograph (bench/verify.mjs); the keyed verify of signed 1 MP
// JPEGs (bench/verify-keyed.mjs). Every verify is of a file of its own, from an address of its own. CPU is read per
// block of --block requests (/proc counts 10 ms ticks), blocks alternate between the sides, order reversed each round.
//
// --published: the keyed row verifies 1 MP JPEGs each side's own service published (bench/lib/verify-requests.mjs
// publishedFiles), instead of files signed in this script with its dev PKI.
//   node bench/verify-ab.mjs A=/tmp/base B=/work/wt/verify [--rounds 8] [--block 5] [--skip-keyed] [--skip-public] [--published]

import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkoutSides, cpuMsOf, numberOption } from "./lib/ab-checkouts.mjs";
import { publishedFiles } from "./lib/verify-requests.mjs";

const args = process.argv.slice(2);
const rounds = numberOption(args, "--rounds", 8);
const block = numberOption(args, "--block", 5);
const sides = checkoutSides(args);
if (sides.length < 1) throw new Error("usage: node bench/verify-ab.mjs LABEL=<checkout dir> ... [--rounds N] [--block N]");
const cpuOf = cpuMsOf;

const count = (rounds + 1) * block;
const kinds = [["GET /healthz", "healthz"]];
if (!args.includes("--skip-public")) kinds.push(["public verify, 2.8 MP photo", "public"]);
if (!args.includes("--skip-keyed")) kinds.push(["keyed verify, signed 1 MP JPEG", "keyed"]);
for (const s of sides) {
  // Each side's own request helpers: keyed files are signed with that checkout's dev PKI.
  const lib = await import(join(s.dir, "bench", "lib", "verify-requests.mjs"));
  s.calls = {
    healthz: async () => {
      const res = await fetch(`${s.base}/healthz`);
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`GET /healthz: HTTP ${res.status}`);
      return { status: "ok" };
    },
  };
  if (kinds.some(([, k]) => k === "public"))
    s.calls.public = lib.verifier({ base: s.base, key: null, files: await lib.publicFiles(count) });
  // --published: keyed files each side's own service published (express sign, downloaded), not files signed here;
  // measured after the express safety nets (EXPRESS_SAFETY_NET_SECONDS, 120 s) of those publications have run.
  if (kinds.some(([, k]) => k === "keyed"))
    s.calls.keyed = lib.verifier({
      base: s.base,
      key: s.key,
      files: args.includes("--published")
        ? await publishedFiles(count, { base: s.base, key: s.key, settleMs: 125_000 })
        : signedFiles(s.dir, count),
    });
}
/**
 * `n` keyed files signed with checkout `dir`'s dev PKI, made in a child process: the signing bundles of two
 * checkouts do not share one process (the engine's runtime shims are global).
 */
function signedFiles(dir, n) {
  const out = mkdtempSync(join(tmpdir(), "svc-verify-ab-"));
  const lib = join(dir, "bench", "lib", "verify-requests.mjs");
  const script = `const { keyedFiles } = await import(${JSON.stringify(lib)}); const { writeFileSync } = await import("node:fs");
    (await keyedFiles(${n})).forEach((f, i) => writeFileSync(${JSON.stringify(out)} + "/" + String(i).padStart(5, "0"), f));`;
  execFileSync(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "ignore", "inherit"] });
  const files = readdirSync(out)
    .sort()
    .map((f) => readFileSync(join(out, f)));
  rmSync(out, { recursive: true });
  return files;
}
const p50 = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
console.log(
  `verify A/B: ${rounds} rounds of ${block} requests per side and row, interleaved (${new Date().toISOString()}, load ${readFileSync("/proc/loadavg", "utf8").split(" ")[0]})`,
);
for (const [name, kind] of kinds) {
  const results = Object.fromEntries(sides.map((s) => [s.label, { cpu: [], wall: [], statuses: new Set() }]));
  for (let round = 0; round <= rounds; round++) {
    const order = round % 2 ? [...sides].reverse() : sides;
    for (const s of order) {
      const c0 = cpuOf(s.pids);
      for (let i = 0; i < block; i++) {
        const t = performance.now();
        const body = await s.calls[kind]();
        if (round > 0) results[s.label].wall.push(performance.now() - t);
        results[s.label].statuses.add(body.status);
      }
      if (round > 0) results[s.label].cpu.push((cpuOf(s.pids) - c0) / block); // round 0 warms
    }
  }
  console.log(`  ${name}`);
  for (const s of sides) {
    const r = results[s.label];
    console.log(
      `    ${s.label.padEnd(6)} workerd CPU mean ${mean(r.cpu).toFixed(1).padStart(5)} ms/req (block medians ${p50(r.cpu).toFixed(1)}), wall p50 ${p50(r.wall).toFixed(1)} ms; ${[...r.statuses].join(", ")} (${s.dir})`,
    );
  }
}
