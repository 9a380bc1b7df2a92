// Module hooks that let plain Node run the TypeScript sources of this package and of @svc/client with no build
// step: relative imports written without an extension (as bundlers and tsc's Bundler resolution allow) resolve
// to the `.ts` file beside them, and `.ts` files are transformed by Node's own TypeScript support
// (node:module stripTypeScriptTypes in transform mode), which, unlike plain type stripping, also accepts the
// non-erasable syntax the SDK uses (constructor parameter properties). Only files outside node_modules.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { registerHooks, stripTypeScriptTypes } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

// Transformed sources are cached by content hash (and Node version): the transformer's start-up and its pass over
// each file cost about a second per run on a busy machine, a cache hit nothing. A stale entry cannot be served (the key
// is the source itself); an unwritable cache only costs the time.
const CACHE = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "node_modules", ".cache", "svc-cli");

function transformed(source) {
  const key = createHash("sha256").update(process.version).update("\0").update(source).digest("hex");
  const file = join(CACHE, `${key}.js`);
  try {
    return readFileSync(file, "utf8");
  } catch {
    // not cached yet
  }
  const out = stripTypeScriptTypes(source, { mode: "transform" });
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

// stripTypeScriptTypes announces itself as experimental on first use; that notice is not for svc's users.
// Every other warning is still printed.
process.removeAllListeners("warning");
process.on("warning", (w) => {
  if (w.name === "ExperimentalWarning" && /stripTypeScriptTypes|Type Stripping/.test(w.message)) return;
  process.stderr.write(`${w.name}: ${w.message}\n`);
});

const inPackages = (url) => url.startsWith("file:") && !url.includes("/node_modules/");

registerHooks({
  resolve(specifier, context, nextResolve) {
    if (
      context.parentURL?.endsWith(".ts") &&
      inPackages(context.parentURL) &&
      /^\.\.?\//.test(specifier) &&
      !/\.[cm]?[jt]sx?$|\.json$/.test(specifier)
    ) {
      for (const candidate of [`${specifier}.ts`, `${specifier}/index.ts`]) {
        try {
          return nextResolve(candidate, context);
        } catch {
          // try the next form, then the specifier as written
        }
      }
    }
    return nextResolve(specifier, context);
  },
  load(url, context, nextLoad) {
    if (url.endsWith(".ts") && inPackages(url)) {
      return { format: "module", source: transformed(readFileSync(fileURLToPath(url), "utf8")), shortCircuit: true };
    }
    return nextLoad(url, context);
  },
});
