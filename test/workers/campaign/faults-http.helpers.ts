import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { expect } from "vitest";
import type { Bindings } from "../../../src/env";
import worker from "../../../src/index";
import { anonymousRateBuckets } from "../../../src/platform/client-address";
import { forgetRateLeases, shardOf } from "../../../src/platform/rate-lease";
import { type FaultPlan, type FaultSite, faultyEnv } from "../support/faults";
import { BASE, testEnv } from "../support/helpers";

/*
 * The HTTP side of the fault campaign (#22): the Worker's own fetch handler called with a faulty env, one I/O site
 * at a time, and after each fault the same request sent again on the healthy env. A site is faulted with `error`
 * (the call rejects, later calls work) and, where it wrote something, `crash-after` (the write landed, then the
 * isolate died: the client never learns the outcome). `crash-before` at a site is the same as `crash-after` at the
 * write before it (or as nothing at all before the first write), so it is not run again.
 */

/**
 * How long any one request (with its waitUntil work) may take before the test calls it a hang. Generous: on the
 * shared 2-core machine the background signing jobs of earlier trials share D1 and the CPU with the request.
 */
export const BOUND_MS = 60_000;

export interface Answer {
  status: number;
  text: string;
  body: any;
  headers: Headers;
  ms: number;
}

async function bounded<T>(what: string, p: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`hang: ${what} did not settle within ${BOUND_MS} ms`)), BOUND_MS);
  });
  try {
    return await Promise.race([p, hang]);
  } finally {
    clearTimeout(timer);
  }
}

/** One request through the Worker's fetch handler on `env`, its waitUntil work awaited too, all within BOUND_MS. */
export async function send(env: Bindings, request: Request): Promise<Answer> {
  const ctx = createExecutionContext();
  const started = Date.now();
  const fetch = worker.fetch as unknown as (r: Request, e: Bindings, c: ExecutionContext) => Promise<Response>;
  const res = await bounded(`${request.method} ${new URL(request.url).pathname}`, fetch(request, env, ctx));
  const text = await bounded("the body", res.text());
  // waitUntil work on a crashed env rejects (its isolate is gone); it must still settle.
  await bounded(
    "waitUntil work",
    waitOnExecutionContext(ctx).catch(() => undefined),
  );
  let body: any = null;
  try {
    body = JSON.parse(text);
  } catch {
    body = null;
  }
  return { status: res.status, text, body, headers: res.headers, ms: Date.now() - started };
}

export function request(
  path: string,
  init: { method?: string; key?: string | null; body?: unknown; form?: () => FormData; headers?: Record<string, string> } = {},
): Request {
  const headers = new Headers(init.headers);
  if (init.key) headers.set("authorization", `Bearer ${init.key}`);
  let body: BodyInit | undefined;
  if (init.body !== undefined) {
    body = init.body instanceof Uint8Array ? (init.body as Uint8Array<ArrayBuffer>) : JSON.stringify(init.body);
    if (!(init.body instanceof Uint8Array)) headers.set("content-type", "application/json");
  }
  if (init.form) body = init.form();
  return new Request(`${BASE}${path}`, { method: init.method ?? "GET", headers, body });
}

/**
 * A write: an R2 or queue call that changes something, a D1 statement (or batch) that inserts, updates or deletes,
 * or a Durable Object call that changes the object (a rate charge, an audit append, a gate lease: all but reads).
 */
export function isWrite(site: FaultSite): boolean {
  if (site.kind === "queue") return true;
  if (site.kind === "do") return !/\.(witness|inFlight)$/.test(site.detail);
  if (site.kind === "r2") return !["r2.head", "r2.get", "r2.list"].includes(site.op);
  return /\b(insert|update|delete|replace)\b/i.test(site.detail);
}

export type Mode = NonNullable<FaultPlan["mode"]>;

/** The audit chain took the entry, then the isolate died before it learned so. */
export function appendLandedThenCrashed(site: FaultSite, mode: Mode): boolean {
  return mode === "crash-after" && site.detail === "AUDIT_CHAIN.append";
}

/** One faulted run and what followed. */
export interface Outcome {
  site: FaultSite;
  mode: Mode;
  /** The faulted request's answer: status and code (or "-" without an envelope). */
  faulted: string;
  /** The healthy retry's answer. */
  retried: string;
  /** Whether the retry first met the crashed request's unexpired idempotency lease (and the lease was let lapse). */
  leaseLapsed: boolean;
  /** How long the faulted request took (with its waitUntil work). */
  ms: number;
}

/**
 * One hot path under the fault sweep. `setup` makes fresh state for one trial (a fresh tenant, so no isolate cache
 * hides an I/O call and the sites stay the same from trial to trial); `request` builds the same logical request
 * each time it is called (the same Idempotency-Key within a trial); `check` asserts one logical result after the
 * retry.
 */
export interface HotPath<S> {
  name: string;
  setup: () => Promise<S>;
  request: (s: S) => Request;
  /** Statuses that mean the operation did its work. */
  success: number[];
  check: (s: S, retried: Answer, faulted: Answer, site: FaultSite, mode: Mode) => Promise<void>;
  /** Faulted answers the path may give besides success and the storage 503 (e.g. a 409 of a completed upload). */
  alsoClean?: (faulted: Answer, site: FaultSite) => boolean;
  /** The healthy env the retry runs on (default testEnv). */
  healthy?: Bindings;
}

const label = (a: Answer) => `${a.status} ${a.body?.code ?? a.body?.detail?.slice(0, 20) ?? "-"}`;

/** (1): a faulted answer is a success, or the contract's envelope with a clear code; a storage failure is a retryable 503. */
export function expectClean(a: Answer, where: string) {
  expect(a.ms, `${where}: bounded`).toBeLessThan(BOUND_MS);
  if (a.status < 400) return;
  expect(a.body, `${where}: an error envelope (${a.text.slice(0, 200)})`).toBeTypeOf("object");
  expect(a.body?.code, `${where}: never svc.internal (${a.text.slice(0, 300)})`).not.toBe("svc.internal");
  expect(a.status, `${where}: ${a.text.slice(0, 300)}`).not.toBe(500);
  if (a.status === 503) {
    expect(a.body.retryable, where).toBe(true);
    expect(a.headers.get("retry-after"), `${where}: Retry-After`).toMatch(/^\d+$/);
  }
}

/** Lets a crashed request's idempotency lease lapse, as 60 seconds would (the row stays; only its lease ends). */
async function lapseLeases(tenantId: string) {
  await testEnv.DB.prepare("UPDATE idempotency_records SET locked_until = 0 WHERE tenant_id = ? AND state = 'in_flight'")
    .bind(tenantId)
    .run();
}

/**
 * Runs `path` once on a probe env (learning its sites), then once per site and mode; returns what happened.
 * `parallel` trials run at once (default one at a time): only for a path whose trials share nothing a site depends on
 * (each its own caller, tenant and rate shard; see `addressOnOwnShard`). Each trial is the same as alone, and every
 * one is checked to have faulted the site the probe saw at that number (no state of another trial hid a call).
 */
export async function sweep<S extends object>(
  path: HotPath<S>,
  options: {
    modes?: Mode[];
    /** Runs only the faults this keeps (a known defect's own test runs just those). */
    only?: (site: FaultSite, mode: Mode, sites: readonly FaultSite[]) => boolean;
    parallel?: number;
  } = {},
): Promise<{ sites: FaultSite[]; outcomes: Outcome[] }> {
  const healthy = path.healthy ?? testEnv;
  // The probe must see every limiter call its trials make. This isolate may still hold a front grant or a lease that
  // an earlier file's requests left (their waitUntil, with the grant's 10 s, is not awaited there): a probe admitted
  // under one made no limiter call in two CI runs. The sweep starts without any (their settles still go out).
  forgetRateLeases();
  const first = await path.setup();
  const probe = faultyEnv(healthy);
  const probed = await send(probe.env, path.request(first));
  expect(path.success, `${path.name}: the probe run (${probed.text.slice(0, 300)})`).toContain(probed.status);
  const sites = [...probe.log];
  const trials: { site: FaultSite; mode: Mode }[] = [];
  for (const site of sites) {
    for (const mode of options.modes ?? (["error", "crash-after"] as Mode[])) {
      if (mode === "crash-after" && !isWrite(site)) continue;
      if (options.only && !options.only(site, mode, sites)) continue;
      trials.push({ site, mode });
    }
  }
  const parallel = Math.max(1, options.parallel ?? 1);
  const outcomes: (Outcome | undefined)[] = [];
  const done = (i: number) => outcomes.slice(0, i).filter((o): o is Outcome => o !== undefined);

  async function trial(i: number): Promise<void> {
    const { site, mode } = trials[i]!;
    const where = `${path.name} · ${mode} at #${site.n} ${site.op} (${site.detail.slice(0, 80)})`;
    const s = await path.setup();
    // Parallel trials fault the probe's site by what it is (its op and detail, and which of its kind it was), not by
    // its number: a call that isolate state decides (the limiter's take, skipped under a front grant) shifts every
    // number after it. Each trial is checked to have reached that site.
    const occurrence = sites.filter((o) => o.n <= site.n && o.op === site.op && o.detail === site.detail).length;
    const plan: FaultPlan = parallel > 1 ? { site: { op: site.op, detail: site.detail, occurrence }, mode } : { at: site.n, mode };
    const faulty = faultyEnv(healthy, plan);
    const faulted = await send(faulty.env, path.request(s));
    if (parallel > 1) {
      expect(`${faulty.faulted?.op} ${faulty.faulted?.detail}`, `${where}: the site the probe saw`).toBe(`${site.op} ${site.detail}`);
    }
    if (mode === "error") {
      expectClean(faulted, where);
      if (faulted.status >= 400 && faulted.status !== 503 && !path.alsoClean?.(faulted, site)) {
        expect.fail(`${where}: a storage failure answered ${label(faulted)}: ${faulted.text.slice(0, 300)}`);
      }
    }
    let retried = await send(healthy, path.request(s));
    let leaseLapsed = false;
    const tenantId = (s as { tenantId?: string }).tenantId;
    if (retried.status === 409 && retried.body?.code === "svc.idempotency.request_in_progress" && tenantId) {
      leaseLapsed = true;
      await lapseLeases(tenantId);
      retried = await send(healthy, path.request(s));
    }
    expect(path.success, `${where}: the healthy retry (${retried.text.slice(0, 300)})`).toContain(retried.status);
    const outcome = { site, mode, faulted: label(faulted), retried: label(retried), leaseLapsed, ms: faulted.ms };
    try {
      await path.check(s, retried, faulted, site, mode);
    } catch (error) {
      (error as Error).message = `${where}: ${(error as Error).message}\n${table(path.name, { sites, outcomes: [...done(i), outcome] })}`;
      throw error;
    }
    outcomes[i] = outcome;
  }

  if (parallel === 1) {
    for (let i = 0; i < trials.length; i++) await trial(i);
  } else {
    // A pool of `parallel` runners over the trials in order; every trial runs to its end, the first failure (in
    // trial order) is thrown.
    let next = 0;
    const failures: { i: number; error: unknown }[] = [];
    const runner = async () => {
      for (let i = next++; i < trials.length; i = next++) {
        await trial(i).catch((error) => failures.push({ i, error }));
      }
    };
    await Promise.all(Array.from({ length: Math.min(parallel, trials.length) }, runner));
    const first = failures.sort((a, b) => a.i - b.i)[0];
    if (first) throw first.error;
  }
  return { sites, outcomes: done(trials.length) };
}

/**
 * A network address (from `make`) whose public rate bucket of `family` lies on a RateLimiter shard not in `taken`
 * (then added). The anonymous front holds one grant per shard and isolate: two trials on one shard would share it,
 * and the second would be admitted without the limiter call (and its settle) that the probe saw.
 */
export async function addressOnOwnShard(taken: Set<string>, make: () => string, family = "verify"): Promise<string> {
  for (let tries = 0; tries < 10_000; tries++) {
    const address = make();
    const [bucket] = await anonymousRateBuckets(new Headers({ "cf-connecting-ip": address }), testEnv, `${family}_public`, 10);
    const shard = shardOf(bucket!.name);
    if (taken.has(shard)) continue;
    taken.add(shard);
    return address;
  }
  throw new Error(`no address on a free shard (${taken.size} taken)`);
}

/** The outcome table, for the log and the report. */
export function table(name: string, result: { sites: FaultSite[]; outcomes: Outcome[] }): string {
  const lines = result.outcomes.map(
    (o) =>
      `  #${o.site.n} ${o.site.op.padEnd(22)} ${o.mode.padEnd(11)} → ${o.faulted.padEnd(34)} retry ${o.retried}${o.leaseLapsed ? " (lease lapsed)" : ""}  ${o.site.detail.slice(0, 70)}`,
  );
  const slowest = Math.max(0, ...result.outcomes.map((o) => o.ms));
  return `${name}: ${result.sites.length} sites, ${result.outcomes.length} faulted runs, slowest faulted request ${slowest} ms\n${lines.join("\n")}`;
}

/** Row count of `table` for one tenant (or all rows when the table has no tenant column). */
export async function count(table: string, where = "1 = 1", ...values: unknown[]): Promise<number> {
  const row = await testEnv.DB.prepare(`SELECT COUNT(*) AS n FROM "${table}" WHERE ${where}`)
    .bind(...values)
    .first<{ n: number }>();
  return row?.n ?? 0;
}
