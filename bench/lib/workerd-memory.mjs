// Memory of a local workerd process, split the way the kernel accounts it, and a same-run baseline for the large-media
// bench. In `wrangler dev` and Miniflare the local R2 simulator runs INSIDE the Worker's workerd process, so its RSS
// is isolate + runtime + simulator. /proc/<pid>/status splits RSS into RssAnon (heap: isolate, runtime buffers,
// simulator buffers), RssFile (file-backed pages mapped by the process, e.g. blob files the simulator maps: the OS
// page cache, reclaimable, not Worker memory) and RssShmem. The baseline streams the same bytes through a tiny Worker
// that does no signing (R2 get → multipart copy in 8 MiB parts with one reused buffer, then a plain download), so its
// growth is what the runtime and the simulator cost for those bytes; what the signer adds is the difference.
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";

const MiB = 2 ** 20;

/** workerd processes descending from `rootPid`. */
export function workerdPids(rootPid) {
  const parents = new Map();
  const names = new Map();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const close = stat.lastIndexOf(")");
      names.set(Number(entry), stat.slice(stat.indexOf("(") + 1, close));
      parents.set(Number(entry), Number(stat.slice(close + 2).split(" ")[1]));
    } catch {}
  }
  const isDescendant = (pid) => {
    for (let p = pid, n = 0; p > 1 && n < 64; p = parents.get(p) ?? 0, n++) if (p === rootPid) return true;
    return false;
  };
  return [...names].filter(([pid, name]) => name.startsWith("workerd") && isDescendant(pid)).map(([pid]) => pid);
}

const FIELDS = { rss: "VmRSS", anon: "RssAnon", file: "RssFile", shmem: "RssShmem", hwm: "VmHWM" };

/** The memory fields of `pids` (bytes, summed). Throws if one exited. */
export function readMemory(pids) {
  const sum = { rss: 0, anon: 0, file: 0, shmem: 0, hwm: 0 };
  for (const pid of pids) {
    let text;
    try {
      text = readFileSync(`/proc/${pid}/status`, "utf8");
    } catch {
      throw new Error(`workerd process ${pid} exited during the run`);
    }
    for (const [key, field] of Object.entries(FIELDS)) {
      const m = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(text);
      sum[key] += m ? Number(m[1]) * 1024 : 0;
    }
  }
  return sum;
}

/**
 * Samples `pids` every 50 ms; `phase(name)` starts a named phase (ending the previous one), `stop()` ends the last.
 * Each phase records its starting level, the peak of every field and the kernel's VmHWM (reset at the phase's
 * start, Linux ≥ 4.0).
 */
export function memoryProbe(pids) {
  let phases = {};
  let current = null;
  let timer = null;
  const sample = () => {
    const m = readMemory(pids);
    for (const key of ["rss", "anon", "file", "shmem"]) current[key] = Math.max(current[key], m[key]);
  };
  const end = () => {
    if (!current) return;
    sample();
    current.hwm = Math.max(current.rss, readMemory(pids).hwm);
  };
  return {
    read: () => readMemory(pids),
    phase(name) {
      end();
      for (const pid of pids) {
        try {
          writeFileSync(`/proc/${pid}/clear_refs`, "5");
        } catch {}
      }
      const m = readMemory(pids);
      // `start`: the level the phase began at (memory not returned after a phase stays in the next one's level).
      current = phases[name] = { start: m, rss: m.rss, anon: m.anon, file: m.file, shmem: m.shmem, hwm: 0 };
      timer ??= setInterval(() => {
        try {
          sample();
        } catch (error) {
          console.log(error.message);
          process.exit(1);
        }
      }, 50);
    },
    /** Ends the last phase and returns every phase since the previous stop. */
    stop() {
      end();
      clearInterval(timer);
      timer = null;
      current = null;
      const done = phases;
      phases = {};
      return done;
    },
  };
}

// A Worker that does no signing: source upload in parts, a plain streamed copy (the signer's copy loop without the
// scanner, the hashes or the engine), and a plain download.
const BASELINE_WORKER = `
export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    const n = Number(url.searchParams.get("n"));
    if (url.pathname === "/create") {
      const u = await env.B.createMultipartUpload(url.searchParams.get("key"));
      return Response.json({ id: u.uploadId });
    }
    if (url.pathname === "/part") {
      const u = env.B.resumeMultipartUpload(url.searchParams.get("key"), url.searchParams.get("id"));
      const length = Number(request.headers.get("content-length"));
      const fixed = new FixedLengthStream(length);
      void request.body.pipeTo(fixed.writable).catch(() => undefined);
      return Response.json(await u.uploadPart(n, fixed.readable));
    }
    if (url.pathname === "/complete") {
      const u = env.B.resumeMultipartUpload(url.searchParams.get("key"), url.searchParams.get("id"));
      await u.complete(await request.json());
      return new Response("ok");
    }
    if (url.pathname === "/copy") {
      const size = Number(url.searchParams.get("part"));
      const object = await env.B.get("src");
      const u = await env.B.createMultipartUpload("dst");
      const buffer = new Uint8Array(size);
      const parts = [];
      let filled = 0;
      const reader = object.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        for (let at = 0; at < value.length; ) {
          if (filled === size) {
            parts.push(await u.uploadPart(parts.length + 1, buffer));
            filled = 0;
          }
          const k = Math.min(size - filled, value.length - at);
          buffer.set(value.subarray(at, at + k), filled);
          filled += k;
          at += k;
        }
      }
      if (filled > 0) parts.push(await u.uploadPart(parts.length + 1, buffer.subarray(0, filled)));
      await u.complete(parts);
      return new Response("ok");
    }
    if (url.pathname === "/drain") {
      const reader = (await env.B.get(url.searchParams.get("key"))).body.getReader();
      let n = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return new Response(String(n));
        n += value.length;
      }
    }
    if (url.pathname === "/get") return new Response((await env.B.get(url.searchParams.get("key"))).body);
    return new Response("not found", { status: 404 });
  },
};`;

/**
 * Streams `file` through the baseline Worker on bare Miniflare (R2 persisted on disk as wrangler dev does):
 * upload in `uploadPartBytes` parts, copy in `copyPartBytes` parts, download. Returns the idle memory (after a small
 * warm-up round) and each phase's peaks (memoryProbe).
 */
export async function plainCopyBaseline({ file, size, workDir, uploadPartBytes, copyPartBytes }) {
  const persist = join(workDir, "baseline-state");
  rmSync(persist, { recursive: true, force: true });
  mkdirSync(persist, { recursive: true });
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      modules: [{ type: "ESModule", path: join(persist, "baseline.mjs"), contents: BASELINE_WORKER }],
      modulesRoot: persist,
      compatibilityDate: "2026-10-01",
      r2Buckets: ["B"],
      resourcePersistencePath: persist,
    }),
  );
  try {
    const base = (await mf.ready).toString().replace(/\/$/, "");
    const pids = workerdPids(process.pid);
    if (pids.length === 0) throw new Error("no workerd process found under Miniflare");
    const call = async (path, init) => {
      const res = await fetch(`${base}${path}`, init);
      if (!res.ok) throw new Error(`baseline ${path}: ${res.status} ${await res.text()}`);
      return res;
    };
    const round = async (bytes, probe) => {
      const { id } = await (await call("/create?key=src", { method: "POST" })).json();
      const parts = [];
      const fd = openSync(file, "r");
      try {
        for (let at = 0, n = 1; at < bytes; at += uploadPartBytes, n++) {
          const body = Buffer.allocUnsafe(Math.min(uploadPartBytes, bytes - at));
          readSync(fd, body, 0, body.length, at);
          parts.push(await (await call(`/part?key=src&id=${id}&n=${n}`, { method: "PUT", body })).json());
        }
      } finally {
        closeSync(fd);
      }
      await call(`/complete?key=src&id=${id}`, { method: "POST", body: JSON.stringify(parts) });
      probe?.phase("copy");
      await (await call(`/copy?part=${copyPartBytes}`, { method: "POST" })).text();
      probe?.phase("download");
      // The object is read to the end inside the Worker, not sent to Node: a Miniflare response body reaches Node at a
      // few hundred KB/s on this machine (Node-side CPU), which would make the baseline take minutes.
      const got = Number(await (await call("/drain?key=dst")).text());
      if (got !== bytes) throw new Error(`baseline download: ${got} of ${bytes} bytes`);
    };
    const log = (what) => process.env.BENCH_VERBOSE && console.log(`  baseline ${what} ${new Date().toISOString()}`);
    await round(Math.min(size, 2 * copyPartBytes + MiB)); // warm-up: every path compiled and run once
    log("warm");
    await new Promise((r) => setTimeout(r, 2000));
    const probe = memoryProbe(pids);
    const idle = probe.read();
    probe.phase("upload");
    await round(size, probe);
    return { pids, idle, phases: probe.stop() };
  } finally {
    await mf.dispose();
    rmSync(persist, { recursive: true, force: true });
  }
}
