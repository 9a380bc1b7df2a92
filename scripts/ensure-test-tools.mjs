// What the test suite drives besides Node: Debian's Chromium (the /verify page's end-to-end test; playwright-core
// never downloads a browser), ffmpeg (the audio tests re-encode signed recordings as a user's copy would be), and
// curl and jq (the README's flows run as written), flac and metaflac (Xiph's reference tools check our FLAC output).
// `npm test` runs this first: when one is missing and we may install packages, install it; otherwise say how.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";

const TOOLS = [
  { path: "/usr/bin/chromium", pkg: "chromium", why: "the /verify page test" },
  { path: "/usr/bin/ffmpeg", pkg: "ffmpeg", why: "the audio recovery tests" },
  { path: "/usr/bin/flac", pkg: "flac", why: "the FLAC tests (Xiph's reference decoder checks our encoder's output)" },
  { path: "/usr/bin/curl", pkg: "curl", why: "the README's curl flow, run as written" },
  { path: "/usr/bin/jq", pkg: "jq", why: "the README's curl and CLI flows, run as written" },
];

const missing = TOOLS.filter((t) => !existsSync(t.path));
if (missing.length > 0) {
  const names = missing.map((t) => t.pkg);
  const root = typeof process.getuid === "function" && process.getuid() === 0;
  if (!root || !existsSync("/usr/bin/apt-get")) {
    for (const t of missing)
      console.error(`${t.pkg}: ${t.path} is missing; install Debian's ${t.pkg} (apt-get install -y ${t.pkg}) for ${t.why}.`);
  } else {
    console.error(`installing Debian's ${names.join(" and ")} for the tests (a minute or two, once)…`);
    const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
    execFileSync("apt-get", ["update", "-qq"], { stdio: ["ignore", "ignore", "inherit"], env });
    execFileSync("apt-get", ["install", "-y", "-qq", ...names], { stdio: ["ignore", "ignore", "inherit"], env });
  }
}
