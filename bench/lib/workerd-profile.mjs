// CPU profiles of workerd over the V8 inspector protocol, for the diagnostic scripts of #19 (bench/express-profile.mjs,
// bench/verify-profile.mjs, BENCH_PROFILE on bench/webhooks.mjs); never a goal row. Node 22's global WebSocket
// speaks the protocol. A target is one isolate: the Worker (`core:user:<name>`) or, in bare Miniflare with
// `unsafeInspectDurableObjects`, a simulator or Durable Object; `inspectorTargets(port)` lists them.

/** The WebSocket URLs of every isolate the inspector on `port` serves. */
export async function inspectorTargets(port) {
  const targets = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
  return targets.map((t) => t.webSocketDebuggerUrl);
}

/**
 * A protocol session on one target. `send` rejects after `timeoutMs`: an isolate's inspector sometimes leaves a
 * first session's request unanswered (busy, or gone), and a diagnostic must not wait on it forever (`send`'s third
 * argument overrides it for one slow call). `onEvent` receives the protocol's events (messages without an id).
 */
export async function inspectorSession(url, { timeoutMs = 5000, onEvent, headers } = {}) {
  // headers: e.g. the Origin wrangler's inspector proxy requires of a client (Node's WebSocket sends none).
  const socket = headers ? new WebSocket(url, { headers }) : new WebSocket(url);
  await new Promise((resolve, reject) => {
    socket.onopen = resolve;
    socket.onerror = () => reject(new Error(`${url}: the inspector refused the connection`));
  });
  let id = 0;
  const pending = new Map();
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.id === undefined) return onEvent?.(message);
    pending.get(message.id)?.(message);
    pending.delete(message.id);
  };
  const send = (method, params = {}, ms = timeoutMs) =>
    new Promise((resolve, reject) => {
      const n = ++id;
      const timer = setTimeout(() => {
        pending.delete(n);
        reject(new Error(`${url}: no answer to ${method}`));
      }, ms);
      pending.set(n, (message) => {
        clearTimeout(timer);
        resolve(message);
      });
      socket.send(JSON.stringify({ id: n, method, params }));
    });
  return { url, send, close: () => socket.close() };
}

/**
 * Starts the sampling profiler on every target (a target that does not answer within a few tries is left out,
 * with a line saying so); `stop()` resolves to `[{ url, profile }]` for the targets that answered.
 */
export async function startProfiles(urls, { intervalUs = 100, tries = 3 } = {}) {
  const sessions = [];
  for (const url of urls) {
    for (let attempt = 1; attempt <= tries; attempt++) {
      const session = await inspectorSession(url).catch((error) => {
        console.log(String(error.message));
        return null;
      });
      if (!session) break;
      try {
        await session.send("Profiler.enable");
        await session.send("Profiler.setSamplingInterval", { interval: intervalUs });
        await session.send("Profiler.start");
        sessions.push(session);
        break;
      } catch (error) {
        session.close();
        if (attempt === tries) console.log(`${error.message}: left out of the profile`);
      }
    }
  }
  return {
    async stop() {
      const profiles = [];
      for (const session of sessions) {
        try {
          const answer = await session.send("Profiler.stop");
          if (answer.result?.profile) profiles.push({ url: session.url, profile: answer.result.profile });
        } catch (error) {
          console.log(`${error.message}: left out of the profile`);
        }
        session.close();
      }
      return profiles;
    },
  };
}

/**
 * Self and inclusive time per function (`name file:line`) and per source file, in ms. Each sample counts the
 * sampling interval (the median gap between samples), not its own gap: on a loaded machine a descheduled thread
 * leaves gaps of many milliseconds that would be charged to whatever frame was on top (`wall: true` charges each
 * sample its own gap). `sourceOf(url, line)` names a frame's source (default: the script's file name).
 * `busy` leaves out idle time; (program) and (garbage collector) count as busy and appear as functions.
 */
export function summarizeProfile(profile, { sourceOf = (url) => (url ? url.split("/").pop() : "(native)"), wall = false } = {}) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const deltas = profile.timeDeltas;
  const interval = deltas.length ? [...deltas].sort((a, b) => a - b)[deltas.length >> 1] : 0;
  const selfByNode = new Map();
  for (let i = 0; i < profile.samples.length; i++)
    selfByNode.set(profile.samples[i], (selfByNode.get(profile.samples[i]) ?? 0) + (wall ? deltas[i] : interval) / 1000);
  const label = (node) =>
    `${node.callFrame.functionName || "(anonymous)"} ${sourceOf(node.callFrame.url, node.callFrame.lineNumber)}:${node.callFrame.lineNumber + 1}`;
  const add = (map, key, ms) => map.set(key, (map.get(key) ?? 0) + ms);
  const self = new Map();
  const incl = new Map();
  const fileSelf = new Map();
  const fileIncl = new Map();
  let busy = 0;
  for (const [nodeId, ms] of selfByNode) {
    const node = byId.get(nodeId);
    const name = node.callFrame.functionName;
    if (name === "(idle)") continue;
    busy += ms;
    if (name === "(program)" || name === "(garbage collector)") {
      add(self, name, ms);
      continue;
    }
    add(self, label(node), ms);
    add(fileSelf, sourceOf(node.callFrame.url, node.callFrame.lineNumber), ms);
    const seenFn = new Set();
    const seenFile = new Set();
    for (let at = nodeId; at !== undefined; at = parent.get(at)) {
      const up = byId.get(at);
      if (!up.callFrame.url) continue;
      const l = label(up);
      if (!seenFn.has(l)) {
        seenFn.add(l);
        add(incl, l, ms);
      }
      const f = sourceOf(up.callFrame.url, up.callFrame.lineNumber);
      if (!seenFile.has(f)) {
        seenFile.add(f);
        add(fileIncl, f, ms);
      }
    }
  }
  return { busy, self, incl, fileSelf, fileIncl };
}

/** Prints the `top` largest entries of a summary's map, divided by `per` (e.g. ms per request). */
export function printTable(title, map, { per = 1, top = 40, unit = "ms" } = {}) {
  console.log(`\n${title}`);
  for (const [key, ms] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`${(ms / per).toFixed(2).padStart(8)} ${unit}  ${key}`);
}
