import type { Scope } from "./auth/scopes";

/**
 * Who is calling. Routes and domain code take a principal, never raw headers, so a console session can be
 * added later as another variant without touching them.
 * Invariant: an `api_key` principal was resolved from an active, unexpired key of an active tenant.
 */
export type Principal =
  | { kind: "anonymous" }
  | {
      kind: "api_key";
      tenantId: string;
      apiKeyId: string;
      scopes: ReadonlySet<Scope>;
      /** The key's request limit per minute (null: none), already charged once for this request. */
      rateLimitPerMinute: number | null;
      /** JSON of the key's signing profile (see api-keys/controls.ts), or null. */
      signingProfile: string | null;
      /** Days the outputs of jobs this key admits are kept (null: until deleted). */
      outputRetentionDays: number | null;
    };

export type AuthenticatedPrincipal = Extract<Principal, { kind: "api_key" }>;
