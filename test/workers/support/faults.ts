import type { Bindings } from "../../../src/env";

/*
 * Fault injection for the reliability campaign (#22): the Worker's own bindings wrapped so that one chosen I/O call
 * fails, the way production fails — a storage call that errors (D1 or R2 answering an error, a queue send refused) or
 * an isolate that dies at that point (the call may or may not have landed; nothing after it runs). The code under test
 * is the production code, unchanged: only the bindings it is handed differ.
 *
 * A test first runs the operation on a `faultyEnv` with no fault to learn its I/O sites (`log`), then once per site
 * with the fault there, and checks the invariants after each (exactly once, nothing half-written, a clean answer).
 */

/** The binding an I/O call goes to (`do`: a Durable Object stub's method: the rate limiter, audit chain, webhook gate). */
export type FaultKind = "d1" | "r2" | "queue" | "do";

/** One I/O call seen by a faulty env, in call order (1-based `n` over the calls the plan counts). */
export interface FaultSite {
  n: number;
  kind: FaultKind;
  /** e.g. `d1.all`, `d1.batch`, `r2.put`, `queue.send`, `do.take` */
  op: string;
  /** The statement's SQL (first 120 characters; a batch lists its statements), the R2 key, the queue's binding name, or the object's binding and method (`RATE_LIMITER.take`). */
  detail: string;
}

/**
 * Where and how the plan fails. `at` counts the calls of the kinds in `kinds` (all kinds when absent), from 1.
 * - `error`: that call does not happen and rejects (a storage error, or a Durable Object that could not be reached);
 *   later calls work (a retry may succeed).
 * - `crash-before`: that call does not happen, and it and every later call reject: the isolate died before it.
 * - `crash-after`: that call happens (a write lands), then it and every later call reject: the isolate died
 *   after the write but before the code could learn it.
 */
export interface FaultPlan {
  at?: number;
  /**
   * Instead of `at`: the `occurrence`-th call (from 1) with this op and detail, wherever it falls in the order. For
   * requests whose concurrent I/O calls may start in either order from run to run (their numbers then differ).
   */
  site?: { op: string; detail: string; occurrence: number };
  mode?: "error" | "crash-before" | "crash-after";
  kinds?: FaultKind[];
}

/** The error an injected fault rejects with (a test can tell it from a real failure). */
export class InjectedFault extends Error {
  constructor(readonly site: FaultSite) {
    super(`injected fault at ${site.op} #${site.n} (${site.detail.slice(0, 60)})`);
    this.name = "InjectedFault";
  }
}

/** A faulty env and what it saw. Invariant: once `crashed`, no call of this env reaches a binding again. */
export interface FaultyEnv {
  env: Bindings;
  /** Every counted call, in order, including the faulted one. */
  log: FaultSite[];
  /** The site the plan faulted, once it has. */
  readonly faulted: FaultSite | null;
  readonly crashed: boolean;
}

const QUEUE_BINDINGS = ["JOBS_QUEUE", "WEBHOOKS_QUEUE"] as const;
const OBJECT_BINDINGS = ["RATE_LIMITER", "WEBHOOK_GATE", "AUDIT_CHAIN"] as const;

export function faultyEnv(base: Bindings, plan: FaultPlan = {}): FaultyEnv {
  const log: FaultSite[] = [];
  let faulted: FaultSite | null = null;
  let crashed = false;
  let n = 0;
  let seen = 0;
  const counts = (kind: FaultKind) => !plan.kinds || plan.kinds.includes(kind);
  const chosen = (site: FaultSite) => {
    if (!plan.site) return plan.at === site.n;
    if (site.op !== plan.site.op || site.detail !== plan.site.detail) return false;
    return ++seen === plan.site.occurrence;
  };

  /** Runs one I/O call under the plan. */
  async function call<T>(kind: FaultKind, op: string, detail: string, run: () => Promise<T>): Promise<T> {
    if (crashed) throw new InjectedFault({ n: -1, kind, op, detail: `after the crash: ${detail}` });
    if (!counts(kind)) return run();
    const site: FaultSite = { n: ++n, kind, op, detail };
    log.push(site);
    if (!chosen(site)) return run();
    faulted = site;
    const mode = plan.mode ?? "error";
    if (mode === "crash-after") {
      crashed = true;
      await run().catch(() => undefined);
      throw new InjectedFault(site);
    }
    if (mode === "crash-before") crashed = true;
    throw new InjectedFault(site);
  }

  const env: Record<string, unknown> = { ...(base as unknown as Record<string, unknown>) };
  env.DB = faultyD1(base.DB, call);
  env.OBJECTS = faultyR2(base.OBJECTS, call);
  for (const name of QUEUE_BINDINGS) {
    const queue = base[name];
    if (queue) env[name] = faultyQueue(queue, name, call);
  }
  for (const name of OBJECT_BINDINGS) {
    const namespace = base[name] as unknown as DurableObjectNamespace | undefined;
    if (namespace) env[name] = faultyObjects(namespace, name, call);
  }
  return {
    env: env as unknown as Bindings,
    log,
    get faulted() {
      return faulted;
    },
    get crashed() {
      return crashed;
    },
  };
}

type Call = <T>(kind: FaultKind, op: string, detail: string, run: () => Promise<T>) => Promise<T>;

const short = (sql: string) => sql.replace(/\s+/g, " ").trim().slice(0, 120);

function faultyD1(real: D1Database, call: Call): D1Database {
  // Every wrapper remembers its real statement (batch() must be handed D1's own objects) and its SQL (for the log).
  const realOf = new WeakMap<object, { stmt: D1PreparedStatement; sql: string }>();
  const wrap = (stmt: D1PreparedStatement, sql: string): D1PreparedStatement => {
    const text = short(sql);
    const wrapped = {
      bind: (...values: unknown[]) => wrap(stmt.bind(...values), sql),
      first: (column?: string) => call("d1", "d1.first", text, () => (column === undefined ? stmt.first() : stmt.first(column))),
      all: () => call("d1", "d1.all", text, () => stmt.all()),
      run: () => call("d1", "d1.run", text, () => stmt.run()),
      raw: (options?: { columnNames?: boolean }) => call("d1", "d1.raw", text, () => stmt.raw(options as { columnNames: true })),
    } as unknown as D1PreparedStatement;
    realOf.set(wrapped, { stmt, sql: text });
    return wrapped;
  };
  const unwrap = (statements: D1PreparedStatement[]) => statements.map((s) => realOf.get(s)?.stmt ?? s);
  const describe = (statements: D1PreparedStatement[]) => statements.map((s) => realOf.get(s)?.sql ?? "?").join(" ; ");
  return {
    prepare: (sql: string) => wrap(real.prepare(sql), sql),
    batch: (statements: D1PreparedStatement[]) => call("d1", "d1.batch", describe(statements), () => real.batch(unwrap(statements))),
    exec: (sql: string) => call("d1", "d1.exec", short(sql), () => real.exec(sql)),
    dump: () => real.dump(),
    withSession: (constraint?: string) => {
      const session = real.withSession(constraint as D1SessionConstraint);
      return {
        prepare: (sql: string) => wrap(session.prepare(sql), sql),
        batch: (statements: D1PreparedStatement[]) => call("d1", "d1.batch", describe(statements), () => session.batch(unwrap(statements))),
        getBookmark: () => session.getBookmark(),
      };
    },
  } as unknown as D1Database;
}

function faultyR2(real: R2Bucket, call: Call): R2Bucket {
  const upload = (u: R2MultipartUpload): R2MultipartUpload =>
    ({
      key: u.key,
      uploadId: u.uploadId,
      uploadPart: (part: number, value: Parameters<R2MultipartUpload["uploadPart"]>[1], options?: R2UploadPartOptions) =>
        call("r2", "r2.uploadPart", `${u.key} part ${part}`, () => u.uploadPart(part, value, options)),
      abort: () => call("r2", "r2.abortMultipartUpload", u.key, () => u.abort()),
      complete: (parts: R2UploadedPart[]) => call("r2", "r2.completeMultipartUpload", u.key, () => u.complete(parts)),
    }) as R2MultipartUpload;
  return {
    head: (key: string) => call("r2", "r2.head", key, () => real.head(key)),
    get: (key: string, options?: R2GetOptions) => call("r2", "r2.get", key, () => real.get(key, options)),
    put: (key: string, value: Parameters<R2Bucket["put"]>[1], options?: R2PutOptions) =>
      call("r2", "r2.put", key, () => real.put(key, value, options)),
    delete: (keys: string | string[]) => call("r2", "r2.delete", Array.isArray(keys) ? keys.join(",") : keys, () => real.delete(keys)),
    list: (options?: R2ListOptions) => call("r2", "r2.list", options?.prefix ?? "", () => real.list(options)),
    createMultipartUpload: (key: string, options?: R2MultipartOptions) =>
      call("r2", "r2.createMultipartUpload", key, async () => upload(await real.createMultipartUpload(key, options))),
    resumeMultipartUpload: (key: string, uploadId: string) => upload(real.resumeMultipartUpload(key, uploadId)),
  } as unknown as R2Bucket;
}

function faultyQueue(real: Queue, name: string, call: Call): Queue {
  return {
    send: (body: unknown, options?: QueueSendOptions) => call("queue", "queue.send", name, () => real.send(body, options)),
    sendBatch: (messages: Iterable<MessageSendRequest>, options?: QueueSendBatchOptions) =>
      call("queue", "queue.sendBatch", name, () => real.sendBatch(messages, options)),
  } as unknown as Queue;
}

/**
 * A Durable Object namespace whose stubs' method calls go through the plan: `crash-after` lets the call reach the
 * object (its state changes: a lease taken, an entry appended) and then loses the answer.
 */
function faultyObjects(real: DurableObjectNamespace, name: string, call: Call): DurableObjectNamespace {
  const stub = (s: DurableObjectStub): DurableObjectStub =>
    new Proxy(s, {
      get(target, prop) {
        const value = Reflect.get(target, prop);
        if (typeof value !== "function" || typeof prop !== "string" || prop === "then") return value;
        return (...args: unknown[]) => call("do", `do.${prop}`, `${name}.${prop}`, async () => await Reflect.apply(value, target, args));
      },
    });
  return new Proxy(real, {
    get(target, prop) {
      const value = Reflect.get(target, prop);
      if (typeof value !== "function") return value;
      if (prop === "get" || prop === "getByName")
        return (...args: unknown[]) => stub(Reflect.apply(value, target, args) as DurableObjectStub);
      return (...args: unknown[]) => Reflect.apply(value, target, args);
    },
  });
}
