import type { MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import { type AuditDraft, actorOf, recordAudit } from "../audit";
import { knownClientAddress } from "../client-address";
import type { AppContext, AppEnv } from "../context";
import {
  ApiError,
  FORBIDDEN_IDENTITY_DETAIL,
  FORBIDDEN_SCOPE_DETAIL,
  FORBIDDEN_UNCLASSIFIED_DETAIL,
  HttpProblem,
  UNAUTHORIZED_DETAIL,
} from "../errors";
import type { AuthenticatedPrincipal } from "../principal";
import { refundRate, spendRate } from "../rate-lease";
import { ipAllowed } from "./ip-allowlist";
import { keyCache } from "./key-cache";
import type { KeyLookup } from "./key-lookup";
import { bearerKeyOf, bearerTokenOf, hashApiKeySecret, hashesEqual } from "./keys";
import { openApiPath, policyFor } from "./policy";
import { ALL_SCOPES, isScope, type Scope } from "./scopes";
import { looksLikeSessionToken, type SessionDirectory, sessionVerifier, verifySessionToken } from "./session";

/**
 * Spends `cost` requests of a key's per-minute limit: its bucket in the RateLimiter Durable Objects, through this
 * isolate's lease (rate-lease.ts: never overspent across isolates). Refused: 429 API_KEY_RATE_LIMITED with
 * Retry-After in whole seconds and the IETF RateLimit-Policy header; a refused request spends nothing.
 */
export async function chargeKeyRate(env: { RATE_LIMITER: Env["RATE_LIMITER"] }, keyId: string, perMinute: number, cost: number) {
  const decision = await spendRate(env.RATE_LIMITER, keyBucket(keyId), perMinute, cost);
  if (decision.allowed) return;
  const retryAfter = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
  throw new ApiError("API_KEY_RATE_LIMITED", `This key allows ${perMinute} requests per minute; retry in ${retryAfter} s.`, {
    headers: { "Retry-After": String(retryAfter), "RateLimit-Policy": `"key";q=${perMinute};w=60`, RateLimit: `"key";r=0;t=${retryAfter}` },
  });
}

/** Gives back `cost` requests charged by chargeKeyRate for a request that was then refused. */
export async function refundKeyRate(env: { RATE_LIMITER: Env["RATE_LIMITER"] }, keyId: string, perMinute: number, cost: number) {
  await refundRate(env.RATE_LIMITER, keyBucket(keyId), perMinute, cost);
}

/** The one bucket that counts a key's requests. */
const keyBucket = (keyId: string) => `api_key:${keyId}`;

/**
 * Operations whose refused requests (any 4xx answer) spend no unit of the key's limit: the unit charged before
 * the handler ran is given back (charge first, refund after, so concurrent requests never overspend).
 */
const REFUNDED_WHEN_REFUSED = new Set(["POST /v1/sign", "POST /v1/sign/batch"]);

/** The OpenAPI path of the handler that will answer this request, or null when no operation matches. */
function operationPathOf(c: Parameters<MiddlewareHandler<AppEnv>>[0]): string | null {
  const method = c.req.method === "HEAD" ? "GET" : c.req.method;
  const route = matchedRoutes(c).find((r) => r.method === method);
  return route ? openApiPath(route.path) : null;
}

/**
 * Resolves the caller and enforces the policy table before any handler runs; keys are read through `keys` (the
 * api-keys repo), console session users through `sessions` (the identity area), both passed in by app.ts. The kind
 * of credential is told by its shape alone (a JWT has three dot-separated segments; a key never has a dot).
 * Invariant: a handler of a bearer operation only ever runs with an authenticated principal that holds the
 * operation's scope (a delegated one: any authenticated principal); every credential failure answers the same 401 body.
 */
export const authenticate =
  (keys: KeyLookup, sessions: SessionDirectory): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    c.set("principal", { kind: "anonymous" });
    const path = operationPathOf(c);
    if (path === null) {
      c.set("operation", null);
      return next(); // no operation here: the not-found handler answers
    }
    const { key, policy } = policyFor(c.req.method === "HEAD" ? "GET" : c.req.method, path);
    if (!policy) throw new HttpProblem(403, FORBIDDEN_UNCLASSIFIED_DETAIL);
    c.set("operation", { key, policy });
    if (policy.auth === "none" || policy.auth === "capability") return next();
    // The public variant: no credential at all is anonymous; a credential that is present must be valid.
    if (policy.auth === "optional_bearer" && c.req.header("authorization") === undefined) return next();
    const unauthorized = () =>
      policy.auth === "optional_bearer"
        ? new ApiError(
            "svc.auth.invalid_key",
            "The API key is missing, malformed, expired, revoked or unknown. Send a valid key, or none for the public variant.",
          )
        : new HttpProblem(401, UNAUTHORIZED_DETAIL);

    const token = bearerTokenOf(c.req.header("authorization"));
    if (token !== null && looksLikeSessionToken(token)) {
      const principal = await authenticateSession(c, sessions, token, unauthorized);
      if (
        policy.auth !== "delegated" &&
        !principal.scopes.has(policy.scope) &&
        !(policy.auth === "optional_bearer" && policy.scopeCheck === "route")
      ) {
        const actor = actorOf(principal);
        if (actor) await auditRefusal(c, principal.tenantId, actor, "scope_missing");
        throw new HttpProblem(403, FORBIDDEN_SCOPE_DETAIL);
      }
      c.set("principal", principal);
      return next();
    }

    const pepper = c.env.SVC_KEY_PEPPER;
    if (!pepper) throw new ApiError("svc.auth.unavailable", "Credential verification is unavailable: no key pepper is configured.");

    const presented = bearerKeyOf(c.req.header("authorization"));
    // Hash even a malformed credential so the time taken does not tell malformed from unknown.
    const hash = await hashApiKeySecret(pepper, presented ?? "svc_live_malformed");
    if (!presented) throw unauthorized();

    const db = c.var.db;
    // A warm key costs the HMAC above and no D1 read (key-cache.ts states how long a change may take to be seen).
    const found = await keyCache.find(keys, db, hash);
    const now = Date.now();
    if (
      !found ||
      !hashesEqual(found.secretHash, hash) ||
      found.status !== "active" ||
      (found.expiresAt !== null && found.expiresAt <= now) ||
      // A rotated key stops at the end of its overlap even if the rotation was never completed.
      (found.rotationDeadline !== null && found.rotationDeadline <= now)
    ) {
      throw unauthorized();
    }
    const keyActor = { actorKind: "api_key" as const, actorId: found.id, credentialId: found.id };
    if (found.tenantStatus !== "active") throw new HttpProblem(403, FORBIDDEN_IDENTITY_DETAIL);
    // A key a console session created stops with its user (deactivated or deleted at the identity provider).
    if (found.creatorUserStatus !== null && found.creatorUserStatus !== "active") {
      await auditRefusal(c, found.tenantId, keyActor, "user_inactive");
      throw new HttpProblem(403, FORBIDDEN_IDENTITY_DETAIL);
    }
    // Fail closed on a usable key whose stored controls cannot be read: the fault is ours, not the caller's key, so
    // 503 (retryable) rather than the 401 that would tell its holder the key is invalid. Column names only are logged.
    if (found.controls === "unreadable") {
      c.var.log.error("api key controls unreadable", { api_key_id: found.id, columns: found.unreadable });
      throw new ApiError("svc.auth.unavailable", "Credential verification is unavailable for this key. Retry later.");
    }

    if (!ipAllowed({ ip_allowlist: found.ipAllowlist }, knownClientAddress(c.req.raw.headers, c.env))) {
      await auditRefusal(c, found.tenantId, keyActor, "ip_not_allowed");
      throw new ApiError("API_KEY_IP_NOT_ALLOWED", "This key may not be used from this network address.");
    }
    const scopes = new Set(found.scopes.filter(isScope)) as ReadonlySet<Scope>;
    const routeChecksScope = policy.auth === "delegated" || (policy.auth === "optional_bearer" && policy.scopeCheck === "route");
    if (!routeChecksScope && !scopes.has(policy.scope)) {
      await auditRefusal(c, found.tenantId, keyActor, "scope_missing");
      throw new HttpProblem(403, FORBIDDEN_SCOPE_DETAIL);
    }
    const perMinute = found.rateLimitPerMinute;
    if (perMinute !== null) await chargeKeyRate(c.env, found.id, perMinute, 1);

    c.set("principal", {
      kind: "api_key",
      tenantId: found.tenantId,
      apiKeyId: found.id,
      scopes,
      rateLimitPerMinute: perMinute,
      signingProfile: found.signingProfile,
      outputRetentionDays: found.outputRetentionDays,
    });
    // last_used_at is kept to the minute: write only when the stored value is older than that. The cached record
    // remembers the write, so an isolate writes at most once a minute per key whatever the request rate.
    if (found.lastUsedAt === null || now - found.lastUsedAt >= 60_000) {
      found.lastUsedAt = now;
      c.executionCtx.waitUntil(keys.touchLastUsed(db, found.id, now).catch(() => undefined));
    }
    await next();
    if (perMinute !== null && REFUNDED_WHEN_REFUSED.has(key) && c.res.status >= 400 && c.res.status < 500) {
      await refundKeyRate(c.env, found.id, perMinute, 1).catch(() => undefined);
    }
  };

/** A refusal of the same credential, reason and operation is audited at most once a minute per Worker instance. */
const REFUSAL_AUDIT_INTERVAL_MS = 60_000;
/** Bounds the isolate's memory of recent refusals; past it the memory starts afresh (a few more entries, never fewer). */
const REFUSAL_MEMORY_MAX = 10_000;
const recentRefusals = new Map<string, { at: number; suppressed: number }>();

/**
 * Records a refused request of a known, valid credential (a 403: scope missing, network not allowed, its user
 * deactivated or deleted) in its tenant's audit log before the refusal is answered. Unknown and invalid credentials
 * (401) name no tenant and are not audited. Refusals come before any rate limit, so a misbehaving client could
 * otherwise grow the log (which is never pruned) one entry per request: the same credential, reason and operation
 * is recorded at most once a minute per Worker instance, the next entry counting the repeats in between
 * (`detail.repeats`). A failed append is logged; the refusal stands either way.
 */
async function auditRefusal(
  c: AppContext,
  tenantId: string,
  actor: Pick<AuditDraft, "actorKind" | "actorId" | "credentialId">,
  reason: "scope_missing" | "ip_not_allowed" | "user_inactive",
) {
  const operation = c.var.operation;
  const action = operation?.key ?? `${c.req.method} ${c.req.path}`;
  const memoryKey = `${tenantId}|${actor.credentialId}|${reason}|${action}`;
  const now = Date.now();
  const seen = recentRefusals.get(memoryKey);
  if (seen && now - seen.at < REFUSAL_AUDIT_INTERVAL_MS) {
    seen.suppressed += 1;
    return;
  }
  if (recentRefusals.size >= REFUSAL_MEMORY_MAX) recentRefusals.clear();
  recentRefusals.set(memoryKey, { at: now, suppressed: 0 });
  try {
    await recordAudit(c.env, tenantId, {
      action,
      outcome: "denied",
      ...actor,
      requestId: c.var.requestId,
      targetType: null,
      targetId: null,
      statusCode: 403,
      detail: seen && seen.suppressed > 0 ? { reason, repeats: seen.suppressed } : { reason },
    });
  } catch (error) {
    c.var.log.error("audit append failed", { operation: operation?.key ?? null, error: String(error) });
  }
}

/** What a console user holds: every scope (the account's owner). Documented in scopes.ts and the OpenAPI security scheme. */
const SESSION_SCOPES: ReadonlySet<Scope> = new Set(ALL_SCOPES);

/**
 * A console session: the token verified against the configured issuer, then its user resolved (and provisioned just
 * in time) by the identity area. Every fault of the token itself answers the caller's one 401 body.
 */
async function authenticateSession(
  c: AppContext,
  sessions: SessionDirectory,
  token: string,
  unauthorized: () => Error,
): Promise<AuthenticatedPrincipal> {
  const verifier = sessionVerifier(c.env);
  if (!verifier) throw new ApiError("svc.auth.unavailable", "Credential verification is unavailable: console sessions are not configured.");
  const verified = await verifySessionToken(verifier, token);
  if (verified.status === "unavailable") {
    throw new ApiError(
      "svc.auth.unavailable",
      "Console session verification is unavailable (the identity provider's keys could not be read). Retry later.",
    );
  }
  if (verified.status === "invalid") throw unauthorized();
  const resolved = await sessions.resolve(
    { db: c.var.db, env: c.env, requestId: c.var.requestId, waitUntil: (p) => c.executionCtx.waitUntil(p) },
    verified.claims,
    Date.now(),
  );
  switch (resolved.status) {
    case "email_unverified":
      throw new ApiError("svc.session.email_unverified");
    case "email_conflict":
      throw new ApiError("svc.session.email_conflict");
    case "unavailable":
      throw new ApiError("svc.auth.unavailable", "Account provisioning is unavailable: personal data cannot be sealed. Retry later.");
    case "inactive":
      // Like a deactivated or deleted user's session; there is no account to audit the refusal in.
      throw new HttpProblem(403, FORBIDDEN_IDENTITY_DETAIL);
    case "ok":
      break;
  }
  if (resolved.tenantStatus !== "active" || resolved.userStatus !== "active") {
    if (resolved.tenantStatus === "active") {
      await auditRefusal(
        c,
        resolved.tenantId,
        { actorKind: "console_user", actorId: resolved.userId, credentialId: resolved.userId },
        "user_inactive",
      );
    }
    throw new HttpProblem(403, FORBIDDEN_IDENTITY_DETAIL);
  }
  return {
    kind: "session",
    tenantId: resolved.tenantId,
    userId: resolved.userId,
    scopes: SESSION_SCOPES,
    rateLimitPerMinute: null,
    signingProfile: null,
    outputRetentionDays: null,
  };
}
