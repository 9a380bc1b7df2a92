import { and, eq, lt } from "drizzle-orm";
import type { MiddlewareHandler } from "hono";
import { canonicalJson } from "../catalog/canonical-json";
import type { Database } from "../db/client";
import { idempotencyRecords } from "../db/schema";
import type { AppEnv } from "./context";
import { sha256Hex } from "./crypto";
import { ApiError } from "./errors";

export const IDEMPOTENCY_KEY_PATTERN = /^[!-~]+$/;
export const IDEMPOTENCY_KEY_MAX_LENGTH = 200;
/** How long a completed response is replayable. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** How long an in-flight request holds its key before another attempt may take it over (a crashed isolate). */
export const IDEMPOTENCY_LEASE_MS = 60 * 1000;

type Row = typeof idempotencyRecords.$inferSelect;

export interface IdempotencyScope {
  tenantId: string;
  operation: string;
  key: string;
}

function scopeWhere(scope: IdempotencyScope) {
  return and(
    eq(idempotencyRecords.tenantId, scope.tenantId),
    eq(idempotencyRecords.operation, scope.operation),
    eq(idempotencyRecords.idempotencyKey, scope.key),
  );
}

type Claim =
  /** `lease`: the claim's locked_until, which identifies it: only its holder may complete or release the key. */
  | { status: "claimed"; lease: number }
  | { status: "replay"; row: Row }
  | { status: "conflict"; reason: "key_reused" | "in_progress"; retryAfterSeconds?: number };

/**
 * Claims (tenant, operation, key) for one request fingerprint. A claim is an `in_flight` row with a lease;
 * only the request holding it runs the operation. Expired completed rows and lapsed leases are taken over.
 */
export async function claimIdempotencyKey(db: Database, scope: IdempotencyScope, requestSha256: string, now: number): Promise<Claim> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const inserted = await db
      .insert(idempotencyRecords)
      .values({
        tenantId: scope.tenantId,
        operation: scope.operation,
        idempotencyKey: scope.key,
        requestSha256,
        state: "in_flight",
        lockedUntil: now + IDEMPOTENCY_LEASE_MS,
        createdAt: now,
        expiresAt: now + IDEMPOTENCY_TTL_MS,
      })
      .onConflictDoNothing()
      .returning({ key: idempotencyRecords.idempotencyKey });
    if (inserted.length === 1) return { status: "claimed", lease: now + IDEMPOTENCY_LEASE_MS };

    const where = scopeWhere(scope);
    const [row] = await db.select().from(idempotencyRecords).where(where).limit(1);
    if (!row) continue; // deleted between our insert and select: try again
    if (row.expiresAt <= now) {
      await db.delete(idempotencyRecords).where(and(where, eq(idempotencyRecords.expiresAt, row.expiresAt)));
      continue;
    }
    if (row.requestSha256 !== requestSha256) return { status: "conflict", reason: "key_reused" };
    if (row.state === "completed") return { status: "replay", row };
    if (row.lockedUntil > now) {
      return { status: "conflict", reason: "in_progress", retryAfterSeconds: Math.max(1, Math.ceil((row.lockedUntil - now) / 1000)) };
    }
    // The holder's lease lapsed (its isolate died): take the key over, if nobody else did first.
    const taken = await db
      .update(idempotencyRecords)
      .set({ lockedUntil: now + IDEMPOTENCY_LEASE_MS })
      .where(and(where, eq(idempotencyRecords.state, "in_flight"), eq(idempotencyRecords.lockedUntil, row.lockedUntil)))
      .returning({ key: idempotencyRecords.idempotencyKey });
    if (taken.length === 1) return { status: "claimed", lease: now + IDEMPOTENCY_LEASE_MS };
  }
  return { status: "conflict", reason: "in_progress", retryAfterSeconds: 1 };
}

/** Stores the outcome of a claimed request for replay (`withhold`: a one-time secret was in it; store none). */
/** The holder's own row: a request whose lease lapsed and was taken over must not touch the new holder's row. */
function heldWhere(scope: IdempotencyScope, lease: number) {
  return and(scopeWhere(scope), eq(idempotencyRecords.state, "in_flight"), eq(idempotencyRecords.lockedUntil, lease));
}

export async function completeIdempotencyKey(
  db: Database,
  scope: IdempotencyScope,
  lease: number,
  response: { status: number; contentType: string | null; body: string; withhold: boolean },
) {
  await db
    .update(idempotencyRecords)
    .set({
      state: "completed",
      responseStatus: response.status,
      responseContentType: response.contentType,
      responseBody: response.withhold ? null : response.body,
      secretWithheld: response.withhold,
    })
    .where(heldWhere(scope, lease));
}

/** Frees a claimed key (the request failed with a 5xx, a retryable refusal, or threw), so a retry runs the operation again. */
export async function releaseIdempotencyKey(db: Database, scope: IdempotencyScope, lease: number) {
  await db.delete(idempotencyRecords).where(heldWhere(scope, lease));
}

/**
 * What "the same request" means: method, path, query and the body; a JSON body counts by its canonical form
 * (key order and white space do not matter), anything else by its exact bytes.
 */
export async function requestFingerprint(method: string, url: URL, body: Uint8Array): Promise<string> {
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
  return sha256Hex(all);
}

/** Deletes records whose replay window has passed (run by the cron sweep). */
export async function sweepIdempotencyRecords(db: Database, now: number): Promise<void> {
  await db.delete(idempotencyRecords).where(lt(idempotencyRecords.expiresAt, now));
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
  if (operation?.policy.auth !== "bearer" || !operation.policy.idempotency || principal.kind !== "api_key") {
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

  const fingerprint = await requestFingerprint(c.req.method, new URL(c.req.url), new Uint8Array(await c.req.arrayBuffer()));
  const db = c.var.db;
  const scope: IdempotencyScope = { tenantId: principal.tenantId, operation: operation.key, key };
  const claim = await claimIdempotencyKey(db, scope, fingerprint, Date.now());

  if (claim.status === "conflict") {
    if (claim.reason === "key_reused") throw new ApiError("svc.idempotency.key_reused");
    throw new ApiError("svc.idempotency.request_in_progress", undefined, {
      headers: { "Retry-After": String(claim.retryAfterSeconds ?? 1) },
    });
  }
  if (claim.status === "replay") {
    if (claim.row.secretWithheld) throw new ApiError("secret_not_replayable");
    return new Response(claim.row.responseBody, {
      status: claim.row.responseStatus ?? 200,
      headers: {
        "content-type": claim.row.responseContentType ?? "application/json",
        "idempotent-replayed": "true",
      },
    });
  }

  try {
    await next();
  } catch (error) {
    await releaseIdempotencyKey(db, scope, claim.lease);
    throw error;
  }
  const res = c.res;
  const body = await res.clone().text();
  if (res.status >= 500 || (res.status >= 400 && isRetryableError(res.status, body))) {
    await releaseIdempotencyKey(db, scope, claim.lease);
    return;
  }
  await completeIdempotencyKey(db, scope, claim.lease, {
    status: res.status,
    contentType: res.headers.get("content-type"),
    body,
    withhold: operation.policy.replay === "secret_not_replayable" && res.status < 300,
  });
};

/** A refusal the client is told to retry with the same key: 429, or an error envelope with `retryable: true`. */
function isRetryableError(status: number, body: string): boolean {
  if (status === 429) return true;
  try {
    return (JSON.parse(body) as { retryable?: unknown }).retryable === true;
  } catch {
    return false;
  }
}
