// `npm test`'s client build: builds @svc/client (packages/client/scripts/build.mjs) only when a file it is built
// from is newer than its oldest output. `npm ci` has just built it (the package's `prepare`), so a clean CI clone
// skipped a second identical tsc run; after an edit to the client's sources this builds as before. Whether dist/
// is exactly what the sources build to stays the job of test/node/clients/sdk-build.test.ts.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dirname, "..");
const pkg = join(root, "packages", "client");
const dist = join(pkg, "dist");

/** Every file's mtime under `path` (a file or a directory). */
const mtimes = (path) =>
  statSync(path).isDirectory() ? readdirSync(path).flatMap((f) => mtimes(join(path, f))) : [statSync(path).mtimeMs];

const inputs = [
  join(pkg, "src"),
  join(pkg, "tsconfig.json"),
  join(pkg, "tsconfig.build.json"),
  join(pkg, "scripts", "build.mjs"),
  join(pkg, "package.json"),
  join(root, "node_modules", "typescript", "package.json"),
].filter(existsSync);
const outputs = existsSync(dist) ? mtimes(dist) : [];
const fresh = outputs.length > 0 && Math.min(...outputs) >= Math.max(...inputs.flatMap(mtimes));
if (!fresh) {
  const run = spawnSync(process.execPath, [join(pkg, "scripts", "build.mjs")], { stdio: "inherit" });
  process.exit(run.status ?? 1);
}
