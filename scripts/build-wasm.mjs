// Compiles our own WebAssembly kernels: every `wasm/<kernel>/index.ts` (AssemblyScript) becomes
// `wasm/build/<kernel>.wasm`. Runs before `npm start`, `npm test` and `npm run bench`; skips a kernel whose
// sources are older than its output, so repeated runs cost nothing.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { availableParallelism } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const wasmDir = join(root, "wasm");
const outDir = join(wasmDir, "build");
const sharedDir = join(wasmDir, "shared");
mkdirSync(outDir, { recursive: true });

// Release build: no assertion traps, the never-freeing stub runtime (kernels manage their own buffers),
// and no `env.abort` import, so the modules instantiate with an empty import object.
const FLAGS = ["-O3", "--noAssert", "--runtime", "stub", "--use", "abort=", "--exportRuntime"];
// Per-kernel extras: the JPEG decoder's IDCT, the encoder's colour conversion, DCT and quantisation, and the
// watermark's folds and FFTs, PDQ's luma and column filters and ISCC's resampler use wasm SIMD (workerd and Node 22 both have it).
const EXTRA = {
  jpegdec: ["--enable", "simd"],
  jpegenc: ["--enable", "simd"],
  watermark: ["--enable", "simd"],
  fingerprint: ["--enable", "simd"],
  chromaprint: ["--enable", "simd"],
};

const newest = (dir) =>
  readdirSync(dir, { withFileTypes: true }).reduce((max, e) => {
    const p = join(dir, e.name);
    return Math.max(max, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }, 0);

const asc = join(root, "node_modules", ".bin", "asc");
const kernels = readdirSync(wasmDir, { withFileTypes: true }).filter(
  (e) => e.isDirectory() && e.name !== "build" && existsSync(join(wasmDir, e.name, "index.ts")),
);
const stale = kernels
  .map(({ name }) => ({ name, src: join(wasmDir, name), out: join(outDir, `${name}.wasm`) }))
  .filter(({ src, out }) => {
    // A kernel also depends on wasm/shared (SIMD pieces more than one kernel imports).
    const sources = Math.max(newest(src), existsSync(sharedDir) ? newest(sharedDir) : 0);
    return !existsSync(out) || statSync(out).mtimeMs < sources || process.argv.includes("--force");
  });

/** One `asc` run; its output is printed whole when it ends, so parallel runs do not interleave their lines. */
const compile = ({ name, src, out }) =>
  new Promise((resolve, reject) => {
    const child = spawn(asc, [join(src, "index.ts"), "--outFile", out, ...FLAGS, ...(EXTRA[name] ?? [])], {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("error", reject);
    child.on("close", (code) => {
      if (output) process.stderr.write(output);
      if (code !== 0) return reject(new Error(`wasm: asc failed for ${name} (exit ${code})`));
      console.error(`wasm: built ${name}.wasm (${statSync(out).size} bytes)`);
      resolve();
    });
  });

// Each asc is one thread and a clean checkout compiles every kernel: one per core at a time rather than one after
// the other (on CI's two cores this halves the step).
const queue = [...stale];
const lane = async () => {
  for (let k = queue.shift(); k; k = queue.shift()) await compile(k);
};
await Promise.all(Array.from({ length: Math.min(availableParallelism(), queue.length) }, lane));
