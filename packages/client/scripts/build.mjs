#!/usr/bin/env node
// Builds @svc/client into dist/ (or the directory given as the first argument): tsc emits ESM `.js` and `.d.ts`
// from src/ (tsconfig.build.json), then src/openapi.d.ts, which holds only types and so has no output of its own,
// is copied beside them. `npm ci` runs it (the package's `prepare`); the staleness test builds into a scratch
// directory and compares. Runs on Node >= 20.
import { spawnSync } from "node:child_process";
import { copyFileSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";

const pkg = join(import.meta.dirname, "..");
const out = resolve(process.argv[2] ?? join(pkg, "dist"));
// The TypeScript compiler of the workspace (the repository's devDependency), run by this same Node.
const tsc = createRequire(join(pkg, "package.json")).resolve("typescript/bin/tsc");

// A fresh directory: an output of a since-removed source must not linger and stay importable.
rmSync(out, { recursive: true, force: true });
const run = spawnSync(process.execPath, [tsc, "-p", join(pkg, "tsconfig.build.json"), "--outDir", out], { stdio: "inherit" });
if (run.status !== 0) {
  process.stderr.write(`@svc/client: tsc failed (${run.status ?? run.signal}); the package is not built.\n`);
  process.exit(run.status || 1);
}
copyFileSync(join(pkg, "src", "openapi.d.ts"), join(out, "openapi.d.ts"));
// tsc rewrites the `.ts` of relative imports in the JavaScript only; declarations keep them, which a consumer's
// compiler (Node16/NodeNext resolution, no allowImportingTsExtensions) refuses. They name the emitted `.js`.
for (const file of readdirSync(out).filter((f) => f.endsWith(".d.ts"))) {
  const text = readFileSync(join(out, file), "utf8");
  const fixed = text.replace(/(\bfrom\s+|\bimport\s*\(\s*)"(\.\.?\/[^"]+)\.ts"/g, '$1"$2.js"');
  if (fixed !== text) writeFileSync(join(out, file), fixed);
}
