import {
  createLocalJWKSet,
  createRemoteJWKSet,
  customFetch,
  errors,
  type JSONWebKeySet,
  type JWTPayload,
  type JWTVerifyGetKey,
  jwtVerify,
} from "jose";
import type { Database } from "../../db/client";
import type { Bindings } from "../../env";
import { withFields } from "../logger";

/*
 * Console sessions (#18, SPEC "Authentication" 1, 4-6): `Authorization: Bearer <JWT>`, an OIDC ID or access token of
 * the configured identity provider. This file only verifies the token; who the user is (and just-in-time
 * provisioning) belongs to the identity area, reached through the SessionDirectory port handed in by app.ts.
 */

const log = withFields({ component: "session-auth" });

/** Only asymmetric algorithms: never `none`, never HS* (a shared secret would let anyone holding it mint sessions). */
export const SESSION_ALGORITHMS = ["RS256", "ES256", "EdDSA"] as const;
/** Seconds of clock skew allowed on `exp`, `nbf` and `iat`. */
export const SESSION_CLOCK_TOLERANCE_SECONDS = 30;
/** Longest token considered (a JWT is a few KiB at most); anything longer is refused unparsed. */
export const SESSION_TOKEN_MAX_LENGTH = 8192;

/** Three base64url segments: what a JWT looks like. An API key (`svc_live_…`, no dots) never does. */
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/** Whether a bearer credential is a session token by shape alone, before any lookup. */
export function looksLikeSessionToken(token: string): boolean {
  return token.length <= SESSION_TOKEN_MAX_LENGTH && JWT_SHAPE.test(token);
}

/** The settings session verification reads (see env.ts). */
export interface SessionSettings {
  SVC_SESSION_ISSUER?: string;
  SVC_SESSION_AUDIENCE?: string;
  SVC_SESSION_JWKS?: string;
  SVC_SESSION_JWKS_URL?: string;
}

/**
 * A usable session configuration. Invariant: `issuer` and every `audiences` entry are non-empty, and `keys` resolves
 * a token's key from exactly one configured source (the inline JWKS wins over the URL when both are set).
 */
export interface SessionVerifier {
  issuer: string;
  audiences: string[];
  keys: JWTVerifyGetKey;
}

const verifiers = new Map<string, SessionVerifier | null>();

/**
 * The verifier of this environment, or null when session verification is not configured (then a session token
 * answers 503). Cached per isolate and per configuration, so the remote key set's cache (and its bounded refetch
 * of an unknown `kid`: at most once per cooldown) lives across requests.
 */
export function sessionVerifier(env: SessionSettings): SessionVerifier | null {
  const issuer = env.SVC_SESSION_ISSUER?.trim() ?? "";
  const audiences = (env.SVC_SESSION_AUDIENCE ?? "")
    .split(",")
    .map((a) => a.trim())
    .filter(Boolean);
  const inline = env.SVC_SESSION_JWKS?.trim() ?? "";
  const url = env.SVC_SESSION_JWKS_URL?.trim() ?? "";
  if (!issuer || audiences.length === 0 || (!inline && !url)) return null;
  const cacheKey = JSON.stringify([issuer, audiences, inline, url]);
  if (verifiers.has(cacheKey)) return verifiers.get(cacheKey) ?? null;
  const keys = inline ? localKeys(inline) : remoteKeys(url);
  const verifier = keys ? { issuer, audiences, keys } : null;
  if (verifiers.size > 8) verifiers.clear(); // a handful of configurations per isolate at most (tests swap them)
  verifiers.set(cacheKey, verifier);
  return verifier;
}

function localKeys(text: string): JWTVerifyGetKey | null {
  try {
    const jwks = JSON.parse(text) as JSONWebKeySet;
    if (!Array.isArray(jwks?.keys)) throw new Error("no keys array");
    // Private members are never accepted as verification keys: a JWKS with `d` is a configuration mistake.
    if (jwks.keys.some((k) => typeof k !== "object" || k === null || "d" in k || k.kty === "oct")) throw new Error("not public keys");
    return createLocalJWKSet(jwks);
  } catch {
    log.error("SVC_SESSION_JWKS is malformed: console sessions cannot be verified");
    return null;
  }
}

function remoteKeys(text: string): JWTVerifyGetKey | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    url = new URL("invalid:");
  }
  if (url.protocol !== "https:") {
    log.error("SVC_SESSION_JWKS_URL must be an https URL: console sessions cannot be verified");
    return null;
  }
  return remoteKeySet(url);
}

/** Seconds between refetches of the remote key set for an unknown `kid` (bounds what unknown kids can make us fetch). */
export const JWKS_REFETCH_COOLDOWN_MS = 30_000;

/**
 * Milliseconds after a failed fetch of the remote key set during which no new fetch is tried: requests that need one
 * answer unavailable (503) at once, so an issuer outage costs one fetch per backoff, not one per request.
 */
export const JWKS_FAILURE_BACKOFF_MS = 5_000;

/** The remote key set could not be read (network, timeout, non-200, redirect, not JSON, not a key set): our fault. */
export class KeySetUnavailable extends Error {
  override name = "KeySetUnavailable";
}

/**
 * Errors a remote key-set fetch raises, as opposed to a token's own faults. jose 6 reports a non-200 answer (a
 * redirect included: it does not follow them) and a non-JSON body as a plain JOSEError (ERR_JOSE_GENERIC), which
 * nothing token-related raises; network failures are not JOSE errors at all.
 */
function isFetchFailure(err: unknown): boolean {
  if (!(err instanceof errors.JOSEError)) return true;
  return err instanceof errors.JWKSTimeout || err instanceof errors.JWKSInvalid || err.code === errors.JOSEError.code;
}

/**
 * The issuer's key set fetched from `url`: jose caches it (10 minutes), refetches when a token names an unknown
 * `kid` (the issuer rotated) at most once per cooldown, and times out slow answers. Invariant: after a failed fetch
 * no fetch happens for JWKS_FAILURE_BACKOFF_MS; meanwhile tokens verify against the keys still fresh in the cache
 * (an unknown kid is then simply unknown) or, with none, fail as KeySetUnavailable. `fetchImpl`: tests only.
 */
export function remoteKeySet(url: URL, fetchImpl?: typeof fetch): JWTVerifyGetKey {
  const remote = createRemoteJWKSet(url, {
    timeoutDuration: 5000,
    cooldownDuration: JWKS_REFETCH_COOLDOWN_MS,
    cacheMaxAge: 600_000,
    ...(fetchImpl ? { [customFetch]: fetchImpl } : {}),
  });
  let failedAt = Number.NEGATIVE_INFINITY;
  // The cached keys as a local set, used only during the backoff (jose's own set would refetch for an unknown kid).
  let backoffKeys: { text: string; keys: JWTVerifyGetKey } | null = null;
  return async (header, token) => {
    if (Date.now() < failedAt + JWKS_FAILURE_BACKOFF_MS) {
      const jwks = remote.fresh ? remote.jwks() : undefined;
      if (!jwks) throw new KeySetUnavailable("the key set could not be fetched recently");
      const text = JSON.stringify(jwks);
      if (backoffKeys?.text !== text) backoffKeys = { text, keys: createLocalJWKSet(jwks) };
      return backoffKeys.keys(header, token);
    }
    try {
      return await remote(header, token);
    } catch (err) {
      if (!isFetchFailure(err)) throw err;
      failedAt = Date.now();
      throw new KeySetUnavailable("the key set could not be fetched", { cause: err });
    }
  };
}

/** What a verified token says about its holder. Invariant: from a token whose signature, issuer, audience and times checked. */
export interface SessionClaims {
  issuer: string;
  subject: string;
  /** The token's `email`, or null when absent or not a plausible address. */
  email: string | null;
  /** True only for `email_verified: true` (a string "true" is not a verified e-mail). */
  emailVerified: boolean;
}

export type SessionVerification = { status: "valid"; claims: SessionClaims } | { status: "invalid" } | { status: "unavailable" };

/**
 * Verifies a session token. `invalid` for anything wrong with the token itself (signature, unknown key, algorithm,
 * issuer, audience, expiry, claims); `unavailable` when the fault is ours (the key set could not be fetched).
 */
export async function verifySessionToken(verifier: SessionVerifier, token: string, nowMs = Date.now()): Promise<SessionVerification> {
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, verifier.keys, {
      issuer: verifier.issuer,
      audience: verifier.audiences,
      algorithms: [...SESSION_ALGORITHMS],
      clockTolerance: SESSION_CLOCK_TOLERANCE_SECONDS,
      requiredClaims: ["exp", "sub"],
      currentDate: new Date(nowMs),
    }));
  } catch (err) {
    // Only the key set's reading fails this way (remoteKeySet); a local key set never fetches.
    if (err instanceof KeySetUnavailable || isFetchFailure(err)) {
      log.error("session key set unavailable", { error: err instanceof Error ? err.name : "unknown" });
      return { status: "unavailable" };
    }
    return { status: "invalid" };
  }
  const subject = payload.sub;
  if (typeof subject !== "string" || subject.length === 0 || subject.length > 255) return { status: "invalid" };
  const email = typeof payload.email === "string" && plausibleEmail(payload.email) ? payload.email : null;
  return {
    status: "valid",
    claims: { issuer: verifier.issuer, subject, email, emailVerified: email !== null && payload.email_verified === true },
  };
}

function plausibleEmail(value: string): boolean {
  return value.length <= 320 && /^[^\s@]+@[^\s@]+$/.test(value);
}

/** How the identity area resolved a verified session to a user. */
export type SessionResolution =
  | { status: "ok"; tenantId: string; userId: string; tenantStatus: string; userStatus: string }
  /** No user yet and the token carries no verified e-mail to provision one with (422). */
  | { status: "email_unverified" }
  /** No user yet and the verified e-mail already belongs to another account's user (409). */
  | { status: "email_conflict" }
  /** No user yet, and the identity provider already deactivated or deleted the subject: nothing provisioned (403). */
  | { status: "inactive" }
  /** Provisioning needs sealing (SVC_DATA_MASTER_KEYS) and it is unavailable (503). */
  | { status: "unavailable" };

/**
 * The port authentication resolves session users through (implemented by the identity area, handed in by app.ts).
 * Invariant: `resolve` returns the one user of (issuer, subject) whatever its status, provisioning an account and
 * user just in time only when none exists, the provider sent no deactivation or deletion of the subject, and the
 * claims carry a verified e-mail no other user holds.
 */
export interface SessionDirectory {
  resolve(
    context: { db: Database; env: Bindings; requestId: string; waitUntil: (p: Promise<unknown>) => void },
    claims: SessionClaims,
    now: number,
  ): Promise<SessionResolution>;
}
