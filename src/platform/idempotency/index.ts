import type { Context, MiddlewareHandler, Next } from "hono";
import { canonicalJson } from "../../catalog/canonical-json";
import { auditInBatch } from "../audit";
import { hex } from "../bytes";
import type { AppEnv } from "../context";
import { hmacSha256 } from "../crypto";
import { ApiError } from "../errors";
import {
  type Claim,
  claimHeldGuardStatement,
  claimIdempotencyKey,
  claimInBatchStatements,
  completedByHolder,
  completeIdempotencyKey,
  completeInBatchStatement,
  type IdempotencyRow,
  type IdempotencyScope,
  isClaimNotTaken,
  releaseIdempotencyKey,
  rewriteCompletedAnswer,
  type SqlPart,
} from "./repo";

// The claim statements live in the repo; callers (sign-batch, the cron sweep, tests) keep importing them from here.
export {
  claimIdempotencyKey,
  completeIdempotencyKey,
  IDEMPOTENCY_LEASE_MS,
  IDEMPOTENCY_TTL_MS,
  type IdempotencyScope,
  isClaimLost,
  isClaimNotTaken,
  releaseIdempotencyKey,
  type SqlPart,
  sweepIdempotencyRecords,
} from "./repo";

export const IDEMPOTENCY_KEY_PATTERN = /^[!-~]+$/;
export const IDEMPOTENCY_KEY_MAX_LENGTH = 200;
/**
 * What "the same request" means: method, path, query and the body; a JSON body counts by its canonical form
 * (key order and white space do not matter), anything else by its exact bytes. Keyed (HMAC under `secret`, the
 * server's key pepper) so a stored fingerprint is no dictionary oracle for what a body held: an enrolment's
 * e-mail, for one.
 */
export async function requestFingerprint(method: string, url: URL, body: Uint8Array, secret: string): Promise<string> {
  if (body.length > 0) {
    try {
      body = new TextEncoder().encode(canonicalJson(JSON.parse(new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(body))));
    } catch {
      // not JSON: the exact bytes count
    }
  }
  const head = new TextEncoder().encode(`${method}\n${url.pathname}\n${url.search}\n`);
  const all = new Uint8Array(head.length + body.length);
  all.set(head);
  all.set(body, head.length);
  return hex(await hmacSha256(secret, all));
}

/**
 * A keyed write's completion offered to its route, for the operation's own D1 batch (#19: a D1 round trip per
 * request fewer, and the write and its completion commit together, so no crash can fall between them). The route
 * (or its service) puts `statements` in the batch that makes the change, with the answer's body computed in SQL
 * from the state the change starts from (the batch is one transaction), then hands the result to `settle`. The
 * middleware then compares what was stored with the answer the route gave: equal, it has nothing more to write;
 * different (a bug), it stores the answer given, as a completion would have.
 */
export interface BatchCompletion {
  /**
   * Completes the key with a JSON answer of the route's status whose body `body` computes, when `onlyIf` holds,
   * and keeps the write's audit entry with it (platform/audit auditInBatch): statements for the batch, in order.
   * The first fails the whole batch when this request no longer holds its claim (its lease lapsed and a retry took
   * the key over): nothing in the batch is written, and the request answers 409
   * `svc.idempotency.request_in_progress` (platform/error-mapper), as the holder's retry would be answered.
   * For an operation that claims in its batch (claimKeyInBatch) the first statements take the claim instead, and
   * fail the whole batch when the key is not free (see `recover`).
   */
  statements(d1: D1Database, answer: { body: SqlPart; onlyIf: SqlPart }): D1PreparedStatement[];
  /** The statements' results, once their batch committed (whatever the operation then answers). */
  settle(results: readonly D1Result[]): void;
  /**
   * After the batch failed with `error`: true when it failed only because the key was not free for a claim taken
   * in the batch and the key is now claimed the usual way (claimIdempotencyKey: a lapsed or expired claim taken
   * over), so the operation runs its batch once more, built anew. When another request holds or completed the key,
   * throws what answers this request instead (409, or the stored answer: IdempotentReplay). False otherwise.
   */
  recover(error: unknown): Promise<boolean>;
}

/**
 * Operations whose key is claimed in one of their own D1 batches rather than before they run (#19: one D1 round trip
 * fewer per request). Only for an operation that writes nothing before that batch commits (what it does before it
 * only reads) and whose answer carries no one-time secret: the batch is its write with its completionInBatch, or its
 * first read (claimInFirstBatch), after which it holds the key as a claim before running would. A request that ends
 * without such a batch committed claims afterwards, and a read it made unclaimed changed nothing.
 */
const claimedInBatch = new Set<string>();

/** Declares that `operationKey` ("POST /v1/…/{id}/…") claims its Idempotency-Key in its batch (see claimedInBatch). */
export function claimKeyInBatch(operationKey: string): void {
  claimedInBatch.add(operationKey);
}

/** Thrown by `recover` when the key holds another request's stored answer: the middleware answers that instead. */
export class IdempotentReplay extends ApiError {
  constructor(readonly row: IdempotencyRow) {
    // What the error mapper answers should the middleware not replace it (never expected): a retry is then replayed.
    super("svc.idempotency.request_in_progress", undefined, { headers: { "Retry-After": "1" } });
  }
}

interface Fold {
  scope: IdempotencyScope;
  /** The claim's lease, once the request holds the key. */
  lease: number;
  /** Set while the request holds no claim yet: its claim is to be taken in the operation's batch (claimedInBatch). */
  unclaimed?: { requestSha256: string };
  /** The lease the last built batch claims with (taken when that batch settles). */
  claiming?: number;
  /** The request was answered by another's claim (recover threw a conflict): nothing to store or release. */
  answeredByOther?: boolean;
  /** What the batch stored (RETURNING), once settled with a completion. */
  stored?: { status: number; contentType: string | null; body: string | null };
}

/** The requests whose key may be completed in the operation's batch (keyed by their context). */
const folds = new WeakMap<object, Fold>();

/** The answer of a key another request claimed: its stored answer replayed, or the refusal a claim before running gives. */
function answerOfOthers(claim: Exclude<Claim, { status: "claimed" }>): ApiError {
  if (claim.status === "replay") return new IdempotentReplay(claim.row);
  if (claim.reason === "key_reused") return new ApiError("svc.idempotency.key_reused");
  return new ApiError("svc.idempotency.request_in_progress", undefined, {
    headers: { "Retry-After": String(claim.retryAfterSeconds ?? 1) },
  });
}

/** A completed key's stored answer, as the replay of a request that sent the same key again. */
function replayOf(row: IdempotencyRow): Response {
  if (row.secretWithheld) throw new ApiError("secret_not_replayable");
  return new Response(row.responseBody, {
    status: row.responseStatus ?? 200,
    headers: { "content-type": row.responseContentType ?? "application/json", "idempotent-replayed": "true" },
  });
}

/**
 * The completion in the operation's batch for this request, answering `status` with JSON (what `c.json` sends);
 * undefined when the request holds no key, or its answer carries a one-time secret (whose completion must wait
 * for its audit entry: platform/audit).
 */
export function completionInBatch(c: Context<AppEnv>, status: number): BatchCompletion | undefined {
  const fold = folds.get(c);
  if (!fold) return undefined;
  // A crash after the batch leaves a completed key, whose retry is answered without running (or being audited)
  // again: the write's audit entry must be in the batch too, or nothing is folded (but a claim still to be taken
  // is taken in the batch, and the key completed after it as usual).
  const audit = auditInBatch(c, status);
  if (!audit && !fold.unclaimed) return undefined;
  let completionAt = -1;
  return {
    statements: (d1, answer) => {
      const claim = fold.unclaimed ? claimInBatchStatements(d1, fold.scope, fold.unclaimed.requestSha256, Date.now()) : undefined;
      fold.claiming = claim?.lease;
      const lease = claim?.lease ?? fold.lease;
      // The batch is one transaction: a claim taken over (or not free) fails all of it, statements before this one too.
      const first = claim ? claim.statements : [claimHeldGuardStatement(d1, fold.scope, fold.lease)];
      if (!audit) {
        completionAt = -1;
        return first;
      }
      completionAt = first.length;
      return [
        ...first,
        completeInBatchStatement(d1, fold.scope, lease, { status, contentType: "application/json", ...answer }),
        audit.statement(d1, completedByHolder(fold.scope, lease)),
      ];
    },
    settle: (results) => {
      if (fold.unclaimed && fold.claiming !== undefined) {
        // The batch committed, so its claim was taken (its guard passed).
        fold.lease = fold.claiming;
        fold.unclaimed = undefined;
      }
      if (completionAt < 0) return;
      type Stored = { response_status: number; response_content_type: string | null; response_body: string | null };
      const row = ((results[completionAt]?.results ?? []) as Stored[])[0];
      if (row) fold.stored = { status: row.response_status, contentType: row.response_content_type, body: row.response_body };
      audit?.settle(row !== undefined);
    },
    recover: (error) => recoverClaim(c, fold, error),
  };
}

/** BatchCompletion.recover, for a fold whose claim was to be taken in the failed batch. */
async function recoverClaim(c: Context<AppEnv>, fold: Fold, error: unknown): Promise<boolean> {
  if (!fold.unclaimed || !isClaimNotTaken(error)) return false;
  const claim = await claimIdempotencyKey(c.var.db, fold.scope, fold.unclaimed.requestSha256, Date.now());
  if (claim.status === "claimed") {
    fold.lease = claim.lease;
    fold.unclaimed = undefined;
    return true;
  }
  fold.answeredByOther = true;
  throw answerOfOthers(claim);
}

/** The key's claim riding on an operation's first D1 batch, one that only reads (claimInFirstBatch). */
export interface FirstBatchClaim {
  /** The claim's statements, to go first in the batch: they fail the whole batch when the key is not free. */
  statements(d1: D1Database): D1PreparedStatement[];
  /** The batch committed: the request holds the key from here on, exactly as if it had claimed before running. */
  settle(): void;
  /** As BatchCompletion.recover: true when the key is now claimed the usual way (run the batch again, unclaimed). */
  recover(error: unknown): Promise<boolean>;
}

/**
 * For an operation declared with claimKeyInBatch whose first D1 batch only reads (#19: the express sign's admission
 * read): the claim taken in that batch instead of a round trip of its own before the operation runs. The batch is
 * one transaction, so the read sees the state from which the claim was taken, as a read after a claim would; once it
 * settles, the key is completed or released as for any claimed request. Undefined when the request holds no key to
 * claim (none sent, or already claimed).
 */
export function claimInFirstBatch(c: Context<AppEnv>): FirstBatchClaim | undefined {
  const fold = folds.get(c);
  if (!fold?.unclaimed) return undefined;
  let lease: number | undefined;
  return {
    statements: (d1) => {
      if (!fold.unclaimed) return [];
      const claim = claimInBatchStatements(d1, fold.scope, fold.unclaimed.requestSha256, Date.now());
      lease = claim.lease;
      return claim.statements;
    },
    settle: () => {
      if (!fold.unclaimed || lease === undefined) return;
      fold.lease = lease;
      fold.unclaimed = undefined;
    },
    recover: (error) => recoverClaim(c, fold, error),
  };
}

/**
 * Idempotency-Key handling for write operations marked in the policy table. The key is scoped per tenant and
 * operation; the request fingerprint covers method, path, query and the exact body bytes.
 * - same key, same request, completed: the stored response is replayed (header `Idempotent-Replayed: true`);
 * - same key, different request: 409 `svc.idempotency.key_reused`;
 * - same key while the first request still runs: 409 `svc.idempotency.request_in_progress` with Retry-After;
 * - a 5xx outcome, a 429 or an error marked `retryable` releases the key, so the retry (which clients are told
 *   to send with the same key) runs the operation again instead of replaying the refusal.
 */
export const idempotency: MiddlewareHandler<AppEnv> = async (c, next) => {
  const operation = c.get("operation");
  const principal = c.get("principal");
  if (operation?.policy.auth !== "bearer" || !operation.policy.idempotency || principal.kind === "anonymous") {
    return next();
  }
  const key = c.req.header("idempotency-key");
  if (key === undefined) {
    if (operation.policy.idempotency === "required") throw new ApiError("svc.idempotency.key_required");
    return next();
  }
  if (key.length > IDEMPOTENCY_KEY_MAX_LENGTH || !IDEMPOTENCY_KEY_PATTERN.test(key)) {
    throw new ApiError("svc.idempotency.key_invalid", undefined, {
      fieldDetails: [
        {
          location: "header",
          field: "Idempotency-Key",
          code: "invalid_string",
          message: "Must match ^[!-~]+$ with at most 200 characters.",
        },
      ],
    });
  }

  // An authenticated request got here, so the pepper is configured (without it authentication answers 503).
  const fingerprint = await requestFingerprint(
    c.req.method,
    new URL(c.req.url),
    new Uint8Array(await c.req.arrayBuffer()),
    c.env.SVC_KEY_PEPPER ?? "",
  );
  const db = c.var.db;
  const scope: IdempotencyScope = { tenantId: principal.tenantId, operation: operation.key, key };
  const secretPolicy = operation.policy.replay === "secret_not_replayable";
  // An operation that claims in its batch (claimedInBatch) runs first; one whose answer holds a secret never does.
  const inBatch = claimedInBatch.has(operation.key) && !secretPolicy;
  if (!inBatch) {
    const claim = await claimIdempotencyKey(db, scope, fingerprint, Date.now());
    if (claim.status === "replay") return replayOf(claim.row);
    if (claim.status === "conflict") throw answerOfOthers(claim);
    return run(c, next, { scope, lease: claim.lease }, secretPolicy);
  }
  return run(c, next, { scope, lease: 0, unclaimed: { requestSha256: fingerprint } }, secretPolicy);
};

/** The operation under its key (held, or to be claimed in its batch), then the key completed or released. */
async function run(c: Context<AppEnv>, next: Next, fold: Fold, secretPolicy: boolean): Promise<Response | undefined> {
  const operation = c.get("operation")!;
  const db = c.var.db;
  const scope = fold.scope;
  // The audit of this write (platform/audit.ts) is appended while the key is completed or released, not before.
  const audit: NonNullable<typeof c.var.auditAppend> = { join: true };
  c.set("auditAppend", audit);
  if (!secretPolicy) folds.set(c, fold);
  try {
    await next();
  } catch (error) {
    // A key the operation's batch completed stays completed (its change committed with that answer): the release
    // below finds no claim in flight and leaves it, so a retry is answered what the change answered. A request
    // that never took its claim (claimed in its batch) has nothing to release.
    await alongside(audit.pending, fold.unclaimed ? Promise.resolve() : once(() => releaseIdempotencyKey(db, scope, fold.lease)));
    throw error;
  }
  if (c.error instanceof IdempotentReplay) {
    // Another request with this key completed it (its batch came first): its answer is this request's, as a request
    // that claimed before running would have been answered. This one changed nothing.
    await alongside(audit.pending, Promise.resolve());
    answerWith(c, replayOf(c.error.row));
    return;
  }
  if (fold.answeredByOther) {
    // Refused for another request's claim (409, as a claim before running answers): nothing of this key is ours.
    await alongside(audit.pending, Promise.resolve());
    return;
  }
  let res = c.res;
  let body = await res.clone().text();
  if (fold.unclaimed) {
    // Claimed in the batch, but no batch with the claim committed: the operation answered before its write (a read
    // found nothing, a refusal, a validation error) or failed. It changed nothing; a failure or a retryable refusal
    // leaves the key free, as a release would.
    if (res.status >= 500 || (res.status >= 400 && isRetryableError(res.status, body))) {
      await alongside(audit.pending, Promise.resolve());
      return;
    }
    // Any other answer is stored for the key as a claim before running would have stored it, unless another request
    // holds or completed the key meanwhile: that request's answer (or 409) is this one's.
    const late = await claimIdempotencyKey(db, scope, fold.unclaimed.requestSha256, Date.now());
    if (late.status !== "claimed") {
      await alongside(audit.pending, Promise.resolve());
      if (late.status === "replay") {
        answerWith(c, replayOf(late.row));
        return;
      }
      c.res = undefined; // the refusal below replaces the answer, none of its headers kept
      throw answerOfOthers(late);
    }
    fold.lease = late.lease;
    fold.unclaimed = undefined;
    res = c.res;
    body = await res.clone().text();
  }
  if (fold.stored) {
    const stored = fold.stored;
    const same = stored.status === res.status && stored.contentType === res.headers.get("content-type") && stored.body === body;
    if (same || res.status >= 500 || (res.status >= 400 && isRetryableError(res.status, body))) {
      // Stored with the change (a failure after it, e.g. a later step's, leaves the change's own answer stored).
      await alongside(audit.pending, Promise.resolve());
      return;
    }
    c.var.log.error("idempotency answer stored in the batch differs from the answer given; storing the answer given", {
      operation: operation.key,
    });
    try {
      await alongside(
        audit.pending,
        once(() =>
          rewriteCompletedAnswer(db, scope, fold.lease, { status: res.status, contentType: res.headers.get("content-type"), body }),
        ),
      );
    } catch (error) {
      c.var.log.error("idempotency completion failed", {
        operation: operation.key,
        error: error instanceof Error ? error.name : "unknown",
      });
    }
    return;
  }
  if (res.status >= 500 || (res.status >= 400 && isRetryableError(res.status, body))) {
    await alongside(
      audit.pending,
      once(() => releaseIdempotencyKey(db, scope, fold.lease)),
    );
    return;
  }
  const withhold = secretPolicy && res.status < 300;
  // A one-time secret whose audit entry could not be appended never gets here: the audit middleware answered 503
  // (platform/audit auditWrites), so its key was released above and the retry runs again.
  try {
    await alongside(
      audit.pending,
      once(() =>
        completeIdempotencyKey(db, scope, fold.lease, {
          status: res.status,
          contentType: res.headers.get("content-type"),
          body,
          withhold,
        }),
      ),
    );
  } catch (error) {
    // The operation happened and its answer is in hand: the client gets it (a 503 would hide a done write and
    // invite a second one). The key stays claimed until its lease lapses; a retry after that runs again, and the
    // creates that matter converge on what this one made (ids derived from the key, platform/idempotent-ids).
    // Except a one-time secret: a retry that converges issues that resource a new secret (it assumes nobody saw
    // the first), so this answer's secret is never shown and the client is told to retry instead.
    c.var.log.error("idempotency completion failed", { operation: operation.key, error: error instanceof Error ? error.name : "unknown" });
    if (withhold) {
      // A secret no retry can re-issue (a rotation's, a challenge's, a share's) is undone as when its audit entry
      // fails (platform/audit withdrawSecret), so the retry after the lease runs afresh and its caller holds it.
      await c.var.withdrawSecret?.().catch((err) => {
        c.var.log.error("withdrawing a withheld secret failed", { operation: operation.key, error: String(err) });
      });
      throw new ApiError("svc.dependency.unavailable", undefined, { headers: { "Retry-After": "1" } });
    }
  }
}

/** Replaces the answer given (none of its headers kept: Hono's setter would merge them into the new one). */
function answerWith(c: Context<AppEnv>, res: Response): void {
  c.res = undefined;
  c.res = res;
}

/**
 * Writes the key's outcome, once more if the first write fails (#22): a transient storage error must not leave a
 * completed write unrecorded (a retry would run it again) or a refused one still claimed (a retry would wait out
 * the lease).
 */
async function once(write: () => Promise<void>): Promise<void> {
  try {
    await write();
  } catch {
    await write();
  }
}

/** Awaits the key's write and the audit append together; the write's failure is rethrown once both settled. */
async function alongside(audit: Promise<boolean> | undefined, write: Promise<void>): Promise<void> {
  const [, written] = await Promise.allSettled([audit, write]);
  if (written.status === "rejected") throw written.reason;
}

/** A refusal the client is told to retry with the same key: 429, or an error envelope with `retryable: true`. */
function isRetryableError(status: number, body: string): boolean {
  if (status === 429) return true;
  try {
    return (JSON.parse(body) as { retryable?: unknown }).retryable === true;
  } catch {
    return false;
  }
}
