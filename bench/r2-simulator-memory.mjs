// Diagnostic for the large-media row (#19), not a goal: which isolate of a local workerd holds the memory when a
// Worker serves an R2 object it does not touch (`new Response(object.body)`) to a client. Bare Miniflare, R2 on
// disk; the object is N MiB (default 64) written either as one multipart upload of 16 MiB parts (as uploads and
// the streamed signer write them) or as one put; the client reads it over HTTP. Printed: each isolate's rise over
// the runtime's inspector (V8 heap + ArrayBuffers: the Worker `core:user:`, Miniflare's R2 simulator `r2:bucket`)
// and the process's RssAnon rise. `node bench/r2-simulator-memory.mjs [MiB]`.
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { isolateProbe, runtimeInspector } from "./lib/isolate-memory.mjs";
import { readMemory, workerdPids } from "./lib/workerd-memory.mjs";

const MiB = 2 ** 20;
const size = Number(process.argv[2] ?? 64) * MiB;
const WORKER = `export default { async fetch(request, env) {
  const url = new URL(request.url);
  const n = Number(url.searchParams.get("n"));
  if (url.pathname === "/multipart") {
    const u = await env.B.createMultipartUpload("multipart");
    const parts = [];
    for (let at = 0, i = 1; at < n; at += 16 * 2 ** 20, i++) parts.push(await u.uploadPart(i, new Uint8Array(Math.min(16 * 2 ** 20, n - at)).fill(i)));
    await u.complete(parts);
    return new Response("ok");
  }
  if (url.pathname === "/single") {
    const fixed = new FixedLengthStream(n);
    const stored = env.B.put("single", fixed.readable);
    const writer = fixed.writable.getWriter();
    for (let at = 0; at < n; at += 2 ** 20) await writer.write(new Uint8Array(Math.min(2 ** 20, n - at)).fill(7));
    await writer.close();
    await stored;
    return new Response("ok");
  }
  return new Response((await env.B.get(url.pathname.slice("/get/".length))).body);
} };`;

const persist = join(import.meta.dirname, "..", "dist", "bench", "r2-simulator-memory");
rmSync(persist, { recursive: true, force: true });
mkdirSync(persist, { recursive: true });
const mf = new Miniflare(
  convertV4MiniflareOptions({
    modules: [{ type: "ESModule", path: join(persist, "worker.mjs"), contents: WORKER }],
    modulesRoot: persist,
    compatibilityDate: "2026-10-01",
    r2Buckets: ["B"],
    resourcePersistencePath: persist,
    inspectorPort: 0,
    unsafeInspectDurableObjects: true, // the R2 simulator is a Durable Object: listed only with this
  }),
);
try {
  const base = (await mf.ready).toString().replace(/\/$/, "");
  const [pid] = workerdPids(process.pid);
  const { targets } = await runtimeInspector(pid);
  const probe = await isolateProbe(targets.filter((t) => t.id.startsWith("core:user:") || t.id === "r2:bucket"));
  for (const layout of ["multipart", "single"]) {
    await (await fetch(`${base}/${layout}?n=${size}`)).text();
    await new Promise((r) => setTimeout(r, 1000));
    await probe.phase(layout);
    const anon = { start: readMemory([pid]).anon, peak: 0 };
    const timer = setInterval(() => {
      anon.peak = Math.max(anon.peak, readMemory([pid]).anon);
    }, 50);
    const started = Date.now();
    let got = 0;
    for await (const chunk of (await fetch(`${base}/get/${layout}`)).body) got += chunk.length;
    clearInterval(timer);
    const phase = (await probe.stop())[layout];
    if (got !== size) throw new Error(`${layout}: ${got} of ${size} bytes`);
    const rise = (id) => `${((phase[id].peak - phase[id].start) / MiB).toFixed(0)} MiB`;
    console.log(
      `${size / MiB} MiB ${layout} object served to a client (${((Date.now() - started) / 1000).toFixed(1)} s): ` +
        `Worker (core:user:) ${rise("core:user:")}, R2 simulator (r2:bucket) ${rise("r2:bucket")}, ` +
        `workerd RssAnon +${((Math.max(anon.peak, readMemory([pid]).anon) - anon.start) / MiB).toFixed(0)} MiB`,
    );
  }
  probe.close();
} finally {
  await mf.dispose();
  rmSync(persist, { recursive: true, force: true });
}
