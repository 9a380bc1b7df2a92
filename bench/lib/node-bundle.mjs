// The service's TypeScript bundled for Node by esbuild (its imports are extensionless, so Node cannot strip them),
// after the wasm kernels are built: a bench imports the bundle and compiles the kernels from wasm/build.
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const ROOT = join(import.meta.dirname, "..", "..");

/** Bundles `entry` (TypeScript source, paths relative to the repository root) as dist/bench/<name>.mjs; its URL. */
export function bundleForNode(name, entry) {
  execFileSync(process.execPath, [join(ROOT, "scripts", "build-wasm.mjs")], { stdio: "inherit", cwd: ROOT });
  const out = join(ROOT, "dist", "bench", `${name}.mjs`);
  mkdirSync(join(ROOT, "dist", "bench"), { recursive: true });
  execFileSync(
    join(ROOT, "node_modules", ".bin", "esbuild"),
    ["--bundle", "--platform=node", "--format=esm", "--loader=ts", `--sourcefile=${name}.ts`, `--outfile=${out}`, "--log-level=error"],
    { cwd: ROOT, input: entry },
  );
  return pathToFileURL(out).href;
}
