import { z } from "@hono/zod-openapi";

/**
 * The closed registry of reason codes. Every error the API answers with is one of these; each code has one
 * HTTP status, one retryability and a documentation anchor at `/docs/errors#<code>`. Codes named by SPEC keep
 * SPEC's spelling; codes of our own are `svc.<area>.<reason>`.
 */
export const ERROR_CODES = {
  "svc.request.invalid": {
    status: 422,
    retryable: false,
    summary: "The request does not match the contract: a path, query, header or body field is missing or malformed.",
  },
  "svc.request.unsupported_media_type": {
    status: 415,
    retryable: false,
    summary: "The request body's Content-Type is not one this operation accepts (JSON operations take application/json).",
  },
  "svc.request.too_large": { status: 413, retryable: false, summary: "The request body is larger than this operation accepts." },
  "svc.mcp.invalid_message": {
    status: 400,
    retryable: false,
    summary: "The MCP request is not a JSON-RPC message the server takes (the body also carries the JSON-RPC error).",
  },
  "svc.mcp.not_acceptable": {
    status: 406,
    retryable: false,
    summary: "An MCP request must accept both application/json and text/event-stream (Streamable HTTP).",
  },
  "svc.mcp.origin_refused": {
    status: 403,
    retryable: false,
    summary: "A browser page of another origin may not use the MCP endpoint (no CORS is offered).",
  },
  "svc.route.not_found": { status: 404, retryable: false, summary: "No operation exists at this method and path." },
  "svc.resource.not_found": {
    status: 404,
    retryable: false,
    summary: "The resource does not exist for this tenant. A resource of another tenant answers exactly like a missing one.",
  },
  "svc.cursor.invalid": {
    status: 422,
    retryable: false,
    summary:
      "The pagination cursor is malformed, tampered with, expired, or belongs to another tenant, collection or filter set. Start again without a cursor.",
  },
  "svc.idempotency.key_invalid": {
    status: 422,
    retryable: false,
    summary: "The Idempotency-Key header must match ^[!-~]+$ and be at most 200 characters long.",
  },
  "svc.idempotency.key_required": { status: 422, retryable: false, summary: "This operation requires an Idempotency-Key header." },
  "svc.idempotency.key_reused": {
    status: 409,
    retryable: false,
    summary: "This Idempotency-Key was already used for a different request to this operation. Use a fresh key per logical operation.",
  },
  "svc.idempotency.request_in_progress": {
    status: 409,
    retryable: true,
    summary: "A request with this Idempotency-Key is still being processed. Retry after the indicated delay with the same key.",
  },
  secret_not_replayable: {
    status: 409,
    retryable: false,
    summary:
      "The command already completed, and its one-time secret is never stored, so the response cannot be replayed. Read the resource, or start a new command with a new key.",
  },
  "svc.auth.unavailable": {
    status: 503,
    retryable: true,
    summary:
      "Credential verification is unavailable (no key pepper configured, console sessions not configured, or the identity provider's keys unreachable). Retry later.",
  },
  "svc.auth.invalid_key": {
    status: 401,
    retryable: false,
    summary: "The credential on a call that may be made without one is invalid: send a valid key, or none for the public variant.",
  },
  "svc.session.email_unverified": {
    status: 422,
    retryable: false,
    summary:
      "The console session is valid but its user has no account yet, and the token carries no verified e-mail (`email` with `email_verified: true`) to provision one with. Verify the e-mail at the identity provider and sign in again.",
  },
  "svc.session.email_conflict": {
    status: 409,
    retryable: false,
    summary:
      "Just-in-time provisioning conflicted: the session's verified e-mail already belongs to another account's user (under another identity-provider subject). Sign in with that identity, or ask the provider to change the e-mail.",
  },
  "svc.session.idp_unavailable": {
    status: 503,
    retryable: true,
    summary:
      "The identity-provider callback cannot be verified or applied: no signing secret is configured (SVC_IDP_WEBHOOK_SECRET), or personal data cannot be sealed. The provider retries.",
  },
  "svc.session.idp_signature_invalid": {
    status: 400,
    retryable: false,
    summary:
      "The identity-provider callback's idp-id, idp-timestamp or idp-signature header is missing or malformed, no signature matches the exact body, or the timestamp is more than 300 seconds from now.",
  },
  "svc.session.idp_event_invalid": { status: 400, retryable: false, summary: "The identity-provider callback's body is not UTF-8 JSON." },
  "svc.session.idp_event_unprocessable": {
    status: 422,
    retryable: false,
    summary:
      "The identity-provider callback is JSON but not a usable event: see the IdpEvent schema (type, data.subject; e-mail changes need a verified e-mail).",
  },
  "svc.session.idp_identity_conflict": {
    status: 409,
    retryable: false,
    summary:
      "The identity-provider event conflicts with the user's state: a deleted user cannot be reactivated, and an e-mail another user holds cannot be taken.",
  },
  "svc.verify.no_input": {
    status: 400,
    retryable: false,
    summary: "Nothing to verify: send a multipart `file`, or JSON with `asset_id` or `manifest_uri`.",
  },
  "svc.verify.unsupported_file_type": {
    status: 415,
    retryable: false,
    summary: "The file is not one of the reviewed formats listed by GET /v1/capabilities, so it cannot be verified.",
  },
  "svc.verify.manifest_uri_refused": {
    status: 422,
    retryable: false,
    summary:
      "The manifest URI is not allowed: it must be https on a configured manifest host, resolve to a public address, and answer without redirects to other hosts within the size and time bounds.",
  },
  "svc.verify.manifest_uri_unavailable": {
    status: 502,
    retryable: true,
    summary: "The manifest URI could not be fetched (timeout, network error, non-2xx answer or oversize body).",
  },
  "svc.ratelimit.exceeded": {
    status: 429,
    retryable: true,
    summary: "Too many verification requests: the public variant allows 10 per minute per network address; wait Retry-After seconds.",
  },
  "svc.api_keys.scope_not_grantable": {
    status: 403,
    retryable: false,
    summary: "A key can only grant scopes that the calling key holds itself.",
  },
  "svc.api_keys.already_revoked": { status: 409, retryable: false, summary: "The API key is already revoked." },
  "svc.uploads.media_type_unknown": {
    status: 422,
    retryable: false,
    summary: "The declared media type is not one of the reviewed formats listed by GET /v1/capabilities.",
  },
  "svc.uploads.media_type_unavailable": {
    status: 422,
    retryable: false,
    summary: "The declared media type is reviewed but not enabled in this deployment (see media[].availability in GET /v1/capabilities).",
  },
  "svc.uploads.too_large": {
    status: 422,
    retryable: false,
    summary: "byte_length exceeds media[].upload.maximum_bytes for this media type.",
  },
  "svc.uploads.parts_invalid": {
    status: 422,
    retryable: false,
    summary:
      "Multipart parts are inconsistent: numbered 1..n without gaps, sizes summing to byte_length, every part but the last at least 5 MiB, and on completion each part with the ETag its upload returned.",
  },
  "svc.uploads.gone": { status: 410, retryable: false, summary: "The upload was aborted or has expired. Create a new upload." },
  "svc.uploads.already_completed": { status: 409, retryable: false, summary: "The upload is already completed; its bytes are pinned." },
  "svc.uploads.bytes_missing": {
    status: 409,
    retryable: true,
    summary: "No bytes have been uploaded yet: PUT them to upload.url (or each part) first.",
  },
  "svc.uploads.length_mismatch": {
    status: 422,
    retryable: false,
    summary: "The stored bytes do not have the declared byte_length. Upload the exact bytes again.",
  },
  "svc.uploads.sha256_mismatch": {
    status: 422,
    retryable: false,
    summary: "The stored bytes do not match the declared sha256. Upload the exact bytes again.",
  },
  "svc.media.unsupported_type": { status: 422, retryable: false, summary: "The bytes are not any reviewed format." },
  "svc.media.type_mismatch": { status: 422, retryable: false, summary: "The bytes are a different format than the declared media type." },
  MEDIA_CODEC_UNSUPPORTED: {
    status: 422,
    retryable: false,
    summary:
      "The container is reviewed but its codecs are not (video/mp4 takes one H.264 8-bit 4:2:0 track and at most one AAC-LC track, non-fragmented).",
  },
  "svc.media.corrupt": { status: 422, retryable: false, summary: "The bytes are truncated or malformed." },
  "svc.storage.capability_invalid": {
    status: 403,
    retryable: false,
    summary: "The storage URL's signature does not match. Use the URL and headers exactly as returned.",
  },
  "svc.storage.capability_expired": { status: 403, retryable: false, summary: "The storage URL has expired. Request a new one." },
  "svc.storage.length_mismatch": {
    status: 422,
    retryable: false,
    summary: "The request body does not have the exact length this URL was issued for.",
  },
  "svc.storage.body_incomplete": {
    status: 400,
    retryable: false,
    summary:
      "The request body stopped before its declared length (the connection closed or the body stream failed). Nothing was stored: send the whole body again.",
  },
  "svc.storage.upload_closed": {
    status: 409,
    retryable: false,
    summary: "The upload no longer accepts bytes (completed, aborted or expired).",
  },
  "svc.sign.recipe_unknown": { status: 422, retryable: false, summary: "No recipe with this id exists (see GET /v1/recipes)." },
  "svc.sign.recipe_unavailable": {
    status: 422,
    retryable: false,
    summary: "The recipe is not available in this deployment (see GET /v1/capabilities).",
  },
  "svc.sign.media_type_not_supported": {
    status: 422,
    retryable: false,
    summary: "The recipe does not accept the asset's media type in this deployment.",
  },
  "svc.sign.option_not_applicable": {
    status: 422,
    retryable: false,
    summary:
      "A field does not apply to this recipe: watermark fields need a watermark recipe, ai_declaration a sign-only recipe, fingerprint_algorithms a fingerprinting recipe.",
  },
  "svc.sign.algorithm_not_offered": {
    status: 422,
    retryable: false,
    summary: "The algorithm is not offered for the asset's media modality.",
  },
  "svc.sign.algorithm_unavailable": {
    status: 422,
    retryable: false,
    summary: "The algorithm is offered but not available in this deployment (for example, model weights are not installed).",
  },
  "svc.sign.image_dimensions_unsupported": {
    status: 422,
    retryable: false,
    summary:
      "The image cannot carry this recipe's watermark: its shorter side is below the watermark's minimum, or it has more pixels than this deployment decodes (see GET /v1/capabilities).",
  },
  "svc.sign.creator_unknown": { status: 422, retryable: false, summary: "No enrolled creator identity has this id." },
  "svc.sign.creator_inactive": {
    status: 422,
    retryable: false,
    summary: "The creator identity is withdrawn or erased and can no longer be attributed; enrol the creator again.",
  },
  "svc.sign.asset_not_uploaded": { status: 409, retryable: false, summary: "The asset's upload is not completed." },
  "svc.sign.asset_busy": { status: 409, retryable: true, summary: "A job for this asset is still running; wait for it or cancel it." },
  "svc.sign.asset_published": { status: 409, retryable: false, summary: "The asset is already published; an asset is published once." },
  "svc.jobs.terminal": { status: 409, retryable: false, summary: "The job is already in a terminal state." },
  "svc.sign.batch_exceeds_rate_limit": {
    status: 422,
    retryable: false,
    summary:
      "The batch has more items than the key's per-minute rate limit can ever allow (a batch spends one request per item): split it into batches of at most that many items.",
  },
  "svc.sign.option_not_allowed": {
    status: 403,
    retryable: false,
    summary: "The key's signing profile does not allow this watermark algorithm, watermark strength or fingerprint algorithm.",
  },
  "svc.uploads.failed": {
    status: 409,
    retryable: false,
    summary:
      "The upload failed and cannot be completed (a multipart upload whose assembled bytes did not match what was declared spends its parts); the message names the reason code. Create a new upload.",
  },
  "svc.uploads.storage_unavailable": {
    status: 503,
    retryable: true,
    summary: "Object storage did not complete the upload; the upload is unchanged. Retry complete with the same parts.",
  },
  "svc.assets.not_published": {
    status: 409,
    retryable: true,
    summary: "The asset has no published output yet; wait for its job to complete.",
  },
  "svc.assets.preview_unavailable": {
    status: 409,
    retryable: false,
    summary: "No preview is rendered for this asset (its media type or size is outside what the preview renderer decodes).",
  },
  API_KEY_IP_NOT_ALLOWED: {
    status: 403,
    retryable: false,
    summary: "This key is restricted to client networks that do not include the caller's address.",
  },
  API_KEY_RATE_LIMITED: {
    status: 429,
    retryable: true,
    summary:
      "This key's request rate limit is reached. Wait Retry-After seconds and retry with the same Idempotency-Key; the refused request used no capacity.",
  },
  "svc.api_keys.rotation_in_progress": {
    status: 409,
    retryable: false,
    summary: "The key already has an undeployed successor: complete or cancel that rotation first.",
  },
  "svc.api_keys.no_rotation": { status: 409, retryable: false, summary: "The key has no rotation in progress." },
  "svc.api_keys.rotation_ended": {
    status: 409,
    retryable: false,
    summary:
      "The key's rotation already ended (completed, canceled, or its overlap lapsed; or its successor was revoked): nothing moves out of an ended rotation and no retired key comes back.",
  },
  "svc.api_keys.outranks_caller": {
    status: 403,
    retryable: false,
    summary:
      "The calling key does not cover the target key: a key may create, rotate, revoke or change the controls only of keys whose scopes it holds and whose restrictions are at least as tight as its own (expiry no later, IP allowlist within its own, rate limit no higher).",
  },
  "svc.api_keys.version_conflict": {
    status: 409,
    retryable: false,
    summary: "expected_version does not match the stored version: read it again and retry.",
  },
  "svc.api_keys.retention_exceeds_ceiling": {
    status: 422,
    retryable: false,
    summary: "The retention exceeds what this key may set (the tenant ceiling, or its creator key's retention).",
  },
  "svc.assets.retention_expired": {
    status: 410,
    retryable: false,
    summary: "The asset's retention has passed: its stored media were deleted; its records remain.",
  },
  "svc.sign.recipe_not_allowed": { status: 403, retryable: false, summary: "The key's signing profile does not allow this recipe." },
  "svc.resolution.invalid_request": {
    status: 400,
    retryable: false,
    summary:
      "The soft-binding resolution request is invalid (the C2PA Soft Binding Resolution API answers 400): `alg` or `value` is missing, `value` is not base64 of the algorithm's value, `maxResults` is not a positive integer, a hint is incomplete, or the manifest id is not a C2PA manifest identifier.",
  },
  "svc.resolution.algorithm_unsupported": {
    status: 400,
    retryable: false,
    summary:
      "This service does not resolve soft bindings of this algorithm; GET /v1/soft-binding-resolution/services/supportedAlgorithms lists those it does.",
  },
  "svc.resolution.query_too_long": {
    status: 414,
    retryable: false,
    summary: "The query string is too long for GET; send the query as JSON with POST /v1/soft-binding-resolution/matches/byBinding.",
  },
  "svc.resolution.unsupported_asset_type": {
    status: 415,
    retryable: false,
    summary:
      "The uploaded asset is not a media type whose soft bindings this service computes (JPEG, PNG, WebP, TIFF and AVIF images), or its bytes could not be decoded.",
  },
  "svc.resolution.credential_required": {
    status: 401,
    retryable: false,
    summary:
      "`scope=tenant` searches only the caller's own publications, so it needs an API key holding recovery:read; omit `scope` to search every published asset.",
  },
  "svc.resolution.rate_limited": {
    status: 429,
    retryable: true,
    summary:
      "Too many lookups: without a key 10 content lookups or 120 binding lookups per minute per network address; with one the tenant's per-minute limit. Wait Retry-After seconds.",
  },
  "svc.dependency.unavailable": {
    status: 503,
    retryable: true,
    summary:
      "A dependency of the service is unavailable: the database, object storage, a queue or a coordinating object (rate limiter, audit log, webhook gate) failed or did not answer, or a secret it needs is not configured. Nothing was half-done: retry after Retry-After seconds with the same Idempotency-Key.",
  },
  "svc.deployment.not_configured": {
    status: 503,
    retryable: true,
    summary:
      "This deployment lacks required configuration (a secret, or a production setting) and serves only its health probes until an operator completes it. Retry later.",
  },
  "svc.webhooks.destination_refused": {
    status: 422,
    retryable: false,
    summary:
      "The webhook URL violates the destination policy: https only, at most 2048 characters, no credentials, and neither the host nor what it resolves to may be loopback, private, link-local or metadata.",
  },
  "svc.webhooks.subscription_invalid": {
    status: 422,
    retryable: false,
    summary:
      "The subscription names an event that is not in the event catalog (exact names only; no wildcards; webhook.test cannot be subscribed to).",
  },
  "svc.webhooks.endpoint_limit": {
    status: 409,
    retryable: false,
    summary: "The tenant has the maximum number of webhook endpoints; delete one first.",
  },
  "svc.webhooks.endpoint_deleted": {
    status: 409,
    retryable: false,
    summary: "The webhook endpoint is deleted: it stays readable for its retention period and refuses every change.",
  },
  "svc.webhooks.endpoint_disabled": { status: 409, retryable: false, summary: "The webhook endpoint is disabled; enable it first." },
  "svc.webhooks.rotation_in_progress": {
    status: 409,
    retryable: false,
    summary: "A secret rotation overlap is already open; complete it before rotating again.",
  },
  "svc.webhooks.no_secret_overlap": { status: 409, retryable: false, summary: "No secret rotation overlap is open on this endpoint." },
  "svc.webhooks.delivery_in_progress": {
    status: 409,
    retryable: true,
    summary: "The delivery is still pending or in flight; replay it once it has finished.",
  },
  "svc.creators.sealing_unavailable": {
    status: 503,
    retryable: true,
    summary:
      "Personal data cannot be encrypted or decrypted now: no data master key is configured, or the tenant's data key cannot be unwrapped. Retry later.",
  },
  "svc.creators.erased": { status: 409, retryable: false, summary: "The creator identity is erased; nothing about it can change." },
  "svc.creators.audience_not_allowed": {
    status: 403,
    retryable: false,
    summary: "The operator audience of a creator disclosure is reserved to the service operator and never reachable with an API key.",
  },
  "svc.capture.trust_unavailable": {
    status: 503,
    retryable: true,
    summary: "No capture trust snapshot is configured (or it is malformed), so attestations cannot be checked. Retry later.",
  },
  "svc.capture.evidence_unavailable": {
    status: 503,
    retryable: true,
    summary: "The trust snapshot has nothing to check this attestation kind with (no roots or app keys for it). Retry later.",
  },
  "svc.capture.evidence_invalid": {
    status: 422,
    retryable: false,
    summary:
      "The attestation statement does not verify (format, signature, chain, or binding to the enrolment challenge); no identity was created.",
  },
  "svc.capture.app_untrusted": {
    status: 422,
    retryable: false,
    summary: "The attestation verifies but names an app (or signing certificate or environment) the deployment does not trust.",
  },
  "svc.capture.attestation_kind_mismatch": {
    status: 422,
    retryable: false,
    summary: "The attestation kind differs from the one the enrolment was created for.",
  },
  "svc.capture.challenge_secret_mismatch": {
    status: 422,
    retryable: false,
    summary: "The challenge secret is not the one issued with this enrolment or challenge.",
  },
  "svc.capture.enrollment_expired": {
    status: 409,
    retryable: false,
    summary: "The enrolment expired before it was completed; create a new enrolment.",
  },
  "svc.capture.enrollment_completed": {
    status: 409,
    retryable: false,
    summary: "The enrolment was already completed with a different statement; create a new enrolment.",
  },
  "svc.capture.identity_conflict": {
    status: 409,
    retryable: false,
    summary:
      "The attested key or the installation is already enrolled under another active capture identity of this tenant; revoke it first.",
  },
  "svc.capture.identity_revoked": { status: 409, retryable: false, summary: "The capture identity is revoked; enrol the device again." },
  "svc.capture.upload_object_invalid": {
    status: 422,
    retryable: false,
    summary: "upload_object_id names a stored object that is not an asset's uploaded source (an output or sidecar).",
  },
  "svc.capture.sensor_evidence_invalid": {
    status: 422,
    retryable: false,
    summary:
      "sensor_evidence and sensor_schema_version must be given together, nest at most 16 levels and stay within 65,536 characters as JSON.",
  },
  "svc.billing.insufficient_funds": {
    status: 402,
    retryable: false,
    summary:
      "The wallet's balance minus the quotes of admitted, unpublished work does not cover this job's quote. Top up (POST /v1/billing/checkout-intents) or wait for admitted work to finish; nothing was created.",
  },
  "svc.billing.monthly_limit_reached": {
    status: 402,
    retryable: false,
    summary:
      "This job's quote would pass the wallet's monthly spend limit; raise the limit or wait for the next month. Nothing was created.",
  },
  "svc.billing.not_priced": {
    status: 422,
    retryable: false,
    summary:
      "The work is outside the pricing envelope (no rate for it, or media facts the prices do not cover), so a metered tenant cannot be admitted for it.",
  },
  "svc.billing.quote_outside_envelope": {
    status: 422,
    retryable: false,
    summary:
      "The quote's media facts are missing, invalid or outside the pricing envelope (see GET /v1/billing/pricing); field_details names the field.",
  },
  "svc.billing.wallet_version_conflict": {
    status: 409,
    retryable: false,
    summary:
      "expected_version is not the wallet's current version (0 only before opting in). Read the wallet again and resend with its version.",
  },
  "svc.billing.wallet_opt_out_refused": {
    status: 409,
    retryable: false,
    summary:
      "The wallet cannot be disabled while its balance is negative or admitted work is reserved. Settle the balance or wait for the work to finish.",
  },
  "svc.billing.console_session_required": {
    status: 403,
    retryable: false,
    summary:
      "Turning auto-recharge on, or changing its threshold or amount while it is on, needs a signed-in console session; an API key may only turn it off or leave it unchanged.",
  },
  BILLING_INTENT_RATE_LIMITED: {
    status: 429,
    retryable: true,
    summary:
      "Checkout and portal intents are limited to 10 a minute per account; the refused request created nothing. Retry after Retry-After seconds.",
  },
  redirect_url_not_allowed: {
    status: 422,
    retryable: false,
    summary: "A success, cancel or return URL is not an absolute http(s) URL on one of the deployment's configured console origins.",
  },
  "svc.billing.plan_unknown": { status: 422, retryable: false, summary: "The plan is not one of GET /v1/billing/plans." },
  "svc.billing.plan_required": {
    status: 422,
    retryable: false,
    summary: "A subscription checkout with the provider needs a plan (only the simulation answers an intent without one).",
  },
  "svc.billing.wallet_not_enabled": {
    status: 409,
    retryable: false,
    summary: "Top-ups go into an opted-in wallet: enable it first with PUT /v1/billing/wallet/settings (expected_version 0).",
  },
  "svc.billing.provider_error": {
    status: 502,
    retryable: false,
    summary: "The payments provider rejected the service's credentials or answered something unusable. Nothing was charged.",
  },
  "svc.billing.provider_unavailable": {
    status: 503,
    retryable: true,
    summary: "No payments provider is configured for this deployment, or it could not be reached. Nothing was charged; retry later.",
  },
  "svc.billing.plan_not_priced": {
    status: 503,
    retryable: true,
    summary: "The plan has no price with the payments provider in this deployment, so it cannot be checked out.",
  },
  "svc.billing.signature_invalid": {
    status: 400,
    retryable: false,
    summary:
      "The Stripe-Signature header is missing, malformed, not made with a configured secret over the exact body, or its timestamp is more than 300 seconds away.",
  },
  "svc.billing.event_invalid": { status: 400, retryable: false, summary: "The signed body is not a payment event this service can read." },
  "svc.billing.identity_conflict": {
    status: 409,
    retryable: false,
    summary: "The event names a tenant, customer, session or amount that does not match the intent it references; nothing changed.",
  },
  "svc.billing.verification_unavailable": {
    status: 503,
    retryable: true,
    summary: "No payments provider or callback signing secret is configured, so callbacks cannot be verified. Retry later.",
  },
  // Governance exports (#18 part 2)
  "svc.governance.export_in_progress": {
    status: 409,
    retryable: true,
    summary: "The tenant already has an export queued or running (one at a time). Wait for it to finish, then ask again.",
  },
  "svc.governance.export_signing_unavailable": {
    status: 503,
    retryable: true,
    summary: "No signing key is configured for export manifests (the transparency log's checkpoint key), so no export can be sealed.",
  },
  // Governance (#18 part 3): deletions and legal holds
  "svc.governance.legal_hold_active": {
    status: 409,
    retryable: false,
    summary:
      "A legal hold covers the deletion's target (an account hold covers every asset); nothing was removed. The deletion is recorded as refused; ask again after the hold is released.",
  },
  "svc.governance.confirmation_mismatch": {
    status: 422,
    retryable: false,
    summary: "An account deletion must be confirmed with the tenant's own id in `confirm`; nothing was requested.",
  },
  "svc.governance.deletion_failed": {
    status: 500,
    retryable: false,
    summary: "A deletion stopped after repeated failures; what it removed so far is counted in its record. Ask again to resume.",
  },
  // Feedback (#18 part 4)
  "svc.feedback.sealing_unavailable": {
    status: 503,
    retryable: true,
    summary:
      "Feedback is stored only encrypted, and it cannot be encrypted now: no data master key is configured, or the tenant's data key cannot be unwrapped. Nothing was stored; retry later.",
  },
  // The audit log (#18)
  "svc.audit.unavailable": {
    status: 503,
    retryable: true,
    summary:
      "The audit log could not record this operation, and it is one that must not happen unrecorded (a disclosure of personal data); nothing was disclosed. Retry.",
  },
  "svc.internal": {
    status: 500,
    retryable: true,
    summary: "An unexpected error occurred. It has been logged with the request id; retry with the same Idempotency-Key.",
  },
} as const satisfies Record<string, { status: number; retryable: boolean; summary: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;
export const ERROR_CODE_LIST = Object.keys(ERROR_CODES) as ErrorCode[];

export interface FieldDetail {
  location: "path" | "query" | "header" | "body" | "cookie" | "form";
  field: string;
  code: string;
  message: string;
}

/** Thrown at the HTTP edge (routes and middleware) and turned into an `ErrorResponse` by the error mapper. */
export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message?: string,
    readonly extra: {
      fieldDetails?: FieldDetail[];
      jobReference?: JobReference | null;
      headers?: Record<string, string>;
    } = {},
  ) {
    super(message ?? ERROR_CODES[code].summary);
  }
}

export interface JobReference {
  job_id: string;
  job_url: string;
}

/** Authentication and scope failures carry only a stable `detail` (SPEC "Envelopes"). */
export class HttpProblem extends Error {
  constructor(
    readonly status: 401 | 403,
    readonly detail: string,
  ) {
    super(detail);
  }
}

/** The one body every 401 answers with, byte for byte, whatever was wrong with the credential. */
export const UNAUTHORIZED_DETAIL = "Authentication required: send a valid API key as 'Authorization: Bearer <API_KEY>'.";
export const FORBIDDEN_SCOPE_DETAIL = "The API key lacks the scope this operation requires.";
export const FORBIDDEN_UNCLASSIFIED_DETAIL = "This operation is not available to this credential.";
export const FORBIDDEN_IDENTITY_DETAIL = "The identity behind this credential is deleted or deactivated.";

export const FieldDetailSchema = z
  .object({
    location: z
      .enum(["path", "query", "header", "body", "cookie", "form"])
      .openapi({ description: "Where the offending value was sent.", example: "body" }),
    field: z.string().openapi({ description: "Dotted path of the field inside its location.", example: "scopes.0" }),
    code: z.string().openapi({ description: "Machine-readable validation issue.", example: "invalid_value" }),
    message: z.string().openapi({ description: "Human-readable explanation.", example: "Invalid option" }),
  })
  .openapi("FieldDetail");

export const ErrorResponseSchema = z
  .object({
    code: z.string().openapi({ description: "Stable reason code; branch on it, never on the message.", example: "svc.resource.not_found" }),
    message: z
      .string()
      .openapi({ description: "Human-readable explanation; may change.", example: "The resource does not exist for this tenant." }),
    request_id: z.string().openapi({
      description: "Id of this request; also sent as the X-Request-Id header. Quote it when asking for help.",
      example: "req_abcdefghij234567",
    }),
    retryable: z
      .boolean()
      .openapi({ description: "Whether retrying the same request (with the same Idempotency-Key) can succeed.", example: false }),
    documentation_url: z
      .string()
      .url()
      .openapi({ description: "Where this code is documented.", example: "https://api.example.com/docs/errors#svc.resource.not_found" }),
    field_details: z.array(FieldDetailSchema).openapi({ description: "Per-field problems for contract violations; empty otherwise." }),
    job_reference: z
      .object({
        job_id: z.string().openapi({ description: "The job this error concerns.", example: "job_abcdefghij234567" }),
        job_url: z.string().openapi({ description: "Path of the job.", example: "/v1/jobs/job_abcdefghij234567" }),
      })
      .nullable()
      .openapi({ description: "The job this error concerns, when there is one." }),
  })
  .openapi("ErrorResponse", { description: "Reason-coded error envelope." });

export const ValidationErrorResponseSchema = ErrorResponseSchema.extend({
  detail: z.string().openapi({ description: "Stable summary of the validation failure.", example: "Request validation failed." }),
}).openapi("ValidationErrorResponse", {
  description: "A contract violation (422): the reason-coded envelope plus the stable `detail` of HttpErrorResponse.",
});

export const HttpErrorResponseSchema = z
  .object({ detail: z.string().openapi({ description: "Stable description of the failure.", example: UNAUTHORIZED_DETAIL }) })
  .openapi("HttpErrorResponse", { description: "Authentication and scope failures carry only this stable detail." });

export type ErrorResponse = z.infer<typeof ErrorResponseSchema>;

export const VALIDATION_DETAIL = "Request validation failed.";

export function documentationUrl(origin: string, code: string): string {
  return `${origin}/docs/errors#${encodeURIComponent(code)}`;
}

export function errorBody(
  code: ErrorCode,
  message: string,
  ctx: { requestId: string; origin: string },
  extra: ApiError["extra"] = {},
): ErrorResponse & { detail?: string } {
  const body: ErrorResponse & { detail?: string } = {
    code,
    message,
    request_id: ctx.requestId,
    retryable: ERROR_CODES[code].retryable,
    documentation_url: documentationUrl(ctx.origin, code),
    field_details: extra.fieldDetails ?? [],
    job_reference: extra.jobReference ?? null,
  };
  if (code === "svc.request.invalid") body.detail = VALIDATION_DETAIL;
  return body;
}
