import type { Scope } from "./scopes";

/**
 * How one operation is reached. `none`: anonymous (probes, public catalogs). `bearer`: an API key holding
 * `scope`. `idempotency` marks writes that take an Idempotency-Key header; `secret_not_replayable` marks
 * writes whose response carries a one-time secret, which is never stored and so never replayed.
 * `capability`: a storage URL whose query carries an HMAC; the route checks it.
 */
export type OperationPolicy =
  | { auth: "none" }
  /** Storage locations: the signed URL itself is the authority (no API key is ever sent there). */
  | { auth: "capability" }
  /**
   * The public variant without a credential (the route applies its own anonymous limits); with one, a bearer
   * call like any other, except that a bad credential answers 401 `svc.auth.invalid_key` (SPEC "Verification").
   */
  | {
      auth: "optional_bearer";
      scope: Scope;
      /**
       * "route": the scope gates only what the route says needs it (the tenant-scoped soft-binding lookups); a
       * key without it is served what an anonymous caller would be, rather than refused.
       */
      scopeCheck?: "route";
    }
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
  "POST /dev/tsa": { auth: "none" },
  "POST /dev/ocsp": { auth: "none" },
  "POST /dev/ocsp/revocations": { auth: "none" },

  // Documentation (outside the API contract; see META_PATHS in app.ts)
  "GET /openapi.json": { auth: "none" },
  "GET /docs": { auth: "none" },
  "GET /docs/errors": { auth: "none" },
  "GET /docs/verification-statuses": { auth: "none" },
  "GET /docs/verification-statuses.json": { auth: "none" },
  "GET /verify": { auth: "none" },

  // Capabilities, recipes, identity
  "GET /v1/capabilities": { auth: "bearer", scope: "capabilities:read" },
  "GET /v1/image-profiles": { auth: "bearer", scope: "capabilities:read" },
  "GET /v1/recipes": { auth: "bearer", scope: "jobs:read" },
  "GET /v1/recipes/{recipe_id}": { auth: "bearer", scope: "jobs:read" },
  "GET /v1/me": { auth: "bearer", scope: "identity:read" },
  "GET /v1/developer-onboarding": { auth: "bearer", scope: "identity:read" },

  // Uploads
  "POST /v1/uploads": { auth: "bearer", scope: "uploads:write", idempotency: "optional" },
  "POST /v1/uploads/{upload_id}/complete": { auth: "bearer", scope: "uploads:write", idempotency: "required" },
  "POST /v1/uploads/{upload_id}/abort": { auth: "bearer", scope: "uploads:write", idempotency: "optional" },

  // Jobs
  "POST /v1/sign": { auth: "bearer", scope: "sign:write", idempotency: "required" },
  "POST /v1/sign/batch": { auth: "bearer", scope: "sign:write", idempotency: "required" },
  "GET /v1/jobs": { auth: "bearer", scope: "jobs:read" },
  "GET /v1/jobs/{job_id}": { auth: "bearer", scope: "jobs:read" },
  "POST /v1/jobs/{job_id}/cancel": { auth: "bearer", scope: "sign:write", idempotency: "required" },

  // Assets, downloads, receipts, history
  "GET /v1/assets": { auth: "bearer", scope: "assets:read" },
  "GET /v1/assets/{asset_id}": { auth: "bearer", scope: "assets:read" },
  "GET /v1/assets/{asset_id}/detail": { auth: "bearer", scope: "assets:read" },
  "POST /v1/assets/{asset_id}/download": { auth: "bearer", scope: "assets:read" },
  "POST /v1/assets/{asset_id}/preview": { auth: "bearer", scope: "assets:read" },
  "GET /v1/assets/{asset_id}/preview/{capability}": { auth: "capability" },
  "GET /v1/receipts": { auth: "bearer", scope: "assets:read" },
  "GET /v1/receipts/{receipt_id}": { auth: "bearer", scope: "assets:read" },
  "DELETE /v1/history/snapshots": { auth: "bearer", scope: "assets:read" },

  // Verification records (read side)
  "GET /v1/verification-evidence/{verification_id}": { auth: "bearer", scope: "recovery:read" },
  "GET /v1/verification-history/{verification_id}": { auth: "bearer", scope: "recovery:read" },
  "GET /v1/verifications": { auth: "bearer", scope: "recovery:read" },
  "POST /v1/verifications": { auth: "bearer", scope: "verify:write", idempotency: "required" },
  "GET /v1/verifications/{verification_id}": { auth: "bearer", scope: "recovery:read" },
  // Reports render stored evidence (a read of it); shares hand a minimal projection to whoever holds the token.
  "POST /v1/verification-evidence/{verification_id}/reports": { auth: "bearer", scope: "recovery:read", idempotency: "optional" },
  "GET /v1/verification-reports/{report_id}": { auth: "bearer", scope: "recovery:read" },
  "GET /v1/verification-evidence/{verification_id}/shares": { auth: "bearer", scope: "recovery:read" },
  "POST /v1/verification-evidence/{verification_id}/shares": {
    auth: "bearer",
    scope: "verify:write",
    idempotency: "required",
    replay: "secret_not_replayable",
  },
  "POST /v1/verification-shares/{share_id}/close": { auth: "bearer", scope: "verify:write", idempotency: "optional" },
  /** Anonymous: the share token in the path is the authority; the route checks it (one 404 for every bad token). */
  "GET /v1/shared-verifications/{token}": { auth: "none" },

  // Verification
  "POST /v1/verify": { auth: "optional_bearer", scope: "verify:write" },
  "GET /v1/verify/{manifest_id}": { auth: "bearer", scope: "recovery:read" },

  // C2PA Soft Binding Resolution API (src/soft-binding-resolution): public lookups over published assets; a key
  // holding recovery:read may narrow them to its own tenant (`scope=tenant`); any valid key may do what anyone may.
  "GET /v1/soft-binding-resolution/matches/byBinding": { auth: "optional_bearer", scope: "recovery:read", scopeCheck: "route" },
  "POST /v1/soft-binding-resolution/matches/byBinding": { auth: "optional_bearer", scope: "recovery:read", scopeCheck: "route" },
  "POST /v1/soft-binding-resolution/matches/byContent": { auth: "optional_bearer", scope: "recovery:read", scopeCheck: "route" },
  "GET /v1/soft-binding-resolution/manifests/{manifestId}": { auth: "optional_bearer", scope: "recovery:read", scopeCheck: "route" },
  "GET /v1/soft-binding-resolution/services/supportedAlgorithms": { auth: "none" },

  // Transparency log (public, read-only)
  "GET /v1/anchor/checkpoint": { auth: "none" },
  "GET /v1/anchor/checkpoints/{tree_size}": { auth: "none" },
  "GET /v1/anchor/consistency": { auth: "none" },

  // Storage capabilities (Worker-served presigned locations)
  "PUT /storage/uploads/{upload_id}": { auth: "capability" },
  "PUT /storage/uploads/{upload_id}/parts/{part_number}": { auth: "capability" },
  "GET /storage/objects/{object_id}": { auth: "capability" },

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
  "GET /v1/api-keys/{api_key_id}/restrictions": { auth: "bearer", scope: "api_keys:read" },
  "GET /v1/api-keys/{api_key_id}/retention": { auth: "bearer", scope: "api_keys:read" },
  "PUT /v1/api-keys/{api_key_id}/retention": { auth: "bearer", scope: "api_keys:write" },
  "GET /v1/api-request-logs": { auth: "bearer", scope: "api_keys:read" },
  "GET /v1/api-request-logs/summary": { auth: "bearer", scope: "api_keys:read" },
  "PUT /v1/api-keys/{api_key_id}/restrictions": { auth: "bearer", scope: "api_keys:write" },
  "GET /v1/api-keys/{api_key_id}/signing-profile": { auth: "bearer", scope: "api_keys:read" },
  "PUT /v1/api-keys/{api_key_id}/signing-profile": { auth: "bearer", scope: "api_keys:write" },
  "POST /v1/api-keys/{api_key_id}/rotate": {
    auth: "bearer",
    scope: "api_keys:write",
    idempotency: "optional",
    replay: "secret_not_replayable",
  },
  "POST /v1/api-keys/{api_key_id}/rotation/complete": { auth: "bearer", scope: "api_keys:write", idempotency: "optional" },
  "POST /v1/api-keys/{api_key_id}/rotation/cancel": { auth: "bearer", scope: "api_keys:write", idempotency: "optional" },

  // Webhook endpoints, deliveries and events
  "GET /v1/webhook-endpoints": { auth: "bearer", scope: "webhooks:read" },
  "POST /v1/webhook-endpoints": { auth: "bearer", scope: "webhooks:write", idempotency: "optional", replay: "secret_not_replayable" },
  "GET /v1/webhook-endpoints/event-catalog": { auth: "bearer", scope: "webhooks:read" },
  "GET /v1/webhook-endpoints/{endpoint_id}": { auth: "bearer", scope: "webhooks:read" },
  "PATCH /v1/webhook-endpoints/{endpoint_id}": { auth: "bearer", scope: "webhooks:write", idempotency: "optional" },
  "DELETE /v1/webhook-endpoints/{endpoint_id}": { auth: "bearer", scope: "webhooks:write", idempotency: "optional" },
  "POST /v1/webhook-endpoints/{endpoint_id}/disable": { auth: "bearer", scope: "webhooks:write", idempotency: "optional" },
  "POST /v1/webhook-endpoints/{endpoint_id}/enable": { auth: "bearer", scope: "webhooks:write", idempotency: "optional" },
  "POST /v1/webhook-endpoints/{endpoint_id}/rotate-secret": {
    auth: "bearer",
    scope: "webhooks:write",
    idempotency: "optional",
    replay: "secret_not_replayable",
  },
  "POST /v1/webhook-endpoints/{endpoint_id}/secret-overlap/complete": { auth: "bearer", scope: "webhooks:write", idempotency: "optional" },
  "POST /v1/webhook-endpoints/{endpoint_id}/test": { auth: "bearer", scope: "webhooks:write", idempotency: "optional" },
  "GET /v1/webhook-endpoints/{endpoint_id}/deliveries": { auth: "bearer", scope: "webhooks:read" },
  "GET /v1/webhook-endpoints/deliveries/{delivery_id}": { auth: "bearer", scope: "webhooks:read" },
  "GET /v1/webhook-endpoints/deliveries/{delivery_id}/attempts": { auth: "bearer", scope: "webhooks:read" },
  "POST /v1/webhook-endpoints/deliveries/{delivery_id}/replay": { auth: "bearer", scope: "webhooks:write", idempotency: "required" },
  "POST /v1/webhook-events/{event_id}/replay": { auth: "bearer", scope: "webhooks:write", idempotency: "optional" },

  // Creators: only the disclosure decrypts, so only it needs creators:disclose
  "GET /v1/creator-disclosure-policy": { auth: "bearer", scope: "creators:read" },
  "PUT /v1/creator-disclosure-policy": { auth: "bearer", scope: "creators:write" },
  "GET /v1/creator-identities": { auth: "bearer", scope: "creators:read" },
  "POST /v1/creator-identities": { auth: "bearer", scope: "creators:write", idempotency: "required" },
  "GET /v1/creator-identities/{creator_identity_id}": { auth: "bearer", scope: "creators:read" },
  "GET /v1/creator-identities/{creator_identity_id}/disclosure": { auth: "bearer", scope: "creators:disclose" },
  "POST /v1/creator-identities/{creator_identity_id}/withdraw": { auth: "bearer", scope: "creators:write", idempotency: "optional" },
};

/** `/v1/recipes/:recipe_id` (Hono) → `/v1/recipes/{recipe_id}` (OpenAPI). */
export function openApiPath(honoPath: string): string {
  return honoPath.replace(/:([A-Za-z0-9_]+)(\{[^}]*\})?/g, "{$1}");
}

export function policyFor(method: string, openapiPath: string): { key: string; policy: OperationPolicy | undefined } {
  const key = `${method.toUpperCase()} ${openapiPath}`;
  return { key, policy: OPERATION_POLICIES[key] };
}
