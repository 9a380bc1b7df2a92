// The live JavaScript heap of the isolates in a local workerd process, for the soak's memory check (#22). RSS mixes
// the Worker isolates with everything else the process holds (the local D1/R2/queue simulators' SQLite caches and
// buffers, allocator slack, garbage V8 has not collected yet), so a growing RSS does not tell a leak from a lazy
// collector. The heap after a full collection does: what a leak keeps is still reachable then.
//
// workerd's inspector does not answer HeapProfiler.collectGarbage (V8 posts the collection as a task that workerd's
// platform does not run for an idle inspector session), but HeapProfiler.takeHeapSnapshot collects fully before it
// walks the heap; the snapshot itself is summarised by constructor, so two of them show what grew.
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { inspectorSession } from "./workerd-profile.mjs";

/** TCP ports `pid` listens on (from /proc: its socket inodes matched against the LISTEN rows of net/tcp). */
export function listeningPorts(pid) {
  const inodes = new Set();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) inodes.add(m[1]);
    } catch {}
  }
  const ports = [];
  for (const line of readFileSync(`/proc/${pid}/net/tcp`, "utf8").split("\n").slice(1)) {
    const f = line.trim().split(/\s+/);
    if (f.length > 9 && f[3] === "0A" && inodes.has(f[9])) ports.push(Number.parseInt(f[1].split(":")[1], 16));
  }
  return ports;
}

/**
 * The inspector of the workerd among `pids` that runs the user Workers (wrangler dev starts it with
 * --inspector-addr=127.0.0.1:0; its /json/list names every isolate: `core:user:<worker>` and the simulators
 * `d1:db`, `r2:bucket`, `queues:queue`, …). Returns { pid, port, targets: [{ id, url }] } or null.
 */
export async function findUserInspector(pids) {
  for (const pid of pids) {
    let ports;
    try {
      ports = listeningPorts(pid);
    } catch {
      continue;
    }
    for (const port of ports) {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/json/list`, { signal: AbortSignal.timeout(3000) });
        const list = await res.json();
        if (Array.isArray(list) && list.some((t) => String(t.id).startsWith("core:user:")))
          return { pid, port, targets: list.map((t) => ({ id: t.id, url: t.webSocketDebuggerUrl })) };
      } catch {}
    }
  }
  return null;
}

/** Runs `fn(session)` on a fresh session, asking again (a new session) when the inspector leaves a call unanswered. */
async function withSession(url, fn, { tries = 4, timeoutMs = 5000, onEvent } = {}) {
  let last;
  for (let attempt = 1; attempt <= tries; attempt++) {
    let session;
    try {
      session = await inspectorSession(url, { timeoutMs, onEvent });
      return await fn(session);
    } catch (error) {
      last = error;
    } finally {
      session?.close();
    }
  }
  throw last;
}

/** Runtime.getHeapUsage of one isolate now (garbage included): { used, total, embedder, backing } in bytes. */
export async function heapUsage(url) {
  return withSession(url, async (s) => usage(await s.send("Runtime.getHeapUsage")));
}

function usage(answer) {
  const r = answer.result;
  if (!r || typeof r.usedSize !== "number") throw new Error(`Runtime.getHeapUsage: ${JSON.stringify(answer.error ?? answer)}`);
  return { used: r.usedSize, total: r.totalSize, embedder: r.embedderHeapUsedSize ?? 0, backing: r.backingStorageSize ?? 0 };
}

/**
 * A full collection of one isolate (through a heap snapshot), then its heap usage: the live heap. Returns
 * { before, after, byConstructor, snapshotMs, text } — byConstructor: Map `type name` → { count, size } of the live
 * objects (self sizes), for diffing two snapshots; text: the snapshot itself (DevTools' .heapsnapshot format), with
 * `keepText`.
 */
export async function collectedHeap(url, { timeoutMs = 180_000, keepText = false } = {}) {
  let chunks = [];
  return withSession(
    url,
    async (s) => {
      chunks = [];
      const before = usage(await s.send("Runtime.getHeapUsage"));
      await s.send("HeapProfiler.enable");
      const t0 = performance.now();
      const taken = await s.send("HeapProfiler.takeHeapSnapshot", { reportProgress: false, captureNumericValue: false }, timeoutMs);
      if (taken.error) throw new Error(`takeHeapSnapshot: ${taken.error.message}`);
      const snapshotMs = performance.now() - t0;
      const after = usage(await s.send("Runtime.getHeapUsage"));
      await s.send("HeapProfiler.disable").catch(() => {});
      const text = chunks.join("");
      chunks = [];
      return { before, after, byConstructor: summarizeSnapshot(text), snapshotMs, text: keepText ? text : undefined };
    },
    {
      tries: 3,
      onEvent: (message) => {
        if (message.method === "HeapProfiler.addHeapSnapshotChunk") chunks.push(message.params.chunk);
      },
    },
  );
}

/**
 * Live objects of a V8 heap snapshot by `type name` (the constructor for objects): count and summed self size. The
 * entry WASM_MEMORIES counts the wasm linear memories and sums their bytes (the backing stores of the ArrayBuffers
 * that Memory objects hold), so they can be told apart from the other ArrayBuffers' (JSArrayBufferData) bytes.
 */
export function summarizeSnapshot(text) {
  const snap = JSON.parse(text);
  const fields = snap.snapshot.meta.node_fields;
  const types = snap.snapshot.meta.node_types[0];
  const width = fields.length;
  const T = fields.indexOf("type");
  const N = fields.indexOf("name");
  const S = fields.indexOf("self_size");
  const out = new Map();
  const nodes = snap.nodes;
  for (let i = 0; i < nodes.length; i += width) {
    const type = types[nodes[i + T]];
    let name = type === "object" || type === "closure" || type === "native" ? snap.strings[nodes[i + N]] : "";
    // Object shapes and code are summed by kind: their names are per instance or source text.
    if (type === "object" && name.startsWith("system / ")) name = "system";
    if (name.length > 60) name = `${name.slice(0, 57)}…`;
    const key = `${type}${name ? ` ${name}` : ""}`;
    const e = out.get(key) ?? { count: 0, size: 0 };
    e.count++;
    e.size += nodes[i + S];
    out.set(key, e);
  }
  // Memory object → ArrayBuffer → its backing store (edges are laid out node by node, edge_count each).
  const edgeFields = snap.snapshot.meta.edge_fields;
  const EW = edgeFields.length;
  const ET = edgeFields.indexOf("type");
  const EN = edgeFields.indexOf("name_or_index");
  const TO = edgeFields.indexOf("to_node");
  const C = fields.indexOf("edge_count");
  const edgeTypes = snap.snapshot.meta.edge_types[0];
  const firstEdge = new Map();
  for (let i = 0, e = 0; i < nodes.length; i += width) {
    firstEdge.set(i, e);
    e += nodes[i + C] * EW;
  }
  const edgesOf = function* (i) {
    const from = firstEdge.get(i);
    for (let e = from; e < from + nodes[i + C] * EW; e += EW)
      yield { type: edgeTypes[snap.edges[e + ET]], name: snap.edges[e + EN], to: snap.edges[e + TO] };
  };
  const stores = new Set();
  for (let i = 0; i < nodes.length; i += width) {
    const name = snap.strings[nodes[i + N]];
    if (types[nodes[i + T]] !== "object" || (name !== "Memory" && name !== "WebAssembly.Memory")) continue;
    for (const edge of edgesOf(i)) {
      if (edge.type === "weak" || snap.strings[nodes[edge.to + N]] !== "ArrayBuffer") continue;
      for (const inner of edgesOf(edge.to))
        if (inner.type !== "element" && inner.type !== "hidden" && snap.strings[inner.name] === "backing_store") stores.add(inner.to);
    }
  }
  let wasmBytes = 0;
  for (const i of stores) wasmBytes += nodes[i + S];
  out.set(WASM_MEMORIES, { count: stores.size, size: wasmBytes });
  return out;
}

/** The summary entry of the wasm linear memories (see summarizeSnapshot). */
export const WASM_MEMORIES = "(wasm memories)";

/**
 * What a snapshot summary says of the memory outside the V8 heap: the wasm linear memories (count, bytes) and the
 * other ArrayBuffers' backing stores (request and response bodies, images, parts: what a retained buffer would grow).
 */
export function snapshotBuffers(summary) {
  const get = (key) => summary.get(key) ?? { count: 0, size: 0 };
  const wasm = get(WASM_MEMORIES);
  return {
    wasmMemories: wasm.count,
    wasmMemoryBytes: wasm.size,
    otherArrayBufferBytes: Math.max(0, get("native system / JSArrayBufferData").size - wasm.size),
  };
}

/** The `top` entries that grew most in size from snapshot summary `a` to `b`. */
export function snapshotGrowth(a, b, top = 12) {
  const rows = [];
  for (const [key, eb] of b) {
    const ea = a.get(key) ?? { count: 0, size: 0 };
    rows.push({ key, count: eb.count - ea.count, size: eb.size - ea.size, now: eb.size });
  }
  for (const [key, ea] of a) if (!b.has(key)) rows.push({ key, count: -ea.count, size: -ea.size, now: 0 });
  return rows.sort((x, y) => y.size - x.size).slice(0, top);
}
