import type { Bindings } from "../env";

/*
 * Storage failures, told apart by where they came from rather than by what their message says (#22). D1, R2 and the
 * queue producers reject with plain `Error`s whose messages are the binding's business ("D1_ERROR: …", "put: … (10001)",
 * "Network connection lost."), and drizzle wraps a D1 error in its own with the original as `cause`. So every call
 * of a request's storage bindings goes through a thin guard that remembers each error a binding rejected with (the
 * same object, unchanged: code that reads D1's UNIQUE-constraint message still can) and the error mapper asks
 * `storageFailureOf` whether an escaped error, or one of its causes, is such an error. An outage of the database or
 * of object storage then answers 503 `svc.dependency.unavailable` (retryable) instead of a 500. The Durable Objects a
 * request calls (rate limiter, audit chain, webhook gate) are guarded the same way: an object that cannot answer is
 * an outage too, and a rate limit that cannot be charged refuses the request (503), never lets it through.
 */

/** Which binding an I/O call went to, and which of its operations it was. */
export interface StorageFailure {
  binding: "d1" | "r2" | "queue" | "durable_object";
  op: string;
}

/** The Durable Object namespaces a request or consumer calls: a failed call is a dependency outage like D1's. */
export const GUARDED_OBJECTS = ["RATE_LIMITER", "WEBHOOK_GATE", "AUDIT_CHAIN"] as const;

/** Errors a storage binding rejected with, each with its call. Weak: the mapper only ever asks about live errors. */
const failures = new WeakMap<object, StorageFailure>();

/** Marks whatever `run` rejects with as a storage failure (a non-object rejection is made an Error first). */
async function guarded<T>(binding: StorageFailure["binding"], op: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    const thrown = typeof error === "object" && error !== null ? error : new Error(String(error));
    if (!failures.has(thrown)) failures.set(thrown, { binding, op });
    throw thrown;
  }
}

/**
 * The storage failure behind `error`: the error itself or one of its causes (drizzle's "Failed query" wraps D1's)
 * rejected from a guarded binding call. SQLite's own verdict on a statement is not one: a constraint violation
 * (code that expects one catches it), a syntax error, an unknown table or column. The database answered; an
 * escaped one is a defect (500), not an outage to retry.
 */
export function storageFailureOf(error: unknown): StorageFailure | null {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && typeof current === "object" && current !== null; depth++) {
    const failure = failures.get(current);
    if (failure) return isDeterministic(failure, current) ? null : failure;
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}

/**
 * A failure that a retry would meet again: a defect of the call, not an outage (#22 L2). Only transient failures may
 * answer 503 `retryable`; a client told to retry a deterministic refusal would retry for ever.
 * - D1: SQLite's verdict on the statement (above).
 * - Every binding: the runtime refusing the arguments before any I/O (a TypeError, RangeError or DataCloneError: a
 *   bad MD5, a negative range, an uncloneable message; a Durable Object method that is missing, or one that refused
 *   its arguments by throwing such an error itself, e.g. the audit chain's draft check).
 * - R2: the request errors R2 numbers (the code ends the message, "put: … (10020)"): a key, metadata, digest, part
 *   or range it refuses. Internal errors, timeouts and rate limits (10001, 10043, 10058, …) stay transient.
 * - Queues: a message or batch over the producer limits ("… exceeds limit …"); "overloaded" or "Too Many Requests"
 *   stay transient.
 */
function isDeterministic(failure: StorageFailure, error: object): boolean {
  const name = String((error as { name?: unknown }).name ?? "");
  if (name === "TypeError" || name === "RangeError" || name === "DataCloneError") return true;
  const message = String((error as { message?: unknown }).message ?? "");
  if (failure.binding === "d1") return isStatementVerdict(error);
  if (failure.binding === "r2") {
    const code = /\((\d{5,6})\)\s*$/.exec(message)?.[1];
    return code !== undefined && R2_REQUEST_ERRORS.has(code);
  }
  if (failure.binding === "queue") return /exceeds (the )?(maximum|limit)|too large/i.test(message);
  return false;
}

/**
 * R2's numbered errors that name something wrong with the request itself: entity too small (10011) or too large
 * (100100), metadata too large (10012), invalid digest (10014), invalid object name (10020), invalid max keys
 * (10022), invalid part (10025), invalid argument (10029), bad digest (10037), invalid range (10039), bad upload
 * (10048). Not "no such upload" (10024) or a failed precondition (10031): their callers read those as answers.
 */
const R2_REQUEST_ERRORS = new Set(["10011", "100100", "10012", "10014", "10020", "10022", "10025", "10029", "10037", "10039", "10048"]);

/** D1 reports SQLite's result codes in the message ("D1_ERROR: UNIQUE constraint failed: …: SQLITE_CONSTRAINT"). */
function isStatementVerdict(error: object): boolean {
  const message = String((error as { message?: unknown }).message ?? "");
  // SQLite's own refusals, and D1's refusals of the call before any SQL runs (a first() of a column the row lacks,
  // a batch or exec of no statements): each fails the same way on every retry, so none is an outage.
  return /SQLITE_(CONSTRAINT|ERROR|MISMATCH|RANGE|TOOBIG)\b|constraint failed|syntax error|no such (table|column)|D1_COLUMN_NOTFOUND|No SQL statements detected/i.test(
    message,
  );
}

const guardedEnvs = new WeakMap<object, Bindings>();

/**
 * `env` with its D1 database, R2 bucket and queue producers guarded (see above); every other binding as it is.
 * Invariant: the same guarded object for the same `env` (per-env caches such as `configOf` and the drizzle client
 * keep working), and a guarded call does exactly what the binding's call does, only remembering its rejection.
 */
export function guardStorage(env: Bindings): Bindings {
  const known = guardedEnvs.get(env);
  if (known) return known;
  const out: Record<string, unknown> = { ...(env as unknown as Record<string, unknown>) };
  if (env.DB) out.DB = guardD1(env.DB);
  if (env.OBJECTS) out.OBJECTS = guardR2(env.OBJECTS);
  for (const name of ["JOBS_QUEUE", "WEBHOOKS_QUEUE"] as const) if (env[name]) out[name] = guardQueue(env[name]);
  for (const name of GUARDED_OBJECTS) if (env[name]) out[name] = guardObjects(env[name] as unknown as DurableObjectNamespace, name);
  const guardedEnv = out as unknown as Bindings;
  guardedEnvs.set(env, guardedEnv);
  guardedEnvs.set(guardedEnv, guardedEnv); // guarding twice is a no-op
  return guardedEnv;
}

function guardD1(real: D1Database): D1Database {
  // batch() must be handed D1's own statements: each guarded statement remembers the one it wraps.
  const realOf = new WeakMap<object, D1PreparedStatement>();
  const wrap = (stmt: D1PreparedStatement): D1PreparedStatement => {
    const statement = {
      bind: (...values: unknown[]) => wrap(stmt.bind(...values)),
      first: (column?: string) => guarded("d1", "first", () => (column === undefined ? stmt.first() : stmt.first(column))),
      all: () => guarded("d1", "all", () => stmt.all()),
      run: () => guarded("d1", "run", () => stmt.run()),
      raw: (options?: { columnNames?: boolean }) => guarded("d1", "raw", () => stmt.raw(options as { columnNames: true })),
    } as unknown as D1PreparedStatement;
    realOf.set(statement, stmt);
    return statement;
  };
  const unwrap = (statements: D1PreparedStatement[]) => statements.map((s) => realOf.get(s) ?? s);
  return {
    prepare: (sql: string) => wrap(real.prepare(sql)),
    batch: (statements: D1PreparedStatement[]) => guarded("d1", "batch", () => real.batch(unwrap(statements))),
    exec: (sql: string) => guarded("d1", "exec", () => real.exec(sql)),
    dump: () => real.dump(),
    withSession: (constraint?: string) => {
      const session = real.withSession(constraint as D1SessionConstraint);
      return {
        prepare: (sql: string) => wrap(session.prepare(sql)),
        batch: (statements: D1PreparedStatement[]) => guarded("d1", "batch", () => session.batch(unwrap(statements))),
        getBookmark: () => session.getBookmark(),
      };
    },
  } as unknown as D1Database;
}

function guardR2(real: R2Bucket): R2Bucket {
  const upload = (u: R2MultipartUpload): R2MultipartUpload =>
    ({
      key: u.key,
      uploadId: u.uploadId,
      uploadPart: (part: number, value: Parameters<R2MultipartUpload["uploadPart"]>[1], options?: R2UploadPartOptions) =>
        guarded("r2", "uploadPart", () => u.uploadPart(part, value, options)),
      abort: () => guarded("r2", "abortMultipartUpload", () => u.abort()),
      complete: (parts: R2UploadedPart[]) => guarded("r2", "completeMultipartUpload", () => u.complete(parts)),
    }) as R2MultipartUpload;
  return {
    head: (key: string) => guarded("r2", "head", () => real.head(key)),
    get: (key: string, options?: R2GetOptions) => guarded("r2", "get", () => real.get(key, options)),
    put: (key: string, value: Parameters<R2Bucket["put"]>[1], options?: R2PutOptions) =>
      guarded("r2", "put", () => real.put(key, value, options)),
    delete: (keys: string | string[]) => guarded("r2", "delete", () => real.delete(keys)),
    list: (options?: R2ListOptions) => guarded("r2", "list", () => real.list(options)),
    createMultipartUpload: (key: string, options?: R2MultipartOptions) =>
      guarded("r2", "createMultipartUpload", async () => upload(await real.createMultipartUpload(key, options))),
    resumeMultipartUpload: (key: string, uploadId: string) => upload(real.resumeMultipartUpload(key, uploadId)),
  } as unknown as R2Bucket;
}

function guardQueue(real: Queue): Queue {
  return {
    send: (body: unknown, options?: QueueSendOptions) => guarded("queue", "send", () => real.send(body, options)),
    sendBatch: (messages: Iterable<MessageSendRequest>, options?: QueueSendBatchOptions) =>
      guarded("queue", "sendBatch", () => real.sendBatch(messages, options)),
  } as unknown as Queue;
}

/**
 * A Durable Object namespace whose stubs' calls are guarded: every method call (RPC or fetch) on a stub it hands out
 * remembers its rejection (op `RATE_LIMITER.take`, …). Ids, names and everything else pass through unchanged.
 */
function guardObjects<T extends DurableObjectNamespace>(real: T, binding: string): T {
  const stub = (s: DurableObjectStub): DurableObjectStub =>
    new Proxy(s, {
      get(target, prop) {
        const value = Reflect.get(target, prop);
        if (typeof value !== "function" || typeof prop !== "string" || prop === "then") return value;
        // Called with `this` the real stub: workerd's RPC properties refuse any other receiver.
        return (...args: unknown[]) =>
          guarded("durable_object", `${binding}.${prop}`, async () => await Reflect.apply(value, target, args));
      },
    });
  return new Proxy(real, {
    get(target, prop) {
      const value = Reflect.get(target, prop);
      if (typeof value !== "function") return value;
      if (prop === "get" || prop === "getByName")
        return (...args: unknown[]) => stub((value as (...a: unknown[]) => DurableObjectStub).apply(target, args));
      return (...args: unknown[]) => Reflect.apply(value, target, args);
    },
  });
}
