// `npm run typecheck`: the three TypeScript projects (the Worker with its workerd tests, the Node side, the client
// package) checked at once rather than one after the other. Each tsc is one thread; run in turn they left one of
// CI's two cores idle for about a minute. Each project's output is printed whole, after it ends; any failure fails.
import { spawn } from "node:child_process";
import { join } from "node:path";

const root = join(import.meta.dirname, "..");
const tsc = join(root, "node_modules", ".bin", "tsc");
const PROJECTS = [["tsconfig.json"], ["tsconfig.node.json"], ["packages/client"]];

const results = await Promise.all(
  PROJECTS.map(
    ([project]) =>
      new Promise((resolve) => {
        const child = spawn(tsc, ["--noEmit", "-p", project], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
        let output = "";
        child.stdout.on("data", (d) => (output += d));
        child.stderr.on("data", (d) => (output += d));
        child.on("close", (code) => resolve({ project, code, output }));
      }),
  ),
);
let failed = false;
for (const { project, code, output } of results) {
  if (output.trim()) process.stdout.write(`tsc -p ${project}:\n${output}`);
  if (code !== 0) {
    failed = true;
    console.error(`tsc -p ${project}: exit ${code}`);
  }
}
process.exit(failed ? 1 : 0);
