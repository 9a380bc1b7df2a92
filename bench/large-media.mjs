// `npm run bench:large-media` (opt-in, not in CI: it writes ~3 GiB to disk and takes minutes): the must-show of #19's
// large-media row. ffmpeg makes a ~2 GiB H.264/AAC MP4 (and a 1 GiB PCM WAV and FLAC); `npm start` runs on PORT=8806; each file
// is uploaded (multipart), signed sign-only, and downloaded over HTTP exactly as a client would; the reference reader
// c2pa-node (native c2pa-rs) must judge the download Trusted; and the workerd process's memory is measured: its RSS
// high-water mark during the large run against its idle RSS in the same run (after a small warm-up signing, so the
// one-time engine load is reported separately). Options: --only mp4|wav|flac, --clean (delete the generated media, kept for the next run by default),
// --mib N (files of N MiB instead of 2 GiB / 1 GiB), --verify (then verify each signed asset by asset id, POST /v1/verify, and
// by object id, POST /v1/verifications: both stream the object; their memory is compared with an in-Worker read of it),
// --no-baseline (skip the bare-Miniflare copy baseline: the process-level difference figures are then not printed),
// --inspect-workers (also read our Worker isolates over the inspector; see below). PORT and SVC_INSPECTOR_PORT (default
// PORT + 1) are npm start's.
// The Worker's own memory is read per isolate over the runtime's inspector (bench/lib/isolate-memory.mjs): the workerd
// process also holds wrangler's proxy (a second process) and Miniflare's R2 simulator (the `r2:bucket` isolate), which
// buffers up to a whole multipart object while a slower reader downloads it; production serves downloads from R2.
import { execFileSync, spawn } from "node:child_process";
import { createHash, randomUUID } from "node:crypto";
import {
  closeSync,
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
} from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { Reader } from "@contentauth/c2pa-node";
import { goal } from "./lib/goals.mjs";
import { isolateProbe, runtimeInspector, splitWranglerProcesses } from "./lib/isolate-memory.mjs";
import { memoryProbe, plainCopyBaseline, readMemory, workerdPids } from "./lib/workerd-memory.mjs";

const ROOT = join(import.meta.dirname, "..");
const WORK = join(ROOT, "dist", "bench", "large-media");
const PORT = Number(process.env.PORT || 8806);
const BASE = `http://127.0.0.1:${PORT}`;
// wrangler's inspector proxy for the API Worker (npm start's SVC_INSPECTOR_PORT): the one way into that isolate's
// inspector, since wrangler holds the runtime's session of it (a second direct session is never answered).
const INSPECTOR_PORT = Number(process.env.SVC_INSPECTOR_PORT || PORT + 1);
const MiB = 2 ** 20;
const GiB = 2 ** 30;
const PART = 16 * MiB;
const args = process.argv.slice(2);
const only = args.includes("--only") ? args[args.indexOf("--only") + 1] : null;
const clean = args.includes("--clean");
const verify = args.includes("--verify");
const withBaseline = !args.includes("--no-baseline");
// --inspect-workers: also read our Worker isolates over the inspector (their own heap, ArrayBuffers and wasm): the API
// Worker (it runs the sign job: the queue consumer) through wrangler's inspector proxy, once a second; the media Worker
// and the R2 simulator directly. Rounds 11–12 read the API Worker directly and got no answer (wrangler holds that
// session), and its job polls stalled mid-sign: that was workerd never polling its sockets while an in-process R2
// copy kept its event loop busy (src/media/c2pa/stream-hash.ts forEachChunk now yields a timer turn every MiB).
const inspectWorkers = args.includes("--inspect-workers");
// The inspector sessions use the global WebSocket (Node 22+; Node 20 only behind a flag): without it every isolate
// would be left out and the Worker's peak reported as not computed, after the whole run.
if (inspectWorkers && typeof WebSocket === "undefined") {
  console.error(
    "--inspect-workers needs a global WebSocket: use the project's Node (export PATH=$PWD/node_modules/.bin:$PATH: Node 22) or NODE_OPTIONS=--experimental-websocket",
  );
  process.exit(2);
}
// --mib N: a smaller MP4 (N MiB) for a quick memory run; the must-show is the default ~2 GiB.
const mp4Bytes = args.includes("--mib") ? Number(args[args.indexOf("--mib") + 1]) * MiB : 2 * GiB - 8 * MiB;
mkdirSync(WORK, { recursive: true });

// ---------------------------------------------------------------------------------------------------------------
// Media

function ffmpeg(argv) {
  execFileSync("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", ...argv], { stdio: ["ignore", "inherit", "inherit"] });
}

/** ~2 GiB MP4 (≤ the 2 GiB limit; or --mib N): a 4 s 720p noise clip (H.264 lossless, AAC), looped with stream copy. */
function makeMp4() {
  const file = join(WORK, mp4Bytes === 2 * GiB - 8 * MiB ? "large.mp4" : `large-${mp4Bytes / MiB}mib.mp4`);
  if (existsSync(file)) return file;
  const clip = join(WORK, "clip.mp4");
  ffmpeg([
    ...["-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=30", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000"],
    ...["-t", "4", "-vf", "noise=alls=60:allf=t", "-c:v", "libx264", "-preset", "ultrafast", "-qp", "0", "-pix_fmt", "yuv420p"],
    ...["-c:a", "aac", "-b:a", "128k", "-shortest", clip],
  ]);
  // -fs stops the copy just below 2 GiB; the moov written after it stays inside the limit.
  ffmpeg(["-stream_loop", "-1", "-i", clip, "-c", "copy", "-fs", String(mp4Bytes), file]);
  rmSync(clip);
  return file;
}

/** 1 GiB-class WAV (16-bit stereo 48 kHz pink noise, ≈ 93 minutes; or --mib N). */
function makeWav() {
  const small = args.includes("--mib");
  const file = join(WORK, small ? `large-${mp4Bytes / MiB}mib.wav` : "large.wav");
  if (existsSync(file)) return file;
  const seconds = Math.floor(((small ? mp4Bytes : GiB) - 64 * 1024) / (48000 * 4));
  ffmpeg(["-f", "lavfi", "-i", `anoisesrc=d=${seconds}:c=pink:r=48000:a=0.3`, "-ac", "2", "-c:a", "pcm_s16le", file]);
  return file;
}

/**
 * 1 GiB-class FLAC (or --mib N): 16-bit stereo 48 kHz white noise at full scale (FLAC barely compresses noise),
 * encoded by ffmpeg, kept below the size by -fs.
 */
function makeFlac() {
  const small = args.includes("--mib");
  const target = small ? mp4Bytes : GiB;
  const file = join(WORK, small ? `large-${mp4Bytes / MiB}mib.flac` : "large.flac");
  if (existsSync(file)) return file;
  // One noise channel copied to both: FLAC codes the pair in about half the PCM size, so twice the length is
  // generated and -fs stops it at the size.
  const seconds = Math.ceil(target / (48000 * 2));
  ffmpeg([
    ...["-f", "lavfi", "-i", `anoisesrc=d=${seconds}:c=white:r=48000:a=1.0`, "-ac", "2", "-sample_fmt", "s16"],
    ...["-c:a", "flac", "-compression_level", "0", "-fs", String(target - 64 * 1024), file],
  ]);
  return file;
}

async function sha256File(file) {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file, { highWaterMark: 8 * MiB })) hash.update(chunk);
  return hash.digest("hex");
}

// ---------------------------------------------------------------------------------------------------------------
// npm start and the workerd process

function startServer() {
  const child = spawn("npm", ["start"], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(PORT), SVC_INSPECTOR_PORT: String(INSPECTOR_PORT) },
    detached: true, // its own process group: stopped with one signal to the group
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  const log = createWriteStream(join(WORK, "npm-start.log"));
  child.stdout.on("data", (d) => {
    out += d;
    log.write(d);
  });
  child.stderr.on("data", (d) => log.write(d));
  return { child, output: () => out };
}

function stopServer(server) {
  try {
    process.kill(-server.child.pid, "SIGINT");
  } catch {}
}

// ---------------------------------------------------------------------------------------------------------------
// The API, as a client

let KEY = "";
async function api(method, path, body, extraHeaders = {}) {
  const headers = { authorization: `Bearer ${KEY}`, ...extraHeaders };
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(`${BASE}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let json = null;
  try {
    json = JSON.parse(text);
  } catch {}
  if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 400)}`);
  return json;
}

function readPart(file, start, length) {
  const fd = openSync(file, "r");
  const buf = Buffer.allocUnsafe(length);
  try {
    readSync(fd, buf, 0, length, start);
  } finally {
    closeSync(fd);
  }
  return buf;
}

async function upload(file, mediaType) {
  const size = statSync(file).size;
  const sha256 = await sha256File(file);
  const parts = [];
  for (let at = 0, n = 1; at < size; at += PART, n++) parts.push({ part_number: n, byte_length: Math.min(PART, size - at) });
  const created = await api("POST", "/v1/uploads", {
    byte_length: size,
    declared_media_type: mediaType,
    mode: "multipart",
    sha256,
    filename: file.split("/").pop(),
    parts,
  });
  const etags = [];
  for (const part of created.parts) {
    const body = readPart(file, (part.part_number - 1) * PART, part.byte_length);
    // A part may be sent again (the local dev proxy drops a connection now and then on a loaded machine).
    for (let attempt = 1; ; attempt++) {
      try {
        const res = await fetch(part.url, { method: "PUT", headers: part.headers, body });
        if (res.status !== 200) throw new Error(`PUT part ${part.part_number}: ${res.status} ${await res.text()}`);
        etags.push({ part_number: part.part_number, etag: res.headers.get("etag") });
        await res.arrayBuffer();
        break;
      } catch (error) {
        if (attempt >= 4) throw error;
        console.log(`  part ${part.part_number}: ${error.message}; sending it again`);
      }
    }
  }
  await api("POST", `/v1/uploads/${created.upload_id}/complete`, { parts: etags }, { "idempotency-key": randomUUID() });
  return { assetId: created.asset_id, size, sha256 };
}

async function signAndWait(assetId, timeoutMs = 30 * 60_000) {
  const started = await api(
    "POST",
    "/v1/sign",
    { asset_id: assetId, recipe_id: "rcp_system_sign_only" },
    { "idempotency-key": randomUUID() },
  );
  const deadline = Date.now() + timeoutMs;
  // The longest wait for a poll's answer: the API Worker's responsiveness while it runs the job.
  // Where in the job it came (seconds after the sign request) and the state it answered: which step held the Worker.
  let longestPollMs = 0;
  let longestPollAt = 0;
  let longestPollState = "";
  const begun = Date.now();
  for (;;) {
    const asked = Date.now();
    const job = await api("GET", `/v1/jobs/${started.job_id}`);
    if (Date.now() - asked > longestPollMs) {
      longestPollMs = Date.now() - asked;
      longestPollAt = asked - begun;
      longestPollState = [job.state, job.step ?? job.stage].filter(Boolean).join("/");
    }
    if (["completed", "failed", "rejected", "canceled", "expired"].includes(job.state))
      return { ...job, longestPollMs, longestPollAt, longestPollState };
    if (Date.now() > deadline) throw new Error(`job ${started.job_id} still ${job.state}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

async function download(assetId, file) {
  const d = await api("POST", `/v1/assets/${assetId}/download`);
  const res = await fetch(d.url, { headers: d.headers });
  if (res.status !== 200) throw new Error(`download: ${res.status}`);
  await pipeline(Readable.fromWeb(res.body), createWriteStream(file));
  return statSync(file).size;
}

async function referenceVerdict(file, mediaType) {
  // The dev root is the trust anchor npm start configured (.dev.vars, a dotenv value with \n escapes).
  const quoted = /^SVC_TRUST_ANCHORS_PEM="([^"]*)"/m.exec(readFileSync(join(ROOT, ".dev.vars"), "utf8"));
  if (!quoted) throw new Error(".dev.vars has no SVC_TRUST_ANCHORS_PEM");
  const rootPem = quoted[1].replace(/\\n/g, "\n");
  const settings = JSON.stringify({
    verify: { verify_trust: true, verify_timestamp_trust: true, remote_manifest_fetch: false, ocsp_fetch: false },
    trust: { trust_anchors: rootPem },
  });
  const reader = await Reader.fromAsset({ path: file, mimeType: mediaType }, settings);
  if (!reader) return { state: "no manifest", failure: [] };
  const store = reader.json();
  const codes = (k) => (store.validation_results?.activeManifest?.[k] ?? []).map((c) => c.code);
  return { state: store.validation_state, failure: codes("failure"), success: codes("success") };
}

// ---------------------------------------------------------------------------------------------------------------

const mb = (bytes) => `${(bytes / MiB).toFixed(0)} MiB`;
const signed = (bytes) => `${bytes < 0 ? "−" : "+"}${mb(Math.abs(bytes))}`;
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

const cases = [
  ["mp4", "video/mp4", makeMp4, mp4Bytes === 2 * GiB - 8 * MiB ? "2 GiB MP4" : `${mp4Bytes / MiB} MiB MP4`],
  ["wav", "audio/wav", makeWav, args.includes("--mib") ? `${mp4Bytes / MiB} MiB WAV` : "1 GiB WAV"],
  ["flac", "audio/flac", makeFlac, args.includes("--mib") ? `${mp4Bytes / MiB} MiB FLAC` : "1 GiB FLAC"],
].filter(([name]) => !only || only === name);
const files = cases.map(([name, type, make, label]) => {
  const t = Date.now();
  const file = make();
  console.log(`media: ${label} ${file} ${statSync(file).size} bytes (${seconds(Date.now() - t)})`);
  return { name, type, file, label };
});

// Same-run baseline: the same bytes through a Worker that does not sign (bare Miniflare, R2 on disk), before npm start.
const baselines = new Map();
for (const media of withBaseline ? files : []) {
  const t = Date.now();
  const size = statSync(media.file).size;
  baselines.set(media, await plainCopyBaseline({ file: media.file, size, workDir: WORK, uploadPartBytes: PART, copyPartBytes: 8 * MiB }));
  console.log(`baseline: plain streamed copy of the ${media.label} (${seconds(Date.now() - t)})`);
}

const server = startServer();
process.on("exit", () => stopServer(server));
let isolates = null;
try {
  for (let i = 0; ; i++) {
    if (i > 600) throw new Error("npm start did not become ready in 5 minutes");
    const key = /SVC_API_KEY=(\S+)/.exec(server.output());
    if (key) {
      KEY = key[1];
      const ok = await fetch(`${BASE}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  const pids = workerdPids(server.child.pid);
  if (pids.length === 0) throw new Error("no workerd process found under npm start");
  const probe = memoryProbe(pids);
  const coldIdle = probe.read().rss;
  // wrangler's proxy and the runtime, measured apart; the runtime's isolates over its inspector: ours and the R2
  // simulator's.
  const { runtime, proxy } = splitWranglerProcesses(pids);
  if (runtime.length !== 1) throw new Error(`expected one workerd runtime process with an inspector, found ${runtime.length}`);
  const runtimeProbe = memoryProbe(runtime);
  const proxyProbe = memoryProbe(proxy);
  const inspector = await runtimeInspector(runtime[0]);
  // Ours: the API and media Workers (svc, svc-media; -dev in npm start), not wrangler's or Miniflare's own Workers.
  const ours = (id) => /^core:user:svc(-|$)/.test(id);
  const apiWorker = (id) => /^core:user:svc(-dev)?$/.test(id);
  const simulator = (id) => id.startsWith("r2:");
  const viaWrangler = async (t) => {
    const list = await (await fetch(`http://127.0.0.1:${INSPECTOR_PORT}/json/list`, { signal: AbortSignal.timeout(5000) })).json();
    // wrangler's proxy wants a local Origin (its DevTools rule); sampled once a second: each answer crosses two processes.
    // Every 20 s also a forced collection and a read after it (livePeak): what the Worker holds alive, apart from
    // garbage V8 had not collected yet when sampled.
    return { id: t.id, url: list[0].webSocketDebuggerUrl, headers: { Origin: "http://localhost" }, intervalMs: 1000, liveEveryMs: 20_000 };
  };
  const targets = [];
  for (const t of inspector.targets) {
    if (inspectWorkers && apiWorker(t.id)) targets.push(await viaWrangler(t));
    else if ((inspectWorkers && ours(t.id)) || simulator(t.id)) targets.push(t);
  }
  isolates = await isolateProbe(targets, { wasmOf: ours });
  console.log(`runtime ${runtime[0]} (inspector ${inspector.port}), proxy ${proxy.join(",")}; isolates: ${isolates.ids().join(", ")}`);
  // Warm-up: one small signing loads the engine (wasm) once; the idle figure is taken after it.
  const small = join(ROOT, "test", "fixtures", "media", "sample.mp4");
  const warm = await upload(small, "video/mp4");
  const warmJob = await signAndWait(warm.assetId);
  if (warmJob.state !== "completed") throw new Error(`warm-up job ${warmJob.state}: ${warmJob.error_code}`);
  await new Promise((r) => setTimeout(r, 2000));
  const idleMemory = probe.read();
  await isolates.phase("idle");
  const idleIsolates = (await isolates.stop()).idle;
  const idle = idleMemory.rss;
  console.log(`\nworkerd pids ${pids.join(",")}: idle RSS ${mb(coldIdle)} cold, ${mb(idle)} after a small warm-up signing\n`);

  // A line per finished phase as the run goes (a 2 GiB run takes long on a shared machine; the tables come at the end).
  let previous = null;
  const anonNow = (list) => readMemory(list).anon;
  const phase = async (name) => {
    probe.phase(name);
    runtimeProbe.phase(name);
    proxyProbe.phase(name);
    await isolates.phase(name);
    const done = previous && isolates.get(previous);
    if (done) {
      const figures = Object.entries(done).map(
        ([id, m]) =>
          `${id} ${m.start === null ? "?" : mb(m.start)}→${m.peak === null ? "? (no inspector answer)" : mb(m.peak)}${m.livePeak ? ` (live after forced GC ≤ ${mb(m.livePeak)})` : ""}${m.wasmEnd ? ` + wasm ${mb(m.wasmEnd)}` : ""}`,
      );
      console.log(
        `  ${new Date().toISOString()} ${previous} done: ${figures.join("; ")}; RssAnon now runtime ${mb(anonNow(runtime))}, proxy ${mb(anonNow(proxy))}`,
      );
    }
    previous = name;
  };
  const rows = [];
  for (const media of files) {
    await phase("upload");
    let t = Date.now();
    const uploaded = await upload(media.file, media.type);
    const uploadMs = Date.now() - t;
    await phase("sign");
    t = Date.now();
    const job = await signAndWait(uploaded.assetId);
    const signMs = Date.now() - t;
    console.log(
      `  sign job ${job.state} in ${seconds(signMs)}; the longest job poll answer meanwhile ${seconds(job.longestPollMs)} ` +
        `(asked ${seconds(job.longestPollAt)} into the job, answered ${job.longestPollState})`,
    );
    if (job.state !== "completed") throw new Error(`${media.label}: job ${job.state} ${job.error_code}: ${job.error_message}`);
    await phase("download");
    t = Date.now();
    const out = join(WORK, `signed-${media.name}.${media.name}`);
    const outSize = await download(uploaded.assetId, out);
    const downloadMs = Date.now() - t;
    let verified = null;
    if (verify) {
      await phase("verify");
      t = Date.now();
      const byAsset = await api("POST", "/v1/verify", { asset_id: uploaded.assetId });
      const byAssetMs = Date.now() - t;
      await phase("verify-stored");
      t = Date.now();
      const asset = await api("GET", `/v1/assets/${uploaded.assetId}`);
      const started = await api(
        "POST",
        "/v1/verifications",
        { object_id: asset.publication.object_id },
        { "idempotency-key": randomUUID() },
      );
      let stored = started;
      while (stored.state !== "completed" && stored.state !== "failed") {
        await new Promise((r) => setTimeout(r, 250));
        stored = await api("GET", `/v1/verifications/${started.verification_id}`);
      }
      verified = { byAsset, byAssetMs, stored, storedMs: Date.now() - t };
    }
    const phases = probe.stop();
    const runtimePhases = runtimeProbe.stop();
    const proxyPhases = proxyProbe.stop();
    const isolatePhases = await isolates.stop();
    const last = isolatePhases[previous];
    console.log(
      `  ${new Date().toISOString()} ${previous} done: ${Object.entries(last)
        .map(
          ([id, m]) =>
            `${id} ${m.start === null ? "?" : mb(m.start)}→${m.peak === null ? "? (no inspector answer)" : mb(m.peak)}${m.livePeak ? ` (live after forced GC ≤ ${mb(m.livePeak)})` : ""}${m.wasmEnd ? ` + wasm ${mb(m.wasmEnd)}` : ""}`,
        )
        .join(
          "; ",
        )}; RssAnon peak rise runtime ${mb(runtimePhases[previous].anon - runtimePhases[previous].start.anon)}, proxy ${mb(proxyPhases[previous].anon - proxyPhases[previous].start.anon)}`,
    );
    previous = null;
    t = Date.now();
    const verdict = await referenceVerdict(out, media.type);
    const readMs = Date.now() - t;
    const peak = Math.max(...Object.values(phases).map((p) => p.hwm));
    rows.push({
      media,
      uploaded,
      outSize,
      uploadMs,
      signMs,
      downloadMs,
      readMs,
      verdict,
      peak,
      phases,
      verified,
      runtimePhases,
      proxyPhases,
      isolatePhases,
    });
    rmSync(out);
  }

  console.log(
    ["file", "bytes", "upload", "sign job", "download", "c2pa-node", "verdict", "workerd peak RSS", "peak − idle"]
      .map((h) => h.padEnd(12))
      .join(" "),
  );
  for (const r of rows) {
    console.log(
      [
        r.media.label,
        String(r.uploaded.size),
        seconds(r.uploadMs),
        seconds(r.signMs),
        seconds(r.downloadMs),
        seconds(r.readMs),
        r.verdict.state,
        mb(r.peak),
        mb(r.peak - idle),
      ]
        .map((c) => c.padEnd(12))
        .join(" "),
    );
    if (r.verdict.failure.length) console.log(`  reference reader failures: ${r.verdict.failure.join(", ")}`);
  }
  console.log("\nsign job: upload complete → job completed (streamed inspection at complete is in 'upload').");

  // The Worker's own memory, per isolate (bench/lib/isolate-memory.mjs): V8 heap (committed) + ArrayBuffer backing
  // stores, peak of the phase, plus its WebAssembly memories at the phase's end (they only grow). Apart: the R2
  // simulator's isolates, the runtime process and wrangler's proxy process.
  const oursOf = (p) => Object.keys(p).filter(ours);
  // null: the isolate did not answer its inspector in that phase (not measured, never 0).
  const isolateOwn = (p, id) => (p[id].peak === null ? null : p[id].peak + (p[id].wasmEnd ?? p[id].wasmStart ?? 0));
  const idleOwn = (id) => (idleIsolates[id]?.start == null ? null : idleIsolates[id].start + (idleIsolates[id].wasmStart ?? 0));
  const mbOr = (bytes) => (bytes === null ? "not measured" : mb(bytes));
  const over = (bytes, id) => (bytes === null || idleOwn(id) === null ? "—" : signed(bytes - idleOwn(id)));
  const simulatorRise = (p) =>
    Object.keys(p)
      .filter(simulator)
      .reduce((sum, id) => sum + (p[id].peak ?? 0) - (p[id].start ?? 0), 0);
  const anonRise = (p) => p.anon - p.start.anon;
  /** The Worker's own peak over the phases: the largest isolate of ours (each Worker has its own limit). */
  // Without --inspect-workers: the Worker's bound = the runtime process's RssAnon rise minus the R2 simulator
  // isolates' rise in the same phase (it still holds every other isolate and the runtime's own buffers: an upper bound).
  const workerBound = (r, names) => {
    let best = { phase: null, bytes: 0 };
    for (const name of names) {
      const p = r.isolatePhases[name];
      if (!p) continue;
      const bound = anonRise(r.runtimePhases[name]) - simulatorRise(p);
      if (best.phase === null || bound > best.bytes) best = { phase: name, bytes: bound };
    }
    return best;
  };
  const workerPeak = (r, names) => {
    if (!inspectWorkers) {
      const bound = workerBound(r, names);
      return { id: "bound", phase: bound.phase, bytes: bound.bytes, unmeasured: [], bound: true };
    }
    let best = { id: null, phase: null, bytes: 0, unmeasured: [] };
    for (const name of names) {
      const p = r.isolatePhases[name];
      if (!p) continue;
      for (const id of oursOf(p)) {
        const own = isolateOwn(p, id);
        if (own === null) best.unmeasured.push(`${id.replace("core:user:", "")} (${name})`);
        else if (own > best.bytes) best = { ...best, id, phase: name, bytes: own };
      }
    }
    // A Worker not measured in a phase, or none of ours read at all, leaves the row's figure not computed (never 0).
    if (best.id === null && best.unmeasured.length === 0) best.unmeasured.push("none of our isolates was read");
    if (best.unmeasured.length || best.id === null) best.bytes = null;
    return best;
  };
  if (inspectWorkers) {
    console.log("\nMemory by holder, per phase. Worker = an isolate of ours: V8 heap + ArrayBuffers (peak) + wasm memories;");
    console.log("R2 simulator = Miniflare's r2:* isolates (V8 heap + ArrayBuffers) in the same runtime process; the runtime's and");
    console.log("wrangler's proxy's RssAnon: the phase's own rise (peak − its start).");
    for (const id of Object.keys(idleIsolates).filter(ours))
      console.log(`idle ${id}: heap+ArrayBuffers ${mbOr(idleIsolates[id].start)}, wasm ${mb(idleIsolates[id].wasmStart ?? 0)}`);
    console.log(
      ["file", "phase", "isolate", "peak", "− idle", "heap+AB", "wasm", "R2 sim rise", "runtime anon", "proxy anon"]
        .map((h) => h.padEnd(12))
        .join(" "),
    );
    for (const r of rows) {
      for (const [name, p] of Object.entries(r.isolatePhases)) {
        for (const id of oursOf(p)) {
          console.log(
            [
              r.media.label,
              name,
              id.replace("core:user:", ""),
              mbOr(isolateOwn(p, id)),
              over(isolateOwn(p, id), id),
              mbOr(p[id].peak),
              mb(p[id].wasmEnd ?? 0),
              signed(simulatorRise(p)),
              signed(anonRise(r.runtimePhases[name])),
              signed(anonRise(r.proxyPhases[name])),
            ]
              .map((c) => `${c}`.padEnd(12))
              .join(" "),
          );
        }
      }
    }
  }
  if (!inspectWorkers) {
    console.log("\nPer phase (our isolates not read: --inspect-workers): R2 simulator isolates' rise, the runtime's and the proxy's");
    console.log("RssAnon rise, and the Worker's bound (runtime − simulator).");
    for (const r of rows) {
      for (const [name, p] of Object.entries(r.isolatePhases)) {
        const runtimeRise = anonRise(r.runtimePhases[name]);
        console.log(
          `${r.media.label} ${name}: R2 simulator ${signed(simulatorRise(p))}, runtime ${signed(runtimeRise)}, proxy ${signed(anonRise(r.proxyPhases[name]))}; Worker ≤ ${signed(runtimeRise - simulatorRise(p))}`,
        );
      }
    }
  }

  if (withBaseline) {
    console.log("\nThe previous measure (the whole workerd, both processes, against a non-signing Worker on bare Miniflare):");
    console.log("RssAnon = heap; RssFile = mapped file pages (OS page cache, not Worker memory).");
    console.log("baseline = the same bytes through a Worker that does not sign (R2 get → 8 MiB-part multipart copy, in-Worker read).");
    console.log("Columns: peak above idle (cumulative: memory not returned by earlier phases stays), then the phase's own rise.");
    console.log(
      ["run", "phase", "RSS", "RssAnon", "RssFile", "RssShmem", "VmHWM", "rise: anon", "rise: file"].map((h) => h.padEnd(10)).join(" "),
    );
    const line = (run, phase, p, base) =>
      console.log(
        [
          run,
          phase,
          mb(p.rss - base.rss),
          mb(p.anon - base.anon),
          mb(p.file - base.file),
          mb(p.shmem - base.shmem),
          mb(p.hwm - base.rss),
          mb(p.anon - p.start.anon),
          mb(p.file - p.start.file),
        ]
          .map((c) => `${c}`.padEnd(10))
          .join(" "),
      );
    for (const r of rows) {
      const b = baselines.get(r.media);
      console.log(
        `${r.media.label}: npm start idle RSS ${mb(idleMemory.rss)} (anon ${mb(idleMemory.anon)}); baseline idle RSS ${mb(b.idle.rss)} (anon ${mb(b.idle.anon)})`,
      );
      for (const [phase, p] of Object.entries(r.phases)) line("signer", phase, p, idleMemory);
      for (const [phase, p] of Object.entries(b.phases)) line("baseline", phase, p, b.idle);
      console.log(
        `${r.media.label}: RssAnon rise, signer vs baseline: sign ${mb(anonRise(r.phases.sign))} vs copy ${mb(anonRise(b.phases.copy))}, download ${mb(anonRise(r.phases.download))} vs read ${mb(anonRise(b.phases.download))}; upload+inspection ${mb(anonRise(r.phases.upload))} vs plain upload ${mb(anonRise(b.phases.upload))}`,
      );
    }
  }

  for (const r of rows) {
    if (!r.verified) continue;
    const { byAsset, stored } = r.verified;
    const explained = (result) => /assertion\.(bmffHash|dataHash)\.match/.test(result?.developer_explanation ?? "");
    console.log(
      `${r.media.label}: verify by asset id ${byAsset.status} (${seconds(r.verified.byAssetMs)}), by object id ${stored.state} ${stored.result?.status ?? stored.error_code} (${seconds(r.verified.storedMs)}); binding checked: ${explained(byAsset)}/${explained(stored.result)}`,
    );
    const worker = workerPeak(r, ["verify", "verify-stored"]);
    const sim = Math.max(simulatorRise(r.isolatePhases.verify), simulatorRise(r.isolatePhases["verify-stored"]));
    goal({
      what: `streamed verification of a stream-signed ${r.media.label} by asset id and object id on npm start, the Worker's own peak memory`,
      figure: `${byAsset.status} / ${stored.result?.status ?? stored.error_code}, binding checked ${explained(byAsset) && explained(stored.result)}; Worker peak ${worker.bytes === null ? `not computed (no inspector answer: ${worker.unmeasured.join(", ")})` : worker.bound ? `≤ ${signed(worker.bytes)} (${worker.phase}: the runtime's RssAnon rise minus the R2 simulator's)` : `${mb(worker.bytes)} (${worker.id.replace("core:user:", "")}, ${worker.phase}; ${over(worker.bytes, worker.id)} over idle)`}; R2 simulator ${signed(sim)}`,
      goal: "answers (no 413) with the binding checked, Worker memory < 128 MB",
      pass:
        byAsset.status === "verified_manifest" &&
        stored.result?.status === "verified_manifest" &&
        worker.bytes !== null &&
        worker.bytes < 128 * 1e6,
      note: "Worker peak = the isolate's V8 heap (committed) + ArrayBuffer backing stores, sampled, + its wasm memories, over the runtime's inspector; Miniflare's R2 simulator (r2:* isolates, same process) apart.",
    });
  }
  for (const r of rows) {
    const worker = workerPeak(r, ["sign", "download"]);
    const sign = workerPeak(r, ["sign"]);
    const download = workerPeak(r, ["download"]);
    const sim = Math.max(simulatorRise(r.isolatePhases.sign), simulatorRise(r.isolatePhases.download));
    console.log(
      `${r.media.label}: the Worker's own ${worker.bound ? "bound (rise over the phase's start)" : "peak"}: sign ${mbOr(sign.bytes)} (${sign.id ?? sign.unmeasured.join(", ")}), download ${mbOr(download.bytes)} (${download.id ?? download.unmeasured.join(", ")}); R2 simulator rise: sign ${signed(simulatorRise(r.isolatePhases.sign))}, download ${signed(simulatorRise(r.isolatePhases.download))}`,
    );
    goal({
      what: `embedded signing size limit → streamed sign-only of a ${r.media.label} on npm start, reference reader valid, the Worker's own peak memory`,
      figure: `${(r.uploaded.size / GiB).toFixed(2)} GiB signed, c2pa-node ${r.verdict.state}, Worker peak ${worker.bytes === null ? `not computed (no inspector answer: ${worker.unmeasured.join(", ")})` : worker.bound ? `≤ ${signed(worker.bytes)} over idle (sign ≤ ${signed(sign.bytes)}, download ≤ ${signed(download.bytes)}: the runtime's RssAnon rise minus the R2 simulator's)` : `${mb(worker.bytes)} (sign ${mbOr(sign.bytes)}, download ${mbOr(download.bytes)}; ${over(worker.bytes, worker.id)} over idle)`}; R2 simulator ${signed(sim)}; workerd RSS peak ${mb(r.peak)} vs idle ${mb(idle)}`,
      goal: "2 GiB MP4/MOV and 1 GiB WAV/FLAC sign-only, peak < 100 MB",
      pass:
        (r.verdict.state === "Trusted" || r.verdict.state === "Valid") &&
        r.verdict.failure.length === 0 &&
        worker.bytes !== null &&
        worker.bytes < 100 * 1e6,
      note: `${worker.bound ? "Worker bound = the runtime workerd's RssAnon rise minus the R2 simulator isolates' rise (over the runtime's inspector) in the same phase; " : ""}Worker peak (--inspect-workers) = the larger of our two isolates (API and media Worker): V8 heap (committed) + ArrayBuffer backing stores, sampled over the runtime's inspector, + its wasm memories; Miniflare's R2 simulator (r2:bucket, same process: it buffers a multipart object a slower reader downloads) and wrangler's proxy process apart; production serves downloads from R2's presigned origin. sign job ${seconds(r.signMs)}`,
    });
  }
} finally {
  isolates?.close();
  stopServer(server);
  if (clean) for (const f of files) rmSync(f.file, { force: true });
}
process.exit(0);
