import type { Scope } from "./scopes";

/**
 * How one operation is reached. `none`: anonymous (probes, public catalogs). `bearer`: an API key holding
 * `scope`. `idempotency` marks writes that take an Idempotency-Key header; `secret_not_replayable` marks
 * writes whose response carries a one-time secret, which is never stored and so never replayed.
 */
export type OperationPolicy =
  | { auth: "none" }
  | {
      auth: "bearer";
      scope: Scope;
      idempotency?: "optional" | "required";
      replay?: "stored_response" | "secret_not_replayable";
    };

/**
 * The route-and-scope policy table, keyed `METHOD /path/{param}` exactly as in the OpenAPI document.
 * Invariant: an operation served by the app but missing here is denied (403) to every caller, and a test
 * checks that every documented operation has an entry. The OpenAPI `security` of each operation is
 * generated from this table, so docs and enforcement cannot disagree.
 */
export const OPERATION_POLICIES: Record<string, OperationPolicy> = {
  // Probes and public catalogs
  "GET /healthz": { auth: "none" },
  "GET /healthz/db": { auth: "none" },
  "GET /readyz": { auth: "none" },
  "GET /readyz/governance": { auth: "none" },
  "GET /v1/connect-catalog": { auth: "none" },

  // Documentation (outside the API contract; see META_PATHS in app.ts)
  "GET /openapi.json": { auth: "none" },
  "GET /docs": { auth: "none" },
  "GET /docs/errors": { auth: "none" },

  // Capabilities, recipes, identity
  "GET /v1/capabilities": { auth: "bearer", scope: "capabilities:read" },
  "GET /v1/image-profiles": { auth: "bearer", scope: "capabilities:read" },
  "GET /v1/recipes": { auth: "bearer", scope: "jobs:read" },
  "GET /v1/recipes/{recipe_id}": { auth: "bearer", scope: "jobs:read" },
  "GET /v1/me": { auth: "bearer", scope: "identity:read" },
  "GET /v1/developer-onboarding": { auth: "bearer", scope: "identity:read" },

  // API keys
  "GET /v1/api-keys": { auth: "bearer", scope: "api_keys:read" },
  "POST /v1/api-keys": {
    auth: "bearer",
    scope: "api_keys:write",
    idempotency: "optional",
    replay: "secret_not_replayable",
  },
  "GET /v1/api-keys/scopes": { auth: "bearer", scope: "api_keys:read" },
  "GET /v1/api-keys/{api_key_id}": { auth: "bearer", scope: "api_keys:read" },
  "DELETE /v1/api-keys/{api_key_id}": { auth: "bearer", scope: "api_keys:write", idempotency: "optional" },
};

/** `/v1/recipes/:recipe_id` (Hono) → `/v1/recipes/{recipe_id}` (OpenAPI). */
export function openApiPath(honoPath: string): string {
  return honoPath.replace(/:([A-Za-z0-9_]+)(\{[^}]*\})?/g, "{$1}");
}

export function policyFor(method: string, openapiPath: string): { key: string; policy: OperationPolicy | undefined } {
  const key = `${method.toUpperCase()} ${openapiPath}`;
  return { key, policy: OPERATION_POLICIES[key] };
}
