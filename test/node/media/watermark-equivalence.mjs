// The watermark detector's equivalence set, whole (see watermark-equivalence.cases.mjs):
//   node test/node/media/watermark-equivalence.mjs --record        # writes test/fixtures/watermark-equivalence.json
//   node test/node/media/watermark-equivalence.mjs                 # checks wasm/build/watermark.wasm against it
//   node test/node/media/watermark-equivalence.mjs --compare old.wasm   # also runs `old.wasm` side by side (timing)
// Marks every image with the recorded kernel's embedder output when recording, and with the current one when
// checking: the embedder's output is pinned bit-exact by the conformance test, so both see the same pixels.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import "../../../bench/lib/ts-resolve.mjs";

const ROOT = join(import.meta.dirname, "..", "..", "..");
const FIXTURE = join(ROOT, "test/fixtures/watermark-equivalence.json");
const { WasmWatermarker } = await import("../../../src/media/watermark/kernel.ts");
const { equivalenceCases, outcome } = await import("./watermark-equivalence.cases.mjs");

const record = process.argv.includes("--record");
const only = process.argv.includes("--fast") ? "fast" : "all";
const compareWith = process.argv.includes("--compare") ? process.argv[process.argv.indexOf("--compare") + 1] : null;
const load = (p) => new WasmWatermarker(new WebAssembly.Module(readFileSync(p)));
const wm = load(join(ROOT, "wasm/build/watermark.wasm"));
const old = compareWith ? load(compareWith) : null;
const embed = (image, payload, strength) => {
  const e = wm.embed({ image, payload, strength });
  return e.status === "embedded" ? e.image : null;
};
const recorded = record ? null : new Map(JSON.parse(readFileSync(FIXTURE, "utf8")).cases.map((c) => [c.id, c]));

const out = [];
let lost = 0;
let gained = 0;
let wrong = 0;
let changed = 0;
const ms = { now: [], old: [] };
const dz = [];
const dzDetected = [];
for await (const c of equivalenceCases(embed, { only })) {
  const t0 = performance.now();
  const r = outcome(wm, c.image);
  ms.now.push(performance.now() - t0);
  const entry = { id: c.id, fast: c.fast, expect: c.payload ?? null, ...r };
  out.push(entry);
  if (r.status === "detected" && r.payload !== c.payload) wrong++;
  let ref = recorded?.get(c.id);
  if (old) {
    const t1 = performance.now();
    ref = { id: c.id, ...outcome(old, c.image) };
    ms.old.push(performance.now() - t1);
  }
  if (!ref) continue;
  if (ref.status !== r.status || ref.payload !== r.payload) {
    changed++;
    if (ref.status === "detected" && r.status !== "detected") lost++;
    if (ref.status !== "detected" && r.status === "detected") gained++;
    console.log(
      `CHANGED ${c.id}: was ${ref.status} ${ref.payload ?? ""} z ${ref.z} peak ${ref.peakZ}; now ${r.status} ${r.payload ?? ""} z ${r.z} peak ${r.peakZ}`,
    );
  }
  // detections in stage 2 may score different hypothesis sets (the refinement pairs two candidates): compare the
  // peak over every hypothesis only where both searches ran to the end
  if (r.status !== "detected" && ref.status !== "detected") dz.push(Math.abs(r.peakZ - ref.peakZ));
  else dzDetected.push(Math.abs(r.z - ref.z));
}

const q = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(p * s.length))] : Number.NaN;
};
const fmt = (xs) => `n ${xs.length}, min ${q(xs, 0)}, p10 ${q(xs, 0.1)}, median ${q(xs, 0.5)}, p90 ${q(xs, 0.9)}, max ${q(xs, 1)}`;
const unmarked = out.filter((e) => e.expect === null);
const marked = out.filter((e) => e.expect !== null);
console.log(`cases ${out.length} (marked ${marked.length}, unmarked ${unmarked.length})`);
console.log(`marked: detected ${marked.filter((e) => e.status === "detected" && e.payload === e.expect).length}; wrong payloads ${wrong}`);
console.log(`false positives: ${unmarked.filter((e) => e.status === "detected").length}/${unmarked.length}`);
console.log(`unmarked peak sync z (over every hypothesis; decode needs >= 5): ${fmt(unmarked.map((e) => e.peakZ))}`);
console.log(`detected sync z: ${fmt(marked.filter((e) => e.status === "detected").map((e) => e.z))}`);
console.log(`marked, not detected, peak sync z: ${fmt(marked.filter((e) => e.status !== "detected").map((e) => e.peakZ))}`);
if (dz.length) console.log(`|peak z - reference| where neither detected (full search in both): ${fmt(dz)}`);
if (dzDetected.length) console.log(`|sync z - reference| where detected (the decode's exact z): ${fmt(dzDetected)}`);
if (ms.old.length) console.log(`detect ms: now median ${q(ms.now, 0.5).toFixed(1)}, reference kernel median ${q(ms.old, 0.5).toFixed(1)}`);
if (!record) console.log(`equivalence: ${changed} changed outcomes (${lost} lost detections, ${gained} new detections)`);
if (record) {
  writeFileSync(
    FIXTURE,
    `${JSON.stringify({ note: "node test/node/media/watermark-equivalence.mjs --record", cases: out.map(({ expect, ...e }) => e) }, null, 0).replace(/\},\{/g, "},\n{")}\n`,
  );
  console.log(`wrote ${FIXTURE}`);
}
if (changed > 0 || wrong > 0) process.exitCode = 1;
