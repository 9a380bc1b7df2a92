// `npm run data-keys:rewrap`: runs the cron sweeps of the local service (started with `npm start`) at once, which
// re-wraps every data key not under the current master key of SVC_DATA_MASTER_KEYS (see README "Creators"). The
// sweep logs `data keys rewrapped` with its counts in the `npm start` terminal. In production the cron trigger
// runs the same sweep every five minutes.
import { port } from "./lib/dev.mjs";

const url = `http://127.0.0.1:${port()}/__scheduled?cron=${encodeURIComponent("*/5 * * * *")}`;
try {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${res.status} ${await res.text()}`);
  console.error('svc: sweep started; its counts are logged by `npm start` (event "data keys rewrapped").');
} catch (error) {
  console.error(`svc: could not reach the local service at ${url} (is \`npm start\` running?): ${error.message ?? error}`);
  process.exit(1);
}
