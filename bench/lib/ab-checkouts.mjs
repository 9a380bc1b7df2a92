// Shared by the interleaved A/B diagnostics (bench/express-ab.mjs, bench/verify-ab.mjs): each side is a running
// `npm start` checkout named on the command line as LABEL=<dir>, measured in workerd CPU read from /proc (the figure
// to compare on a shared machine, where wall time follows the load).
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";

/** `--name N` from the arguments as a number, or the fallback. */
export function numberOption(args, name, fallback) {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
}

/** The checkouts named LABEL=<dir>: each one's base URL and dev key (its .svc/dev.env) and its workerd processes. */
export function checkoutSides(args) {
  return args
    .filter((a) => /^[A-Za-z0-9_-]+=/.test(a))
    .map((a) => {
      const [label, dir] = [a.slice(0, a.indexOf("=")), a.slice(a.indexOf("=") + 1)];
      const env = Object.fromEntries(
        readFileSync(join(dir, ".svc", "dev.env"), "utf8")
          .split("\n")
          .filter((l) => l.includes("="))
          .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
      );
      const base = env.SVC_API_BASE_URL;
      return { label, dir, base, key: env.SVC_API_KEY, pids: workerdPidsServing(new URL(base).port) };
    });
}

/** The workerd processes of the session whose workerd serves `port`. */
export function workerdPidsServing(port) {
  const all = execFileSync("pgrep", ["-a", "workerd"]).toString().trim().split("\n");
  const entry = all.find((l) => l.includes(`entry=127.0.0.1:${port} `));
  if (!entry) throw new Error(`no workerd serves port ${port}`);
  const sid = (pid) => readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ")[3];
  const session = sid(entry.split(" ")[0]);
  return all.map((l) => l.split(" ")[0]).filter((pid) => sid(pid) === session);
}

/** User + system CPU of the processes, in ms (clock ticks of 10 ms). */
export function cpuMsOf(pids) {
  return pids.reduce((sum, pid) => {
    let stat;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    } catch {
      // wrangler dev restarts workerd when the checkout's code changes: the CPU of the old process is gone
      throw new Error(`workerd ${pid} is gone (a checkout reloaded its code?): run again without changing either checkout`);
    }
    const f = stat.split(") ")[1].split(" ");
    return sum + (Number(f[11]) + Number(f[12])) * 10;
  }, 0);
}
