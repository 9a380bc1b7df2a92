// Memory of each isolate of a local workerd, over that workerd's own V8 inspector, for the large-media bench (#19).
// In `wrangler dev` (npm start) there are two workerd processes: wrangler's proxy (it owns the public port and pipes
// every request through) and the runtime, where the Worker, the media Worker and Miniflare's simulators (D1, R2,
// Queues, …) each run in their own isolate. A process's RSS cannot tell them apart; the inspector can: the runtime is
// started with --inspector-addr (a free port) and lists every isolate, `core:user:<name>` for ours and `r2:bucket` for
// the R2 simulator. An isolate's memory here is its V8 heap (committed) plus its ArrayBuffer backing stores
// (Runtime.getHeapUsage), sampled, plus its WebAssembly memories (V8 does not count them as backing stores; read
// at each phase's end: a wasm memory only grows). That is the memory Cloudflare's 128 MB limit applies to.
import { readFileSync } from "node:fs";
import { listeningPorts } from "./workerd-heap.mjs";
import { inspectorSession } from "./workerd-profile.mjs";

/** Which of `pids` is wrangler's proxy and which the runtime (the one started with --inspector-addr). */
export function splitWranglerProcesses(pids) {
  const cmdline = (pid) => readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
  const runtime = pids.filter((pid) => cmdline(pid).some((a) => a.startsWith("--inspector-addr")));
  return { runtime, proxy: pids.filter((pid) => !runtime.includes(pid)) };
}

/**
 * The runtime's inspector: the port of `pid` that answers /json/list, and its targets ({ id, url }). The runtime
 * also listens on its entry socket (the Worker answers the probe 404) and its Cap'n Proto debug port (workerd logs
 * one "RPC connection broken … exceeds size limit" warning for the probe): both harmless, neither is asked again.
 */
export async function runtimeInspector(pid) {
  for (const port of listeningPorts(pid)) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/json/list`, { signal: AbortSignal.timeout(3000) });
      const targets = await res.json();
      if (Array.isArray(targets) && targets.every((t) => t.webSocketDebuggerUrl))
        return { port, targets: targets.map((t) => ({ id: t.id, url: t.webSocketDebuggerUrl })) };
    } catch {}
  }
  throw new Error(`workerd ${pid}: no inspector among its listening ports`);
}

const WASM_BYTES = `function () { let n = 0; for (const m of this) n += m.buffer.byteLength; return n; }`;

/** Bytes of every WebAssembly.Memory alive in the isolate (a heap walk: only at phase ends); `context`: its id. */
async function wasmBytes(session, context) {
  if (context() === null) return null;
  const expression = "WebAssembly.Memory.prototype";
  const proto = await session.send("Runtime.evaluate", { expression, contextId: context() }, 30_000);
  const protoId = proto.result?.result?.objectId;
  if (!protoId) return null;
  const found = await session.send("Runtime.queryObjects", { prototypeObjectId: protoId }, 60_000);
  const arrayId = found.result?.objects?.objectId;
  if (!arrayId) return null;
  const sum = await session.send(
    "Runtime.callFunctionOn",
    { objectId: arrayId, functionDeclaration: WASM_BYTES, returnByValue: true },
    30_000,
  );
  await session.send("Runtime.releaseObjectGroup", { objectGroup: "" }).catch(() => undefined);
  return typeof sum.result?.result?.value === "number" ? sum.result.result.value : null;
}

/**
 * Samples every isolate of `targets` (Runtime.getHeapUsage every `intervalMs`; an isolate busy in a long synchronous
 * call answers late and is not asked again until it has). `phase(name)` starts a phase, `stop()` ends the last and
 * returns { [phase]: { [target id]: { start, peak, wasmStart, wasmEnd } } } (bytes; heap = committed V8 heap +
 * ArrayBuffer backing stores; null where the isolate did not answer). workerd serves an isolate's inspector only
 * between its tasks, and one session at a time: an isolate streaming a 2 GiB job may answer nothing until it ends,
 * and the API Worker's own session is wrangler's (its inspector proxy, SVC_INSPECTOR_PORT, takes one client: a target
 * may name that proxy's URL, with the `headers` it requires, and a slower `intervalMs`). Targets whose inspector does not answer are left out, with a line saying so.
 */
export async function isolateProbe(targets, { intervalMs = 200, wasmOf = () => false } = {}) {
  const lastAsked = new Map();
  const sessions = [];
  for (const t of targets) {
    // workerd has no default execution context to evaluate in: Runtime.enable announces the Worker's.
    let contextId = null;
    const onEvent = (m) => {
      if (m.method === "Runtime.executionContextCreated") contextId ??= m.params.context.id;
    };
    const session = await inspectorSession(t.url, { timeoutMs: 60_000, onEvent, headers: t.headers }).catch((error) => {
      console.log(`isolate ${t.id}: ${error.message}; left out`);
      return null;
    });
    if (!session) continue;
    const wasm = wasmOf(t.id);
    if (wasm) {
      await session.send("Runtime.enable").catch(() => undefined);
      for (let i = 0; i < 50 && contextId === null; i++) await new Promise((r) => setTimeout(r, 100));
    }
    // t.intervalMs: a target sampled less often than the others (the API Worker, through wrangler's proxy).
    // t.liveEveryMs: also, that often, a forced collection (HeapProfiler.collectGarbage) and a read after it: the
    // memory the isolate holds alive, apart from ArrayBuffers and heap not yet collected (the sampled peak has both).
    sessions.push({
      id: t.id,
      session,
      busy: false,
      wasm,
      context: () => contextId,
      every: t.intervalMs ?? intervalMs,
      liveEvery: t.liveEveryMs ?? null,
      lastLive: 0,
    });
  }
  const heap = async (s) => {
    const r = (await s.session.send("Runtime.getHeapUsage")).result;
    return r ? r.totalSize + (r.backingStorageSize ?? 0) : null;
  };
  let phases = {};
  let current = null;
  let timer = null;
  const sampleOne = async (s) => {
    if (s.busy || !current) return;
    if (Date.now() - (lastAsked.get(s) ?? 0) < s.every) return;
    lastAsked.set(s, Date.now());
    s.busy = true;
    try {
      if (s.liveEvery !== null && Date.now() - s.lastLive >= s.liveEvery) {
        s.lastLive = Date.now();
        await s.session.send("HeapProfiler.collectGarbage");
        const live = await heap(s);
        const m = current?.[s.id];
        if (live !== null && m) m.livePeak = Math.max(m.livePeak ?? 0, live);
      }
      const v = await heap(s);
      const m = current?.[s.id];
      if (v !== null && m) {
        m.start ??= v;
        m.peak = Math.max(m.peak ?? 0, v);
      }
    } catch {
    } finally {
      s.busy = false;
    }
  };
  const wasmAll = async () => {
    const out = {};
    for (const s of sessions) if (s.wasm) out[s.id] = await wasmBytes(s.session, s.context).catch(() => null);
    return out;
  };
  const end = async () => {
    if (!current) return;
    const done = current;
    current = null;
    const wasm = await wasmAll();
    for (const s of sessions) {
      const v = await heap(s).catch(() => null);
      if (v !== null) {
        done[s.id].start ??= v;
        done[s.id].peak = Math.max(done[s.id].peak ?? 0, v);
      }
      done[s.id].wasmEnd = wasm[s.id] ?? null;
    }
  };
  return {
    ids: () => sessions.map((s) => s.id),
    /** The phase `name` as measured so far (a finished one is final). */
    get: (name) => phases[name],
    async phase(name) {
      await end();
      const wasm = await wasmAll();
      const next = {};
      for (const s of sessions) {
        const v = await heap(s).catch(() => null);
        // null until the isolate answers: an isolate that never does is reported as not measured, never as 0.
        next[s.id] = { start: v, peak: v, wasmStart: wasm[s.id] ?? null, wasmEnd: null, livePeak: null };
      }
      current = phases[name] = next;
      timer ??= setInterval(() => {
        for (const s of sessions) void sampleOne(s);
      }, intervalMs);
    },
    async stop() {
      await end();
      clearInterval(timer);
      timer = null;
      const done = phases;
      phases = {};
      return done;
    },
    close() {
      clearInterval(timer);
      for (const s of sessions) s.session.close();
    },
  };
}
