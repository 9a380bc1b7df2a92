import type { Scope } from "./auth/scopes";

/** What every authenticated caller carries, whatever its credential. */
interface Authenticated {
  tenantId: string;
  scopes: ReadonlySet<Scope>;
  /** The key's request limit per minute (null: none), already charged once for this request. */
  rateLimitPerMinute: number | null;
  /** JSON of the key's signing profile (see api-keys/controls.ts), or null. */
  signingProfile: string | null;
  /** Days the outputs of jobs this key admits are kept (null: until deleted). */
  outputRetentionDays: number | null;
}

/**
 * Who is calling. Routes and domain code take a principal, never raw headers.
 * Invariant: an `api_key` principal was resolved from an active, unexpired key of an active tenant (and, for a key a
 * console session created, of a creating user still active); a `session` principal from a verified token of the
 * configured issuer whose user is active in an active tenant. A session acts as the account's owner: every scope,
 * no key-level rate limit, no signing profile, outputs kept until deleted.
 */
export type Principal =
  | { kind: "anonymous" }
  | ({ kind: "api_key"; apiKeyId: string } & Authenticated)
  | ({ kind: "session"; userId: string } & Authenticated);

export type AuthenticatedPrincipal = Exclude<Principal, { kind: "anonymous" }>;

/**
 * The id to attribute a caller's act to in records that name who did it (`created_by_key_id`-style columns): the
 * key's id, or the console user's id (`usr_…`) for a session. The prefix tells the two apart.
 */
export function actingIdOf(principal: AuthenticatedPrincipal): string {
  return principal.kind === "api_key" ? principal.apiKeyId : principal.userId;
}
