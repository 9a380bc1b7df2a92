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
    }
  /**
   * Any valid credential, no scope of its own: the route only performs other operations of this table with the
   * same credential, and each of those checks its own scope (the MCP endpoint, whose tools are REST operations).
   */
  | { auth: "delegated" };

/** Anonymous: probes, public catalogues, documentation. */
const ANONYMOUS: OperationPolicy = Object.freeze({ auth: "none" });
/** A storage location: the signed URL is the authority. */
const CAPABILITY: OperationPolicy = Object.freeze({ auth: "capability" });

/** An API key holding `scope`; a write names whether it takes an Idempotency-Key. */
function bearer(scope: Scope, idempotency?: "optional" | "required"): OperationPolicy {
  return idempotency ? { auth: "bearer", scope, idempotency } : { auth: "bearer", scope };
}

/** A write whose response carries a one-time secret: never stored, so a replayed Idempotency-Key cannot replay it. */
function oneTimeSecret(scope: Scope, idempotency: "optional" | "required" = "optional"): OperationPolicy {
  return { auth: "bearer", scope, idempotency, replay: "secret_not_replayable" };
}

/** The public variant: anonymous without a credential, a bearer call holding `scope` with one. */
function publicOrBearer(scope: Scope): OperationPolicy {
  return { auth: "optional_bearer", scope };
}

/** Any valid credential; every operation the route performs on its behalf checks its own scope. */
const DELEGATED: OperationPolicy = Object.freeze({ auth: "delegated" });

/** Public lookups a key holding `scope` may narrow to its tenant; the route checks the scope (see scopeCheck). */
function publicOrTenant(scope: Scope): OperationPolicy {
  return { auth: "optional_bearer", scope, scopeCheck: "route" };
}

/**
 * The route-and-scope policy table, keyed `METHOD /path/{param}` exactly as in the OpenAPI document.
 * Invariant: an operation served by the app but missing here is denied (403) to every caller, and a test
 * checks that every documented operation has an entry. The OpenAPI `security` of each operation is
 * generated from this table, so docs and enforcement cannot disagree.
 */
export const OPERATION_POLICIES: Record<string, OperationPolicy> = {
  // Probes and public catalogs
  "GET /healthz": ANONYMOUS,
  "GET /healthz/db": ANONYMOUS,
  "GET /readyz": ANONYMOUS,
  "GET /readyz/governance": ANONYMOUS,
  "GET /v1/connect-catalog": ANONYMOUS,
  "POST /dev/tsa": ANONYMOUS,
  "POST /dev/ocsp": ANONYMOUS,
  "POST /dev/ocsp/revocations": ANONYMOUS,
  "GET /dev/payments/checkout/{intent_id}": ANONYMOUS,

  // Documentation (outside the API contract; see META_PATHS in app.ts)
  "GET /openapi.json": ANONYMOUS,
  "GET /docs": ANONYMOUS,
  "GET /docs/errors": ANONYMOUS,
  "GET /docs/verification-statuses": ANONYMOUS,
  "GET /docs/verification-statuses.json": ANONYMOUS,
  "GET /verify": ANONYMOUS,

  // Capabilities, recipes, identity
  "GET /v1/capabilities": bearer("capabilities:read"),
  "GET /v1/image-profiles": bearer("capabilities:read"),
  "GET /v1/recipes": bearer("jobs:read"),
  "GET /v1/recipes/{recipe_id}": bearer("jobs:read"),
  "GET /v1/me": bearer("identity:read"),
  "GET /v1/developer-onboarding": bearer("identity:read"),

  // Uploads
  "POST /v1/uploads": bearer("uploads:write", "optional"),
  "POST /v1/uploads/{upload_id}/complete": bearer("uploads:write", "required"),
  "POST /v1/uploads/{upload_id}/abort": bearer("uploads:write", "optional"),

  // Jobs
  "POST /v1/sign": bearer("sign:write", "required"),
  "POST /v1/sign/batch": bearer("sign:write", "required"),
  "GET /v1/jobs": bearer("jobs:read"),
  "GET /v1/jobs/{job_id}": bearer("jobs:read"),
  "POST /v1/jobs/{job_id}/cancel": bearer("sign:write", "required"),

  // Assets, downloads, receipts, history
  "GET /v1/assets": bearer("assets:read"),
  "GET /v1/assets/{asset_id}": bearer("assets:read"),
  "GET /v1/assets/{asset_id}/detail": bearer("assets:read"),
  "POST /v1/assets/{asset_id}/download": bearer("assets:read"),
  "POST /v1/assets/{asset_id}/preview": bearer("assets:read"),
  "GET /v1/assets/{asset_id}/preview/{capability}": CAPABILITY,
  "GET /v1/receipts": bearer("assets:read"),
  "GET /v1/receipts/{receipt_id}": bearer("assets:read"),
  "DELETE /v1/history/snapshots": bearer("assets:read"),

  // Verification records (read side)
  "GET /v1/verification-evidence/{verification_id}": bearer("recovery:read"),
  "GET /v1/verification-history/{verification_id}": bearer("recovery:read"),
  "GET /v1/verifications": bearer("recovery:read"),
  "POST /v1/verifications": bearer("verify:write", "required"),
  "GET /v1/verifications/{verification_id}": bearer("recovery:read"),
  // Reports render stored evidence (a read of it); shares hand a minimal projection to whoever holds the token.
  "POST /v1/verification-evidence/{verification_id}/reports": bearer("recovery:read", "optional"),
  "GET /v1/verification-reports/{report_id}": bearer("recovery:read"),
  "GET /v1/verification-evidence/{verification_id}/shares": bearer("recovery:read"),
  "POST /v1/verification-evidence/{verification_id}/shares": oneTimeSecret("verify:write", "required"),
  "POST /v1/verification-shares/{share_id}/close": bearer("verify:write", "optional"),
  /** Anonymous: the share token in the path is the authority; the route checks it (one 404 for every bad token). */
  "GET /v1/shared-verifications/{token}": ANONYMOUS,

  // Verification
  "POST /v1/verify": publicOrBearer("verify:write"),
  "GET /v1/verify/{manifest_id}": bearer("recovery:read"),

  // C2PA Soft Binding Resolution API (src/soft-binding-resolution): public lookups over published assets; a key
  // holding recovery:read may narrow them to its own tenant (`scope=tenant`); any valid key may do what anyone may.
  "GET /v1/soft-binding-resolution/matches/byBinding": publicOrTenant("recovery:read"),
  "POST /v1/soft-binding-resolution/matches/byBinding": publicOrTenant("recovery:read"),
  "POST /v1/soft-binding-resolution/matches/byContent": publicOrTenant("recovery:read"),
  "GET /v1/soft-binding-resolution/manifests/{manifestId}": publicOrTenant("recovery:read"),
  "GET /v1/soft-binding-resolution/services/supportedAlgorithms": ANONYMOUS,

  // Transparency log (public, read-only)
  "GET /v1/anchor/checkpoint": ANONYMOUS,
  "GET /v1/anchor/checkpoints/{tree_size}": ANONYMOUS,
  "GET /v1/anchor/consistency": ANONYMOUS,

  // Storage capabilities (Worker-served presigned locations)
  "PUT /storage/uploads/{upload_id}": CAPABILITY,
  "PUT /storage/uploads/{upload_id}/parts/{part_number}": CAPABILITY,
  "GET /storage/objects/{object_id}": CAPABILITY,

  // API keys
  "GET /v1/api-keys": bearer("api_keys:read"),
  "POST /v1/api-keys": oneTimeSecret("api_keys:write"),
  "GET /v1/api-keys/scopes": bearer("api_keys:read"),
  "GET /v1/api-keys/{api_key_id}": bearer("api_keys:read"),
  "DELETE /v1/api-keys/{api_key_id}": bearer("api_keys:write", "optional"),
  "GET /v1/api-keys/{api_key_id}/restrictions": bearer("api_keys:read"),
  "GET /v1/api-keys/{api_key_id}/retention": bearer("api_keys:read"),
  "PUT /v1/api-keys/{api_key_id}/retention": bearer("api_keys:write"),
  "GET /v1/api-request-logs": bearer("api_keys:read"),
  "GET /v1/api-request-logs/summary": bearer("api_keys:read"),
  "PUT /v1/api-keys/{api_key_id}/restrictions": bearer("api_keys:write"),
  "GET /v1/api-keys/{api_key_id}/signing-profile": bearer("api_keys:read"),
  "PUT /v1/api-keys/{api_key_id}/signing-profile": bearer("api_keys:write"),
  "POST /v1/api-keys/{api_key_id}/rotate": oneTimeSecret("api_keys:write"),
  "POST /v1/api-keys/{api_key_id}/rotation/complete": bearer("api_keys:write", "optional"),
  "POST /v1/api-keys/{api_key_id}/rotation/cancel": bearer("api_keys:write", "optional"),

  // Webhook endpoints, deliveries and events
  "GET /v1/webhook-endpoints": bearer("webhooks:read"),
  "POST /v1/webhook-endpoints": oneTimeSecret("webhooks:write"),
  "GET /v1/webhook-endpoints/event-catalog": bearer("webhooks:read"),
  "GET /v1/webhook-endpoints/{endpoint_id}": bearer("webhooks:read"),
  "PATCH /v1/webhook-endpoints/{endpoint_id}": bearer("webhooks:write", "optional"),
  "DELETE /v1/webhook-endpoints/{endpoint_id}": bearer("webhooks:write", "optional"),
  "POST /v1/webhook-endpoints/{endpoint_id}/disable": bearer("webhooks:write", "optional"),
  "POST /v1/webhook-endpoints/{endpoint_id}/enable": bearer("webhooks:write", "optional"),
  "POST /v1/webhook-endpoints/{endpoint_id}/rotate-secret": oneTimeSecret("webhooks:write"),
  "POST /v1/webhook-endpoints/{endpoint_id}/secret-overlap/complete": bearer("webhooks:write", "optional"),
  "POST /v1/webhook-endpoints/{endpoint_id}/test": bearer("webhooks:write", "optional"),
  "GET /v1/webhook-endpoints/{endpoint_id}/deliveries": bearer("webhooks:read"),
  "GET /v1/webhook-endpoints/deliveries/{delivery_id}": bearer("webhooks:read"),
  "GET /v1/webhook-endpoints/deliveries/{delivery_id}/attempts": bearer("webhooks:read"),
  "POST /v1/webhook-endpoints/deliveries/{delivery_id}/replay": bearer("webhooks:write", "required"),
  "POST /v1/webhook-events/{event_id}/replay": bearer("webhooks:write", "optional"),

  // Creators: only the disclosure decrypts, so only it needs creators:disclose
  "GET /v1/creator-disclosure-policy": bearer("creators:read"),
  "PUT /v1/creator-disclosure-policy": bearer("creators:write"),
  "GET /v1/creator-identities": bearer("creators:read"),
  "POST /v1/creator-identities": bearer("creators:write", "required"),
  "GET /v1/creator-identities/{creator_identity_id}": bearer("creators:read"),
  "GET /v1/creator-identities/{creator_identity_id}/disclosure": bearer("creators:disclose"),
  "POST /v1/creator-identities/{creator_identity_id}/withdraw": bearer("creators:write", "optional"),

  // Capture: enrolment and challenges answer one-time secrets
  "POST /v1/capture-identity-enrollments": oneTimeSecret("capture:write"),
  "GET /v1/capture-identities": bearer("capture:read"),
  "POST /v1/capture-identities": bearer("capture:write", "optional"),
  "GET /v1/capture-identities/{capture_identity_id}": bearer("capture:read"),
  "POST /v1/capture-identities/{capture_identity_id}/revoke": bearer("capture:write", "optional"),
  "POST /v1/capture-admission-challenges": oneTimeSecret("capture:write", "required"),
  "GET /v1/capture-admissions": bearer("capture:read"),
  "POST /v1/capture-admissions": bearer("capture:write", "optional"),
  "GET /v1/capture-admissions/{capture_admission_id}": bearer("capture:read"),

  // Billing and usage (#17): quotes read only (they write nothing)
  "GET /v1/billing/account": bearer("billing:read"),
  "GET /v1/billing/plans": bearer("billing:read"),
  "GET /v1/billing/pricing": bearer("billing:read"),
  "POST /v1/billing/quotes": bearer("billing:read"),
  "GET /v1/billing/wallet": bearer("billing:read"),
  "PUT /v1/billing/wallet/settings": bearer("billing:write", "optional"),
  "GET /v1/billing/charges": bearer("billing:read"),
  "GET /v1/usage": bearer("billing:read"),
  // Billing: intents (the payments callback's credential is its provider signature, checked by the route)
  "POST /v1/billing/checkout-intents": bearer("billing:write", "optional"),
  "POST /v1/billing/portal-intents": bearer("billing:write", "optional"),
  "POST /webhooks/payments": ANONYMOUS,

  // Governance (#18): the audit log
  "GET /v1/governance/audit": bearer("governance:read"),
  // Governance (#18 part 2): exports (the archive's Worker-served download: the signed URL is the authority)
  "POST /v1/governance/exports": bearer("governance:write", "optional"),
  "GET /v1/governance/exports": bearer("governance:read"),
  "GET /v1/governance/exports/{export_id}": bearer("governance:read"),
  "GET /storage/exports/{export_id}": CAPABILITY,

  // Console sessions (#18): the identity provider's lifecycle callback (its credential is the signature, checked by the route)
  "POST /webhooks/idp": ANONYMOUS,

  // Governance (#18 part 3): deletions and legal holds (holds are placed by the operator, never through the API)
  "GET /v1/governance/deletions": bearer("governance:read"),
  "POST /v1/governance/deletions": bearer("governance:delete", "optional"),
  "GET /v1/governance/deletions/{deletion_id}": bearer("governance:read"),
  "GET /v1/governance/legal-holds": bearer("governance:read"),

  // Overview and feedback (#18 part 4)
  "GET /v1/overview": bearer("overview:read"),
  "POST /v1/feedback": bearer("feedback:write", "optional"),

  // MCP (#21): any valid credential may connect; each tool's REST call, made with the same credential, checks that
  // operation's scope.
  "POST /mcp": DELEGATED,
};

/** `/v1/recipes/:recipe_id` (Hono) → `/v1/recipes/{recipe_id}` (OpenAPI). */
export function openApiPath(honoPath: string): string {
  return honoPath.replace(/:([A-Za-z0-9_]+)(\{[^}]*\})?/g, "{$1}");
}

export function policyFor(method: string, openapiPath: string): { key: string; policy: OperationPolicy | undefined } {
  const key = `${method.toUpperCase()} ${openapiPath}`;
  return { key, policy: OPERATION_POLICIES[key] };
}
