import { indexMatches } from "../src/soft-bindings/repo";

function rnd(n: number, seed: number) {
  const b = new Uint8Array(n);
  let s = seed >>> 0;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    b[i] = s >>> 24;
  }
  return b;
}
const hexOf = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
let seq = 1;
type Job = { caps: Cap[]; done?: unknown[]; failed?: boolean };
const queue: Job[] = [];
let flying = 0;
const MAXFLY = 1;
const stats = { polls: 0, groups: 0, jobs: 0 };
async function coalesced(db: D1Database, caps: Cap[]) {
  const job: Job = { caps };
  queue.push(job);
  for (;;) {
    if (job.done) return job.done;
    if (job.failed) return db.batch(caps.map((c) => db.prepare(c.sql).bind(...c.binds)));
    if (flying < MAXFLY && queue.includes(job)) {
      const group = queue.splice(0, 8);
      stats.groups++;
      stats.jobs += group.length;
      flying++;
      try {
        const res = await db.batch(group.flatMap((j) => j.caps.map((c) => db.prepare(c.sql).bind(...c.binds))));
        let at = 0;
        for (const j of group) {
          j.done = res.slice(at, at + j.caps.length);
          at += j.caps.length;
        }
      } catch {
        for (const j of group) j.failed = true;
      } finally {
        flying--;
      }
      continue;
    }
    stats.polls++;
    await new Promise((r) => setTimeout(r, 1));
  }
}
type Cap = { sql: string; binds: unknown[] };
async function capture(q: Parameters<typeof indexMatches>[1]): Promise<Cap[]> {
  const caps: Cap[] = [];
  const fake = {
    prepare(sql: string) {
      const c: Cap = { sql, binds: [] };
      caps.push(c);
      return {
        bind(...b: unknown[]) {
          c.binds = b;
          return this;
        },
        all: async () => ({ results: [] }),
      };
    },
    batch: async (s: unknown[]) => s.map(() => ({ results: [] })),
  };
  await indexMatches(fake as never, q);
  return caps;
}
const shrink = (b: unknown) => (typeof b === "string" && b.startsWith("[") ? JSON.stringify([JSON.parse(b)[0]]) : b);
export default {
  async fetch(req: Request, env: { DB: D1Database }): Promise<Response> {
    const u = new URL(req.url);
    const mode = u.pathname.slice(1);
    const s = seq++;
    const db = env.DB;
    const pdq = { bits: rnd(32, s), limit: 10 };
    const windows = Array.from({ length: 15 }, (_, i) => rnd(32, s * 100 + i));
    const iscc = { algorithm: "iscc-image", bitsHex: hexOf(rnd(8, s + 7)), limit: 10 };
    const full = { exact: [iscc], pdq, pdqRegions: { ...pdq, windows }, pdqUnlessExact: 0 };
    const run = (caps: Cap[]) => db.batch(caps.map((c) => db.prepare(c.sql).bind(...c.binds)));
    switch (mode) {
      case "none":
        break;
      case "one":
        await db.prepare("SELECT ? AS x").bind(s).all();
        break;
      case "batch3":
        await db.batch([db.prepare("SELECT ? AS x").bind(s), db.prepare("SELECT ? AS x").bind(s), db.prepare("SELECT ? AS x").bind(s)]);
        break;
      case "exact":
        await indexMatches(db, { exact: [iscc] });
        break;
      case "full":
        await indexMatches(db, full);
        break;
      case "fullcap":
        await run(await capture(full));
        break;
      case "full1": {
        const c = await capture(full);
        await run(c.map((x) => ({ sql: x.sql, binds: x.binds.map(shrink) })));
        break;
      }
      case "pdqonly": {
        const c = await capture(full);
        await run([c[0]!, c[1]!]);
        break;
      }
      case "regonly": {
        const c = await capture(full);
        await run([c[0]!, c[2]!]);
        break;
      }
      case "pdq1": {
        const c = await capture(full);
        await run([c[0]!, { sql: c[1]!.sql, binds: c[1]!.binds.map(shrink) }]);
        break;
      }
      case "reg1": {
        const c = await capture(full);
        await run([c[0]!, { sql: c[2]!.sql, binds: c[2]!.binds.map(shrink) }]);
        break;
      }
      case "pdqx8": {
        const c = await capture(full);
        await run(Array.from({ length: 8 }, () => c[1]!));
        break;
      }
      case "pdqx8v": {
        const c = await capture(full);
        await run(Array.from({ length: 8 }, (_, i) => ({ sql: `${c[1]!.sql} /* ${s} ${i} */`, binds: c[1]!.binds })));
        break;
      }
      case "regx8": {
        const c = await capture(full);
        await run(Array.from({ length: 8 }, () => c[2]!));
        break;
      }
      case "exactx8": {
        const c = await capture(full);
        await run(Array.from({ length: 8 }, () => c[0]!));
        break;
      }
      case "onex8":
        await db.batch(Array.from({ length: 8 }, () => db.prepare("SELECT ? AS x").bind(s)));
        break;
      case "coal":
        await coalesced(db, await capture(full));
        break;
      case "stats":
        return Response.json(stats);
      case "dump":
        return Response.json(await capture(full));
      default:
        return new Response("?", { status: 404 });
    }
    return new Response("ok");
  },
};
