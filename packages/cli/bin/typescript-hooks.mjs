// A module hook that runs the TypeScript sources of this package and of @svc/client (both erasable syntax with
// `.ts` import paths) through Node's own type stripping, caching the result by content hash: the stripper's start-up
// and its pass over each file cost about a second per run on a busy machine, a cache hit almost nothing. A stale
// entry cannot be served (the key is the source itself and the Node version); an unwritable cache costs only time.
// Files under node_modules are left to Node.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { registerHooks, stripTypeScriptTypes } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

// stripTypeScriptTypes announces itself as experimental on first use; that notice is not for svc's users.
// Every other warning is still printed.
process.removeAllListeners("warning");
process.on("warning", (w) => {
  if (w.name === "ExperimentalWarning" && /stripTypeScriptTypes|Type Stripping/.test(w.message)) return;
  process.stderr.write(`${w.name}: ${w.message}\n`);
});

const CACHE = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "node_modules", ".cache", "svc-cli");

function stripped(source) {
  const key = createHash("sha256").update(`${process.version}\0strip\0`).update(source).digest("hex");
  const file = join(CACHE, `${key}.js`);
  try {
    return readFileSync(file, "utf8");
  } catch {
    // not cached yet
  }
  // Strip mode replaces types by spaces: line and column numbers of stack traces stay those of the source.
  const out = stripTypeScriptTypes(source);
  try {
    mkdirSync(CACHE, { recursive: true });
    const tmp = `${file}.${process.pid}`;
    writeFileSync(tmp, out);
    renameSync(tmp, file);
  } catch {
    // read-only checkout: run without the cache
  }
  return out;
}

registerHooks({
  load(url, context, nextLoad) {
    if (url.startsWith("file:") && url.endsWith(".ts") && !url.includes("/node_modules/")) {
      return { format: "module", source: stripped(readFileSync(fileURLToPath(url), "utf8")), shortCircuit: true };
    }
    return nextLoad(url, context);
  },
});
