// The /verify page's end-to-end test drives Debian's Chromium (playwright-core never downloads a browser).
// `npm test` runs this first: when /usr/bin/chromium is missing and we may install packages, install it.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";

const CHROMIUM = "/usr/bin/chromium";
if (!existsSync(CHROMIUM)) {
  const root = typeof process.getuid === "function" && process.getuid() === 0;
  if (!root || !existsSync("/usr/bin/apt-get")) {
    console.error(`chromium: ${CHROMIUM} is missing; install Debian's chromium (apt-get install -y chromium) for the /verify page test.`);
  } else {
    console.error("chromium: installing Debian's chromium for the /verify page test (about a minute, once)…");
    const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
    execFileSync("apt-get", ["update", "-qq"], { stdio: ["ignore", "ignore", "inherit"], env });
    execFileSync("apt-get", ["install", "-y", "-qq", "chromium"], { stdio: ["ignore", "ignore", "inherit"], env });
  }
}
