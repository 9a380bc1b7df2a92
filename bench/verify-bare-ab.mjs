// The bare-Miniflare row of bench/verify.mjs (public POST /v1/verify of the 64 px JPEG, each request its own bytes
// and address) and GET /healthz on two or more Worker bundles in alternating blocks, each in its own workerd, in
// workerd CPU per request read from /proc (the figure to compare on a shared machine) beside req/s.
//   node bench/verify-bare-ab.mjs LABEL=<bundle dir or checkout> LABEL=<...> [--rounds 6] [--requests 300] [--cold N]
// --cold N: instead, the first public verify of a fresh workerd (a new isolate: what it instantiates on first use),
// N fresh starts per bundle in alternation, in workerd CPU and wall ms of that one request.
// A checkout (a directory with wrangler.toml) is bundled as `wrangler deploy --dry-run` does; a bundle directory
// (index.js and its wasm) is used as it is, so a variant can be bundled from a temporary edit.
// --ladder <checkout>: where the 64 px verify's workerd CPU goes, by ablation (diagnostics: each variant leaves out one
// more stage of the same checkout, bundled from a patched copy of its src/; none of them is a correct verify):
//   full → no-limiter (no chargeVerify) → no-lookup (the D1 index lookup answered empty without a call) → no-pixels
//   (no image services: no decode, fingerprints, windows or detector) → body-only (the file read and sniffed, then a
//   constant answer) → handler0 (a constant answer as the handler starts: multipart parse and validation, middleware,
//   the POST through Miniflare's entry); /healthz beside each. A patch whose anchor text is gone fails the run.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startWorker } from "../test/support/worker.ts";
import { numberOption } from "./lib/ab-checkouts.mjs";

const ROOT = join(import.meta.dirname, "..");
const args = process.argv.slice(2);
const rounds = numberOption(args, "--rounds", 6);
const cold = numberOption(args, "--cold", 0);
const requests = numberOption(args, "--requests", 300);
const BOUNDARY = "svcbenchverifyboundary";

function scriptOf(dir) {
  if (existsSync(join(dir, "index.js"))) return join(dir, "index.js");
  const out = mkdtempSync(join(tmpdir(), "svc-ab-bundle-"));
  execFileSync(join(ROOT, "node_modules", ".bin", "wrangler"), ["deploy", "--dry-run", "--outdir", out], {
    cwd: dir,
    env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
    stdio: "ignore",
  });
  return join(out, "index.js");
}
/** Cumulative ablation patches of --ladder: [label, file, anchor, replacement] (each variant keeps the earlier ones). */
const LADDER = [
  ["no-limiter", "src/verifications/routes/verify.ts", "    await chargeVerify(c);\n", "    void chargeVerify;\n"],
  [
    "no-lookup",
    "src/verifications/verify-service.ts",
    "  const found = await indexMatches(env.DB, {",
    "  const found = { exact: lookups.exact.map(() => []), pdq: [], video: [], pdqRegions: [], chromaprint: [], also: [] } as never as Awaited<ReturnType<typeof indexMatches>>;\n  void (env.DB, {",
  ],
  ["no-pixels", "src/verifications/routes/verify.ts", "      image: await imageServices().catch(() => null),", "      image: null,"],
  [
    "body-only",
    "src/verifications/routes/verify.ts",
    "    const { subjectType, assetId, objectId } = input;\n",
    '    const { subjectType, assetId, objectId } = input;\n    if (input) return c.json({ status: "ablation" }, 200);\n',
  ],
  [
    "handler0",
    "src/verifications/routes/verify.ts",
    "    void chargeVerify;\n",
    '    void chargeVerify;\n    if (c) return c.json({ status: "ablation" }, 200);\n',
  ],
];
/** The ladder's variants of `checkout`: a copy of its src/ per step (the rest linked), each bundled. */
function ladderOf(checkout) {
  const out = [{ label: "full", script: scriptOf(checkout) }];
  const edits = [];
  for (const [label, file, anchor, replacement] of LADDER) {
    edits.push([file, anchor, replacement]);
    const dir = mkdtempSync(join(tmpdir(), `svc-ladder-${label}-`));
    for (const entry of readdirSync(checkout)) {
      if (entry === "src") cpSync(join(checkout, "src"), join(dir, "src"), { recursive: true });
      else if (entry !== ".git" && entry !== ".wrangler") symlinkSync(join(checkout, entry), join(dir, entry));
    }
    for (const [f, a, r] of edits) {
      const text = readFileSync(join(dir, f), "utf8");
      if (!text.includes(a)) throw new Error(`--ladder: ${f} no longer holds ${JSON.stringify(a)}; update LADDER`);
      writeFileSync(join(dir, f), text.replace(a, r));
    }
    out.push({ label, script: scriptOf(dir) });
  }
  return out;
}
const children = () => {
  try {
    return execFileSync("pgrep", ["-P", String(process.pid), "workerd"])
      .toString()
      .trim()
      .split("\n")
      .filter(Boolean);
  } catch {
    return [];
  }
};
const cpuOf = (pids) =>
  pids.reduce((sum, pid) => {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return sum + (Number(fields[11]) + Number(fields[12])) * 10;
  }, 0);

const small = readFileSync(join(ROOT, "test/fixtures/media/sample.jpg"));
function variant(n) {
  const text = Buffer.from(`bench ${n}`);
  const com = Buffer.alloc(4);
  com.writeUInt16BE(0xfffe, 0);
  com.writeUInt16BE(text.length + 2, 2);
  return Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="s.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`),
    small.subarray(0, 2),
    com,
    text,
    small.subarray(2),
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}
let n = 0;
const address = (i) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;

const verify = (mf) => async () => {
  const i = ++n;
  const res = await mf.dispatchFetch("http://bench.local/v1/verify", {
    method: "POST",
    body: variant(i),
    headers: { "content-type": `multipart/form-data; boundary=${BOUNDARY}`, "cf-connecting-ip": address(i) },
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`HTTP ${res.status} ${text.slice(0, 200)}`);
};
const healthz = (mf) => async () => void (await (await mf.dispatchFetch("http://bench.local/healthz")).text());
async function start(script) {
  const before = new Set(children());
  const worker = await startWorker({
    script,
    bindings: {
      SVC_KEY_PEPPER: randomBytes(32).toString("base64url"),
      SVC_CURSOR_SECRET: randomBytes(32).toString("base64url"),
      SVC_CAPABILITY_SECRET: randomBytes(32).toString("base64url"),
    },
  });
  return { worker, pids: children().filter((p) => !before.has(p)) };
}
const ladder = args.includes("--ladder") ? args[args.indexOf("--ladder") + 1] : undefined;
const labelled = ladder
  ? ladderOf(ladder)
  : args
      .filter((x) => /^[A-Za-z0-9_-]+=/.test(x))
      .map((a) => ({ label: a.slice(0, a.indexOf("=")), script: scriptOf(a.slice(a.indexOf("=") + 1)) }));
if (cold > 0) {
  const firsts = new Map(labelled.map((s) => [s.label, []]));
  for (let r = 0; r < cold; r++) {
    for (const side of r % 2 ? [...labelled].reverse() : labelled) {
      const { worker, pids } = await start(side.script);
      await (await worker.mf.dispatchFetch("http://bench.local/healthz")).text(); // the isolate is up
      const cpu = cpuOf(pids);
      const t0 = performance.now();
      await verify(worker.mf)();
      firsts.get(side.label).push({ ms: performance.now() - t0, cpu: cpuOf(pids) - cpu });
      await worker.dispose();
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log(`\nfirst public verify of a fresh workerd, ${cold} starts each, alternating`);
  for (const [label, xs] of firsts)
    console.log(
      `${label.padEnd(16)} wall ${median(xs.map((x) => x.ms)).toFixed(1)} ms (runs ${xs.map((x) => x.ms.toFixed(0)).join(" ")}), workerd CPU ${median(xs.map((x) => x.cpu))} ms (runs ${xs.map((x) => x.cpu).join(" ")})`,
    );
  process.exit(0);
}
const sides = [];
for (const { label, script } of labelled) sides.push({ label, ...(await start(script)), verify: [], healthz: [] });
async function block(side, send, count) {
  const cpu = cpuOf(side.pids);
  const t0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next++ < count) await send();
    }),
  );
  return { rps: count / ((performance.now() - t0) / 1000), cpu: (cpuOf(side.pids) - cpu) / count };
}
for (const side of sides) for (let i = 0; i < 60; i++) await verify(side.worker.mf)();
for (let r = 0; r < rounds; r++) {
  const order = r % 2 ? [...sides].reverse() : sides;
  for (const side of order) {
    side.healthz.push(await block(side, healthz(side.worker.mf), requests));
    side.verify.push(await block(side, verify(side.worker.mf), requests));
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(
  `\n${rounds} rounds of ${requests} requests each, 8 in flight, alternating (load ${execFileSync("cat", ["/proc/loadavg"]).toString().split(" ")[0]})`,
);
for (const s of sides) {
  const v = median(s.verify.map((x) => x.cpu));
  const h = median(s.healthz.map((x) => x.cpu));
  const ratios = s.verify.map((x, i) => x.rps / s.healthz[i].rps);
  console.log(
    `${s.label.padEnd(16)} verify ${v.toFixed(2)} ms CPU/req (runs ${s.verify.map((x) => x.cpu.toFixed(2)).join(" ")}), /healthz ${h.toFixed(2)}; req/s ratio median ${median(ratios).toFixed(3)}× (verify ${median(s.verify.map((x) => x.rps)).toFixed(0)}, /healthz ${median(s.healthz.map((x) => x.rps)).toFixed(0)})`,
  );
}
// Paired by round (each round ran every side once, back to back): what each side costs beside the one before it.
const paired = (a, b) => {
  const d = a.map((x, i) => x.cpu - b[i].cpu);
  const mean = d.reduce((x, y) => x + y, 0) / d.length;
  const se = Math.sqrt(d.reduce((x, y) => x + (y - mean) ** 2, 0) / Math.max(1, d.length - 1) / d.length);
  return `${mean >= 0 ? "+" : ""}${mean.toFixed(2)} ± ${se.toFixed(2)} ms`;
};
for (let i = 1; i < sides.length; i++)
  console.log(
    `${sides[i - 1].label} − ${sides[i].label}: verify ${paired(sides[i - 1].verify, sides[i].verify)} CPU/req (mean of rounds ± s.e.)`,
  );
const last = sides.at(-1);
console.log(`${last.label} − /healthz: ${paired(last.verify, last.healthz)} CPU/req`);
for (const s of sides) await s.worker.dispose();
