#!/usr/bin/env node
// The `svc` command. Its sources (../src/*.ts) and @svc/client's are TypeScript (erasable syntax), run by Node's own type
// stripping through the cached hook of ./typescript-hooks.mjs: no build step, so a fresh clone works after `npm ci`.
// Those hooks need Node >= 22.15; `npx svc` runs the repository's Node 22 (npm puts node_modules/.bin first on
// PATH), and an older `node` re-runs this file under that Node when it is installed.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import module from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

if (typeof module.registerHooks !== "function" || typeof module.stripTypeScriptTypes !== "function") {
  // packages/cli/bin → the repository's node_modules/.bin/node (the pinned devDependency).
  const repoNode = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "node_modules", ".bin", "node");
  if (!existsSync(repoNode) || process.env.SVC_CLI_REEXEC) {
    process.stderr.write(`svc needs Node >= 22.15 (found ${process.version}); run it as \`npx svc\` in the repository after \`npm ci\`.\n`);
    process.exit(1);
  }
  // Ctrl-C reaches both processes: this one waits for the child, which cleans up and exits.
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => {});
  const r = spawnSync(repoNode, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: "inherit",
    env: { ...process.env, SVC_CLI_REEXEC: "1" },
  });
  process.exit(r.status ?? (r.signal === "SIGINT" ? 130 : 1));
}

await import("./typescript-hooks.mjs");
const { main } = await import("../src/main.ts");
const controller = new AbortController();
let interrupts = 0;
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    // First signal: let the command clean up (listen deletes its endpoint); a second one ends at once.
    if (++interrupts > 1) process.exit(130);
    controller.abort();
  });
}
const code = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
  signal: controller.signal,
});
process.exitCode = code;
// Open handles (keep-alive sockets) must not hold the process once the command is done.
setTimeout(() => process.exit(code), 50).unref();
