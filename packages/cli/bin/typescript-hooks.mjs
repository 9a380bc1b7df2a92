// Module hooks that let plain Node run the TypeScript sources of this package and of @svc/client with no build
// step: relative imports written without an extension (as bundlers and tsc's Bundler resolution allow) resolve
// to the `.ts` file beside them, and `.ts` files are transformed by Node's own TypeScript support
// (node:module stripTypeScriptTypes in transform mode), which, unlike plain type stripping, also accepts the
// non-erasable syntax the SDK uses (constructor parameter properties). Only files outside node_modules.
import { readFileSync } from "node:fs";
import { registerHooks, stripTypeScriptTypes } from "node:module";
import { fileURLToPath } from "node:url";

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
      const source = readFileSync(fileURLToPath(url), "utf8");
      return { format: "module", source: stripTypeScriptTypes(source, { mode: "transform" }), shortCircuit: true };
    }
    return nextLoad(url, context);
  },
});
