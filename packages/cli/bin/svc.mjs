#!/usr/bin/env node
// The `svc` command. Its sources (../src/*.ts, and @svc/client's) are TypeScript run by Node's own type stripping
// (Node >= 22.18 by default, 22.6+ with --experimental-strip-types): no build step, so a fresh clone works after
// `npm ci`. `npx svc` runs under the repository's Node 22 (npm puts node_modules/.bin first on PATH); an older
// `node` re-runs this file under that Node when it is installed beside this package.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));

if (!process.features.typescript) {
  const [major, minor] = process.versions.node.split(".").map(Number);
  const flagWorks = major > 22 || (major === 22 && minor >= 6);
  // packages/cli/bin → the repository's node_modules/.bin/node (the pinned devDependency).
  const repoNode = join(here, "..", "..", "..", "node_modules", ".bin", "node");
  const [node, args] = flagWorks
    ? [process.execPath, ["--experimental-strip-types", "--no-warnings=ExperimentalWarning"]]
    : existsSync(repoNode) && !process.env.SVC_CLI_REEXEC
      ? [repoNode, []]
      : [null, []];
  if (!node) {
    process.stderr.write(`svc needs Node >= 22.6 (found ${process.version}); run it as \`npx svc\` in the repository after \`npm ci\`.\n`);
    process.exit(1);
  }
  const r = spawnSync(node, [...args, fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: "inherit",
    env: { ...process.env, SVC_CLI_REEXEC: "1" },
  });
  process.exit(r.status ?? 1);
}

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
