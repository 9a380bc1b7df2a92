// A CPU profile of workerd over the DevTools protocol, for diagnosing where a benchmark's Worker time goes (not a
// goal row). Start Miniflare with `inspectorPort`, then `const p = await startProfile(port)`, run the work, and
// `printProfile(await p.stop())` prints the functions with the most self time (sampled), grouped by function and
// source location. Every target the inspector lists (the Worker and, with unsafeInspectDurableObjects, its
// Durable Objects) is profiled; Node 22's global WebSocket speaks the protocol.

/** Starts the V8 sampling profiler in every inspectable workerd target on `port`. */
export async function startProfile(port, { intervalUs = 200 } = {}) {
  const targets = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
  const sessions = [];
  for (const target of targets) {
    const ws = new WebSocket(target.webSocketDebuggerUrl);
    await new Promise((resolve, reject) => {
      ws.onopen = resolve;
      ws.onerror = reject;
    });
    let id = 0;
    const pending = new Map();
    ws.onmessage = (event) => {
      const message = JSON.parse(event.data);
      if (message.id !== undefined && pending.has(message.id)) {
        pending.get(message.id)(message);
        pending.delete(message.id);
      }
    };
    const send = (method, params = {}) =>
      new Promise((resolve) => {
        const n = ++id;
        pending.set(n, resolve);
        ws.send(JSON.stringify({ id: n, method, params }));
      });
    await send("Profiler.enable");
    await send("Profiler.setSamplingInterval", { interval: intervalUs });
    await send("Profiler.start");
    sessions.push({ title: target.title ?? target.id, ws, send });
  }
  return {
    /** Stops every profiler; resolves to the profiles, one per target. */
    async stop() {
      const profiles = [];
      for (const s of sessions) {
        const answer = await s.send("Profiler.stop");
        profiles.push({ title: s.title, profile: answer.result?.profile });
        s.ws.close();
      }
      return profiles;
    },
  };
}

/** Self time per function (ms, estimated from samples), the `top` largest, per target and in total. */
export function printProfile(profiles, { top = 40 } = {}) {
  const totals = new Map();
  let all = 0;
  for (const { title, profile } of profiles) {
    if (!profile) continue;
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const counts = new Map();
    for (const sample of profile.samples) counts.set(sample, (counts.get(sample) ?? 0) + 1);
    const intervals = profile.timeDeltas;
    const msPerSample = intervals.length ? (profile.endTime - profile.startTime) / 1000 / intervals.length : 0;
    let own = 0;
    for (const [nodeId, count] of counts) {
      const node = byId.get(nodeId);
      const f = node.callFrame;
      if (f.functionName === "(idle)" || f.functionName === "(program)") continue;
      const file = f.url ? f.url.split("/").pop() : "";
      const name = `${f.functionName || "(anonymous)"} ${file}:${f.lineNumber + 1}`;
      totals.set(name, (totals.get(name) ?? 0) + count * msPerSample);
      own += count * msPerSample;
    }
    all += own;
    console.log(`profile ${title}: ${own.toFixed(0)} ms of sampled CPU (idle left out)`);
  }
  const rows = [...totals].sort((a, b) => b[1] - a[1]).slice(0, top);
  for (const [name, ms] of rows) console.log(`  ${ms.toFixed(1).padStart(8)} ms ${((100 * ms) / all).toFixed(1).padStart(5)} %  ${name}`);
}
