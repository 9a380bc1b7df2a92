// The video decoder's cost in workerd (not in CI): bundle size of a Worker holding only the decoder, and the memory
// and CPU time of decoding 1080p H.264 clips (a real photo zoomed and panned, made here with Debian's ffmpeg) into
// 128×128 every second + 64×64 at 15 fps, the outputs vPDQ and TMK take.
//   node bench/video-decode.mjs [seconds…]   (default 10 30 60; needs `npm run build:wasm` and ffmpeg)
// Bundle: `wrangler deploy --dry-run --outdir` of a throwaway entry that imports src/media/codecs/video/workerd.ts,
// its files' sizes and gzip -9 of the whole (Cloudflare's limit: 10 MiB compressed on paid plans).
// Run: that bundle in Miniflare (workerd); per clip, RUNS decodes: CPU = the workerd process's utime+stime across the
// request (median), memory = its RssAnon sampled every 50 ms (peak over the level before the first decode), and
// the wasm memory the decode ended with (the decoder's lastWasmMemoryBytes). The clip's bytes are in the isolate too.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { memoryProbe, readMemory, workerdPids } from "./lib/workerd-memory.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const MiB = 2 ** 20;
const RUNS = Number(process.env.RUNS ?? 3);
const seconds = process.argv.slice(2).map(Number);
const durations = seconds.length > 0 ? seconds : [10, 30, 60];
const work = join(tmpdir(), "svc-video-bench");
mkdirSync(work, { recursive: true });

// 1. The throwaway Worker and its bundle.
const entry = join(work, "entry.ts");
writeFileSync(
  entry,
  `import { videoDecoder } from ${JSON.stringify(join(root, "src/media/codecs/video/workerd.ts"))};
export default {
  async fetch(request: Request): Promise<Response> {
    const bytes = new Uint8Array(await request.arrayBuffer());
    const counts = [0, 0];
    const result = await videoDecoder.decode(bytes, [{ width: 128, height: 128, fps: 1 }, { width: 64, height: 64, fps: 15 }], (k) => { counts[k]++; });
    return Response.json({ result, counts, wasmMemoryBytes: videoDecoder.lastWasmMemoryBytes });
  },
};
`,
);
writeFileSync(join(work, "wrangler.toml"), `name = "video-decode-bench"\nmain = "entry.ts"\ncompatibility_date = "2025-09-01"\n`);
const out = join(work, "out");
execFileSync(join(root, "node_modules/.bin/wrangler"), ["deploy", "--dry-run", "--outdir", out], { cwd: work, stdio: "ignore" });
const files = readdirSync(out).filter((f) => statSync(join(out, f)).isFile() && !f.endsWith(".map"));
let raw = 0;
const all = [];
for (const f of files) {
  const bytes = readFileSync(join(out, f));
  raw += bytes.length;
  all.push(bytes);
  console.log(`bundle: ${f} ${(bytes.length / MiB).toFixed(2)} MiB`);
}
const gz = gzipSync(Buffer.concat(all), { level: 9 }).length;
console.log(`bundle: total ${(raw / MiB).toFixed(2)} MiB, gzip -9 ${(gz / MiB).toFixed(2)} MiB (limit 10 MiB)`);

// 2. The clips.
const photo = join(root, "test/fixtures/media/photo-bridge.jpg");
const clip = (s) => {
  const path = join(work, `pan${s}.mp4`);
  if (!existsSync(path)) {
    const vf = `scale=3200:-2,zoompan=z='min(zoom+0.0008,1.6)':x='iw/2-(iw/zoom/2)+sin(on/40)*200':y='ih/2-(ih/zoom/2)+cos(on/50)*100':d=${s * 30}:s=1920x1080:fps=30`;
    execFileSync("ffmpeg", [
      "-v",
      "error",
      "-y",
      "-loop",
      "1",
      "-i",
      photo,
      "-vf",
      vf,
      "-t",
      String(s),
      "-c:v",
      "libx264",
      "-profile:v",
      "high",
      "-preset",
      "veryfast",
      "-pix_fmt",
      "yuv420p",
      path,
    ]);
  }
  return readFileSync(path);
};

// 3. Decodes in workerd.
const mf = new Miniflare(
  convertV4MiniflareOptions({
    modules: [
      { type: "ESModule", path: join(out, "entry.js") },
      ...files.filter((f) => f.endsWith(".wasm")).map((f) => ({ type: "CompiledWasm", path: join(out, f) })),
    ],
    modulesRoot: out,
    compatibilityDate: "2025-09-01",
  }),
);
await mf.ready;
const pids = workerdPids(process.pid);
const cpuOf = () =>
  pids.reduce((sum, pid) => {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return sum + Number(fields[11]) + Number(fields[12]);
  }, 0) * 10; // clock ticks (100 Hz) → ms
const probe = memoryProbe(pids);
const baseline = readMemory(pids).anon;
console.log(`workerd: ${pids.length} process(es), RssAnon before the first decode ${(baseline / MiB).toFixed(1)} MiB`);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const s of durations) {
  const bytes = clip(s);
  const cpu = [];
  let answer;
  probe.phase(`${s}s`);
  for (let i = 0; i < RUNS; i++) {
    const before = cpuOf();
    const response = await mf.dispatchFetch("http://bench/", { method: "POST", body: bytes });
    answer = await response.json();
    cpu.push(cpuOf() - before);
  }
  const peak = probe.stop()[`${s}s`].anon;
  console.log(
    `${s} s 1080p (${(bytes.length / MiB).toFixed(1)} MiB): ${JSON.stringify(answer.result)} frames ${answer.counts}; ` +
      `CPU median ${(median(cpu) / 1000).toFixed(1)} s of ${RUNS} (${cpu.map((c) => (c / 1000).toFixed(1)).join(", ")}); ` +
      `wasm memory ${(answer.wasmMemoryBytes / MiB).toFixed(0)} MiB; RssAnon peak ${(peak / MiB).toFixed(1)} MiB (+${((peak - baseline) / MiB).toFixed(1)} over the idle Worker)`,
  );
}
await mf.dispose();
