/**
 * Generated from the svc production OpenAPI document (/openapi.json) by `npm run client:generate`.
 * Do not edit: CI regenerates it (test/node/project/client-types-drift.test.ts) and fails on any difference.
 */

export interface paths {
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness
         * @description 200 whenever the Worker answers. Probes no dependency.
         */
        get: operations["getHealthz"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthz/db": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Database connectivity
         * @description Runs one trivial D1 query bounded to 2 seconds.
         */
        get: operations["getHealthzDb"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/mcp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * MCP server (Streamable HTTP)
         * @description The Model Context Protocol endpoint for AI agents: JSON-RPC 2.0 over Streamable HTTP, stateless (no `Mcp-Session-Id`; every POST stands alone; GET and DELETE answer 405). Send `Accept: application/json, text/event-stream` and `Content-Type: application/json`; answers are JSON. Requires an API key (`Authorization: Bearer <key>`); without one the answer is 401 as for every keyed operation. Any valid key may connect and list the tools; each tool calls one REST operation with the same key, so that operation's scope, tenant isolation, validation and rate limit apply (a refused call is a tool result with `isError` carrying the contract's error body). Tools: `get_capabilities` (capabilities:read), `verify_media` (verify:write), `get_verification` (recovery:read), `list_recipes` (jobs:read), `upload_file` (uploads:write), `sign_asset` (sign:write), `get_job` (jobs:read), `list_assets` (assets:read). Requests from a browser page (an `Origin` header) are refused (403) unless it is the configured public origin (`SVC_PUBLIC_BASE_URL`; never the request's own Host, which a DNS-rebinding page chooses); bodies are limited to 4259840 bytes. Each tool call spends one request of the key's rate limit for the POST /mcp and one for the operation it makes.
         */
        post: operations["mcp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness
         * @description 200 when D1 answers and the deployment is completely configured (required secrets present; in production also the signing credentials and no development material); otherwise 503 with a bounded body that names no dependency.
         */
        get: operations["getReadyz"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz/governance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Governance readiness
         * @description Readiness of the governance authorities, each from a real check: `capture_authority` (capture trust is configured and trusts at least one attestation kind), `commercial_authority` (a payments adapter is composed; for Stripe, Stripe answers an authenticated read with its key, checked at most once a minute; the development simulation counts), `derived_index_reconciler` (the soft-binding index reconciler succeeded within the last 15 minutes; it runs with every 5-minute cron). 200 when all are true, otherwise 503; both carry the same body, so the false field names what is missing.
         */
        get: operations["getReadyzGovernance"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/storage/exports/{export_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download an export's archive (presigned)
         * @description The `download.url` of a completed export (development only). GET it before it expires; check it against `archive_sha256`.
         */
        get: operations["getExportArchive"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/storage/objects/{object_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download an object (presigned)
         * @description The `url` of a download or sidecar manifest. GET it with exactly the returned headers before it expires; check the bytes against `sha256` and `byte_length`.
         */
        get: operations["getObjectContent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/storage/uploads/{upload_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Send an upload's bytes (presigned)
         * @description The `upload.url` of a single upload. Send exactly the declared bytes with the returned headers; no API key. Answers 200 with an ETag header.
         */
        put: operations["putUploadContent"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/storage/uploads/{upload_id}/parts/{part_number}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Send one part of a multipart upload (presigned)
         * @description A `parts[].url` of a multipart upload. Keep the ETag header of the answer and send it back on complete.
         */
        put: operations["putUploadPart"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/anchor/checkpoint": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Latest signed checkpoint
         * @description The newest signed tree head of the manifest transparency log. Public; receipts carry inclusion proofs against checkpoints like this one.
         */
        get: operations["getAnchorCheckpoint"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/anchor/checkpoints/{tree_size}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A signed checkpoint by tree size */
        get: operations["getAnchorCheckpointBySize"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/anchor/consistency": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Consistency proof between two checkpoints
         * @description RFC 6962 §2.1.2 proof that the tree of `second` entries extends the tree of `first` entries (both sealed checkpoints).
         */
        get: operations["getAnchorConsistency"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List API keys
         * @description The tenant's keys, newest first, revoked ones included. Secrets are never listed. Snapshot-consistent cursor pagination.
         */
        get: operations["listApiKeys"];
        put?: never;
        /**
         * Create an API key
         * @description Issues a key with a subset of the calling key's scopes. The secret is returned once and only its peppered hash is stored, so replaying the same Idempotency-Key after completion answers 409 `secret_not_replayable`.
         */
        post: operations["createApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api-keys/{api_key_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get an API key */
        get: operations["getApiKey"];
        put?: never;
        post?: never;
        /**
         * Revoke an API key
         * @description Revokes the key: its next request answers 401 (every Worker instance refuses it within 15 seconds, the key cache's bound). The record stays readable with status `revoked`. Keys this key created are separate keys and stay as they are. While the key's rotation overlaps, revoke is refused: complete the rotation (retires this key, keeps the successor) or cancel it (revokes the successor) first.
         */
        delete: operations["revokeApiKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api-keys/{api_key_id}/restrictions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a key's restrictions */
        get: operations["getApiKeyRestrictions"];
        /**
         * Replace a key's restrictions
         * @description A versioned IP allowlist (requests from elsewhere answer 403 `API_KEY_IP_NOT_ALLOWED`; the client address is CF-Connecting-IP where the deployment trusts it, SVC_TRUST_CF_CONNECTING_IP; with no known address an allowlisted key is refused) and a request rate limit enforced by Durable Objects (429 `API_KEY_RATE_LIMITED` with Retry-After and RateLimit-Policy). Both apply from the key's next request, everywhere within 15 seconds (the key cache's bound). One instance is refused exactly at the limit; across instances a minute may admit at most one lease more per other instance holding one (a 20th of the limit, at most 16 requests), the price of not calling the object on every request.
         */
        put: operations["putApiKeyRestrictions"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api-keys/{api_key_id}/retention": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a key's output retention */
        get: operations["getApiKeyRetention"];
        /**
         * Replace a key's output retention
         * @description Applies to jobs admitted from now on (admitted jobs keep theirs): their published outputs (signed file, sidecar, preview) and the uploaded source are deleted that many days after publication, and the asset becomes `retention_expired`; records and receipts stay. Bounded by the tenant ceiling and, for a key created by another key, by what the creator keeps.
         */
        put: operations["putApiKeyRetention"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api-keys/{api_key_id}/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Begin a key rotation
         * @description Issues a successor with the same scopes, restrictions and signing profile, and shows its secret once. Both secrets work until the overlap ends; complete retires the old key, cancel revokes the successor (each effective everywhere within 15 seconds, the key cache's bound). A replayed Idempotency-Key answers 409 `secret_not_replayable`.
         */
        post: operations["rotateApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api-keys/{api_key_id}/rotation/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a rotation (revoke the successor)
         * @description Call on the outgoing key: the undeployed successor is revoked and the outgoing key works as before.
         */
        post: operations["cancelApiKeyRotation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api-keys/{api_key_id}/rotation/complete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Complete a rotation (retire the old key)
         * @description Call on the outgoing key once the successor is deployed: the outgoing key stops working at once.
         */
        post: operations["completeApiKeyRotation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api-keys/{api_key_id}/signing-profile": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a key's signing profile */
        get: operations["getApiKeySigningProfile"];
        /**
         * Replace a key's signing profile
         * @description Signing defaults and allowed sets for POST /v1/sign with this key (recipe; watermark algorithm and strength; fingerprint set), effective from its next sign; admitted jobs keep what they were admitted with. The body replaces the whole profile: an omitted field is reset (null: the system default, or any). Defaults fill what a sign request leaves out, where the recipe uses them; allowed sets also bound what a request names (403 `svc.sign.option_not_allowed`, `svc.sign.recipe_not_allowed`). Algorithms are checked against the capability registry: unknown names answer 422 `svc.request.invalid`, a default this deployment cannot run answers 422 `svc.sign.algorithm_unavailable`.
         */
        put: operations["putApiKeySigningProfile"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api-keys/scopes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Scope vocabulary
         * @description Every scope a key can hold, with what it allows.
         */
        get: operations["listApiKeyScopes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api-request-logs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Recent requests of the tenant's keys
         * @description Metadata only (never bodies, headers or secrets), newest first, kept 30 days, best effort: a request whose log write failed is simply absent. Requests refused before a key was recognised (401, 429) are not logged.
         */
        get: operations["listApiRequestLogs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api-request-logs/summary": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Summary of recent requests
         * @description Counts over the logged requests since `since` (default: 24 hours ago), by status class and by operation.
         */
        get: operations["getApiRequestLogSummary"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/assets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List assets
         * @description The tenant's assets, newest first, with filters; snapshot-consistent, with the total matching the filters in the snapshot.
         */
        get: operations["listAssets"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/assets/{asset_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get an asset */
        get: operations["getAsset"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/assets/{asset_id}/detail": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Asset detail
         * @description The asset with what can be done next, its activity and its verification history; the two lists page independently.
         */
        get: operations["getAssetDetail"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/assets/{asset_id}/download": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Get a download capability
         * @description A new short-lived capability per call for the published bytes (and, for sidecar formats, the .c2pa manifest store). GET `url` with exactly `headers`, without the API key, before `expires_at`; check the bytes against `sha256` and `byte_length`. Store a sidecar as `sidecar_manifest.filename` next to the file: the manifest proves nothing without the bytes it binds.
         */
        post: operations["downloadAsset"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/assets/{asset_id}/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Get a preview capability
         * @description A JPEG preview of the published image (at most 512 px on its longest edge). Every call mints a new credential-bearing URL; responses are not cacheable. Rendered for JPEG and PNG images up to 12 MP.
         */
        post: operations["createAssetPreview"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/assets/{asset_id}/preview/{capability}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Redeem a preview capability
         * @description Anonymous: the capability is the credential. Serves the JPEG while the capability is unexpired and the asset still has the publication it was minted for. A malformed, expired, withdrawn, tenant-mismatched or superseded capability answers one identical 404.
         */
        get: operations["getAssetPreview"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/billing/account": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the billing account
         * @description The tenant's plan, status, caps and periods. The account is created with the default plan (`payg`) on first read. `current_service_period_*` is the UTC calendar month usage and month-to-date spend count. `portal_available` is true only when a sandbox or live payments provider is configured and the account has a provider customer.
         */
        get: operations["getBillingAccount"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/billing/charges": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List charges
         * @description The tenant's charges, newest first: one per published job whose reservation was settled from the wallet, with its priced lines. `before` is the opaque `next_before` of the previous page (HMAC-bound to this tenant and list, valid 24 hours; snapshot-consistent: charges settled after the first page are not included). An unusable `before` answers 422 `svc.cursor.invalid`.
         */
        get: operations["listBillingCharges"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/billing/checkout-intents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a checkout (subscription or wallet top-up)
         * @description Creates a hosted checkout with the configured payments provider and answers where to send the customer. Nothing is charged here: the wallet is credited (or the plan changed) only when the provider's signed callback reaches POST /webhooks/payments. A top-up needs an opted-in, enabled wallet (409 `svc.billing.wallet_not_enabled`). Checkout and portal intents together are limited to 10 a minute per account (429 `BILLING_INTENT_RATE_LIMITED` with Retry-After; the refused request creates nothing). In `simulation` mode (development) `url` is a local page whose button completes the checkout through the same callback path.
         */
        post: operations["createBillingCheckoutIntent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/billing/plans": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List plans
         * @description The published plans and the pricing version in force. Answered from published data: no payments provider is called. `provider_mode` is null when no payments provider is configured (SVC_PAYMENTS_MODE unset outside development).
         */
        get: operations["listBillingPlans"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/billing/portal-intents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Open the provider's billing portal
         * @description Creates a billing-portal session (payment methods, invoices, subscription) for the account's provider customer, provisioning the customer on first use. Counts toward the same 10-a-minute limit as checkout intents. In `simulation` mode there is no portal: `url` is null and `actionable` false.
         */
        post: operations["createBillingPortalIntent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/billing/pricing": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get pricing
         * @description The rates in force per media family, operation and unit (file, megapixel, second), the fingerprint-set-change line and the pricing envelope. A change of prices is a new `pricing_version`, never an edit of a published one. Work is metered only after the tenant opts in (`activation`).
         */
        get: operations["getBillingPricing"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/billing/quotes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Quote a piece of work
         * @description Prices one piece of work from its media facts under the pricing in force. An estimate only: the charge is priced from the server's own inspection of the uploaded bytes, and excludes subscription, storage, egress and tax. Nothing is written (no payment, reservation or ledger row). `duration_seconds` and `frames_per_second` may be JSON numbers or decimal strings (read exactly). 422 `svc.billing.quote_outside_envelope` when a needed fact is missing or invalid, the pair has no price (e.g. `live`), or the facts are outside the envelope; `field_details` names the field.
         */
        post: operations["createBillingQuote"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/billing/wallet": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the prepaid wallet
         * @description Balance, reserved amount (quotes of admitted, unpublished work), month-to-date spend, limits, auto-recharge and the latest 20 balance movements (top-ups, refunds, disputes, adjustments and charges), newest first. Before the tenant opted in: the wallet as it would be (`enabled` false, zero amounts, `version` 0); opt in with PUT /v1/billing/wallet/settings and `expected_version` 0.
         */
        get: operations["getBillingWallet"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/billing/wallet/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Change the wallet settings (or opt in)
         * @description Optimistic: `expected_version` must equal the wallet's `version` (409 `svc.billing.wallet_version_conflict` otherwise); each change bumps it. `expected_version` 0 opts in: it creates the wallet (version 1, zero balance) with the given settings, after which the tenant's work is metered while `enabled`. `enabled` false opts out, refused with 409 `svc.billing.wallet_opt_out_refused` while the balance is negative or work is reserved. `monthly_spend_limit_usd`: whole cents, null for none, absent to leave it. Auto-recharge: turning it on, or changing its threshold or amount while on, needs a signed-in console session (403 `svc.billing.console_session_required`); an API key may only turn it off or leave it unchanged. Amounts while on: threshold 0.00–10000.00, amount 10.00–10000.00, whole cents (422 otherwise). Answers the wallet.
         */
        put: operations["putBillingWalletSettings"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/capabilities": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Capability discovery
         * @description The authority for what this deployment accepts now: formats, recipes, watermark and fingerprint algorithms, each with its availability.
         */
        get: operations["getCapabilities"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/capture-admission-challenges": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Issue a capture admission challenge
         * @description Issues a single-use challenge for one active capture identity: the app binds the evidence of its next admission to the secret's 32 decoded bytes. `challenge_secret` is returned only here, once (only its SHA-256 is stored; a retried Idempotency-Key answers 409 `secret_not_replayable`); it expires after 10 minutes. Idempotency-Key is required. A revoked identity answers 409 `svc.capture.identity_revoked`; an unknown one (or another tenant's) 404.
         */
        post: operations["createCaptureAdmissionChallenge"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/capture-admissions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List capture admissions
         * @description The tenant's admission decisions, newest first, optionally filtered by decision, identity and decision time (both bounds inclusive). Snapshot-consistent cursor pagination; a cursor is bound to its filters.
         */
        get: operations["listCaptureAdmissions"];
        put?: never;
        /**
         * Submit a capture for admission
         * @description Verifies the device's evidence for one captured upload and runs the admission gates in their fixed order (see `reason`). A **pass** creates the signing job (`job_id`, asynchronous, within the calling key's signing profile: `rcp_system_sign` where available, else `rcp_system_sign_only` or the format's sidecar recipe; none allowed or available → `capture_work_unavailable`; the manifest carries an `svc.capture` assertion naming the provider class, verifier, trust and policy versions and the attested media SHA-256) and consumes the challenge, in one transaction. A **reject** creates no job; it consumes the challenge when the challenge itself was right (the identity's own, unused, unexpired, secret matching). Both are terminal and stored: **201**. The same submission again (every member, the same secret and statement) answers **200** with the identical stored decision, whatever changed since; anything else reusing a consumed challenge is a new submission rejected with `request_mismatch`. 404: unknown `capture_identity_id` or `upload_object_id` (or another tenant's). 422 `svc.capture.upload_object_invalid` (the object is an output, not an upload), `svc.capture.sensor_evidence_invalid`. 503 `svc.capture.trust_unavailable`. `commercial_rejected`: the tenant is metered by the prepaid wallet and the capture's signing job does not fit it (balance minus reserved, monthly limit) or has no price; a pass reserves the job's quote in the same transaction. `governance_rejected` (rule `svc.governance-capture.v1`, named in `governance_policy_version`): a deletion of the account or of the upload's asset is queued or running, or an active legal hold is placed on that asset (an account-wide hold alone does not stop captures).
         */
        post: operations["createCaptureAdmission"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/capture-admissions/{capture_admission_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a capture admission
         * @description One stored decision with every version it was made under. A decision never changes, so its `ETag` (the quoted SHA-256 of the body) never changes either: send it back as `If-None-Match` and an unchanged admission answers **304** without a body.
         */
        get: operations["getCaptureAdmission"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/capture-identities": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List capture identities
         * @description The tenant's capture identities, newest first, optionally filtered. Snapshot-consistent cursor pagination.
         */
        get: operations["listCaptureIdentities"];
        put?: never;
        /**
         * Complete a capture identity enrolment
         * @description Verifies the device's attestation `statement` against the enrolment's challenge (expected challenge = the 32 bytes `challenge_secret` encodes) under the configured trust snapshot, and on success stores the identity with its attested facts as version 1 (**201**). Completing the same enrolment again with the same secret and the same statement answers **200** with the same result, even after expiry. Refusals create nothing: 404 unknown enrolment (or another tenant's); 422 `svc.capture.challenge_secret_mismatch` (checked first, in constant time), `svc.capture.attestation_kind_mismatch`, `svc.capture.evidence_invalid` (does not verify: format, signature, chain, binding, revoked chain), `svc.capture.app_untrusted` (verifies but names an app, signing certificate or environment the deployment does not trust); 409 `svc.capture.enrollment_expired`, `svc.capture.enrollment_completed` (completed with a different statement), `svc.capture.identity_conflict` (the attested key or the installation already belongs to an active identity of this tenant); 503 `svc.capture.trust_unavailable` or `svc.capture.evidence_unavailable` (nothing configured to check this kind). A failed attempt leaves the enrolment open until it expires.
         */
        post: operations["createCaptureIdentity"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/capture-identities/{capture_identity_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a capture identity
         * @description One identity, in any state, with the facts it was enrolled with and its current version.
         */
        get: operations["getCaptureIdentity"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/capture-identities/{capture_identity_id}/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Revoke a capture identity
         * @description active → revoked, terminal: the identity can no longer obtain challenges, and admissions naming it answer `capture_identity_revoked`. Its key and installation are released, so the device may enrol again as a new identity. Revoking a revoked identity is idempotent: 200 with the identity unchanged (`revoked_at` keeps its first value).
         */
        post: operations["revokeCaptureIdentity"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/capture-identity-enrollments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a capture identity enrolment
         * @description Issues a single-use enrolment challenge for one app installation and one attestation kind. `challenge_secret` is returned only here, once (only its SHA-256 is stored; a retried Idempotency-Key answers 409 `secret_not_replayable`). The app binds its attestation to the secret's 32 decoded bytes and completes the enrolment with POST /v1/capture-identities within 10 minutes (`expires_at`). Without a configured capture trust snapshot: 503 `svc.capture.trust_unavailable`.
         */
        post: operations["createCaptureIdentityEnrollment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connect-catalog": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Integration catalog
         * @description Anonymous. Facts an integrator (or an AI assistant) needs to connect: origin, auth header, canonical calls, errors, limits.
         */
        get: operations["getConnectCatalog"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/creator-disclosure-policy": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the creator disclosure policy
         * @description The policy in effect. Until the tenant replaces it: `console_disclosure` `name_and_email`, `share_disclosure` `name`, no notice version, the tenant's name as `brand_name`, and `updated_at` null.
         */
        get: operations["getCreatorDisclosurePolicy"];
        /**
         * Replace the creator disclosure policy
         * @description Replaces the whole policy (omitted fields take their defaults: `console_disclosure` `name_and_email`, `share_disclosure` `name`, `notice_version` null). Effective for every disclosure from now on, including identities enrolled earlier. Replacing it with the same body changes nothing but `updated_at`.
         */
        put: operations["putCreatorDisclosurePolicy"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/creator-identities": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List creator identities
         * @description The tenant's creator identities, newest first, optionally only those in one `state`. Never names or e-mails. Snapshot-consistent cursor pagination.
         */
        get: operations["listCreatorIdentities"];
        put?: never;
        /**
         * Enrol a creator identity
         * @description Enrols a creator with the tenant's attestation of a lawful basis (`consent`, recorded as given with the time and the API key). The e-mail and name are stored only encrypted; the identity gets an opaque `creator_ref` and a salted commitment that manifests carry instead of the person. Enrolling an e-mail that already has an `active` identity in this tenant (same address after trimming and lowercasing) is not a conflict: it answers **200** with that existing identity unchanged (its name and consent stay as first recorded); a new identity answers **201**. Without a configured data master key: 503 `svc.creators.sealing_unavailable`.
         */
        post: operations["createCreatorIdentity"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/creator-identities/{creator_identity_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a creator identity
         * @description One identity, in any state. Never the name or e-mail (see the disclosure operation).
         */
        get: operations["getCreatorIdentity"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/creator-identities/{creator_identity_id}/disclosure": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Disclose a creator identity
         * @description The only operation that decrypts a creator's name and e-mail; it needs scope `creators:disclose`. Answers what the tenant's disclosure policy lets the `audience` see: `owning_tenant` per `console_disclosure`, `public` per `share_disclosure` (what a verifier would be shown). `end_user` carries only the allowed fields; `commitment` lets a verifier check a disclosed identity against the value in a manifest: SHA-256(salt ‖ UTF-8 canonical identity) equals `commitment.value`, with the salt given only when the whole canonical identity (name and e-mail) is disclosed. A withdrawn or erased identity answers its state with no personal data. Every disclosure is recorded in the audit log (`creator.disclosure_read`: who, which audience, which state; never the disclosed values). When the identity would be disclosed but cannot be decrypted now (no data master key configured, or its data key unusable) the state is `unavailable` (200): retry later.
         */
        get: operations["getCreatorDisclosure"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/creator-identities/{creator_identity_id}/withdraw": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Withdraw a creator identity
         * @description active → withdrawn: disclosure stops (every audience gets `withdrawn`) and new sign requests attributing it are refused; manifests already published keep their opaque reference. Nothing is erased. Withdrawing a withdrawn identity is idempotent: 200 with the identity unchanged (`withdrawn_at` keeps its first value). An erased identity answers 409 `svc.creators.erased`. To re-activate, enrol the same e-mail again (POST /v1/creator-identities): with no active identity for it, that creates a new active identity with a new `creator_id`, `creator_ref` and commitment; the withdrawn one stays withdrawn.
         */
        post: operations["withdrawCreatorIdentity"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/developer-onboarding": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Developer onboarding state
         * @description Secret-free setup state of the tenant: its API keys and which steps of the typical flow this deployment can do.
         */
        get: operations["getDeveloperOnboarding"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/feedback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send feedback
         * @description Stores feedback for the service's operators: a `kind`, a message (1 to 4,000 characters) and optionally the asset, job or verification it is about (ids checked for their format, not their existence). The message may contain personal data: it is stored only encrypted under the tenant's data key, never returned, logged or written to the audit log (the audit entry records that feedback was sent, by whom, and its id). Scope `feedback:write`; `Idempotency-Key` optional. Without a configured data master key: 503 `svc.feedback.sealing_unavailable` and nothing is stored.
         */
        post: operations["createFeedback"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/governance/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the audit log
         * @description The tenant's audit log, newest first: every write made through this API (by API keys and console sessions) and every security-relevant event (disclosure reads, sign-ins and provisioning, identity-provider and payment callbacks, exports, deletions, legal holds), with actor, credential, request, target and time. Append-only and hash-chained: each entry carries the previous entry's hash. `verify=true` checks the whole chain from its first entry (one hash per entry, streamed) and compares its end with the head the chain's writer keeps outside the database, so a removed, altered or rewritten entry is detected; one request verifies at most 200,000 entries (2,000 per query), and a longer chain answers `complete: false` with `checked_through_seq` rather than an error. Filters combine; a cursor is bound to its filters.
         */
        get: operations["listAuditEntries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/governance/deletions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List deletions
         * @description The tenant's deletions (refused ones included), newest first, optionally in one state. Snapshot-consistent cursor pagination.
         */
        get: operations["listDeletions"];
        put?: never;
        /**
         * Delete an asset or the whole account
         * @description Requests a deletion, carried out in the background (poll GET /v1/governance/deletions/{deletion_id}). **Asset** (`{ scope: "asset", asset_id }`): running jobs of the asset are cancelled first; then its stored bytes (original, signed and watermarked outputs, sidecar, preview, intermediate files), its records (jobs, steps, receipts, verifications of it with their reports and shares, capture admissions, webhook events about it with their pending deliveries) and its entries in the watermark and fingerprint recovery index are removed. Afterwards the asset answers 404 and a verify of a stripped copy no longer recovers it; its manifest stays provable in the transparency log, where its publication resolves to deleted. **Account** (`{ scope: "account", confirm: <tenant id> }`): the same for every asset, then every API key revoked (401 from then on), webhook endpoints removed, creator identities erased, capture identities and every other record of the account removed, and the tenant closed. Kept, and why, is listed in `retained`: the audit log, billing records the law requires, transparency-log entries and the governance records. While a legal hold covers the target (an account hold covers every asset; any hold blocks an account deletion) the request is refused with 409 `svc.governance.legal_hold_active`, recorded as a `refused` deletion, and nothing is removed. A target whose deletion is already queued or running answers that deletion (202). Outcomes are audited (`deletion.completed`, `deletion.refused`).
         */
        post: operations["createDeletion"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/governance/deletions/{deletion_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a deletion
         * @description A deletion's state and what it removed so far, counted per kind, with what is kept and why. An account deletion revokes every key when it finishes, so its last states are read in the audit log by the operator (`deletion.completed`).
         */
        get: operations["getDeletion"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/governance/exports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List exports
         * @description The tenant's exports, newest first, optionally by state. Snapshot-consistent cursor pagination.
         */
        get: operations["listGovernanceExports"];
        put?: never;
        /**
         * Export everything the tenant has
         * @description Starts an export (**202**, state `queued`): a job on the queue seals every record of the tenant created at or before `as_of` (now) — assets, stored objects, uploads, jobs and their steps, receipts, publications, soft bindings, verifications, API keys (metadata, never secret hashes), webhook endpoints (never their secrets), creator identities (sealed personal data omitted), capture identities and admissions, billing records, request logs and the audit log up to its head — plus every stored object's bytes, into one POSIX tar archive in R2 with a `manifest.json` of SHA-256 hashes signed by the service (`manifest.sig`). No body. Poll GET /v1/governance/exports/{export_id}; once `completed` it carries a presigned `download` URL, for 7 days. One export at a time per tenant: 409 `svc.governance.export_in_progress` while one is queued or running (its id is in the message). 503 `svc.governance.export_signing_unavailable` when no signing key is configured. The request is audited, and so is its end (`export.completed` / `export.failed`).
         */
        post: operations["createGovernanceExport"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/governance/exports/{export_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an export
         * @description One export. While `completed`, `download` holds a fresh presigned URL of the archive (valid 15 minutes; read the export again for another). Check the archive against `archive_sha256`, each member against `manifest.json`, and `manifest.json` against the signature (`signature.note`, verifiable with `signature.verifier_key`, the transparency log's checkpoint key).
         */
        get: operations["getGovernanceExport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/governance/legal-holds": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List legal holds
         * @description The legal holds on this tenant's data, most recently placed first. Holds are placed and released by the service operator (an operator command against the database, audited as `legal_hold.placed` / `legal_hold.released` in this tenant's audit log), never through the API. While a hold is active, deletions of what it covers are refused (409 `svc.governance.legal_hold_active`), retention expiry skips the held assets and asset lists report an account hold in `workspace_governance.legal_hold`.
         */
        get: operations["listLegalHolds"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/history/snapshots": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Release a traversal early
         * @description Ends the snapshot traversal a cursor belongs to, on whichever list it came from: that cursor and every other cursor of the same traversal (earlier or later pages) answer 422 `svc.cursor.invalid` from now on. Other traversals, and other tenants' traversals, are untouched. Releasing twice answers 204 again. A cursor that is not this tenant's, tampered, non-canonical or expired answers 422 `svc.cursor.invalid`.
         */
        delete: operations["releaseHistorySnapshot"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/image-profiles": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Image profiles
         * @description Each reviewed image format, with what is accepted now kept apart from the planned envelope, its limits and availability.
         */
        get: operations["listImageProfiles"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/jobs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List jobs
         * @description The tenant's jobs, newest first, snapshot-consistent.
         */
        get: operations["listJobs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/jobs/{job_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a job */
        get: operations["getJob"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/jobs/{job_id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a job
         * @description A queued job is canceled at once; a running one moves to `cancel_requested` and stops before its next step. Cancellation never publishes. `cancel_requested_at` is set either way.
         */
        post: operations["cancelJob"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Current user
         * @description The account and credential behind this request: an API key, or a signed-in console session (whose user holds every scope and acts as the account's owner).
         */
        get: operations["getMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/overview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Tenant overview
         * @description The tenant's dashboard over a range ending now: jobs by state, verification outcomes, media kinds, webhook health, plan and wallet, governance flags, an activity series, what needs attention, a health summary and a comparison with the previous range of equal length. Each figure group is read live with one statement (`freshness` says when); a group that cannot be read now is null and named in `unavailable`, never invented. Scope `overview:read`. An unknown `range` answers 422.
         */
        get: operations["getOverview"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/receipts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List receipts
         * @description Newest first, snapshot-consistent.
         */
        get: operations["listReceipts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/receipts/{receipt_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a receipt
         * @description The evidence a completed job recorded when it published.
         */
        get: operations["getReceipt"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/recipes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Recipe catalog
         * @description Every recipe with its name, summary, version, definition hash, ordered capabilities and steps, and the media types it accepts now.
         */
        get: operations["listRecipes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/recipes/{recipe_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Recipe detail
         * @description One recipe of the catalog at its active version.
         */
        get: operations["getRecipe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/shared-verifications/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a shared verification
         * @description Anonymous: the token is the credential. Answers the minimal projection while the share is unexpired and not closed. A malformed, unknown, expired or closed token answers one identical 404. Responses carry `Cache-Control: no-store` and `Referrer-Policy: no-referrer`.
         */
        get: operations["getSharedVerification"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sign": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a signing job
         * @description Admits a job that applies a recipe to an uploaded asset. Standard mode answers 202 with the job; poll GET /v1/jobs/{job_id} (first after 1 s, doubling to 30 s, with jitter). Express mode (`mode: "express"` with rcp_system_watermark_then_sign or rcp_system_express_watermark_then_sign on a JPEG, PNG, WebP, TIFF or AVIF image) runs the same watermark, fingerprint and manifest steps in the request and waits up to 10 s: a job that completes in time is answered 200 with `download`; otherwise the answer is 202 and the job finishes on its own. Every field rule of the sign request is checked at admission; the admitted algorithms, strength and fingerprint set never change afterwards.
         */
        post: operations["sign"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sign/batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start up to 100 signing jobs
         * @description Admits each item in order and independently: a refused item reports its own status and error without rolling back the others. Item i uses the idempotency key `<Idempotency-Key>.b<i>` for POST /v1/sign, so replaying the batch returns the same jobs. Items always run asynchronously.
         */
        post: operations["signBatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/soft-binding-resolution/manifests/{manifestId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Returns a full C2PA Manifest Store or an active C2PA Manifest.
         * @description The C2PA Manifest Store (`application/c2pa`, the JUMBF bytes the asset was published with: embedded in it, or its `.c2pa` sidecar) of the published asset whose active manifest is `manifestId` (C2PA `getManifestById`); with `returnActiveManifest=true`, a store holding only that active manifest. Public: a published asset's provenance is public. A publication past its retention is no longer served (404). The bytes never change: `ETag` is their SHA-256.
         */
        get: operations["getManifestById"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/soft-binding-resolution/matches/byBinding": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Returns C2PA Manifest identifiers corresponding to a soft binding.
         * @description Given one soft binding, find zero or more manifest identifiers of published assets matching it (C2PA Soft Binding Resolution API, `queryByBinding`). Watermark payloads and ISCC codes match exactly; a PDQ hash matches every published hash within Hamming distance 31, nearest first. Anonymous: every tenant's published assets. With an API key holding `recovery:read`, `scope=tenant` narrows the search to your own publications. If the value is too large to fit in a URL, use POST.
         */
        get: operations["queryByBinding"];
        put?: never;
        /**
         * Returns C2PA Manifest identifiers corresponding to a large soft binding value.
         * @description The same query as GET /matches/byBinding with `alg` and `value` in a JSON body (C2PA `queryByLargeBinding`), for values too large for a URL. `maxResults` and `scope` stay in the query string.
         */
        post: operations["queryByLargeBinding"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/soft-binding-resolution/matches/byContent": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Finds C2PA Manifest identifiers using a digital asset.
         * @description Send the asset's bytes as the request body (C2PA `uploadFile`; up to 25 MiB, with its media type as Content-Type). The service computes the asset's soft bindings as verification does (our watermark's payload, the ISCC and PDQ fingerprints), looks each up among published assets and answers the matching manifests, one per manifest, strongest first. `alg` restricts the lookup to one algorithm; `hintAlg` + `hintValue` add a soft binding the client already knows. The media type is read from the bytes: JPEG, PNG, WebP, TIFF and AVIF images (at most 12 MP) are resolved, anything else answers 415. Rate limited like POST /v1/verify: without a key 10 per minute per network address, with one per tenant. Nothing is stored.
         */
        post: operations["uploadFile"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/soft-binding-resolution/services/supportedAlgorithms": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Returns a list of the soft binding algorithms supported by the service.
         * @description The soft binding algorithms this deployment resolves (C2PA `getSupportedBindings`), by the `alg` its manifests carry: exactly those byBinding and byContent accept. Algorithms that are not available here (learned models without weights) are not listed.
         */
        get: operations["getSupportedBindings"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/uploads": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create an upload
         * @description Reserves an asset and returns where to send the bytes: one presigned PUT (`single`) or one per part (`multipart`). Send exactly the returned headers and never the API key. Then call complete.
         */
        post: operations["createUpload"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/uploads/{upload_id}/abort": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Abort an upload
         * @description Stops an initiated upload and removes its staged bytes and URLs. Aborting an aborted or expired upload returns its status again.
         */
        post: operations["abortUpload"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/uploads/{upload_id}/complete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Complete an upload
         * @description Checks the stored bytes against the declared `byte_length` and `sha256`, sniffs their real format (a declared type the bytes contradict is refused), and pins them as an immutable object. Completing an already completed upload returns the same result. A refused single upload stays open (PUT the right bytes and complete again); a multipart upload whose assembled bytes are refused has spent its parts and becomes `failed` (later calls answer 409 `svc.uploads.failed` naming the reason). Wrong or missing part ETags leave the upload open. A completion racing an abort either pins the bytes (the abort then answers 409) or loses (410).
         */
        post: operations["completeUpload"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get usage and availability
         * @description Authoritative usage for the current metering period (the UTC calendar month): the period's charges (the same settled reservations GET /v1/billing/charges lists) by media family and operation, with job counts, exact unit totals and amounts; `total_usd` equals the sum of those charges. Availability: `credit_balance_usd` (balance − reserved) for a metered tenant (wallet opted in and enabled), or the plan's hard `caps` for an unmetered one.
         */
        get: operations["getUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/verification-evidence/{verification_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Verification evidence
         * @description The complete, privacy-safe evidence of a verification: what was checked and every code the engine reported. Readable at once for a completed job's own `verification_id`.
         */
        get: operations["getVerificationEvidence"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/verification-evidence/{verification_id}/reports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Generate a deterministic report
         * @description Renders the stored evidence of a verification (a verify call, a stored-object check or a job's publication-time check) into an HTML document for people and a canonical JSON document for machines, and records both as an immutable report. Only the stored record is rendered (never the current time or a new id), so the same evidence always gives byte-identical documents and the same `sha256`; each call records a new report id. No body.
         */
        post: operations["createVerificationReport"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/verification-evidence/{verification_id}/shares": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List share metadata
         * @description Every share of the verification, newest first, snapshot-consistent; tokens are never shown again.
         */
        get: operations["listVerificationShares"];
        put?: never;
        /**
         * Issue a share capability
         * @description Issues an expiring, revocable token that lets anyone holding it read the minimal projection of this verification at `url`, without an API key. The token is shown once and only its SHA-256 is stored, so replaying the same Idempotency-Key after completion answers 409 `secret_not_replayable`: list the shares, or issue a new one.
         */
        post: operations["createVerificationShare"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/verification-history/{verification_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Verification history record */
        get: operations["getVerificationHistory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/verification-reports/{report_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download an immutable report
         * @description Serves the stored bytes of one format, unchanged: `format=json` (the default) is the canonical `VerificationReportDocument`, `format=html` the printable document. The ETag is the quoted SHA-256 of the bytes (If-None-Match answers 304), and Content-Disposition names the file. The bytes under a report id never change; `Cache-Control: private, no-cache` makes caches revalidate (a 304 is cheap), so access is rechecked on every use.
         */
        get: operations["getVerificationReport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/verification-shares/{share_id}/close": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Close a share
         * @description Revokes the share at once: its token answers 404 from now on. Closing a closed share changes nothing and answers the same `closed_at`.
         */
        post: operations["closeVerificationShare"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/verifications": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List verifications
         * @description Newest first, snapshot-consistent.
         */
        get: operations["listVerifications"];
        put?: never;
        /**
         * Verify a stored object
         * @description Accepts an immutable stored object (`aob_`) for asynchronous verification on the jobs queue and answers 202; poll GET /v1/verifications/{verification_id} (first after 1 s, doubling to 30 s). For a file published with a sidecar manifest, send the file's object id: the service finds the stored manifest itself.
         */
        post: operations["createVerification"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/verifications/{verification_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A verification, by its id
         * @description Resolves every `verification_id` the API hands out (one `vfy_` namespace): the durable status of a stored-object verification (POST /v1/verifications: `queued`, `running`, then `completed` or `failed`), and, `completed` from the start, every verification record made otherwise: an authenticated POST /v1/verify, and a job's publication-time verification (the `verification_id` of a completed job's result and of its receipt). A completed one is also readable at GET /v1/verification-evidence/{verification_id} (`evidence_id`) and GET /v1/verification-history/{verification_id}.
         */
        get: operations["getVerification"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Verify a file, an asset or a manifest
         * @description Checks every signal (manifest and signature with the reference C2PA engine, signer and TSA trust, OCSP, our watermark, fingerprint lookup, anchor log) and answers one status of a closed vocabulary with a confidence and explanations. Send multipart/form-data with the file in the field `file` (and optionally its sidecar `.c2pa` in `manifest`), or JSON with `asset_id` (your own published asset) or `manifest_uri`. Without a credential this is the public variant: 10 requests per minute per network address, nothing stored, no personal data of the requester logged. With an API key (verify:write) the limit is per tenant and the result is stored as a verification record.
         */
        post: operations["verify"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/verify/{manifest_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The stored result for a manifest
         * @description The most recent result your verifications computed for this manifest (its active manifest label, e.g. `urn:c2pa:...`). A manifest never changes, so the result is cached for its lifetime: until the signing certificate expires (Cache-Control says how long).
         */
        get: operations["getVerifyResult"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-endpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List webhook endpoints
         * @description The tenant's endpoints, newest first. Deleted endpoints (within their retention) only with `include_deleted=true`. Snapshot-consistent cursor pagination.
         */
        get: operations["listWebhookEndpoints"];
        put?: never;
        /**
         * Create a webhook endpoint
         * @description Registers an HTTPS destination for exact event types. The signing secret (`whsec_…`) is returned once and only stored encrypted for signing, so replaying the same Idempotency-Key after completion answers 409 `secret_not_replayable` (rotate the secret with a new key instead). The destination is checked against the policy, including every address its name resolves to.
         */
        post: operations["createWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-endpoints/{endpoint_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a webhook endpoint
         * @description One endpoint, including a deleted one within its retention period. The secret is never shown again.
         */
        get: operations["getWebhookEndpoint"];
        put?: never;
        post?: never;
        /**
         * Delete a webhook endpoint
         * @description Soft delete: no further attempts, unfinished deliveries end as `dead` (`endpoint_deleted`), the secrets are erased, and the record stays readable for 30 days, refusing every change (409 `svc.webhooks.endpoint_deleted`, also for a second delete).
         */
        delete: operations["deleteWebhookEndpoint"];
        options?: never;
        head?: never;
        /**
         * Update a webhook endpoint
         * @description Changes the destination, the exact subscription (`events` replaces it whole) or the delivery controls. Changes apply from the next attempt; deliveries already created keep going to the endpoint. A deleted endpoint refuses with 409.
         */
        patch: operations["updateWebhookEndpoint"];
        trace?: never;
    };
    "/v1/webhook-endpoints/{endpoint_id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List an endpoint's deliveries
         * @description Deliveries to the endpoint, newest first, optionally of one status. Bounded pages (1 to 100, default 50), snapshot-consistent cursor.
         */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-endpoints/{endpoint_id}/disable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Disable a webhook endpoint
         * @description Stops deliveries: unfinished ones end visibly as `dead` with `endpoint_disabled` (replay them after enabling). Disabling a disabled endpoint changes nothing.
         */
        post: operations["disableWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-endpoints/{endpoint_id}/enable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Enable a webhook endpoint
         * @description Checks the destination against the policy again, then resumes deliveries for new events, with the failure streak reset. Enabling an active endpoint changes nothing.
         */
        post: operations["enableWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-endpoints/{endpoint_id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate the signing secret
         * @description Issues a new secret, shown once. Until the overlap is completed every delivery carries two `v1` signatures (new secret first, then the outgoing one), so receivers can deploy the new secret without missing a message. Replaying the Idempotency-Key answers 409 `secret_not_replayable`.
         */
        post: operations["rotateWebhookEndpointSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-endpoints/{endpoint_id}/secret-overlap/complete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Complete a secret rotation overlap
         * @description Retires the outgoing secret: from the next attempt only the new secret signs.
         */
        post: operations["completeWebhookSecretOverlap"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-endpoints/{endpoint_id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a test event (preview)
         * @description Queues a synthetic, signed `webhook.test` event (`"test": true`) to this endpoint only, delivered like any other (gate, retries, attempts). At most 10 per hour per endpoint; beyond that 429 with Retry-After, and the refused request queues nothing.
         */
        post: operations["sendWebhookTestEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-endpoints/deliveries/{delivery_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a delivery
         * @description One delivery: status, counts, next attempt and the last answer.
         */
        get: operations["getWebhookDelivery"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-endpoints/deliveries/{delivery_id}/attempts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a delivery's attempts
         * @description Every attempt of the delivery, oldest first (1 to 100 per page, default 50).
         */
        get: operations["listWebhookDeliveryAttempts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-endpoints/deliveries/{delivery_id}/replay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Replay a delivery
         * @description Authorizes one more delivery of the original event to the same endpoint: the same body and the same `webhook-id` (receivers that deduplicate will see a duplicate), a fresh signature and timestamp, `replay_count` raised. Only a finished delivery (`delivered`, `failed`, `dead`) on an active endpoint can be replayed. The Idempotency-Key is required: reusing it for another delivery, or while the matching replay is still being accepted, answers 409.
         */
        post: operations["replayWebhookDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-endpoints/event-catalog": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the event catalog
         * @description The events an endpoint can subscribe to, by exact name. Every event body has the same envelope: `{id, type, event_catalog_version, timestamp, test, data}`; `data` holds ids and links to fetch the full resources (`asset_id`, `job_id`, `publication_id`, `receipt_id`, `media_type`, `recipe_id`, `manifest_label`, `watermark_algorithm`, `links`).
         */
        get: operations["getWebhookEventCatalog"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-events/{event_id}/replay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Replay an event
         * @description Delivers the event again to every active endpoint subscribed to its type now (a test event: its one endpoint). Finished deliveries start again (`replay_count` raised), subscribed endpoints without one get one, deliveries still in progress are left alone and not counted.
         */
        post: operations["replayWebhookEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/idp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Identity-provider user-lifecycle callback
         * @description For the identity provider, not for customers. Svix-style signing: `idp-signature` holds space-separated `v1,<base64 HMAC-SHA256>` entries over `"<idp-id>.<idp-timestamp>.<exact raw body>"`, keyed by the bytes of the configured secret (`whsec_` + base64), compared in constant time; the timestamp must be within 300 seconds of now. Deduplicated by `idp-id`: a replay answers `duplicate: true` with the first result and changes nothing. Events (`user.deactivated`, `user.reactivated`, `user.deleted`, `user.email_changed`) name the user by the provider's subject; a deactivated or deleted user gets 403 on the next request, with a console session or with any API key that user's session created; a deletion erases the user's e-mail. Each applied change is audited in the user's account with actor `identity_provider` (actor id: the `idp-id`). Bodies up to 64 KiB.
         */
        post: operations["receiveIdpCallback"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/payments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Payments provider callback
         * @description For the payments provider, not for customers. The credential is the `Stripe-Signature` header: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<exact raw body>">`, several `v1` values and several configured secrets accepted during rotation, 300 seconds tolerance, compared in constant time. Events are deduplicated by event id: a replay answers `duplicate: true` and changes nothing. `checkout.session.completed` with `payment_status: paid` (or `checkout.session.async_payment_succeeded` for delayed payment methods) credits an open top-up intent's amount to the wallet exactly once, or sets a subscription's plan and provider customer; an unpaid completion moves nothing; `charge.refunded` debits what its cumulative `amount_refunded` adds to the charge's earlier refunds (never more than the top-up) and `charge.dispute.created` debits the disputed amount; other types are recorded as `ignored`. The tenant always comes from the intent the event references (`metadata.svc_intent_id` / `client_reference_id`), never from free text. Bodies up to 256 KiB.
         */
        post: operations["receivePaymentsCallback"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        AbortUploadResponse: {
            /**
             * @description Upload status. `failed`: a multipart upload whose assembled bytes did not match what was declared (its parts are spent); create a new upload.
             * @example initiated
             * @enum {string}
             */
            status: "initiated" | "completed" | "aborted" | "expired" | "failed";
            /**
             * @description Upload id.
             * @example upl_abcdefghij234567
             */
            upload_id: string;
        };
        /** @description Deletes the whole account; confirmed with the tenant's id. */
        AccountDeletionRequest: {
            /**
             * @description The tenant's own id (`ten_…`, the `public_id` GET /v1/me answers), to confirm: any other value answers 422.
             * @example ten_abcdefghij234567
             */
            confirm: string;
            /**
             * @description Delete the whole account. (enum property replaced by openapi-typescript)
             * @enum {string}
             */
            scope: "account";
        };
        AlgorithmCapability: {
            /**
             * @description Algorithm name as accepted by the sign request.
             * @example pdq
             */
            algorithm: string;
            availability: components["schemas"]["Availability"];
            /**
             * @description What a sign request that names no algorithm of this kind gets for its modality in this deployment (the watermark, or one of the default fingerprints).
             * @example false
             */
            default: boolean;
            /**
             * @description Always computed when signing (fingerprints only).
             * @example false
             */
            locked: boolean;
            /**
             * @description Media modality.
             * @example image
             * @enum {string}
             */
            modality: "image" | "audio" | "video";
            /**
             * @description The contract's recommended default for its modality, whether or not this deployment has it (a learned model without weights is recommended but not the default here).
             * @example false
             */
            recommended: boolean;
        };
        AnchorCheckpoint: {
            /**
             * @description The signed note (C2SP tlog-checkpoint in a signed-note, ECDSA P-256).
             * @example svc.local/manifest-log
             *     42
             *     …
             */
            checkpoint: string;
            /**
             * @description The log's name (first line of the checkpoint).
             * @example svc.local/manifest-log
             */
            origin: string;
            /**
             * @description RFC 6962 root hash (hex).
             * @example 5f3a…
             */
            root_hash: string;
            /**
             * @description When the checkpoint was signed.
             * @example 2026-11-22T10:00:00.000Z
             */
            sealed_at: string;
            /**
             * @description Entries in the tree.
             * @example 42
             */
            tree_size: number;
            /**
             * @description The log's verifier key in signed-note form (`<origin>+<key id>+<base64 key>`).
             * @example svc.local/manifest-log+1a2b3c4d+Ag…
             */
            verifier_key: string | null;
        };
        AnchorConsistencyProof: {
            /**
             * @description Older size.
             * @example 10
             */
            first: number;
            /**
             * @description Consistency proof (hex).
             * @example []
             */
            proof: string[];
            /**
             * @description Newer size.
             * @example 42
             */
            second: number;
        };
        ApiKeyPage: {
            /** @description Keys, newest first. */
            items: components["schemas"]["ApiKeyResponse"][];
            /** @description Cursor of the next page, or null on the last page. Pages are snapshot-consistent: rows created after the first page are not included. */
            next_cursor: string | null;
        };
        ApiKeyResponse: {
            /**
             * @description API key id.
             * @example key_abcdefghij234567
             */
            api_key_id: string;
            /**
             * Format: date-time
             * @description When the key was created.
             * @example 2026-11-22T10:00:00.000Z
             */
            created_at: string;
            /**
             * @description First characters of the secret, to tell keys apart. The secret itself is never returned again.
             * @example svc_live_abcdef
             */
            display_prefix: string;
            /**
             * Format: date-time
             * @description When the key stops working; null for no expiry.
             * @example 2026-11-22T10:00:00.000Z
             */
            expires_at: string | null;
            /**
             * Format: date-time
             * @description Last successful authentication, to the minute.
             * @example 2026-11-22T10:00:00.000Z
             */
            last_used_at: string | null;
            /**
             * @description Label chosen at creation.
             * @example CI pipeline
             */
            name: string;
            /**
             * @description The key this one succeeded, if it was issued by a rotation.
             * @example null
             */
            predecessor_key_id: string | null;
            /**
             * Format: date-time
             * @description When the key was revoked.
             * @example 2026-11-22T10:00:00.000Z
             */
            revoked_at: string | null;
            /** @description The latest rotation this (outgoing) key began, or null. */
            rotation: {
                /**
                 * Format: date-time
                 * @description When this key stops (or stopped) working unless the rotation is finished first; null once canceled.
                 * @example 2026-11-22T10:00:00.000Z
                 */
                overlap_ends_at: string | null;
                /**
                 * @description The rotation this key began: `overlapping` (both secrets work until overlap_ends_at), then `completed` (this key retired), `canceled` (the successor revoked; this key works as before and may be rotated again) or `lapsed` (the overlap ended without a completion; this key stopped). Nothing moves out of completed, canceled or lapsed.
                 * @example overlapping
                 * @enum {string}
                 */
                state: "overlapping" | "completed" | "canceled" | "lapsed";
                /**
                 * @description The successor issued by rotate.
                 * @example key_bcdefghij2345678
                 */
                successor_key_id: string;
            } | null;
            /** @description Scopes the key holds. */
            scopes: components["schemas"]["Scope"][];
            /**
             * @description `active`: the key authenticates. `expired`: its expiry passed, or it was rotated and the overlap ended without a completion. `revoked`: revoked, or retired by a completed rotation.
             * @example active
             * @enum {string}
             */
            status: "active" | "expired" | "revoked";
        };
        ApiKeyRestrictionsResponse: {
            /**
             * @description The key.
             * @example key_abcdefghij234567
             */
            api_key_id: string;
            /**
             * @description CIDR ranges (IPv4 or IPv6) the key may be used from; empty means any.
             * @example [
             *       "203.0.113.0/24",
             *       "2001:db8::/32"
             *     ]
             */
            ip_allowlist: string[];
            /**
             * @description Requests per minute for this key; null for none.
             * @example 60
             */
            rate_limit_per_minute: number | null;
            /**
             * Format: date-time
             * @description When they last changed.
             * @example 2026-11-22T10:00:00.000Z
             */
            updated_at: string | null;
            /**
             * @description Bumped by every change; 0 until first set.
             * @example 2
             */
            version: number;
        };
        ApiKeyRetentionResponse: {
            /**
             * @description The key.
             * @example key_abcdefghij234567
             */
            api_key_id: string;
            /**
             * @description The most this key may set: the tenant ceiling, or less if the key that created it keeps less.
             * @example 3650
             */
            ceiling_days: number;
            /**
             * @description Days the published outputs of jobs this key admits are kept; null: until deleted.
             * @example 30
             */
            output_retention_days: number | null;
            /**
             * Format: date-time
             * @description When it last changed.
             * @example 2026-11-22T10:00:00.000Z
             */
            updated_at: string | null;
            /**
             * @description Bumped by every change; 0 until first set.
             * @example 1
             */
            version: number;
        };
        ApiKeyRotationResult: {
            api_key: components["schemas"]["ApiKeyResponse"] & unknown;
            successor: components["schemas"]["ApiKeyResponse"] & unknown;
        };
        ApiKeySigningProfileResponse: {
            /**
             * @description Fingerprint algorithms this key may use; null for any available. The locked image ISCC code is always added.
             * @example [
             *       "pdq"
             *     ]
             */
            allowed_fingerprint_algorithms: string[] | null;
            /**
             * @description Recipes this key may sign with; null for any available recipe.
             * @example [
             *       "rcp_system_sign_only"
             *     ]
             */
            allowed_recipe_ids: string[] | null;
            /**
             * @description Watermark algorithms this key may use; null for any available.
             * @example [
             *       "svc-wm-tiledss-1"
             *     ]
             */
            allowed_watermark_algorithms: string[] | null;
            /**
             * @description Strengths this key may use; null for any.
             * @example [
             *       "balanced",
             *       "robust"
             *     ]
             */
            allowed_watermark_strengths: ("subtle" | "balanced" | "robust")[] | null;
            /**
             * @description The key.
             * @example key_abcdefghij234567
             */
            api_key_id: string;
            /**
             * @description Fingerprint set used when a sign request names none (those offered for the asset's modality); null: the system defaults.
             * @example [
             *       "pdq"
             *     ]
             */
            default_fingerprint_algorithms: string[] | null;
            /**
             * @description Recipe POST /v1/sign uses when the request names none.
             * @example rcp_system_sign_only
             */
            default_recipe_id: string | null;
            /**
             * @description Watermark used when a sign request names none (for assets of the modality it is offered for); null: the system default.
             * @example svc-wm-tiledss-1
             */
            default_watermark_algorithm: string | null;
            /**
             * @description Strength used when a sign request names none; null: balanced.
             * @example robust
             * @enum {string|null}
             */
            default_watermark_strength: "subtle" | "balanced" | "robust" | null;
            /**
             * Format: date-time
             * @description When it last changed.
             * @example 2026-11-22T10:00:00.000Z
             */
            updated_at: string | null;
            /**
             * @description Bumped by every change; 0 until first set.
             * @example 1
             */
            version: number;
        };
        ApiRequestLogPage: {
            /** @description Requests, newest first. */
            items: components["schemas"]["ApiRequestLogResponse"][];
            /** @description Cursor of the next page, or null on the last page. Pages are snapshot-consistent: rows created after the first page are not included. */
            next_cursor: string | null;
        };
        ApiRequestLogResponse: {
            /**
             * @description The key used.
             * @example key_abcdefghij234567
             */
            api_key_id: string;
            /**
             * Format: date-time
             * @description When the request arrived.
             * @example 2026-11-22T10:00:00.000Z
             */
            created_at: string;
            /**
             * @description Time to answer.
             * @example 41
             */
            duration_ms: number;
            /**
             * @description HTTP method.
             * @example POST
             */
            method: string;
            /**
             * @description The operation's path template.
             * @example /v1/sign
             */
            operation: string;
            /**
             * @description The request's id (its X-Request-Id).
             * @example req_abcdefghij234567
             */
            request_id: string;
            /**
             * @description HTTP status answered.
             * @example 202
             */
            status: number;
        };
        ApiRequestLogSummary: {
            /** @description Operations, most used first. */
            by_operation: {
                /**
                 * @description Requests.
                 * @example 80
                 */
                count: number;
                /**
                 * Format: date-time
                 * @description Most recent.
                 * @example 2026-11-22T10:00:00.000Z
                 */
                last_at: string;
                /**
                 * @description HTTP method.
                 * @example GET
                 */
                method: string;
                /**
                 * @description Path template.
                 * @example /v1/jobs/{job_id}
                 */
                operation: string;
            }[];
            /**
             * @description Counts by status class.
             * @example {
             *       "2xx": 110,
             *       "4xx": 10
             *     }
             */
            by_status_class: {
                [key: string]: number;
            };
            /**
             * @description Requests logged in the window.
             * @example 120
             */
            total: number;
            /**
             * Format: date-time
             * @description End of the window (now).
             * @example 2026-11-22T10:00:00.000Z
             */
            window_end: string;
            /**
             * Format: date-time
             * @description Start of the window.
             * @example 2026-11-22T10:00:00.000Z
             */
            window_start: string;
        };
        AssetActivity: {
            /**
             * Format: date-time
             * @description When the job was admitted.
             * @example 2026-11-22T10:00:00.000Z
             */
            at: string;
            /**
             * @description The job.
             * @example job_abcdefghij234567
             */
            job_id: string;
            /**
             * @description Recipe applied.
             * @example rcp_system_sign_only
             */
            recipe_id: string;
            /**
             * @description Job state now.
             * @example completed
             */
            state: string;
            /**
             * Format: date-time
             * @description When it ended.
             * @example 2026-11-22T10:00:00.000Z
             */
            terminal_at: string | null;
            /**
             * @description Activity kind.
             * @enum {string}
             */
            type: "job";
        };
        /** @description Deletes one asset. */
        AssetDeletionRequest: {
            /**
             * @description The asset to delete.
             * @example ast_abcdefghij234567
             */
            asset_id: string;
            /**
             * @description Delete one asset and everything derived from it. (enum property replaced by openapi-typescript)
             * @enum {string}
             */
            scope: "asset";
        };
        AssetDetailResponse: {
            /** @description Next actions. */
            actions: {
                /**
                 * @description What can be done.
                 * @example download
                 * @enum {string}
                 */
                action: "download" | "sign";
                /**
                 * @description Whether it is possible now.
                 * @example true
                 */
                available: boolean;
                /**
                 * @description The operation that does it.
                 * @example POST /v1/assets/{asset_id}/download
                 */
                operation: string;
            }[];
            /** @description Jobs of this asset. */
            activity: {
                /** @description Newest first. */
                items: components["schemas"]["AssetActivity"][];
                /** @description Cursor of the next page, or null on the last page. Pages are snapshot-consistent: rows created after the first page are not included. */
                next_cursor: string | null;
            };
            /**
             * Format: date-time
             * @description The snapshot time of this response.
             * @example 2026-11-22T10:00:00.000Z
             */
            as_of: string;
            asset: components["schemas"]["AssetResponse"];
            /** @description Verifications of this asset. */
            verification_history: {
                /** @description Newest first. */
                items: components["schemas"]["VerificationHistoryResponse"][];
                /** @description Cursor of the next page, or null on the last page. Pages are snapshot-consistent: rows created after the first page are not included. */
                next_cursor: string | null;
            };
            workspace_governance: components["schemas"]["WorkspaceGovernance"];
        };
        AssetPage: {
            /** @description Assets, newest first. */
            items: components["schemas"]["AssetResponse"][];
            /** @description Cursor of the next page, or null on the last page. Pages are snapshot-consistent: rows created after the first page are not included. */
            next_cursor: string | null;
            /**
             * @description Assets matching the filters in this snapshot.
             * @example 3
             */
            total_count: number;
            workspace_governance: components["schemas"]["WorkspaceGovernance"];
        };
        AssetResponse: {
            /**
             * @description Asset id (the tenant-visible id; never an `aob_` object id).
             * @example ast_abcdefghij234567
             */
            asset_id: string;
            /**
             * Format: date-time
             * @description When the asset was created (its upload began).
             * @example 2026-11-22T10:00:00.000Z
             */
            created_at: string;
            /**
             * @description Media family: image, audio, video, document, font, model or text.
             * @example image
             */
            kind: string;
            /**
             * @description Media type (sniffed from the bytes once the upload completed).
             * @example image/jpeg
             */
            media_type: string | null;
            publication: components["schemas"]["PublicationResponse"];
            /**
             * @description Asset status.
             * @example published
             * @enum {string}
             */
            status: "awaiting_upload" | "uploaded" | "processing" | "published" | "failed" | "upload_aborted" | "upload_expired" | "upload_failed" | "retention_expired";
        };
        /** @description One entry of the tenant's append-only, hash-chained audit log. */
        AuditEntry: {
            /**
             * @description What was done: the operation (`METHOD /path` exactly as in this document) for an API write, or a named event: `creator.disclosure_read`; `session.provisioned`, `session.signed_in` (at most once a user an hour); `user.deactivated`, `user.reactivated`, `user.deleted`, `user.email_changed` (identity-provider callbacks); `payment.event_applied`; `export.completed`, `export.failed`; `deletion.completed`, `deletion.refused`, `deletion.failed`; `legal_hold.placed`, `legal_hold.released` (by the operator)
             * @example POST /v1/api-keys/{api_key_id}/rotate
             */
            action: string;
            /** @description Who did it. */
            actor: {
                /**
                 * @description The key id, user id or provider's event id; null when none applies.
                 * @example key_abcdefghij234567
                 */
                id: string | null;
                /**
                 * @description `api_key` or `console_user`: a caller of this API; `identity_provider` and `payment_provider`: their signed callbacks; `operator`: a person running an operator script; `service`: this service's background work.
                 * @example api_key
                 * @enum {string}
                 */
                kind: "api_key" | "console_user" | "identity_provider" | "payment_provider" | "operator" | "service";
            };
            /**
             * @description The credential presented (API key id, or the console session's user id); null for callbacks and background work.
             * @example key_abcdefghij234567
             */
            credential_id: string | null;
            /**
             * @description Small structured facts (ids, counts, reason codes). Never personal data or secrets.
             * @example {
             *       "error_code": "svc.api_keys.scope_escalation"
             *     }
             */
            detail: {
                [key: string]: unknown;
            } | null;
            /**
             * @description SHA-256 (hex) of the UTF-8 JSON array ["svc.audit-entry.v1", tenant id, seq, id, occurred_at (epoch ms), action, outcome, actor kind, actor id, credential_id, request_id, target type, target id, status_code, detail (canonical JSON text with sorted keys, or null), prev_hash].
             * @example 9f2c4e0b7a1d3c5e8f6a2b4d0c1e3f5a7b9d1c3e5f7a9b0d2c4e6f8a0b1c3d5e
             */
            hash: string;
            /**
             * @description Audit entry id.
             * @example aud_abcdefghij234567
             */
            id: string;
            /**
             * Format: date-time
             * @description When it happened.
             * @example 2026-11-22T10:00:00.000Z
             */
            occurred_at: string;
            /**
             * @description `denied`: the caller was refused (403) what it tried; `failed`: background work that did not complete.
             * @example succeeded
             * @enum {string}
             */
            outcome: "succeeded" | "denied" | "failed";
            /**
             * @description SHA-256 of the previous entry (64 zeros for the first).
             * @example 9f2c4e0b7a1d3c5e8f6a2b4d0c1e3f5a7b9d1c3e5f7a9b0d2c4e6f8a0b1c3d5e
             */
            prev_hash: string;
            /**
             * @description The request that did it (X-Request-Id), when there was one.
             * @example req_abcdefghij234567
             */
            request_id: string | null;
            /**
             * @description Position in the tenant's chain: 1, 2, 3… without gaps.
             * @example 42
             */
            seq: number;
            /**
             * @description The HTTP status answered, for API writes.
             * @example 201
             */
            status_code: number | null;
            /** @description What it was done to. */
            target: {
                /**
                 * @description Its id.
                 * @example key_bcdefghij2345678
                 */
                id: string | null;
                /**
                 * @description Kind of resource acted on (`api_key`, `asset`, `job`, …).
                 * @example api_key
                 */
                type: string | null;
            };
        };
        AuditPage: {
            /** @description The newest entry of the chain when this page was read (keep it to detect a later rewrite). Null for an empty log. */
            head: {
                /**
                 * @description Hash of the newest entry.
                 * @example 9f2c4e0b7a1d3c5e8f6a2b4d0c1e3f5a7b9d1c3e5f7a9b0d2c4e6f8a0b1c3d5e
                 */
                hash: string;
                /**
                 * @description Position of the newest entry.
                 * @example 42
                 */
                seq: number;
            } | null;
            /** @description Entries, newest first. */
            items: components["schemas"]["AuditEntry"][];
            /** @description Cursor of the next page, or null on the last page. Pages are snapshot-consistent: rows created after the first page are not included. */
            next_cursor: string | null;
            verification: components["schemas"]["AuditVerification"];
        };
        /** @description The whole chain's verification, when `verify=true` was asked; else null. */
        AuditVerification: {
            /**
             * @description The first entry that does not verify, when not intact.
             * @example null
             */
            broken_at_seq: number | null;
            /**
             * @description The last entry that verified (null when none did).
             * @example 1200
             */
            checked_through_seq: number | null;
            /**
             * @description False when the chain is longer than one request verifies (200,000 entries, read 2,000 per query, to stay within the platform's per-request query budget): `intact` then speaks for the entries up to `checked_through_seq` only, and `witness` is `unchecked` unless it lies within them.
             * @example true
             */
            complete: boolean;
            /**
             * @description Entries checked.
             * @example 1200
             */
            entries: number;
            /**
             * @description Every entry links to the one before and hashes to its stored hash.
             * @example true
             */
            intact: boolean;
            /**
             * @description The last entry checked, when intact.
             * @example 1200
             */
            last_seq: number | null;
            /**
             * @description Why it does not verify: an entry missing, a link broken, or an entry altered.
             * @example null
             * @enum {string|null}
             */
            reason: "sequence_gap" | "link_mismatch" | "hash_mismatch" | null;
            /**
             * @description The head the chain's writer last recorded outside the database: `matches` it; the log ends `behind` it (entries removed from the end); the entry at that position `differs` (the tail was rewritten); `unchecked` (the chain broke before it); `none` (nothing written yet).
             * @example matches
             * @enum {string}
             */
            witness: "matches" | "behind" | "differs" | "unchecked" | "none";
        } | null;
        AutoRecharge: {
            /**
             * @description Amount of each recharge (whole cents, 10.00–10000.00); null when off.
             * @example 50.00
             */
            amount_usd: string | null;
            /**
             * @description Whether a recharge starts when balance − reserved falls below the threshold.
             * @example false
             */
            enabled: boolean;
            /**
             * @description Recharge when balance − reserved falls below this (whole cents, 0.00–10000.00); null when off.
             * @example 20.00
             */
            threshold_usd: string | null;
        };
        Availability: {
            /**
             * @description Whether this works in this deployment now.
             * @example false
             */
            available: boolean;
            /**
             * @description Pipelines this deployment lacks for it.
             * @example [
             *       "c2pa.sign.embedded"
             *     ]
             */
            missing_capabilities: string[];
            /**
             * @description Why it is unavailable; null when available.
             * @example capability_not_installed
             * @enum {string|null}
             */
            reason: "capability_not_installed" | "model_weights_not_installed" | "no_enabled_media_types" | null;
        };
        BillingAccount: {
            /**
             * @description Whether the subscription ends at `current_period_end`.
             * @example false
             */
            cancel_at_period_end: boolean;
            caps: components["schemas"]["BillingCaps"];
            /**
             * Format: date-time
             * @description End of the current billing period (exclusive).
             * @example 2026-11-22T10:00:00.000Z
             */
            current_period_end: string;
            /**
             * Format: date-time
             * @description End (exclusive) of the metering period.
             * @example 2026-11-22T10:00:00.000Z
             */
            current_service_period_end: string;
            /**
             * Format: date-time
             * @description Start of the metering period usage and month-to-date spend count (the UTC calendar month).
             * @example 2026-11-22T10:00:00.000Z
             */
            current_service_period_start: string;
            /**
             * @description Billing account id (`acct_` + the tenant id's suffix; one per tenant).
             * @example acct_abcdefghij234567
             */
            id: string;
            /**
             * @description Plan id (see GET /v1/billing/plans).
             * @example payg
             */
            plan: string;
            /**
             * @description The plan's display name.
             * @example Pay as you go
             */
            plan_display_name: string;
            /**
             * @description Whether POST /v1/billing/portal-intents can open a real provider portal: a sandbox or live provider is configured and the account has a provider customer.
             * @example false
             */
            portal_available: boolean;
            /**
             * @description Whether the payments provider has a customer for this account.
             * @example false
             */
            provider_customer_provisioned: boolean;
            /**
             * Format: date-time
             * @description When a paid plan renews; null for a plan without subscription or one cancelling at period end.
             * @example 2026-11-22T10:00:00.000Z
             */
            renewal_at: string | null;
            /**
             * @description Account status.
             * @example active
             * @enum {string}
             */
            status: "active" | "past_due" | "canceled";
        };
        /** @description Hard caps of the tenant's plan. */
        BillingCaps: {
            /**
             * @description Jobs the plan admits per minute.
             * @example 600
             */
            jobs_per_minute: number;
            /**
             * @description Largest upload the plan accepts, in bytes.
             * @example 2147483648
             */
            max_upload_bytes: number;
            /**
             * @description The monthly spend limit in force (the wallet's own limit, else the plan's), or null.
             * @example 500.00
             */
            monthly_spend_limit_usd: string | null;
        };
        BillingCharge: {
            /**
             * @description The settled quote.
             * @example 0.0116
             */
            amount_usd: string;
            /**
             * Format: date-time
             * @description When the job's publication settled the reservation.
             * @example 2026-11-22T10:00:00.000Z
             */
            created_at: string;
            /**
             * @description Charge id: `chg_` + the job id's suffix (one charge per job).
             * @example chg_abcdefghij234567
             */
            id: string;
            /**
             * @description The charged job.
             * @example job_abcdefghij234567
             */
            job_id: string;
            /** @description The quote lines the job was admitted with. */
            lines: components["schemas"]["BillingLine"][];
            /**
             * @description The pricing version the figures were computed under.
             * @example svc.pricing.2026-11.1
             */
            pricing_version: string;
        };
        BillingCharges: {
            /**
             * @description Every amount is in US dollars.
             * @example USD
             * @enum {string}
             */
            currency: "USD";
            /** @description Charges, newest first. */
            items: components["schemas"]["BillingCharge"][];
            /** @description Pass as `before` for the next (older) page; null on the last page. */
            next_before: string | null;
            /**
             * @description Charges come out of the prepaid wallet; no provider charge is created per job.
             * @enum {boolean}
             */
            provider_charge_created: false;
        };
        BillingIntent: {
            /**
             * @description Whether `url` leads somewhere the customer can complete the intent.
             * @example true
             */
            actionable: boolean;
            /**
             * Format: date-time
             * @description When `url` stops working.
             * @example 2026-11-26T10:00:00.000Z
             */
            expires_at: string;
            /**
             * @description The intent's id (`bin_…`); the provider's session carries it, and so does its callback.
             * @example bin_abcdefghij234567
             */
            id: string;
            /**
             * @description `provider`: live money. `sandbox`: the provider's test mode. `simulation`: inert local adapter (development), no money moves.
             * @example sandbox
             * @enum {string}
             */
            mode: "simulation" | "sandbox" | "provider";
            /**
             * @description Where to send the customer: the provider's hosted checkout or portal, or in simulation a local development page that completes the checkout through POST /webhooks/payments. Null when there is nothing to act on.
             * @example https://checkout.stripe.com/c/pay/cs_test_a1b2c3
             */
            url: string | null;
        };
        BillingLine: {
            /**
             * @description quantity × unit price, rounded up to the micro-dollar.
             * @example 0.0096
             */
            amount_usd: string;
            /**
             * @description What the line prices.
             * @example watermark, per megapixel
             */
            description: string;
            /**
             * @description Exact decimal quantity of units.
             * @example 12.000000
             */
            quantity: string;
            /**
             * @description What one unit is.
             * @example megapixel
             * @enum {string}
             */
            unit: "file" | "megapixel" | "second";
            /**
             * @description Price per unit.
             * @example 0.0008
             */
            unit_price_usd: string;
        };
        BillingPlan: {
            caps: components["schemas"]["BillingCaps"];
            /** @description What the plan is for. */
            description: string;
            /**
             * @description Display name.
             * @example Pay as you go
             */
            display_name: string;
            /**
             * @description Plan id.
             * @example payg
             */
            id: string;
            /**
             * @description Monthly subscription price; 0.00 for pay-as-you-go.
             * @example 0.00
             */
            monthly_price_usd: string;
            /**
             * @description Revision of the plan's terms; jobs record it as `active_plan_revision`.
             * @example 1
             */
            revision: number;
        };
        BillingPlans: {
            /**
             * @description Every amount is in US dollars.
             * @example USD
             * @enum {string}
             */
            currency: "USD";
            /** @description The published plans. */
            plans: components["schemas"]["BillingPlan"][];
            /**
             * @description The pricing version the figures were computed under.
             * @example svc.pricing.2026-11.1
             */
            pricing_version: string;
            /**
             * @description `provider` live money, `sandbox` provider test mode, `simulation` the inert local adapter (the default in development), or null when no payments provider is configured (production without SVC_PAYMENTS_MODE).
             * @example simulation
             * @enum {string|null}
             */
            provider_mode: "simulation" | "sandbox" | "provider" | null;
        };
        BillingPricing: {
            /**
             * @description Work is metered only after the tenant opts in (PUT /v1/billing/wallet/settings with expected_version 0).
             * @enum {string}
             */
            activation: "requires_explicit_tenant_enrollment";
            /**
             * @description Every amount is in US dollars.
             * @example USD
             * @enum {string}
             */
            currency: "USD";
            /** @description What is priced at all: a quote outside it answers 422. */
            envelope: {
                /**
                 * @description Longest audio or video priced, in seconds.
                 * @example 14400
                 */
                max_duration_seconds: number;
                /**
                 * @description Highest frame rate priced.
                 * @example 240
                 */
                max_frames_per_second: number;
                /**
                 * @description Largest image priced, in megapixels.
                 * @example 100
                 */
                max_megapixels: number;
            };
            /** @description The line added for a changed fingerprint set. */
            fingerprint_set_change: {
                /**
                 * @description What the line describes.
                 * @example changed fingerprint set
                 */
                description: string;
                /**
                 * @description Charged once per job.
                 * @enum {string}
                 */
                unit: "file";
                /**
                 * @description Added once when a sign request names a fingerprint set other than the recipe's default.
                 * @example 0.0005
                 */
                unit_price_usd: string;
            };
            /**
             * @description The pricing version the figures were computed under.
             * @example svc.pricing.2026-11.1
             */
            pricing_version: string;
            /**
             * @description No plan includes processing credits.
             * @enum {boolean}
             */
            processing_credits_included: false;
            /** @description Every rate in force; a quote adds one line per matching rate. */
            rates: components["schemas"]["BillingRate"][];
        };
        BillingQuote: {
            /**
             * @description Every amount is in US dollars.
             * @example USD
             * @enum {string}
             */
            currency: "USD";
            /**
             * @description Always true: the charge is priced at admission from the server's inspection.
             * @enum {boolean}
             */
            estimate_only: true;
            /** @description What the total does not include. */
            excludes: ("subscription" | "storage" | "egress" | "tax")[];
            /**
             * @description The charge is priced from the server's inspection of the uploaded bytes, not from these facts.
             * @enum {string}
             */
            final_facts_source: "server_validated_media_inspection";
            /** @description One line per matching rate (plus the fingerprint-set line when it applies). */
            lines: components["schemas"]["BillingLine"][];
            /**
             * @description The pricing version the figures were computed under.
             * @example svc.pricing.2026-11.1
             */
            pricing_version: string;
            /**
             * @description Sum of the lines.
             * @example 0.0116
             */
            total_usd: string;
        };
        /** @description The media facts the server's own inspection would record for the work. */
        BillingQuoteRequest: {
            /**
             * @description Seconds (at most 3 decimals); needed for audio and video.
             * @default null
             * @example 12.5
             */
            duration_seconds: number | string | null;
            /**
             * @description Frames per second of video, within the envelope; optional.
             * @default null
             * @example 12.5
             */
            frames_per_second: number | string | null;
            /**
             * @description Pixels; needed for per-megapixel lines.
             * @default null
             * @example 3000
             */
            height: number | null;
            /**
             * @description Media family of the work (`live` has no price yet: 422).
             * @example image
             * @enum {string}
             */
            media_family: "image" | "audio" | "video" | "document" | "text" | "model" | "live";
            /**
             * @description The operation to price.
             * @example sign
             * @enum {string}
             */
            operation: "sign" | "watermark" | "watermark_then_sign";
            /**
             * @description Pixels; needed for per-megapixel lines.
             * @default null
             * @example 4000
             */
            width: number | null;
        };
        BillingRate: {
            /**
             * @description What the rate prices.
             * @example sign one image
             */
            description: string;
            /**
             * @description Media family priced.
             * @example image
             * @enum {string}
             */
            media_family: "image" | "audio" | "video" | "document" | "text" | "model" | "live";
            /**
             * @description Operation priced.
             * @example sign
             * @enum {string}
             */
            operation: "sign" | "watermark" | "watermark_then_sign";
            /**
             * @description What one unit is.
             * @example file
             * @enum {string}
             */
            unit: "file" | "megapixel" | "second";
            /**
             * @description Price per unit (µUSD precision).
             * @example 0.002
             */
            unit_price_usd: string;
        };
        /** @description The soft binding algorithms this service resolves: exactly those available in this deployment (learned models whose weights are not installed are not listed). */
        "c2pa.softBindingAlgList": {
            /** @description Fingerprint algorithms resolved by this service (byBinding and byContent). */
            fingerprints: {
                /**
                 * @description Unique identifier of a fingerprint algorithm.
                 * @example io.iscc.v0
                 */
                alg: string;
            }[];
            /** @description Watermark algorithms resolved by this service (byBinding and byContent). */
            watermarks: {
                /**
                 * @description Unique identifier of a watermark algorithm.
                 * @example svc.watermark.svc-wm-tiledss-1
                 */
                alg: string;
            }[];
        };
        /** @description A soft binding query (C2PA). */
        "c2pa.softBindingQuery": {
            /**
             * @description A string identifying the soft binding algorithm and version of that algorithm used.
             * @example io.iscc.v0
             */
            alg: string;
            /**
             * @description A base64-encoded string describing, in algorithm specific format, the value of the soft binding to be used as the query.
             * @example nxkC2uq1P4E=
             */
            value: string;
        };
        /** @description The manifests matching a soft binding query (C2PA). */
        "c2pa.softBindingQueryResult": {
            /** @description Matches, strongest first, one per manifest, at most `maxResults`; empty when nothing matches. */
            matches: {
                /**
                 * @description Unique identifier of a matched C2PA Manifest (its label); fetch it with GET /manifests/{manifestId}.
                 * @example urn:c2pa:3fa85f64-5717-4562-b3fc-2c963f66afa6
                 */
                manifestId: string;
                /**
                 * @description Strength of the match, 0 (weakest) to 100 (strongest): 100 for an exact watermark payload or ISCC code, the watermark detector's confidence for a payload read from content, 100 × (1 − d/32) for a PDQ hash at Hamming distance d. `endpoint` is never set: every manifest is served by this API's /manifests.
                 * @example 100
                 */
                similarityScore: number;
            }[];
        };
        CancelJobRequest: {
            /**
             * @description Why, for the record.
             * @example Uploaded the wrong file
             */
            reason?: string | null;
        };
        CapabilitiesResponse: {
            /** @description Capture admission capability. */
            capture: {
                /** @description Attestation kinds this deployment can verify now (roots, app keys and, for Android, the revocation list configured). */
                attestation_kinds: ("app_attest" | "play_integrity" | "hardware_key_attestation")[];
                /**
                 * @description Capture admission (device attestation) is offered: a trust snapshot is configured for at least one kind.
                 * @example true
                 */
                available: boolean;
                /**
                 * @description Why capture is unavailable: `not_configured` (no trust snapshot), `configuration_invalid` (it does not parse), `no_trusted_apps`; null when available.
                 * @example null
                 */
                reason: string | null;
            };
            /** @description Versions of the contract this deployment serves. */
            contract: {
                /**
                 * @description Version of the OpenAPI contract.
                 * @example 1.0.0
                 */
                api_version: string;
                /**
                 * @description Customer event catalog version.
                 * @example svc.customer-events.v1
                 */
                event_catalog_version: string;
                /**
                 * @description Where the OpenAPI 3.1 document is served.
                 * @example /openapi.json
                 */
                openapi_url: string;
                /**
                 * @description Recipe catalog version.
                 * @example svc.recipe-catalog.v1
                 */
                recipe_catalog_version: string;
            };
            /** @description Fingerprint algorithms and their availability. */
            fingerprint_algorithms: components["schemas"]["AlgorithmCapability"][];
            limits: components["schemas"]["ServiceLimits"];
            /** @description Every reviewed format. Submit only those with `availability.available` true, within `upload.maximum_bytes`. */
            media: {
                availability: components["schemas"]["Availability"];
                /**
                 * @description File extension of downloads.
                 * @example jpg
                 */
                extension: string;
                /**
                 * @description Whether the manifest is embedded or delivered as a .c2pa file beside the asset.
                 * @example embedded
                 * @enum {string}
                 */
                manifest_delivery: "embedded" | "sidecar";
                media_type: components["schemas"]["MediaType"];
                /**
                 * @description Media family.
                 * @example image
                 */
                modality: string;
                /** @description Upload limits. */
                upload: {
                    /**
                     * @description Largest accepted upload in bytes.
                     * @example 52428800
                     */
                    maximum_bytes: number;
                    /** @description Upload modes accepted. */
                    modes: ("single" | "multipart")[];
                };
                /**
                 * @description Whether watermark recipes can apply to this type (by design).
                 * @example true
                 */
                watermark_offered: boolean;
            }[];
            /** @description Recipes. A sidecar recipe is listed only while at least one of its formats is enabled. */
            recipes: {
                /** @description What the recipe's active version accepts in this deployment now. */
                active: {
                    /** @description Exactly the enabled formats this recipe accepts now. */
                    supported_media_types: components["schemas"]["MediaType"][];
                };
                availability: components["schemas"]["Availability"];
                /**
                 * @description Recipe kind.
                 * @example sign_only
                 */
                kind: string;
                /**
                 * @description Recipe id.
                 * @example rcp_system_sign_only
                 */
                recipe_id: string;
                /**
                 * @description Active version.
                 * @example 1
                 */
                version: number;
            }[];
            /**
             * @description Schema of this document.
             * @enum {string}
             */
            schema_version: "svc.capability-discovery.v1";
            /** @description Watermark algorithms and their availability. */
            watermark_algorithms: components["schemas"]["AlgorithmCapability"][];
        };
        /** @description A stored admission decision with every version it was made under. */
        CaptureAdmission: components["schemas"]["CaptureAdmissionResult"] & {
            /**
             * @description The gates' version with the commercial and governance sources consulted: commercial is the pricing version the wallet was checked under, `unmetered` for a tenant the wallet does not meter (or `unpriced`); governance is the governance rule's version (`svc.governance-capture.v1`).
             * @example svc.capture-admission.v1+commercial:unmetered+governance:svc.governance-capture.v1
             */
            admission_policy_version: string;
            /**
             * @description The asset the capture publishes into.
             * @example ast_2m4k6n7p2q3r4s5t
             */
            asset_id: string;
            /**
             * @description The provider evidence the app presents: Apple App Attest, Google Play Integrity, or Android hardware key attestation.
             * @example app_attest
             * @enum {string}
             */
            attestation_kind: "app_attest" | "play_integrity" | "hardware_key_attestation";
            /**
             * @description Capture identity id.
             * @example cid_abcdefghij234567
             */
            capture_identity_id: string;
            /**
             * @description The capture policy applied.
             * @example cpv_standardcapture2
             */
            capture_policy_id: string;
            /**
             * @description Version of that policy.
             * @example svc.capture-policy.standard.1
             */
            capture_policy_version: string;
            /**
             * @description Admission challenge id.
             * @example cch_abcdefghij234567
             */
            challenge_id: string;
            /**
             * Format: date-time
             * @description When the decision was made (evidence verified at this instant).
             * @example 2026-11-22T10:00:00.000Z
             */
            decided_at: string;
            /**
             * @description Format of the statement.
             * @example svc.capture-statement.v1
             */
            evidence_schema_version: string;
            /**
             * @description Governance policy consulted (`svc.governance-capture.v1`: pending deletions and asset legal holds); `not_configured` in decisions made before it existed.
             * @example svc.governance-capture.v1
             */
            governance_policy_version: string;
            /**
             * @description The identity version the decision rests on: the new version a pass created when the attested OS, patch level or app version moved forward, else the version checked against.
             * @example div_abcdefghij234567
             */
            identity_version_id: string;
            /**
             * @description Gates that could not run because their inputs did not exist (e.g. device facts of evidence that did not verify); never counted as failed.
             * @example []
             */
            not_evaluated: ("capture_identity_revoked" | "capture_identity_conflict" | "evidence_unavailable" | "evidence_invalid" | "app_identity_mismatch" | "app_downgrade" | "os_downgrade" | "security_level" | "boot_state" | "counter_replay" | "clock_rollback" | "reinstall_restore" | "request_mismatch" | "media_substitution" | "governance_rejected" | "asset_closed" | "commercial_rejected" | "capture_work_conflict" | "capture_work_unavailable")[];
            /**
             * @description Who attested the identity.
             * @example apple_app_attest
             * @enum {string}
             */
            provider_class: "apple_app_attest" | "google_play_integrity" | "android_key_attestation" | "other";
            /**
             * @description The Android revocation list consulted, or `none` for other kinds.
             * @example none
             */
            revocation_snapshot_version: string;
            /**
             * @description As submitted.
             * @example null
             */
            sensor_schema_version: string | null;
            /**
             * @description The trust snapshot (roots, apps) in force.
             * @example trust-2026-11-25
             */
            trust_snapshot_version: string;
            /**
             * @description The captured file's stored object.
             * @example aob_2m4k6n7p2q3r4s5t
             */
            upload_object_id: string;
            /**
             * @description The attestation verifier that checked the evidence.
             * @example svc-app-attest/1
             */
            verifier_version: string;
        };
        /** @description Asks for a single-use admission challenge for one identity. */
        CaptureAdmissionChallengeRequest: {
            /**
             * @description Capture identity id.
             * @example cid_abcdefghij234567
             */
            capture_identity_id: string;
        };
        /** @description A single-use admission challenge. */
        CaptureAdmissionChallengeResponse: {
            /**
             * @description Capture identity id.
             * @example cid_abcdefghij234567
             */
            capture_identity_id: string;
            /**
             * @description Admission challenge id.
             * @example cch_abcdefghij234567
             */
            challenge_id: string;
            /**
             * @description Returned once, never again (only its SHA-256 is stored). Single use: one admission consumes it.
             * @example q3Jt7cVh0m3Jv2l8d6Zx1nqC0s5rY9gWfE4bTkLpA2o
             */
            challenge_secret: string;
            /**
             * Format: date-time
             * @description The challenge must be used before this instant (10 minutes after creation).
             * @example 2026-11-22T10:00:00.000Z
             */
            expires_at: string;
        };
        /** @description One page of capture admissions. */
        CaptureAdmissionPage: {
            /** @description Admissions, newest first. */
            items: components["schemas"]["CaptureAdmission"][];
            /** @description Cursor of the next page, or null on the last page. Pages are snapshot-consistent: rows created after the first page are not included. */
            next_cursor: string | null;
        };
        /** @description One capture submitted for admission. */
        CaptureAdmissionRequest: {
            /**
             * @description The evidence kind; must be the identity's.
             * @example app_attest
             * @enum {string}
             */
            attestation_kind: "app_attest" | "play_integrity" | "hardware_key_attestation";
            /**
             * @description Capture identity id.
             * @example cid_abcdefghij234567
             */
            capture_identity_id: string;
            /**
             * @description Admission challenge id.
             * @example cch_abcdefghij234567
             */
            challenge_id: string;
            /**
             * @description The challenge's secret, as returned when it was issued.
             * @example q3Jt7cVh0m3Jv2l8d6Zx1nqC0s5rY9gWfE4bTkLpA2o
             */
            challenge_secret: string;
            /**
             * @description 64 lowercase hex: SHA-256 of an id the app generates once per installation and keeps (a reinstall or restore makes a new one). Admissions compare it (`reinstall_restore`).
             * @example 4f2c0a9e0d1b7c3e5a6f8b9d0c1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e
             */
            installation_id_sha256: string;
            /**
             * @description Optional app-defined sensor readings for the capture (at most 65,536 characters as JSON, 16 levels). Not stored: its SHA-256 (canonical JSON) is recorded and stated in the manifest's `svc.capture` assertion.
             * @example null
             */
            sensor_evidence?: {
                [key: string]: unknown;
            } | null;
            /**
             * @description Version of the app's sensor evidence format; given exactly when `sensor_evidence` is.
             * @example null
             */
            sensor_schema_version?: string | null;
            /**
             * @description The admission evidence, at most 349528 characters. Bound to binding = SHA-256("svc.capture-admission.v1" ‖ the 32 challenge bytes `challenge_secret` encodes ‖ the 32-byte SHA-256 of the captured file as uploaded). A JSON object with exactly these string members: always `media_sha256` (64 lowercase hex of the captured file); `app_attest`: `assertion` (standard base64 of generateAssertion with clientDataHash = SHA-256(binding), signed by the enrolled key; its counter must exceed the last accepted one); `play_integrity`: `token` (the integrity token requested with requestHash = base64url of binding, no padding); `hardware_key_attestation`: `certificate_chain` (PEM, leaf first, of a fresh key generated with setAttestationChallenge(binding)) and `signature` (standard base64 of SHA256withECDSA or SHA256withRSA over binding by the key enrolled with this identity).
             * @example {...}
             */
            statement: string;
            /**
             * @description The captured file: the `asset_object_id` its completed upload answered. Its stored SHA-256 must be the statement's `media_sha256`.
             * @example aob_2m4k6n7p2q3r4s5t
             */
            upload_object_id: string;
        };
        /** @description The decision on one submission. */
        CaptureAdmissionResult: {
            /**
             * @description Capture admission id.
             * @example cad_abcdefghij234567
             */
            capture_admission_id: string;
            /**
             * @description Terminal decision.
             * @example pass
             * @enum {string}
             */
            decision: "pass" | "reject";
            /**
             * @description Every failed gate, in gate order (empty on a pass).
             * @example []
             */
            failed_gates: ("capture_identity_revoked" | "capture_identity_conflict" | "evidence_unavailable" | "evidence_invalid" | "app_identity_mismatch" | "app_downgrade" | "os_downgrade" | "security_level" | "boot_state" | "counter_replay" | "clock_rollback" | "reinstall_restore" | "request_mismatch" | "media_substitution" | "governance_rejected" | "asset_closed" | "commercial_rejected" | "capture_work_conflict" | "capture_work_unavailable")[];
            /**
             * @description The signing job a pass created (GET /v1/jobs/{job_id}); null on a reject.
             * @example job_2m4k6n7p2q3r4s5t
             */
            job_id: string | null;
            /**
             * @description Why the admission passed or was rejected: the first failed gate in the fixed order, or `passed`. `passed`: every gate passed; a signing job was created; `capture_identity_revoked`: the capture identity was revoked (terminal); `capture_identity_conflict`: the installation (or the Android key) presented belongs to another active identity of the tenant; `evidence_unavailable`: the deployment has nothing configured to check this kind of evidence (roots, app keys), or Android evidence has no revocation list to be checked against; `evidence_invalid`: the statement does not verify (format, signature, chain, binding) or its chain is revoked; `app_identity_mismatch`: the evidence names an app that is not trusted, not the enrolled one, or from a refused environment; `app_downgrade`: the app version is lower than one this identity already attested; `os_downgrade`: the OS version or security patch level is lower than this identity already attested; `security_level`: the attested key storage is weaker than the policy's minimum; `boot_state`: the device did not attest a verified boot on a locked device (or the required integrity verdicts); `counter_replay`: the assertion counter did not increase past the last accepted one; `clock_rollback`: the evidence or the decision clock is earlier than this identity's last accepted attestation; `reinstall_restore`: the installation id differs from the enrolled one (reinstall or restore onto another install); `request_mismatch`: the challenge is unknown, another identity's, expired, used or wrong, or the evidence is bound elsewhere; `media_substitution`: the uploaded object's SHA-256 is not the one the attested statement binds; `governance_rejected`: a governance rule refuses the capture (svc.governance-capture.v1): a deletion of the account or of the target asset is queued or running, or a legal hold on the target asset is active; `asset_closed`: the target asset is closed; `commercial_rejected`: the account's commercial state (wallet) refuses the work; `capture_work_conflict`: a job for the upload's asset is already in flight (another admission's or a sign request's); `capture_work_unavailable`: the signing pipeline cannot take this work (no signer or recipe for the media type, or the image cannot be decoded).
             * @example passed
             * @enum {string}
             */
            reason: "passed" | "capture_identity_revoked" | "capture_identity_conflict" | "evidence_unavailable" | "evidence_invalid" | "app_identity_mismatch" | "app_downgrade" | "os_downgrade" | "security_level" | "boot_state" | "counter_replay" | "clock_rollback" | "reinstall_restore" | "request_mismatch" | "media_substitution" | "governance_rejected" | "asset_closed" | "commercial_rejected" | "capture_work_conflict" | "capture_work_unavailable";
        };
        /** @description Completes an enrolment with the device's attestation. */
        CaptureIdentityCreateRequest: {
            /**
             * @description Must equal the enrolment's kind.
             * @example app_attest
             * @enum {string}
             */
            attestation_kind: "app_attest" | "play_integrity" | "hardware_key_attestation";
            /**
             * @description Capture identity enrolment id.
             * @example cie_abcdefghij234567
             */
            capture_identity_enrollment_id: string;
            /**
             * @description The enrolment's challenge secret, as returned.
             * @example q3Jt7cVh0m3Jv2l8d6Zx1nqC0s5rY9gWfE4bTkLpA2o
             */
            challenge_secret: string;
            /**
             * @description The attestation, at most 349528 characters. `app_attest`: the JSON text `{"attestation_object": <standard base64 of the CBOR attestKey returned>, "key_id": <standard base64 of the 32-byte key id generateKey returned>}`, with clientDataHash = SHA-256(challenge bytes). `play_integrity`: the integrity token exactly as the Play Integrity library returned it (compact JWE), requested with `requestHash` (standard request) or `nonce` (classic) = the `challenge_secret` text itself. `hardware_key_attestation`: the KeyStore certificate chain as PEM text, leaf first, for a key generated with `setAttestationChallenge(challenge bytes)`. The challenge bytes are the 32 bytes the `challenge_secret` encodes (base64url without padding).
             * @example {...}
             */
            statement: string;
        };
        /** @description The enrolled identity (its first version). */
        CaptureIdentityCreateResponse: {
            /**
             * @description Capture identity id.
             * @example cid_abcdefghij234567
             */
            capture_identity_id: string;
            /**
             * Format: date-time
             * @description When the enrolment was completed.
             * @example 2026-11-22T10:00:00.000Z
             */
            enrolled_at: string;
            /**
             * @description Version of the identity's facts: 1 at enrolment.
             * @example 1
             */
            identity_version: number;
            /**
             * @description Id of one version of the identity's accepted facts.
             * @example div_abcdefghij234567
             */
            identity_version_id: string;
        };
        /** @description Starts the enrolment of one app installation. */
        CaptureIdentityEnrollmentRequest: {
            /**
             * @description The provider evidence the app presents: Apple App Attest, Google Play Integrity, or Android hardware key attestation.
             * @example app_attest
             * @enum {string}
             */
            attestation_kind: "app_attest" | "play_integrity" | "hardware_key_attestation";
            /**
             * @description 64 lowercase hex: SHA-256 of an id the app generates once per installation and keeps (a reinstall or restore makes a new one). Admissions compare it (`reinstall_restore`).
             * @example 4f2c0a9e0d1b7c3e5a6f8b9d0c1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e
             */
            installation_id_sha256: string;
        };
        /** @description An enrolment challenge. */
        CaptureIdentityEnrollmentResponse: {
            /**
             * @description The provider evidence the app presents: Apple App Attest, Google Play Integrity, or Android hardware key attestation.
             * @example app_attest
             * @enum {string}
             */
            attestation_kind: "app_attest" | "play_integrity" | "hardware_key_attestation";
            /**
             * @description Capture identity enrolment id.
             * @example cie_abcdefghij234567
             */
            capture_identity_enrollment_id: string;
            /**
             * @description Returned once, never again (only its SHA-256 is stored). Its 32 decoded bytes are the challenge the attestation must be bound to; see POST /v1/capture-identities for each kind's binding.
             * @example q3Jt7cVh0m3Jv2l8d6Zx1nqC0s5rY9gWfE4bTkLpA2o
             */
            challenge_secret: string;
            /**
             * Format: date-time
             * @description The enrolment must be completed before this instant (10 minutes after creation).
             * @example 2026-11-22T10:00:00.000Z
             */
            expires_at: string;
        };
        /** @description One page of capture identities. */
        CaptureIdentityPage: {
            /** @description Identities, newest first. */
            items: components["schemas"]["CaptureIdentityResponse"][];
            /** @description Cursor of the next page, or null on the last page. Pages are snapshot-consistent: rows created after the first page are not included. */
            next_cursor: string | null;
        };
        /** @description A capture identity and the facts it was enrolled with. */
        CaptureIdentityResponse: {
            /**
             * @description The attested app: Apple `TEAMID.bundle.id` or Android package.
             * @example TEAM123456.com.example.capture
             */
            app_id: string | null;
            /**
             * @description Attested app version code.
             * @example null
             */
            app_version: number | null;
            /**
             * @description The provider evidence the app presents: Apple App Attest, Google Play Integrity, or Android hardware key attestation.
             * @example app_attest
             * @enum {string}
             */
            attestation_kind: "app_attest" | "play_integrity" | "hardware_key_attestation";
            /**
             * @description Capture identity id.
             * @example cid_abcdefghij234567
             */
            capture_identity_id: string;
            /**
             * @description Highest App Attest counter accepted (0 at enrolment).
             * @example 0
             */
            counter: number | null;
            /**
             * Format: date-time
             * @description When the enrolment was completed.
             * @example 2026-11-22T10:00:00.000Z
             */
            enrolled_at: string;
            /**
             * @description Attested environment, when the provider says.
             * @example production
             * @enum {string|null}
             */
            environment: "production" | "development" | null;
            /**
             * @description Current version of the accepted facts.
             * @example 1
             */
            identity_version: number;
            /**
             * @description Id of one version of the identity's accepted facts.
             * @example div_abcdefghij234567
             */
            identity_version_id: string;
            /**
             * @description 64 lowercase hex: SHA-256 of an id the app generates once per installation and keeps (a reinstall or restore makes a new one). Admissions compare it (`reinstall_restore`).
             * @example 4f2c0a9e0d1b7c3e5a6f8b9d0c1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e
             */
            installation_id_sha256: string;
            /**
             * @description The provider's key identity: App Attest key id (standard base64), Android attested key's SPKI SHA-256 (hex); null for Play Integrity.
             * @example bXktYXBwLWF0dGVzdC1rZXktaWQtMzItYnl0ZXMtbG9uZyE=
             */
            key_id: string | null;
            /**
             * @description Attested OS patch level (YYYYMM).
             * @example null
             */
            os_patch_level: number | null;
            /**
             * @description Attested OS version (Android key attestation).
             * @example null
             */
            os_version: number | null;
            /**
             * @description `ios` for App Attest, `android` otherwise.
             * @example ios
             * @enum {string}
             */
            platform: "ios" | "android";
            /**
             * @description Who attested the identity.
             * @example apple_app_attest
             * @enum {string}
             */
            provider_class: "apple_app_attest" | "google_play_integrity" | "android_key_attestation" | "other";
            /**
             * @description Android revocation list version at enrolment; null for other kinds.
             * @example svc-app-attest/1
             */
            revocation_snapshot_version: string | null;
            /**
             * Format: date-time
             * @description When the identity was revoked.
             * @example 2026-11-22T10:00:00.000Z
             */
            revoked_at: string | null;
            /**
             * @description Android key storage, when attested.
             * @example null
             * @enum {string|null}
             */
            security_level: "strongbox" | "tee" | "software" | null;
            /**
             * @description `active`: may request challenges and submit admissions. `revoked`: terminal; admissions answer `capture_identity_revoked`.
             * @example active
             * @enum {string}
             */
            state: "active" | "revoked";
            /**
             * @description Trust snapshot the enrolment was verified under.
             * @example svc-app-attest/1
             */
            trust_snapshot_version: string;
            /**
             * @description Verifier that checked the enrolment.
             * @example svc-app-attest/1
             */
            verifier_version: string;
        };
        CheckoutIntentRequest: {
            /**
             * @description Top-up only (required there, refused otherwise): whole cents, USD 10.00 to 10000.00, as a decimal string.
             * @example 25.00
             */
            amount_usd?: string;
            /**
             * @description Where the provider sends the customer on cancel; must be on a configured console origin.
             * @example https://console.example.com/billing?checkout=done
             */
            cancel_url: string;
            /**
             * @description A plan id of GET /v1/billing/plans, or null. Required for a subscription whenever a real checkout redirect is returned (sandbox and provider modes; 422 `svc.billing.plan_required`); the simulation answers an inert intent (url null) without one. For a top-up it is optional and does not change the plan.
             * @default null
             * @example studio
             */
            plan: string | null;
            /**
             * @description `subscription` (default): subscribe the account to `plan`. `wallet_top_up`: add `amount_usd` to the prepaid wallet.
             * @default subscription
             * @example wallet_top_up
             * @enum {string}
             */
            purpose: "subscription" | "wallet_top_up";
            /**
             * @description Where the provider sends the customer after paying; must be on a configured console origin (422 `redirect_url_not_allowed`).
             * @example https://console.example.com/billing?checkout=done
             */
            success_url: string;
        };
        CompletePartRequest: {
            /**
             * @description The ETag header the part's PUT returned.
             * @example "3858f62230ac3c915f300c664312c63f"
             */
            etag: string;
            /**
             * @description Part number.
             * @example 1
             */
            part_number: number;
        };
        CompleteUploadRequest: {
            /**
             * @description Multipart: every part with its ETag. Single: omit (send `{}`).
             * @default []
             */
            parts: components["schemas"]["CompletePartRequest"][];
        };
        CompleteUploadResponse: {
            /**
             * @description Asset id (the tenant-visible id; never an `aob_` object id).
             * @example ast_abcdefghij234567
             */
            asset_id: string;
            /**
             * @description Immutable stored object id.
             * @example aob_abcdefghij234567
             */
            asset_object_id: string;
            /**
             * @description Pinned size.
             * @example 48213
             */
            byte_length: number;
            /**
             * @description Lowercase hex SHA-256.
             * @example 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08
             */
            sha256: string;
            /**
             * @description Upload status. `failed`: a multipart upload whose assembled bytes did not match what was declared (its parts are spent); create a new upload.
             * @example initiated
             * @enum {string}
             */
            status: "initiated" | "completed" | "aborted" | "expired" | "failed";
            /**
             * @description Upload id.
             * @example upl_abcdefghij234567
             */
            upload_id: string;
        };
        ConnectCatalogResponse: {
            /** @description Actions an AI assistant may take with this API: one per MCP tool, with its scope and REST operation. */
            ai_actions: components["schemas"]["ConnectGuidance"][];
            /** @description A prompt that tells an assistant how to use this API safely. */
            ai_prompt: string;
            /**
             * Format: uri
             * @description OpenAPI 3.1 document.
             * @example http://127.0.0.1:8787/openapi.json
             */
            api_reference_url: string;
            /**
             * @description How to authenticate.
             * @example Authorization: Bearer <SVC_API_KEY>
             */
            authorization_header: string;
            /** @description The calls of the typical flow, in order. */
            canonical_calls: components["schemas"]["ConnectGuidance"][];
            /** @description Ways to call the API. */
            clients: components["schemas"]["ConnectGuidance"][];
            /** @description Errors newcomers meet and what to do. */
            common_errors: components["schemas"]["ConnectGuidance"][];
            /** @description How clients connect. */
            connection_modes: components["schemas"]["ConnectGuidance"][];
            /** @description How to reason about cost. */
            cost_guidance: components["schemas"]["ConnectGuidance"][];
            /**
             * Format: uri
             * @description Human-readable API reference.
             * @example http://127.0.0.1:8787/docs
             */
            documentation_url: string;
            /** @description Variables examples read. */
            environment_variables: components["schemas"]["ConnectGuidance"][];
            /** @description Limits that shape integrations. */
            limits: components["schemas"]["ConnectGuidance"][];
            /** @description How to connect an MCP client to this API's MCP server (POST /mcp): `json-config` is the `mcpServers` JSON most clients read, with the key as the placeholder `<SVC_API_KEY>`. */
            mcp_clients: components["schemas"]["ConnectGuidance"][];
            /** @description What the MCP server offers: its tools (with scopes), authentication, transport. */
            mcp_feature_groups: components["schemas"]["ConnectGuidance"][];
            /** @description Synchronous and asynchronous processing. */
            processing_modes: components["schemas"]["ConnectGuidance"][];
            /**
             * Format: uri
             * @description Origin of this API.
             * @example http://127.0.0.1:8787
             */
            public_api_origin: string;
            /** @description Rules for handling keys and capabilities. */
            safety_statements: components["schemas"]["ConnectGuidance"][];
            /** @description Request templates. */
            templates: components["schemas"]["ConnectGuidance"][];
            /**
             * @description Catalog version.
             * @enum {string}
             */
            version: "svc.connect-catalog.v1";
        };
        ConnectGuidance: {
            /**
             * @description Stable id of the entry.
             * @example curl
             */
            id: string;
            /**
             * @description The guidance itself.
             * @example curl -H "Authorization: Bearer $SVC_API_KEY" $SVC_API_BASE_URL/v1/capabilities
             */
            text: string;
            /**
             * @description Short title.
             * @example curl
             */
            title: string;
        };
        CreateApiKeyRequest: {
            /**
             * Format: date-time
             * @description Expiry (in the future). Omitted: the calling key's own expiry (none if it has none). null: no expiry, which only a key without expiry may grant; a key never outlives the key that creates it. The new key also inherits the calling key's IP allowlist and rate limit.
             * @example 2027-01-01T00:00:00Z
             */
            expires_at?: string | null;
            /**
             * @description Label for the key.
             * @example CI pipeline
             */
            name: string;
            /**
             * @description Scopes to grant; each must be held by the calling key.
             * @example [
             *       "capabilities:read",
             *       "uploads:write"
             *     ]
             */
            scopes: components["schemas"]["Scope"][];
        };
        /** @description Enrols a creator identity. */
        CreateCreatorIdentityRequest: {
            consent: components["schemas"]["CreatorConsentRequest"];
            /**
             * @description The creator's e-mail, at most 320 characters. Stored only encrypted; trimmed and lowercased (the normalised form is what is disclosed and committed to).
             * @example <email>
             */
            email: string;
            /**
             * @description The creator's display name (1 to 200 characters), or null. Stored only encrypted.
             * @example <name>
             */
            name?: string | null;
        };
        CreateUploadRequest: {
            /**
             * @description Exact size of the bytes.
             * @example 48213
             */
            byte_length: number;
            /**
             * @description Media type of the bytes (`type/subtype`); must be enabled in GET /v1/capabilities.
             * @example image/jpeg
             */
            declared_media_type: string;
            /**
             * @description Original file name, for display.
             * @example photo.jpg
             */
            filename?: string | null;
            /**
             * @description `single`: one PUT; `multipart`: one PUT per declared part.
             * @example single
             * @enum {string}
             */
            mode: "single" | "multipart";
            /**
             * @description Multipart only: the parts, in order.
             * @default []
             */
            parts: components["schemas"]["MultipartPartRequest"][];
            /**
             * @description Lowercase hex SHA-256 of the exact bytes (uppercase is accepted and lowercased).
             * @example 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08
             */
            sha256: string;
        };
        CreateUploadResponse: {
            /**
             * @description Asset id (the tenant-visible id; never an `aob_` object id).
             * @example ast_abcdefghij234567
             */
            asset_id: string;
            /**
             * Format: date-time
             * @description When the upload (and its URLs) expire.
             * @example 2026-11-22T10:00:00.000Z
             */
            expires_at: string;
            /**
             * @description Upload mode.
             * @example single
             * @enum {string}
             */
            mode: "single" | "multipart";
            /** @description Multipart: one request per part. */
            parts: components["schemas"]["PresignedPartResponse"][];
            /**
             * @description Upload status. `failed`: a multipart upload whose assembled bytes did not match what was declared (its parts are spent); create a new upload.
             * @example initiated
             * @enum {string}
             */
            status: "initiated" | "completed" | "aborted" | "expired" | "failed";
            upload: components["schemas"]["PresignedRequestResponse"];
            /**
             * @description Upload id.
             * @example upl_abcdefghij234567
             */
            upload_id: string;
        };
        CreateVerificationRequest: {
            /**
             * @description Immutable stored object id.
             * @example aob_abcdefghij234567
             */
            object_id: string;
        };
        CreateVerificationShareRequest: {
            /**
             * @description Lifetime of the token: 60 s to 30 days (default 7 days).
             * @default 604800
             * @example 86400
             */
            expires_in_seconds: number;
            /**
             * @description Your label for the share (at most 200 chars); never shown to its holder.
             * @example Fact-check desk, Example Daily
             */
            label?: string | null;
        };
        CreateWebhookEndpointRequest: {
            /**
             * @description The endpoint is disabled after this many consecutive failed attempts (1 to 100; default 20); its unfinished deliveries end as `dead`.
             * @example 20
             */
            auto_disable_after_failures?: number;
            /**
             * @description The event catalog the subscription is written against.
             * @example svc.customer-events.v1
             * @enum {string}
             */
            event_catalog_version: "svc.customer-events.v1";
            /**
             * @description Exact event types to receive (see the event catalog); no wildcards, each named once.
             * @example [
             *       "asset.signed"
             *     ]
             */
            events: string[];
            /**
             * @description At most this many requests in flight to the endpoint at once, across the whole service (1 to 20; default 2).
             * @example 2
             */
            max_concurrency?: number;
            /**
             * @description At most this many requests to the endpoint per minute (1 to 600; default 60).
             * @example 60
             */
            rate_limit_per_minute?: number;
            /**
             * @description HTTPS destination (at most 2048 characters) that passes the destination policy: no credentials, and neither the host nor any address it resolves to is loopback, private, link-local or metadata.
             * @example https://hooks.example.com/svc
             */
            url: string;
        };
        /** @description The tenant's attestation that it holds a lawful basis; recorded as given, with the time it was recorded and the API key that gave it. */
        CreatorConsentRequest: {
            /**
             * @description The lawful basis the tenant holds for processing this person's identity (the bases of GDPR Art. 6(1)). The service records it and does not obtain consent itself.
             * @example consent
             * @enum {string}
             */
            basis: "consent" | "contract" | "legal_obligation" | "vital_interests" | "public_task" | "legitimate_interests";
            /**
             * @description Version of the notice the person was shown; null or omitted for none.
             * @example 2026-10
             */
            notice_version?: string | null;
            /**
             * Format: date-time
             * @description When the tenant obtained the basis (for `consent`: when the person agreed).
             * @example 2026-11-20T09:00:00.000Z
             */
            obtained_at: string;
            /**
             * @description The tenant's own reference to its record of the basis (a contract or consent-record id). Opaque: never put personal data here.
             * @example consent-record-4711
             */
            reference?: string | null;
        };
        /** @description The whole policy; omitted fields take their defaults. */
        CreatorDisclosurePolicyRequest: {
            /**
             * @description Name the tenant is shown as, 1 to 200 characters.
             * @example Example Newsroom
             */
            brand_name: string;
            /**
             * @description What the owning tenant's own audience (`owning_tenant`) is shown. `none`: nothing, not even that a creator is attributed. `attributed`: the opaque `creator_ref` and commitment only. `name`: also the name. `name_and_email`: also the e-mail.
             * @default name_and_email
             * @example name_and_email
             * @enum {string}
             */
            console_disclosure: "none" | "attributed" | "name" | "name_and_email";
            /**
             * @description Version of the privacy notice the tenant shows its creators; null for none.
             * @example 2026-10
             */
            notice_version?: string | null;
            /**
             * @description What anyone else (`public`: verifiers, shared results) is shown. `none`: nothing, not even that a creator is attributed. `attributed`: the opaque `creator_ref` and commitment only. `name`: also the name. `name_and_email`: also the e-mail. The e-mail is never public.
             * @default name
             * @example name
             * @enum {string}
             */
            share_disclosure: "none" | "attributed" | "name";
        };
        /** @description The tenant's creator disclosure policy. */
        CreatorDisclosurePolicyResponse: {
            /**
             * @description Name the tenant is shown as in disclosures.
             * @example Example Newsroom
             */
            brand_name: string;
            /**
             * @description What the owning tenant's own audience (`owning_tenant`) is shown. `none`: nothing, not even that a creator is attributed. `attributed`: the opaque `creator_ref` and commitment only. `name`: also the name. `name_and_email`: also the e-mail.
             * @example name_and_email
             * @enum {string}
             */
            console_disclosure: "none" | "attributed" | "name" | "name_and_email";
            /**
             * @description Version of the privacy notice the tenant shows its creators; null for none.
             * @example 2026-10
             */
            notice_version: string | null;
            /**
             * @description What anyone else (`public`: verifiers, shared results) is shown. `none`: nothing, not even that a creator is attributed. `attributed`: the opaque `creator_ref` and commitment only. `name`: also the name. `name_and_email`: also the e-mail. The e-mail is never public.
             * @example name
             * @enum {string}
             */
            share_disclosure: "none" | "attributed" | "name";
            /**
             * Format: date-time
             * @description When the policy was last replaced; null while the defaults apply.
             * @example 2026-11-22T10:00:00.000Z
             */
            updated_at: string | null;
        };
        /** @description What the policy lets this audience know about a creator identity. */
        CreatorDisclosureResponse: {
            /**
             * @description How the identity was established.
             * @example self_asserted
             * @enum {string}
             */
            assurance_level: "self_asserted" | "verified";
            /**
             * @description What the assurance level means, in plain language.
             * @example Asserted by the tenant, which attests a lawful basis; not verified by the service.
             */
            assurance_statement: string;
            /**
             * @description The audience this answer is for.
             * @example owning_tenant
             * @enum {string}
             */
            audience: "owning_tenant" | "public" | "operator";
            /** @description Lets a verifier holding a disclosed identity check it against a manifest; null when the policy is `none`. */
            commitment: {
                /**
                 * @description Hash of the commitment.
                 * @example sha256
                 * @enum {string}
                 */
                algorithm: "sha256";
                /**
                 * @description How the canonical identity is written.
                 * @example JSON {"email":<normalised e-mail>,"name":<name or null>}, keys in this order, no whitespace
                 */
                canonical_form: string;
                /**
                 * @description The 32-byte salt, lowercase hex, only when every field of the canonical identity is disclosed (`name_and_email`); null otherwise, so a partial disclosure cannot be used to guess the rest.
                 * @example null
                 */
                salt: string | null;
                /**
                 * @description Lowercase hex SHA-256(salt ‖ UTF-8 canonical identity), as carried in manifests.
                 * @example 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08
                 */
                value: string;
            } | null;
            /**
             * @description The opaque reference manifests carry; null when the policy is `none`.
             * @example cref_abcdefghijklmnopqrstuvwxyz
             */
            creator_ref: string | null;
            /**
             * @description `disclosed`: `end_user` carries what the policy allows this audience. `withheld`: the policy shows this audience no name (`none` or `attributed`). `withdrawn`, `erased`: the identity's state. `unavailable`: the identity would be disclosed but cannot be decrypted now (no master key configured, or its data key unusable); retry later.
             * @example disclosed
             * @enum {string}
             */
            disclosure_state: "disclosed" | "withheld" | "withdrawn" | "erased" | "unavailable";
            /** @description The creator, only when `disclosed`, and only the fields the policy allows this audience. */
            end_user: {
                /**
                 * @description The creator's normalised e-mail; present only where the policy is `name_and_email`.
                 * @example <email>
                 */
                email?: string;
                /**
                 * @description The creator's name; null when none was enrolled.
                 * @example <name>
                 */
                name: string | null;
            } | null;
            /**
             * @description Version of this document.
             * @example svc.creator-disclosure.v1
             * @enum {string}
             */
            schema_version: "svc.creator-disclosure.v1";
            /** @description The tenant that enrolled the creator. */
            tenant: {
                /**
                 * @description The tenant's brand name from its disclosure policy.
                 * @example Example Newsroom
                 */
                brand_name: string;
                /**
                 * @description The policy's notice version.
                 * @example 2026-10
                 */
                notice_version: string | null;
            };
        };
        /** @description One page of creator identities. */
        CreatorIdentityPage: {
            /** @description Identities, newest first. */
            items: components["schemas"]["CreatorIdentityResponse"][];
            /** @description Cursor of the next page, or null on the last page. Pages are snapshot-consistent: rows created after the first page are not included. */
            next_cursor: string | null;
        };
        /** @description An enrolled creator identity. Never carries the name or e-mail. */
        CreatorIdentityResponse: {
            /**
             * @description `self_asserted`: the tenant asserted the identity; the service did not verify it (all identities today).
             * @example self_asserted
             * @enum {string}
             */
            assurance_level: "self_asserted" | "verified";
            /**
             * Format: date-time
             * @description When the identity was enrolled.
             * @example 2026-11-22T10:00:00.000Z
             */
            created_at: string;
            /**
             * @description Creator identity id.
             * @example crid_abcdefghij234567
             */
            creator_id: string;
            /**
             * @description Whether a name was enrolled (the name itself is never shown here).
             * @example true
             */
            display_name_present: boolean;
            /**
             * Format: date-time
             * @description When the personal data was erased.
             * @example 2026-11-22T10:00:00.000Z
             */
            erased_at: string | null;
            /**
             * @description `active`: attributable and disclosable per policy. `withdrawn`: disclosure stopped, new attributions refused. `erased`: personal data deleted by governance; the commitment can no longer be resolved.
             * @example active
             * @enum {string}
             */
            status: "active" | "withdrawn" | "erased";
            /**
             * Format: date-time
             * @description When the identity was withdrawn.
             * @example 2026-11-22T10:00:00.000Z
             */
            withdrawn_at: string | null;
        };
        CustomerEventDescriptorResponse: {
            /**
             * @description What the event means.
             * @example An asset was signed and published.
             */
            description: string;
            /**
             * @description When the service emits it.
             * @example A job whose recipe signs finishes.
             */
            emitted_when: string;
            type: components["schemas"]["CustomerEventType"];
        };
        /**
         * @description A customer event type of `svc.customer-events.v1`.
         * @example asset.signed
         * @enum {string}
         */
        CustomerEventType: "asset.signed" | "asset.watermarked" | "job.failed";
        DatabaseHealthResponse: {
            /**
             * @description Whether D1 answered a trivial query within 2 seconds.
             * @example ok
             * @enum {string}
             */
            status: "ok" | "unavailable";
        };
        /** @description A deletion request and its progress. */
        Deletion: {
            /**
             * @description The asset deleted (scope `asset`); null for an account deletion.
             * @example ast_abcdefghij234567
             */
            asset_id: string | null;
            /**
             * Format: date-time
             * @description When it reached `completed`, `refused` or `failed`; null before.
             * @example 2026-11-22T10:00:00.000Z
             */
            completed_at: string | null;
            /**
             * @description Deletion id.
             * @example gdl_abcdefghij234567
             */
            deletion_id: string;
            /**
             * @description The legal hold that refused it; on a completed account deletion, a hold placed after the account was already closed (too late to keep anything: the deletion finished); null otherwise.
             * @example lgh_abcdefghij234567
             */
            legal_hold_id: string | null;
            /**
             * @description Why it was refused or failed (`svc.governance.legal_hold_active`, `svc.governance.deletion_failed`); else null.
             * @example null
             */
            reason_code: string | null;
            /**
             * @description What was removed so far, counted per kind: `assets`, `objects` (object records), `stored_objects` (stored bytes: originals, outputs, previews, sidecars, intermediate files), `uploads`, `jobs`, `job_steps`, `receipts`, `verifications`, `verification_reports`, `verification_shares`, `verification_requests`, `soft_bindings`, `pdq_bands`, `pdq_regions`, `chromaprint_frames` and `video_frames` (the watermark and fingerprint recovery index), `webhook_events`, `webhook_deliveries`, `webhook_attempts`, `capture_admissions`; for an account also `api_keys_revoked`, `creators_erased`, `webhook_endpoints`, `capture_identities`, and the other records of the account.
             * @example {
             *       "assets": 1,
             *       "stored_objects": 4,
             *       "jobs": 1,
             *       "receipts": 1,
             *       "soft_bindings": 2,
             *       "pdq_bands": 16
             *     }
             */
            removed: {
                [key: string]: number;
            };
            /**
             * Format: date-time
             * @description When the deletion was requested.
             * @example 2026-11-22T10:00:00.000Z
             */
            requested_at: string;
            /** @description What a deletion keeps, and why: the audit log, billing records the law requires, transparency-log entries, governance records. */
            retained: {
                /**
                 * @description What is kept.
                 * @example audit_log
                 */
                kind: string;
                /**
                 * @description Why it is kept.
                 * @example The audit log is kept: the law requires it.
                 */
                reason: string;
            }[];
            /**
             * @description What is deleted: one asset, or the whole account.
             * @example asset
             * @enum {string}
             */
            scope: "account" | "asset";
            /**
             * @description `queued` → `running` → `completed`; `refused`: a legal hold covers the target (nothing was removed, or, for a hold placed while it ran, nothing more); `failed`: it stopped after repeated failures (ask again to resume: every step only removes what is still there).
             * @example completed
             * @enum {string}
             */
            state: "queued" | "running" | "completed" | "refused" | "failed";
        };
        DeletionPage: {
            /** @description Deletions, newest first. */
            items: components["schemas"]["Deletion"][];
            /** @description Cursor of the next page, or null on the last page. Pages are snapshot-consistent: rows created after the first page are not included. */
            next_cursor: string | null;
        };
        /** @description What to delete: `{ scope: "asset", asset_id }` or `{ scope: "account", confirm: <the tenant id> }`. */
        DeletionRequest: components["schemas"]["AssetDeletionRequest"] | components["schemas"]["AccountDeletionRequest"];
        DeveloperOnboardingResponse: {
            /** @description Key state, never secrets. */
            api_keys: {
                /**
                 * @description Active keys of the tenant.
                 * @example 1
                 */
                active_count: number;
                /**
                 * Format: date-time
                 * @description Most recent use of any active key.
                 * @example 2026-11-22T10:00:00.000Z
                 */
                last_used_at: string | null;
                /**
                 * Format: date-time
                 * @description Creation time of the newest active key.
                 * @example 2026-11-22T10:00:00.000Z
                 */
                newest_created_at: string | null;
            };
            /** @description Variables SDKs and examples read. */
            environment_variables: {
                /**
                 * @description What it holds.
                 * @example A server-side API key.
                 */
                description: string;
                /**
                 * @description Variable name.
                 * @example SVC_API_KEY
                 */
                name: string;
            }[];
            /** @description Setup checklist, in order. */
            steps: {
                /**
                 * @description Whether this deployment can perform the step now.
                 * @example true
                 */
                available: boolean;
                /**
                 * @description Whether the tenant has done it; null where the service does not track it.
                 * @example true
                 */
                completed: boolean | null;
                /**
                 * @description The operation that performs it.
                 * @example POST /v1/api-keys
                 */
                operation: string;
                /**
                 * @description Onboarding step.
                 * @example create_api_key
                 * @enum {string}
                 */
                step: "create_api_key" | "read_capabilities" | "upload" | "sign" | "verify" | "webhooks";
            }[];
        };
        /** @description A download capability for the published output; present only when the job completed and its output is deliverable. */
        DownloadResponse: {
            /**
             * @description Exact published size.
             * @example 52310
             */
            byte_length: number;
            /**
             * Format: date-time
             * @description When the URL stops working; request a new one after.
             * @example 2026-11-22T10:00:00.000Z
             */
            expires_at: string;
            /**
             * @description Asset id plus the container's own extension.
             * @example ast_abcdefghij234567.jpg
             */
            filename: string;
            /**
             * @description Send exactly these headers with the GET (never the API key).
             * @example {}
             */
            headers: {
                [key: string]: string;
            };
            media_type: components["schemas"]["MediaType"];
            /**
             * @description HTTP method.
             * @enum {string}
             */
            method: "GET";
            /**
             * @description Lowercase hex SHA-256.
             * @example 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08
             */
            sha256: string;
            sidecar_manifest: components["schemas"]["SidecarManifestResponse"];
            /**
             * @description Identifies the stored version served (SHA-256 of object id and storage etag); changes only if the stored object were replaced.
             * @example 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08
             */
            storage_version_sha256: string;
            /**
             * Format: uri
             * @description Where to GET the published bytes, before `expires_at`.
             */
            url: string;
        } | null;
        /** @description Reason-coded error envelope. */
        ErrorResponse: {
            /**
             * @description Stable reason code; branch on it, never on the message.
             * @example svc.resource.not_found
             */
            code: string;
            /**
             * Format: uri
             * @description Where this code is documented.
             * @example https://api.example.com/docs/errors#svc.resource.not_found
             */
            documentation_url: string;
            /** @description Per-field problems for contract violations; empty otherwise. */
            field_details: components["schemas"]["FieldDetail"][];
            /** @description The job this error concerns, when there is one. */
            job_reference: {
                /**
                 * @description The job this error concerns.
                 * @example job_abcdefghij234567
                 */
                job_id: string;
                /**
                 * @description Path of the job.
                 * @example /v1/jobs/job_abcdefghij234567
                 */
                job_url: string;
            } | null;
            /**
             * @description Human-readable explanation; may change.
             * @example The resource does not exist for this tenant.
             */
            message: string;
            /**
             * @description Id of this request; also sent as the X-Request-Id header. Quote it when asking for help.
             * @example req_abcdefghij234567
             */
            request_id: string;
            /**
             * @description Whether retrying the same request (with the same Idempotency-Key) can succeed.
             * @example false
             */
            retryable: boolean;
        };
        EventCatalogResponse: {
            /**
             * @description Catalog version.
             * @example svc.customer-events.v1
             * @enum {string}
             */
            catalog_version: "svc.customer-events.v1";
            /** @description Subscribable events. `webhook.test` is not among them: it is only sent by the test operation. */
            events: components["schemas"]["CustomerEventDescriptorResponse"][];
            /**
             * @description Always false: events are named exactly.
             * @default false
             * @example false
             * @enum {boolean}
             */
            wildcard_supported: false;
        };
        ExpressSignResponse: components["schemas"]["JobResponse"] & {
            download: components["schemas"]["DownloadResponse"];
        };
        Feedback: {
            /**
             * @description The related asset given, or null.
             * @example ast_abcdefghij234567
             */
            asset_id: string | null;
            /**
             * Format: date-time
             * @description When it was received.
             * @example 2026-11-25T12:00:00.000Z
             */
            created_at: string;
            /**
             * @description The feedback's id (quote it when following up).
             * @example fdb_abcdefghij234567
             */
            id: string;
            /**
             * @description The related job given, or null.
             * @example job_abcdefghij234567
             */
            job_id: string | null;
            /**
             * @description The kind given.
             * @example verification_dispute
             * @enum {string}
             */
            kind: "bug" | "idea" | "question" | "verification_dispute" | "other";
            /**
             * @description Characters stored (the message itself is never returned).
             * @example 82
             */
            message_length: number;
            /**
             * @description The related verification given, or null.
             * @example vfy_abcdefghij234567
             */
            verification_id: string | null;
        };
        FeedbackRequest: {
            /**
             * @description An asset the feedback is about (optional; checked for its format only).
             * @example ast_abcdefghij234567
             */
            asset_id?: string;
            /**
             * @description A job the feedback is about (optional; checked for its format only).
             * @example job_abcdefghij234567
             */
            job_id?: string;
            /**
             * @description What the feedback is: `bug`, `idea`, `question`, `verification_dispute` (a verification result you believe is wrong: name the verification, and the asset or job when known) or `other`.
             * @example verification_dispute
             * @enum {string}
             */
            kind: "bug" | "idea" | "question" | "verification_dispute" | "other";
            /**
             * @description The feedback, 1 to 4000 characters and not blank. It may contain personal data: it is stored only encrypted under the tenant's data key and never returned, logged or put in the audit log.
             * @example The verification of this image says invalid, but it was signed by our camera app.
             */
            message: string;
            /**
             * @description A verification the feedback is about (optional; checked for its format only).
             * @example vfy_abcdefghij234567
             */
            verification_id?: string;
        };
        FieldDetail: {
            /**
             * @description Machine-readable validation issue.
             * @example invalid_value
             */
            code: string;
            /**
             * @description Dotted path of the field inside its location.
             * @example scopes.0
             */
            field: string;
            /**
             * @description Where the offending value was sent.
             * @example body
             * @enum {string}
             */
            location: "path" | "query" | "header" | "body" | "cookie" | "form";
            /**
             * @description Human-readable explanation.
             * @example Invalid option
             */
            message: string;
        };
        /** @description An export of everything the tenant has as of one instant, as one signed POSIX ustar archive: `records/<kind>/NNNNNN.jsonl` (rows as stored, column names as in the database, at most 1,000 per file; every record of the tenant, console users, legal holds, deletions, exports and feedback included; API-key secret hashes, webhook secrets, share token hashes, challenge hashes, sealed creator fields, users' e-mail fields, the tenant's contact address and feedback's sealed message are omitted, so no e-mail, name or feedback text appears), `objects/<object id>` (each stored object's bytes; objects retention already deleted are counted in `objects_omitted`), `manifest.json` (`format` `svc.governance-export.v1`, `export_id`, `tenant_id`, `as_of`, `audit_head`, `files`: `{path, size, sha256}` of every member but itself and the signature, `counts`) and `manifest.sig` (the signed note over the manifest's SHA-256). Exact version: D1 has no snapshot spanning many queries, so the version is fixed by time — rows created at or before `as_of` and audit entries up to `audit_head`; rows that change are read as they stand when the archive is sealed, and a row deleted in between is absent. Ceiling: one export reads at most about 900,000 records (rows of every kind plus stored objects; each D1 query reads 1,000, within Workers' 1,000 D1 queries per invocation); a larger tenant's export fails with `svc.governance.export_too_large`. */
        GovernanceExport: {
            /**
             * @description SHA-256 (hex) of the whole archive as downloaded; null until completed.
             * @example 3b2c4e0b7a1d3c5e8f6a2b4d0c1e3f5a7b9d1c3e5f7a9b0d2c4e6f8a0b1c3d5e
             */
            archive_sha256: string | null;
            /**
             * Format: date-time
             * @description The snapshot time: every record of the tenant created at or before it is in the archive, none created after. Rows that change (an asset's status, a key's last use) are read as they stand when the archive is sealed.
             * @example 2026-11-22T10:00:00.000Z
             */
            as_of: string;
            /**
             * @description Attempts started (an interrupted attempt restarts from the beginning).
             * @example 1
             */
            attempts: number;
            /** @description The audit chain's head at `as_of`; null when the log was empty. */
            audit_head: {
                /**
                 * @description That entry's hash: the archive's audit chain ends exactly here.
                 * @example 3b2c4e0b7a1d3c5e8f6a2b4d0c1e3f5a7b9d1c3e5f7a9b0d2c4e6f8a0b1c3d5e
                 */
                hash: string;
                /**
                 * @description The last audit entry in the archive.
                 * @example 42
                 */
                seq: number;
            } | null;
            /**
             * @description Archive length in bytes; null until completed.
             * @example 1843200
             */
            bytes: number | null;
            /**
             * Format: date-time
             * @description When it completed or failed; null before.
             * @example 2026-11-22T10:00:00.000Z
             */
            completed_at: string | null;
            /**
             * @description Rows per record kind (`assets`, `jobs`, `audit`, …), plus `objects` (stored objects whose bytes are included) and `objects_omitted` (objects whose bytes retention already deleted). Null until completed.
             * @example {
             *       "assets": 12,
             *       "jobs": 12,
             *       "audit": 40,
             *       "objects": 24,
             *       "objects_omitted": 0
             *     }
             */
            counts: {
                [key: string]: number;
            } | null;
            download: components["schemas"]["GovernanceExportDownload"];
            /**
             * @description Why it failed: `svc.governance.export_object_unavailable` (a stored object's bytes could not be read or did not match their hash), `svc.governance.export_interrupted` (three attempts did not finish), `svc.governance.export_signing_unavailable` (no signing key configured), `svc.governance.export_too_large` (an object of 8 GiB or more, an archive beyond R2's 10,000 parts of 5 MiB, or more than about 900,000 records: see the export's description), `svc.governance.export_ended_by_deletion` (a deletion of the tenant's data completed: a queued or running export fails with it, and an `expired` export whose archive was deleted early carries it). Null otherwise.
             * @example null
             */
            error_code: string | null;
            /**
             * Format: date-time
             * @description When the archive is deleted (completed exports); null otherwise.
             * @example 2026-11-22T10:00:00.000Z
             */
            expires_at: string | null;
            /**
             * @description Export id.
             * @example gex_abcdefghij234567
             */
            export_id: string;
            /**
             * @description Members of the archive, manifest included.
             * @example 61
             */
            file_count: number | null;
            /**
             * @description SHA-256 (hex) of the archive's `manifest.json`, the text the signature covers; null until completed.
             * @example 3b2c4e0b7a1d3c5e8f6a2b4d0c1e3f5a7b9d1c3e5f7a9b0d2c4e6f8a0b1c3d5e
             */
            manifest_sha256: string | null;
            /**
             * Format: date-time
             * @description When the export was requested.
             * @example 2026-11-22T10:00:00.000Z
             */
            requested_at: string;
            /** @description Who asked for it. */
            requested_by: {
                /**
                 * @description The requesting key or user id.
                 * @example key_abcdefghij234567
                 */
                id: string | null;
                /**
                 * @description Actor kind, as in the audit log (`api_key`, `console_user`).
                 * @example api_key
                 */
                kind: string;
            };
            signature: components["schemas"]["GovernanceExportSignature"];
            /**
             * Format: date-time
             * @description When the current or last attempt started; null while queued for the first time.
             * @example 2026-11-22T10:00:00.000Z
             */
            started_at: string | null;
            /**
             * @description `queued` → `running` → `completed` (archive ready) or `failed` (see `error_code`; nothing half-sealed is ever offered); `completed` → `expired` when the archive is deleted (7 days after completion, or at once when a deletion of the tenant's data completes: `error_code` says so).
             * @example completed
             * @enum {string}
             */
            state: "queued" | "running" | "completed" | "failed" | "expired";
        };
        /** @description The archive's download, while `completed`; else null (also null while downloads are not configured in this deployment). */
        GovernanceExportDownload: {
            /**
             * Format: date-time
             * @description The URL stops working at this instant (15 minutes after it was minted); read the export again for a new one.
             * @example 2026-11-22T10:00:00.000Z
             */
            expires_at: string;
            /**
             * @description Suggested file name.
             * @example gex_abcdefghij234567.tar
             */
            filename: string;
            /**
             * @description Send exactly these headers (often none).
             * @example {}
             */
            headers: {
                [key: string]: string;
            };
            /**
             * @description A POSIX ustar archive.
             * @example application/x-tar
             * @enum {string}
             */
            media_type: "application/x-tar";
            /**
             * @description Always GET.
             * @example GET
             * @enum {string}
             */
            method: "GET";
            /**
             * Format: uri
             * @description Presigned URL of the archive (R2's presigned origin; Worker-served only in development). The URL is the credential: never send the API key there. Minted anew on every read of the record.
             * @example https://objects.example.com/t/tnt_abcdefghij234567/exports/gex_abcdefghij234567.tar?X-Amz-Signature=…
             */
            url: string;
        } | null;
        GovernanceExportPage: {
            /** @description Exports, newest first. */
            items: components["schemas"]["GovernanceExport"][];
            /** @description Cursor of the next page, or null on the last page. Pages are snapshot-consistent: rows created after the first page are not included. */
            next_cursor: string | null;
        };
        /** @description The signature over the manifest; null until completed. */
        GovernanceExportSignature: {
            /**
             * @description A signed note (c2sp.org/signed-note, ECDSA P-256 signature type 0x02) made with the transparency log's checkpoint key: the same key and format as the checkpoints of GET /v1/anchor/checkpoint, verifiable with `verifier_key` by any signed-note verifier.
             * @example signed-note
             * @enum {string}
             */
            format: "signed-note";
            /**
             * @description The signing key's name (the log's origin).
             * @example svc.example/manifest-log
             */
            key_name: string;
            /**
             * @description The note: text lines `svc-governance-export/v1`, export id, tenant id, `manifest.json`'s SHA-256 (hex), each ending in a newline; a blank line; the signature line (`— <key name> base64(key id ‖ DER ECDSA signature over SHA-256 of the text)`). Also in the archive as `manifest.sig`.
             * @example svc-governance-export/v1
             *     gex_abcdefghij234567
             *     tnt_abcdefghij234567
             *     3b2c…
             *
             *     — svc.example/manifest-log BASE64
             */
            note: string;
            /**
             * @description The public key in signed-note verifier form `<name>+<hex key id>+base64(0x02 ‖ SPKI)`: the `verifier_key` GET /v1/anchor/checkpoint publishes.
             * @example svc.example/manifest-log+1a2b3c4d+AjBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABA…
             */
            verifier_key: string;
        } | null;
        GovernanceReadinessResponse: {
            /**
             * @description Capture admission (device attestation) can decide admissions.
             * @example false
             */
            capture_authority: boolean;
            /**
             * @description Billing can admit and charge work.
             * @example false
             */
            commercial_authority: boolean;
            /**
             * @description The soft-binding index reconciler succeeded within the last 15 minutes.
             * @example false
             */
            derived_index_reconciler: boolean;
            /**
             * @description `ready` only when all three authorities are ready.
             * @example not_ready
             * @enum {string}
             */
            status: "ready" | "not_ready";
        };
        HealthResponse: {
            /**
             * @description Service name.
             * @example svc
             */
            service: string;
            /**
             * @description Revision of the deployed source.
             * @example dev
             */
            source_revision: string;
            /**
             * @description Always `ok` when the Worker answers.
             * @enum {string}
             */
            status: "ok";
        };
        /** @description Authentication and scope failures carry only this stable detail. */
        HttpErrorResponse: {
            /**
             * @description Stable description of the failure.
             * @example Authentication required: send a valid API key as 'Authorization: Bearer <API_KEY>'.
             */
            detail: string;
        };
        IdpCallbackResponse: {
            /**
             * @description True when this `idp-id` was already received: the answer repeats the first result and nothing changed.
             * @example false
             */
            duplicate: boolean;
            /**
             * @description `applied`: the user changed (deactivated, reactivated, deleted, e-mail changed). `unchanged`: the user already was so. `unknown_user`: no user of ours has that subject (a deactivation or deletion is still kept: that subject cannot sign up until reactivated, or ever once deleted). `ignored`: an event type we do not act on.
             * @example applied
             * @enum {string}
             */
            result: "applied" | "unchanged" | "unknown_user" | "ignored";
            /**
             * @description The callback was verified and recorded.
             * @example received
             * @enum {string}
             */
            status: "received";
        };
        /** @description An identity-provider user-lifecycle event (Svix-style envelope). */
        IdpEvent: {
            /** @description Who the event is about. */
            data: {
                /**
                 * @description `user.email_changed` only: the new e-mail (required there, with `email_verified: true`).
                 * @example new@example.com
                 */
                email?: string;
                /**
                 * @description `user.email_changed` only: must be true.
                 * @example true
                 */
                email_verified?: boolean;
                /**
                 * @description The issuer the subject belongs to; default the configured session issuer (SVC_SESSION_ISSUER).
                 * @example https://idp.example.com
                 */
                issuer?: string;
                /**
                 * @description The user's subject (`sub`) at the identity provider.
                 * @example user_2x9k
                 */
                subject: string;
            };
            /**
             * @description Event type. Understood: `user.deactivated`, `user.reactivated`, `user.deleted`, `user.email_changed`; any other type is acknowledged with result `ignored`.
             * @example user.deactivated
             */
            type: string;
        };
        ImageProfile: {
            /** @description What works now. Only these fields describe accepted capability. */
            accepted: {
                /** @description Fingerprint algorithms available now. */
                fingerprint_algorithms: string[];
                /** @description Operations that work on this type now. */
                operations: ("sign" | "watermark" | "fingerprint")[];
                /** @description Recipes accepting this type now. */
                recipes: string[];
                /** @description Watermark algorithms available now. */
                watermark_algorithms: string[];
            };
            availability: components["schemas"]["Availability"];
            /** @description Limits. */
            limits: {
                /**
                 * @description Upload ceiling in bytes.
                 * @example 52428800
                 */
                maximum_bytes: number;
            };
            media_type: components["schemas"]["MediaType"];
            /** @description The reviewed envelope; not a promise of availability. */
            planned: {
                /** @description Operations the reviewed design covers. */
                operations: ("sign" | "watermark" | "fingerprint")[];
                /** @description Recipes designed for this type. */
                recipes: string[];
            };
            /**
             * @description Profile id (the media type's short name).
             * @example jpeg
             */
            profile_id: string;
        };
        ImageProfilesResponse: {
            /** @description One profile per reviewed image format with an embedded manifest. */
            profiles: components["schemas"]["ImageProfile"][];
        };
        IssuedApiKeyResponse: {
            api_key: components["schemas"]["ApiKeyResponse"];
            /**
             * @description The key. Shown once; store it as a server-side secret (SVC_API_KEY).
             * @example svc_live_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa
             */
            secret: string;
        };
        /** @description A new share and its one-time token. */
        IssuedVerificationShare: components["schemas"]["VerificationShare"] & {
            /**
             * @description The capability: 32 random bytes, base64url. Shown once; only its SHA-256 is stored.
             * @example q1z7bH3vJmW0pXo4eR9tY2uI5oP8aS6dF1gH3jK4lZw
             */
            token: string;
            /**
             * @description Path that serves the shared projection to anyone holding the token (no API key).
             * @example /v1/shared-verifications/q1z7bH3vJmW0pXo4eR9tY2uI5oP8aS6dF1gH3jK4lZw
             */
            url: string;
        };
        IssuedWebhookEndpointResponse: {
            endpoint: components["schemas"]["WebhookEndpointResponse"];
            /**
             * @description Signing secret (`whsec_` + base64 of 32 random bytes). Returned once; the service cannot show it again, so replaying the Idempotency-Key answers 409 `secret_not_replayable`.
             * @example whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=
             */
            secret: string;
        };
        JobPage: {
            /** @description Jobs, newest first. */
            items: components["schemas"]["JobResponse"][];
            /** @description Cursor of the next page, or null on the last page. Pages are snapshot-consistent: rows created after the first page are not included. */
            next_cursor: string | null;
        };
        JobProgressResponse: {
            /**
             * @description Steps finished.
             * @example 2
             */
            completed_steps: number;
            /**
             * @description The step running now, if any.
             * @example sign
             */
            current_step: string | null;
            /**
             * @description Whole-number percentage of steps finished.
             * @example 66
             */
            percent: number;
            /**
             * @description Steps of the recipe.
             * @example 3
             */
            total_steps: number;
        };
        JobResponse: {
            /**
             * @description Revision of the tenant's plan (GET /v1/billing/account) at admission.
             * @example 1
             */
            active_plan_revision: number;
            /**
             * @description Asset id (the tenant-visible id; never an `aob_` object id).
             * @example ast_abcdefghij234567
             */
            asset_id: string;
            /**
             * Format: date-time
             * @description When cancellation was requested.
             * @example 2026-11-22T10:00:00.000Z
             */
            cancel_requested_at: string | null;
            /**
             * Format: date-time
             * @description When the job was admitted.
             * @example 2026-11-22T10:00:00.000Z
             */
            created_at: string;
            /**
             * @description Set when the job failed or was rejected.
             * @example null
             */
            error_code: string | null;
            /**
             * @description Human-readable reason for error_code.
             * @example null
             */
            error_message: string | null;
            /**
             * @description Job id.
             * @example job_abcdefghij234567
             */
            job_id: string;
            media_inspection: components["schemas"]["NormalizedInspectionFacts"];
            /**
             * @description Processing mode.
             * @example standard
             * @enum {string}
             */
            mode: "standard" | "express";
            /**
             * @description Signing policy version at admission.
             * @example svc.sign-policy.v1
             */
            policy_version: string;
            /**
             * @description The pricing version the job's quote was reserved under (GET /v1/billing/pricing); null when the tenant is not metered by the prepaid wallet.
             * @example svc.pricing.2026-11.1
             */
            pricing_version: string | null;
            progress: components["schemas"]["JobProgressResponse"];
            /**
             * @description Recipe id.
             * @example rcp_system_sign_only
             */
            recipe_id: string;
            /**
             * @description Recipe version the job was admitted with.
             * @example 1
             */
            recipe_version: number;
            result: components["schemas"]["JobResultResponse"];
            /**
             * @description Job state. `accepted`: admitted, its queue message not yet sent (the cron sweep sends it); `queued`: waiting for a worker; `running`: a worker holds the job's lease, renewed at every finished step (a lapsed lease is queued again by the sweep; after 6 attempts the job fails with `svc.jobs.attempts_exhausted`); `cancel_requested`: cancellation asked while running. Terminal: `completed` (with `result`), `failed` (the service could not finish it), `rejected` (its input cannot be processed, e.g. `svc.jobs.decode_failed`), `canceled`, `expired` (not started within 24 hours of admission, `svc.jobs.expired`). `failed`, `rejected` and `expired` carry `error_code` and send the `job.failed` event.
             * @example queued
             * @enum {string}
             */
            state: "accepted" | "queued" | "running" | "cancel_requested" | "completed" | "canceled" | "expired" | "rejected" | "failed";
            /** @description The recipe's steps, in order. */
            steps: components["schemas"]["JobStepResponse"][];
            /**
             * Format: date-time
             * @description When the job reached a terminal state.
             * @example 2026-11-22T10:00:00.000Z
             */
            terminal_at: string | null;
        };
        /** @description Present only for a completed job. */
        JobResultResponse: {
            /**
             * @description Publication id.
             * @example pub_abcdefghij234567
             */
            publication_id: string;
            /**
             * @description Receipt of the publication.
             * @example rct_abcdefghij234567
             */
            receipt_id: string;
            /**
             * @description Verification evidence of the published output, readable at once.
             * @example vfy_abcdefghij234567
             */
            verification_id: string;
        } | null;
        JobStepResponse: {
            /**
             * Format: date-time
             * @description When the step finished.
             * @example 2026-11-22T10:00:00.000Z
             */
            completed_at: string | null;
            /**
             * @description Why the step failed.
             * @example null
             */
            error_code: string | null;
            /**
             * Format: date-time
             * @description When the step started.
             * @example 2026-11-22T10:00:00.000Z
             */
            started_at: string | null;
            /**
             * @description Step state.
             * @example completed
             * @enum {string}
             */
            state: "pending" | "running" | "completed" | "failed" | "skipped";
            /**
             * @description Step name.
             * @example sign
             */
            step: string;
        };
        /** @description A legal hold: while active, nothing it covers can be deleted (deletions answer 409 `svc.governance.legal_hold_active`), retention expiry skips the held assets, and captures into a held asset are refused. Holds are placed and released by the service operator, not through this API. */
        LegalHold: {
            /**
             * @description True until the operator releases the hold.
             * @example true
             */
            active: boolean;
            /**
             * @description The held asset (scope `asset`); null for an account hold.
             * @example ast_abcdefghij234567
             */
            asset_id: string | null;
            /**
             * @description Legal hold id.
             * @example lgh_abcdefghij234567
             */
            legal_hold_id: string;
            /**
             * Format: date-time
             * @description When it was placed.
             * @example 2026-11-22T10:00:00.000Z
             */
            placed_at: string;
            /**
             * @description The operator who placed it.
             * @example ops.alice
             */
            placed_by: string;
            /**
             * @description Why the hold was placed, as the operator wrote it (a matter or case reference; never personal data).
             * @example Litigation hold, matter 2026-117
             */
            reason: string;
            /**
             * Format: date-time
             * @description When it was released; null while active.
             * @example 2026-11-22T10:00:00.000Z
             */
            released_at: string | null;
            /**
             * @description The operator who released it; null while active.
             * @example null
             */
            released_by: string | null;
            /**
             * @description `account`: every asset of the tenant, and the account itself, is held; `asset`: one asset is held.
             * @example asset
             * @enum {string}
             */
            scope: "account" | "asset";
        };
        LegalHoldPage: {
            /** @description Holds, most recently placed first. */
            items: components["schemas"]["LegalHold"][];
            /** @description Cursor of the next page, or null on the last page. Pages are snapshot-consistent: rows created after the first page are not included. */
            next_cursor: string | null;
        };
        /** @description One JSON-RPC 2.0 message of the Model Context Protocol. Batches (arrays) are refused (422): the protocol dropped them in 2025-06-18, and one POST running many tool calls at once would multiply a request's memory and CPU inside one isolate. */
        McpRequest: {
            /**
             * @description Request id; absent for notifications.
             * @example 1
             */
            id?: string | number;
            /**
             * @description JSON-RPC version.
             * @example 2.0
             * @enum {string}
             */
            jsonrpc: "2.0";
            /**
             * @description MCP method: `initialize`, `notifications/initialized`, `tools/list`, `tools/call`, `ping`.
             * @example tools/list
             */
            method: string;
            /** @description Method parameters. */
            params?: {
                [key: string]: unknown;
            };
        };
        /** @description One JSON-RPC 2.0 response of the Model Context Protocol. */
        McpResponse: {
            /** @description A JSON-RPC error (protocol-level; a failed tool answers a result with `isError`). */
            error?: {
                /**
                 * @description JSON-RPC error code (e.g. -32602 invalid params).
                 * @example -32602
                 */
                code: number;
                /** @description More about the error, when given. */
                data?: unknown;
                /**
                 * @description What went wrong.
                 * @example Tool delete_everything not found
                 */
                message: string;
            };
            /**
             * @description The request's id.
             * @example 1
             */
            id: string | number | null;
            /**
             * @description JSON-RPC version.
             * @example 2.0
             * @enum {string}
             */
            jsonrpc: "2.0";
            /** @description The method's result. */
            result?: {
                [key: string]: unknown;
            };
        };
        /**
         * @description A reviewed media type (SPEC Formats).
         * @example image/jpeg
         * @enum {string}
         */
        MediaType: "audio/mp4" | "audio/mpeg" | "audio/wav" | "image/avif" | "image/jpeg" | "image/png" | "image/tiff" | "image/webp" | "video/mp4" | "audio/flac" | "image/gif" | "image/heic" | "image/heic-sequence" | "image/heif" | "image/heif-sequence" | "image/jxl" | "image/svg+xml" | "image/x-adobe-dng" | "video/quicktime" | "video/x-msvideo" | "audio/MPA" | "audio/aac" | "audio/x-riff-based" | "application/epub+zip" | "application/oxps" | "application/pdf" | "application/vnd.oasis.opendocument.text" | "application/vnd.openxmlformats-officedocument.wordprocessingml.document" | "application/x-zip-based" | "font/otf" | "image/x-riff-based" | "image/x-tiff-based" | "application/onnx" | "application/x-jax" | "application/x-keras" | "application/x-mlnet" | "application/x-mxnet" | "application/x-npy" | "application/x-openvino-ir+xml" | "application/x-openvino-weights" | "application/x-pickle" | "application/x-protobuf" | "application/x-pytorch" | "application/x-tensorflow" | "application/x-tensorflow-savedmodel" | "application/xhtml+xml" | "application/xml" | "text/html" | "text/plain" | "text/xml" | "video/x-bmff-based" | "video/x-riff-based";
        MeResponse: {
            /** @description The credential behind this request. */
            credential: {
                /**
                 * @description The key used; null for a console session.
                 * @example key_abcdefghij234567
                 */
                api_key_id: string | null;
                /**
                 * @description Kind of credential used for this request: an API key, or a signed-in console session.
                 * @example api_key
                 * @enum {string}
                 */
                kind: "api_key" | "session";
                /** @description Scopes the credential holds (a console session holds every scope). */
                scopes: components["schemas"]["Scope"][];
                /**
                 * @description The console user signed in; null for an API key.
                 * @example usr_abcdefghij234567
                 */
                user_id: string | null;
            };
            /**
             * @description For a console session, the signed-in user's e-mail (as verified by the identity provider); for an API key, the account's contact e-mail when one is recorded (accounts provisioned by a console sign-in record none).
             * @example dev@localhost
             */
            email: string | null;
            /**
             * @description Public id of the account (tenant).
             * @example ten_abcdefghij234567
             */
            public_id: string;
            /**
             * @description Account name.
             * @example Development
             */
            tenant_name: string;
        };
        MultipartPartRequest: {
            /**
             * @description Exact part size; every part but the last at least 5 MiB.
             * @example 5242880
             */
            byte_length: number;
            /**
             * @description Part number, 1..n in order.
             * @example 1
             */
            part_number: number;
        };
        /** @description What inspection found in the source bytes. */
        NormalizedInspectionFacts: {
            /**
             * @description Audio codec.
             * @example null
             */
            audio_codec: string | null;
            /**
             * @description Bits per sample.
             * @example 8
             */
            bit_depth: number | null;
            /**
             * @description Size in bytes.
             * @example 48213
             */
            byte_length: number;
            /**
             * @description Audio channels.
             * @example null
             */
            channels: number | null;
            /**
             * @description Chroma subsampling.
             * @example 4:2:0
             */
            chroma_subsampling: string | null;
            /**
             * @description Container family.
             * @example jpeg
             */
            container: string;
            /**
             * @description Duration.
             * @example null
             */
            duration_seconds: number | null;
            /**
             * @description Frame rate.
             * @example null
             */
            frames_per_second: number | null;
            /**
             * @description Whether the source already carried a manifest store.
             * @example false
             */
            has_c2pa_manifest: boolean;
            /**
             * @description Height in pixels.
             * @example 768
             */
            height: number | null;
            /**
             * @description Media type sniffed from the bytes.
             * @example image/jpeg
             */
            media_type: string;
            /**
             * @description Media family.
             * @example image
             */
            modality: string;
            /**
             * @description Audio sample rate.
             * @example null
             */
            sample_rate: number | null;
            /**
             * @description Video codec.
             * @example null
             */
            video_codec: string | null;
            /**
             * @description Width in pixels.
             * @example 1024
             */
            width: number | null;
        } | null;
        Overview: {
            /** @description Activity over the range as a series. */
            activity: {
                /** @description Every bucket the range touches, oldest first, 0 when nothing happened (the first and last may be partial). */
                buckets: {
                    /**
                     * @description Assets created in the bucket (within the range).
                     * @example 12
                     */
                    assets: number;
                    /**
                     * @description Jobs created in the bucket (within the range).
                     * @example 12
                     */
                    jobs: number;
                    /**
                     * @description The bucket: `YYYY-MM-DD` (day) or `YYYY-MM` (month), UTC.
                     * @example 2026-11-24
                     */
                    start: string;
                    /**
                     * @description Verifications made in the bucket (within the range).
                     * @example 12
                     */
                    verifications: number;
                }[];
                /**
                 * @description Bucket size: UTC days for 7d and 30d, UTC months for 12m.
                 * @example day
                 * @enum {string}
                 */
                unit: "day" | "month";
            } | null;
            /**
             * Format: date-time
             * @description When the overview was computed (each figure's own read time is in `freshness`).
             * @example 2026-11-25T12:00:00.000Z
             */
            as_of: string;
            /** @description Failed jobs and dead deliveries in the range, disabled endpoints, a low wallet, keys expiring within 14 days. */
            attention: {
                /**
                 * @description False when a figure the items are derived from is unavailable, so an item may be missing.
                 * @example true
                 */
                complete: boolean;
                /** @description Items needing attention, most severe first; empty when nothing does. */
                items: {
                    /**
                     * @description How many (jobs, deliveries, endpoints or keys; 1 for the wallet).
                     * @example 12
                     */
                    count: number;
                    /**
                     * @description What needs attention.
                     * @example failed_jobs
                     * @enum {string}
                     */
                    kind: "failed_jobs" | "dead_deliveries" | "disabled_endpoints" | "low_wallet" | "keys_expiring";
                    /**
                     * @description A short English summary (no personal data).
                     * @example 3 jobs failed in the range.
                     */
                    message: string;
                    /**
                     * @description `critical`: work or delivery is stopped until acted on.
                     * @example warning
                     * @enum {string}
                     */
                    severity: "warning" | "critical";
                }[];
            };
            /** @description Totals of the requested range against the previous range of equal length. */
            comparison: {
                /** @description A count in both ranges, or null when its figure is unavailable. */
                assets: {
                    /**
                     * @description (current − previous) / previous; null when previous is 0.
                     * @example 0.25
                     */
                    change_ratio: number | null;
                    /**
                     * @description In the requested range.
                     * @example 12
                     */
                    current: number;
                    /**
                     * @description In the previous range of equal length.
                     * @example 12
                     */
                    previous: number;
                } | null;
                /** @description A count in both ranges, or null when its figure is unavailable. */
                jobs: {
                    /**
                     * @description (current − previous) / previous; null when previous is 0.
                     * @example 0.25
                     */
                    change_ratio: number | null;
                    /**
                     * @description In the requested range.
                     * @example 12
                     */
                    current: number;
                    /**
                     * @description In the previous range of equal length.
                     * @example 12
                     */
                    previous: number;
                } | null;
                /**
                 * Format: date-time
                 * @description End of the previous range (exclusive): the requested range's start.
                 * @example 2026-11-25T12:00:00.000Z
                 */
                previous_range_end: string;
                /**
                 * Format: date-time
                 * @description Start of the previous range (inclusive).
                 * @example 2026-11-25T12:00:00.000Z
                 */
                previous_range_start: string;
                /** @description A count in both ranges, or null when its figure is unavailable. */
                verifications: {
                    /**
                     * @description (current − previous) / previous; null when previous is 0.
                     * @example 0.25
                     */
                    change_ratio: number | null;
                    /**
                     * @description In the requested range.
                     * @example 12
                     */
                    current: number;
                    /**
                     * @description In the previous range of equal length.
                     * @example 12
                     */
                    previous: number;
                } | null;
                /** @description A count in both ranges, or null when its figure is unavailable. */
                webhook_deliveries: {
                    /**
                     * @description (current − previous) / previous; null when previous is 0.
                     * @example 0.25
                     */
                    change_ratio: number | null;
                    /**
                     * @description In the requested range.
                     * @example 12
                     */
                    current: number;
                    /**
                     * @description In the previous range of equal length.
                     * @example 12
                     */
                    previous: number;
                } | null;
            };
            /** @description Per figure group that was computed (`activity`, `jobs`, …, `api_keys`): when and how it was read. */
            freshness: {
                [key: string]: {
                    /**
                     * Format: date-time
                     * @description How current the figure is: when it was read, or the pre-aggregate's computation time.
                     * @example 2026-11-25T12:00:00.000Z
                     */
                    as_of: string;
                    /**
                     * @description `live`: counted from the records at `as_of`. `daily_aggregate`: whole UTC days that ended at least two days ago come from a daily pre-aggregate computed at `as_of` (the oldest computation used); later days and the range's partial edge days are counted live. A change to an aggregated day's records after `as_of` (a late state change) shows once that day is re-aggregated.
                     * @example live
                     * @enum {string}
                     */
                    source: "live" | "daily_aggregate";
                };
            };
            /** @description Governance flags: the audit log's activity (GET /v1/governance/audit for the entries), holds in force, deletions pending and the newest export. */
            governance: {
                /**
                 * @description Audit log entries appended in the range.
                 * @example 12
                 */
                audit_entries: number;
                /**
                 * @description Deletions queued or running (GET /v1/governance/deletions).
                 * @example 12
                 */
                deletions_pending: number;
                /**
                 * Format: date-time
                 * @description The newest audit entry's time, or null when the log is empty.
                 * @example 2026-11-25T12:00:00.000Z
                 */
                last_audit_at: string | null;
                /** @description The newest export (GET /v1/governance/exports), or null when there has been none. */
                last_export: {
                    /**
                     * Format: date-time
                     * @description When it completed, or null.
                     * @example 2026-11-25T12:00:00.000Z
                     */
                    completed_at: string | null;
                    /**
                     * @description The newest export's state.
                     * @example completed
                     * @enum {string}
                     */
                    state: "queued" | "running" | "completed" | "failed" | "expired";
                } | null;
                /** @description Legal holds in force now (GET /v1/governance/legal-holds). */
                legal_holds: {
                    /**
                     * @description Account-wide holds in force (every asset is held).
                     * @example 12
                     */
                    account: number;
                    /**
                     * @description Holds in force on single assets.
                     * @example 12
                     */
                    assets: number;
                };
            } | null;
            /** @description The tenant's health, derived from jobs, webhooks and attention (no query of its own). */
            health: {
                /**
                 * @description Failed or dead deliveries over ended deliveries in the range; null when none ended (or unavailable).
                 * @example 0
                 */
                delivery_failure_rate: number | null;
                /**
                 * @description Failed or rejected jobs over terminal jobs created in the range; null when none ended (or unavailable).
                 * @example 0.02
                 */
                job_failure_rate: number | null;
                /**
                 * @description `degraded`: a critical attention item; `attention`: a warning item; `ok`: none; `unknown`: neither jobs nor webhooks could be read.
                 * @example ok
                 * @enum {string}
                 */
                status: "ok" | "attention" | "degraded" | "unknown";
            };
            /** @description Jobs created in the range. */
            jobs: {
                /** @description Jobs created in the range, by their state now (every state is present, 0 when none). */
                by_state: {
                    /**
                     * @description Jobs in `accepted`.
                     * @example 12
                     */
                    accepted: number;
                    /**
                     * @description Jobs in `cancel_requested`.
                     * @example 12
                     */
                    cancel_requested: number;
                    /**
                     * @description Jobs in `canceled`.
                     * @example 12
                     */
                    canceled: number;
                    /**
                     * @description Jobs in `completed`.
                     * @example 12
                     */
                    completed: number;
                    /**
                     * @description Jobs in `expired`.
                     * @example 12
                     */
                    expired: number;
                    /**
                     * @description Jobs in `failed`.
                     * @example 12
                     */
                    failed: number;
                    /**
                     * @description Jobs in `queued`.
                     * @example 12
                     */
                    queued: number;
                    /**
                     * @description Jobs in `rejected`.
                     * @example 12
                     */
                    rejected: number;
                    /**
                     * @description Jobs in `running`.
                     * @example 12
                     */
                    running: number;
                };
                /**
                 * @description Jobs created in the range.
                 * @example 12
                 */
                total: number;
            } | null;
            /** @description Assets created in the range, by media family. */
            media_kinds: {
                /**
                 * @description Assets by media family (`image`, `audio`, `video`, …); only families with assets appear.
                 * @example {
                 *       "image": 10
                 *     }
                 */
                by_kind: {
                    [key: string]: number;
                };
                /**
                 * @description Assets created in the range.
                 * @example 12
                 */
                total: number;
            } | null;
            /** @description Plan and wallet (GET /v1/billing/wallet and GET /v1/usage give the detail). */
            quota: {
                /**
                 * @description The billing plan id, or null before the billing account exists.
                 * @example starter
                 */
                plan: string | null;
                /** @description The prepaid wallet, or null before the tenant opted in. */
                wallet: {
                    /**
                     * @description Balance minus reserved: what new work may still be admitted against.
                     * @example 41.30
                     */
                    available_usd: string;
                    /**
                     * @description Balance (decimal USD).
                     * @example 42.50
                     */
                    balance_usd: string;
                    /**
                     * @description Work is metered against the wallet.
                     * @example true
                     */
                    enabled: boolean;
                    /**
                     * @description Available is below the auto-recharge threshold, or below 10.00 USD when none is set.
                     * @example false
                     */
                    low: boolean;
                    /**
                     * @description Charges settled this UTC month.
                     * @example 8.70
                     */
                    month_to_date_spend_usd: string;
                    /**
                     * @description The tenant's monthly limit, or null when none.
                     * @example 100.00
                     */
                    monthly_spend_limit_usd: string | null;
                    /**
                     * @description Quoted cost of admitted unpublished work.
                     * @example 1.20
                     */
                    reserved_usd: string;
                } | null;
            } | null;
            /**
             * @description The range asked for.
             * @example 7d
             * @enum {string}
             */
            range: "7d" | "30d" | "12m";
            /**
             * Format: date-time
             * @description End of the range (exclusive): when the overview was computed.
             * @example 2026-11-25T12:00:00.000Z
             */
            range_end: string;
            /**
             * Format: date-time
             * @description Start of the range (inclusive): now minus 7 or 30 days, or minus 12 calendar months.
             * @example 2026-11-25T12:00:00.000Z
             */
            range_start: string;
            /**
             * @description Figures that could not be computed now (their query failed): a group name (`jobs`, `webhooks`, …, `api_keys` for keys expiring) and each derived field it leaves null (`comparison.jobs`, `health.job_failure_rate`, …). The group is null, never an invented value; retry later.
             * @example []
             */
            unavailable: string[];
            /** @description Verifications (verify calls and signing self-checks) made in the range, by overall outcome. */
            verification_outcomes: {
                /** @description Verifications by overall outcome (every outcome present, 0 when none). */
                by_outcome: {
                    /**
                     * @description Overall `indeterminate`.
                     * @example 12
                     */
                    indeterminate: number;
                    /**
                     * @description Overall `invalid`.
                     * @example 12
                     */
                    invalid: number;
                    /**
                     * @description Overall `recovered` (found again through the soft-binding index).
                     * @example 12
                     */
                    recovered: number;
                    /**
                     * @description Overall `valid`.
                     * @example 12
                     */
                    valid: number;
                };
                /**
                 * @description Verifications made in the range.
                 * @example 12
                 */
                total: number;
            } | null;
            /** @description Webhook health. */
            webhooks: {
                /** @description Deliveries created in the range, by status now. */
                deliveries: {
                    /**
                     * @description Gave up (retries exhausted) or fenced (endpoint disabled or deleted).
                     * @example 12
                     */
                    dead: number;
                    /**
                     * @description Acknowledged by the endpoint.
                     * @example 12
                     */
                    delivered: number;
                    /**
                     * @description Ended by the receiver's answer or the destination policy.
                     * @example 12
                     */
                    failed: number;
                    /**
                     * @description Not yet delivered (waiting or being attempted).
                     * @example 12
                     */
                    pending: number;
                    /**
                     * @description Deliveries created in the range.
                     * @example 12
                     */
                    total: number;
                };
                /** @description The tenant's endpoints now (deleted ones not counted). */
                endpoints: {
                    /**
                     * @description Endpoints active now.
                     * @example 12
                     */
                    active: number;
                    /**
                     * @description Endpoints disabled now (by hand or after consecutive failures).
                     * @example 12
                     */
                    disabled: number;
                };
            } | null;
        };
        PaymentsCallbackResult: {
            /**
             * @description True when this event id was already received: the answer repeats its state and nothing changed.
             * @example false
             */
            duplicate: boolean;
            /**
             * @description The provider's event id (the deduplication key).
             * @example evt_1QabcDEF
             */
            event_id: string;
            /**
             * @description `applied`: the event changed the wallet or account (checkout completed, refund, dispute). `ignored`: recorded, nothing to do (other event types, events naming no intent of ours).
             * @example applied
             * @enum {string}
             */
            state: "applied" | "ignored";
        };
        PortalIntentRequest: {
            /**
             * @description Where the billing portal sends the customer back; must be on a configured console origin.
             * @example https://console.example.com/billing?checkout=done
             */
            return_url: string;
        };
        PresignedPartResponse: {
            /**
             * @description Exact size of this part.
             * @example 5242880
             */
            byte_length: number;
            /**
             * @description Send exactly these headers (and never the API key).
             * @example {
             *       "Content-Type": "image/jpeg"
             *     }
             */
            headers: {
                [key: string]: string;
            };
            /**
             * @description HTTP method.
             * @enum {string}
             */
            method: "PUT";
            /**
             * @description Part number, from 1.
             * @example 1
             */
            part_number: number;
            /**
             * Format: uri
             * @description Where to send this part. Its response carries the part's ETag header.
             */
            url: string;
        };
        /** @description Single: the request that sends the bytes. */
        PresignedRequestResponse: {
            /**
             * @description Send exactly these headers (and never the API key).
             * @example {
             *       "Content-Type": "image/jpeg"
             *     }
             */
            headers: {
                [key: string]: string;
            };
            /**
             * @description HTTP method.
             * @enum {string}
             */
            method: "PUT";
            /**
             * Format: uri
             * @description Where to send the bytes.
             * @example http://127.0.0.1:8787/storage/uploads/upl_abcdefghij234567?expires=1763800000000&signature=...
             */
            url: string;
        } | null;
        PreviewResponse: {
            /**
             * @description Size of the JPEG.
             * @example 31022
             */
            byte_length: number;
            /**
             * Format: date-time
             * @description When the URL stops working.
             * @example 2026-11-22T10:00:00.000Z
             */
            expires_at: string;
            /**
             * @description Send exactly these headers.
             * @example {}
             */
            headers: {
                [key: string]: string;
            };
            /**
             * @description Preview height in pixels.
             * @example 320
             */
            height: number;
            /**
             * @description Always a JPEG.
             * @enum {string}
             */
            media_type: "image/jpeg";
            /**
             * @description HTTP method.
             * @enum {string}
             */
            method: "GET";
            /**
             * @description Lowercase hex SHA-256.
             * @example 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08
             */
            sha256: string;
            /**
             * Format: uri
             * @description Where to GET the JPEG, before `expires_at`; no API key.
             */
            url: string;
            /**
             * @description Preview width in pixels.
             * @example 512
             */
            width: number;
        };
        /** @description The publication, once a job published the asset. */
        PublicationResponse: {
            /**
             * @description Label of the active C2PA manifest.
             * @example urn:c2pa:3fa85f64-5717-4562-b3fc-2c963f66afa6
             */
            active_manifest_label: string | null;
            /**
             * @description The job that published it.
             * @example job_abcdefghij234567
             */
            job_id: string;
            /**
             * @description Whether the manifest is inside the file or a .c2pa beside it.
             * @example embedded
             * @enum {string}
             */
            manifest_delivery: "embedded" | "sidecar";
            /**
             * @description Immutable stored object id.
             * @example aob_abcdefghij234567
             */
            object_id: string;
            /**
             * @description Publication id.
             * @example pub_abcdefghij234567
             */
            publication_id: string;
            /**
             * Format: date-time
             * @description When the output was published.
             * @example 2026-11-22T10:00:00.000Z
             */
            published_at: string;
            /**
             * @description Recipe applied.
             * @example rcp_system_sign_only
             */
            recipe_id: string;
        } | null;
        PutApiKeyRestrictionsRequest: {
            /**
             * @description The version last read; the change is refused (409) if it moved since.
             * @example 1
             */
            expected_version?: number;
            /**
             * @description CIDR ranges or single addresses; empty for any address.
             * @example [
             *       "203.0.113.0/24"
             *     ]
             */
            ip_allowlist: string[];
            /**
             * @description Requests per minute; null for no key-level limit.
             * @example 60
             */
            rate_limit_per_minute: number | null;
        };
        PutApiKeyRetentionRequest: {
            /**
             * @description The version last read; refused (409) if it moved since.
             * @example 0
             */
            expected_version?: number;
            /**
             * @description Days to keep outputs of future admissions; null to keep them until deleted.
             * @example 30
             */
            output_retention_days: number | null;
        };
        PutApiKeySigningProfileRequest: {
            /**
             * @description Allowed fingerprint algorithms; omitted or null for any. The locked image ISCC code is always computed.
             * @example [
             *       "pdq"
             *     ]
             */
            allowed_fingerprint_algorithms?: ("chromaprint" | "audfprint" | "iscc-audio" | "iscc-image" | "dinov2" | "pdq" | "dinov2-lsh256" | "tmk-pdqf" | "vpdq")[] | null;
            /**
             * @description Allowed recipes; null for any.
             * @example [
             *       "rcp_system_sign_only"
             *     ]
             */
            allowed_recipe_ids: string[] | null;
            /**
             * @description Allowed watermark algorithms; omitted or null for any.
             * @example [
             *       "svc-wm-tiledss-1"
             *     ]
             */
            allowed_watermark_algorithms?: ("audioseal-mm02-4" | "audioseal" | "svc-awm-stdm-1" | "pixelseal" | "trustmark-b" | "trustmark-c" | "trustmark-p" | "trustmark-q" | "videoseal-image" | "svc-wm-tiledss-1" | "pixelseal-video" | "videoseal")[] | null;
            /**
             * @description Allowed strengths; omitted or null for any.
             * @example [
             *       "balanced",
             *       "robust"
             *     ]
             */
            allowed_watermark_strengths?: ("subtle" | "balanced" | "robust")[] | null;
            /**
             * @description Default fingerprint set; each must be available in this deployment and allowed. Omitted or null: the system defaults.
             * @example [
             *       "pdq"
             *     ]
             */
            default_fingerprint_algorithms?: ("chromaprint" | "audfprint" | "iscc-audio" | "iscc-image" | "dinov2" | "pdq" | "dinov2-lsh256" | "tmk-pdqf" | "vpdq")[] | null;
            /**
             * @description Default recipe; must be allowed.
             * @example rcp_system_sign_only
             */
            default_recipe_id: string | null;
            /**
             * @description Default watermark; must be available in this deployment and allowed. Omitted or null: the system default.
             * @example svc-wm-tiledss-1
             * @enum {string|null}
             */
            default_watermark_algorithm?: "audioseal-mm02-4" | "audioseal" | "svc-awm-stdm-1" | "pixelseal" | "trustmark-b" | "trustmark-c" | "trustmark-p" | "trustmark-q" | "videoseal-image" | "svc-wm-tiledss-1" | "pixelseal-video" | "videoseal" | null;
            /**
             * @description Default strength; must be allowed. Omitted or null: balanced.
             * @example robust
             * @enum {string|null}
             */
            default_watermark_strength?: "subtle" | "balanced" | "robust" | null;
            /**
             * @description The version last read; refused (409) if it moved since.
             * @example 0
             */
            expected_version?: number;
        };
        ReadinessResponse: {
            /**
             * @description Whether every required adapter is configured and answering.
             * @example ready
             * @enum {string}
             */
            status: "ready" | "unavailable";
        };
        ReceiptEvidence: {
            /** @description The manifest's entry in the transparency log (null for unsigned publications). */
            anchor?: {
                /**
                 * @description The signed checkpoint note (C2SP signed-note / tlog-checkpoint) the proof verifies against.
                 * @example null
                 */
                checkpoint: string | null;
                /**
                 * @description RFC 6962 inclusion path (hex), bottom-up.
                 * @example []
                 */
                inclusion_proof: string[];
                /**
                 * @description RFC 6962 leaf hash (hex) of the versioned leaf (manifest SHA-256 + publication id).
                 * @example 3f0a…
                 */
                leaf_hash: string;
                /**
                 * @description Position in the manifest transparency log.
                 * @example 41
                 */
                leaf_index: number | null;
                /**
                 * @description Sealed once a checkpoint includes the manifest (cron, about a minute).
                 * @example sealed
                 * @enum {string}
                 */
                status: "pending" | "sealed";
                /**
                 * @description Size of the checkpoint the proof is against.
                 * @example 42
                 */
                tree_size: number | null;
            } | null;
            /** @description Fingerprints recorded in the soft-binding index. */
            fingerprints?: {
                /**
                 * @description Fingerprint algorithm.
                 * @example iscc-image
                 */
                algorithm: string;
                /**
                 * @description PDQ quality (0-100); null for others.
                 * @example null
                 */
                quality: number | null;
                /**
                 * @description Its canonical value (ISCC code, PDQ hex).
                 * @example ISCC:EEAZ2T3MSSYSFDVS
                 */
                value: string;
            }[];
            /** @description The manifest written (null for watermark-only publications). */
            manifest: {
                /**
                 * @description Label of the active manifest.
                 * @example urn:c2pa:3fa85f64-5717-4562-b3fc-2c963f66afa6
                 */
                active_manifest_label: string;
                /**
                 * @description The reference engine's verdict on the output at publication.
                 * @example Trusted
                 * @enum {string}
                 */
                validation_state: "Trusted" | "Valid" | "Invalid";
            } | null;
            /** @description The published object; `output.object_id` names the signed object (for sidecars, the unchanged file). */
            output: components["schemas"]["ReceiptObjectRef"] & {
                /**
                 * @description Media type of the published bytes.
                 * @example image/jpeg
                 */
                media_type: string;
            };
            /**
             * @description Publication id.
             * @example pub_abcdefghij234567
             */
            publication_id: string;
            /**
             * Format: date-time
             * @description When the output was published.
             * @example 2026-11-22T10:00:00.000Z
             */
            published_at: string;
            /** @description The recipe version applied. */
            recipe: {
                /**
                 * @description Recipe.
                 * @example rcp_system_sign_only
                 */
                recipe_id: string;
                /**
                 * @description Recipe version.
                 * @example 1
                 */
                version: number;
            };
            /** @description The .c2pa manifest store (sidecar_signing only). */
            sidecar_manifest: components["schemas"]["ReceiptObjectRef"] | null;
            source: components["schemas"]["ReceiptObjectRef"] & unknown;
            /**
             * @description Evidence variant. This deployment issues `signing` (embedded manifest), `sidecar_signing` (.c2pa beside the unchanged file) and `watermarking` (watermark-only recipe: no manifest).
             * @example signing
             * @enum {string}
             */
            variant: "legacy_signing" | "signing" | "sidecar_signing" | "recovered_signing" | "binding" | "watermarking";
            /**
             * @description The publication-time verification of the output.
             * @example vfy_abcdefghij234567
             */
            verification_id: string;
            /** @description The watermark embedded (watermark recipes). */
            watermark?: {
                /**
                 * @description Our watermark algorithm (svc-wm-tiledss-1 for images, svc-awm-stdm-1 for audio).
                 * @example svc-wm-tiledss-1
                 */
                algorithm: string;
                /**
                 * @description The 64-bit payload (hex) the soft-binding index maps to this publication.
                 * @example 9f2c4e1a7b3d5c60
                 */
                payload: string;
                /**
                 * @description Measured PSNR of the marked luma against the original (images), or SNR of the marked samples against the original (audio).
                 * @example 44.1
                 */
                psnr_db: number;
                /**
                 * @description The payload was read back from the encoded output before publication.
                 * @example true
                 * @enum {boolean}
                 */
                read_back: true;
                /**
                 * @description Strength applied.
                 * @example balanced
                 * @enum {string}
                 */
                strength: "subtle" | "balanced" | "robust";
            } | null;
        };
        ReceiptObjectRef: {
            /**
             * @description Size in bytes.
             * @example 52310
             */
            byte_length: number;
            /**
             * @description Immutable stored object id.
             * @example aob_abcdefghij234567
             */
            object_id: string;
            /**
             * @description Lowercase hex SHA-256.
             * @example 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08
             */
            sha256: string;
        };
        ReceiptPage: {
            /** @description Receipts, newest first. */
            items: components["schemas"]["ReceiptResponse"][];
            /** @description Cursor of the next page, or null on the last page. Pages are snapshot-consistent: rows created after the first page are not included. */
            next_cursor: string | null;
        };
        ReceiptResponse: {
            /**
             * @description Asset id (the tenant-visible id; never an `aob_` object id).
             * @example ast_abcdefghij234567
             */
            asset_id: string;
            /**
             * Format: date-time
             * @description When the receipt was issued.
             * @example 2026-11-22T10:00:00.000Z
             */
            created_at: string;
            evidence: components["schemas"]["ReceiptEvidence"];
            /**
             * @description The job that published.
             * @example job_abcdefghij234567
             */
            job_id: string;
            /**
             * @description Receipt id.
             * @example rct_abcdefghij234567
             */
            receipt_id: string;
        };
        RecipeCatalogResponse: {
            /**
             * @description Whether the recipe can run in this deployment now.
             * @example false
             */
            available: boolean;
            /**
             * @description Catalog version.
             * @enum {string}
             */
            catalog_version: "svc.recipe-catalog.v1";
            /**
             * @description SHA-256 (lowercase hex) of the definition's canonical JSON.
             * @example 0000000000000000000000000000000000000000000000000000000000000000
             */
            definition_sha256: string;
            /**
             * @description What the recipe does to the media.
             * @example sign_only
             * @enum {string}
             */
            kind: "sign_only" | "watermark_only" | "watermark_then_sign";
            /** @description Media types the recipe is designed for. */
            media_types: components["schemas"]["MediaType"][];
            /**
             * @description Display name.
             * @example Sign only
             */
            name: string;
            /**
             * @description Recipe id.
             * @example rcp_system_sign_only
             */
            recipe_id: string;
            /**
             * @description Path of this recipe.
             * @example /v1/recipes/rcp_system_sign_only
             */
            recipe_url: string;
            /**
             * @description Pipelines the recipe needs, in order.
             * @example [
             *       "media.inspect",
             *       "c2pa.sign.embedded",
             *       "storage.publish"
             *     ]
             */
            required_capabilities: string[];
            /**
             * @description Job steps, in order.
             * @example [
             *       "inspect",
             *       "sign",
             *       "publish"
             *     ]
             */
            required_steps: string[];
            /**
             * @description Schema of the definition.
             * @example svc.recipe.v1
             */
            schema_version: string;
            /**
             * @description What the recipe does, in one sentence.
             * @example Embed a signed C2PA manifest; the media is otherwise unchanged.
             */
            summary: string;
            /** @description Media types it accepts in this deployment now (empty while unavailable). */
            supported_media_types: components["schemas"]["MediaType"][];
            /**
             * @description Why not; null when available.
             * @example capability_not_installed
             * @enum {string|null}
             */
            unavailable_reason: "capability_not_installed" | "model_weights_not_installed" | "no_enabled_media_types" | null;
            /**
             * @description Definition version; any change to the definition is a new version.
             * @example 1
             */
            version: number;
        };
        RecipeListResponse: {
            /**
             * @description Catalog version.
             * @enum {string}
             */
            catalog_version: "svc.recipe-catalog.v1";
            /** @description Every recipe of the catalog, with its availability in this deployment. */
            recipes: components["schemas"]["RecipeCatalogResponse"][];
        };
        RelatedPublication: {
            /**
             * @description The fingerprint algorithm.
             * @example iscc-image
             */
            algorithm: string;
            /**
             * @description Hamming distance (0: identical fingerprint; `chromaprint`: differing bits over the aligned frames).
             * @example 0
             */
            distance: number;
            /**
             * @description How the similarity was found: a perceptual or content fingerprint.
             * @example fingerprint
             * @enum {string}
             */
            kind: "fingerprint";
            /**
             * @description That publication's active manifest (null for a watermark-only publication).
             * @example urn:c2pa:9b2e6c1d-4f3a-4e8b-9c7d-1a2b3c4d5e6f
             */
            manifest_id: string | null;
            /**
             * @description When it was published.
             * @example 2026-11-20T09:30:00.000Z
             */
            published_at: string | null;
        };
        RotateApiKeyRequest: {
            /**
             * @description How long both secrets work (60 s to 7 days, default 24 h).
             * @default 86400
             * @example 86400
             */
            overlap_seconds: number;
        };
        RotateApiKeyResponse: {
            api_key: components["schemas"]["ApiKeyResponse"] & unknown;
            /**
             * Format: date-time
             * @description When the outgoing key stops working unless the rotation is cancelled.
             * @example 2026-11-22T10:00:00.000Z
             */
            overlap_ends_at: string;
            predecessor: components["schemas"]["ApiKeyResponse"] & unknown;
            /**
             * @description The successor's secret, shown once.
             * @example svc_live_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb
             */
            secret: string;
        };
        /**
         * @description An API-key scope.
         * @example capabilities:read
         * @enum {string}
         */
        Scope: "capabilities:read" | "identity:read" | "jobs:read" | "uploads:write" | "sign:write" | "assets:read" | "verify:write" | "recovery:read" | "webhooks:write" | "billing:read" | "billing:write" | "creators:disclose" | "api_keys:read" | "api_keys:write" | "webhooks:read" | "creators:read" | "creators:write" | "capture:read" | "capture:write" | "governance:read" | "governance:write" | "governance:delete" | "feedback:write" | "overview:read";
        ScopeListResponse: {
            /** @description Every scope a key can hold. */
            scopes: {
                /**
                 * @description What the scope allows.
                 * @example Read capabilities, image profiles and the recipe catalog.
                 */
                description: string;
                scope: components["schemas"]["Scope"];
            }[];
        };
        /** @description Every size, pixel and count limit the service enforces, with the value it enforces. */
        ServiceLimits: {
            /**
             * @description Largest asset sent to POST /v1/soft-binding-resolution/matches/byContent.
             * @example 26214400
             */
            content_lookup_maximum_bytes: number;
            /**
             * @description Most pixels an image may have for work that decodes it (watermark, fingerprints, previews, content lookups); signing alone is bounded by bytes.
             * @example 12000000
             */
            decode_maximum_pixels: number;
            /**
             * @description Largest upload of a format whose manifest is embedded (signing holds it in memory); sidecar formats take `media[].upload.maximum_bytes`.
             * @example 10485760
             */
            embedded_signing_maximum_bytes: number;
            /**
             * @description Largest JSON request body.
             * @example 1048576
             */
            json_body_maximum_bytes: number;
            /** @description Multipart upload limits. */
            multipart: {
                /**
                 * @description Most parts of one multipart upload.
                 * @example 10000
                 */
                maximum_parts: number;
                /**
                 * @description Every part but the last is at least this large.
                 * @example 5242880
                 */
                minimum_part_bytes: number;
            };
            /**
             * @description Most items of one POST /v1/sign/batch.
             * @example 100
             */
            sign_batch_maximum_items: number;
            /**
             * @description Media types signed by streaming above `embedded_signing_maximum_bytes` (the asset is never held in memory), with their largest upload. Not watermarked; a WAV is fingerprinted from its first 32 MiB; a FLAC this large is signed without fingerprints (sign-only recipe).
             * @example {
             *       "video/mp4": 2147483648,
             *       "audio/wav": 1073741824
             *     }
             */
            streamed_signing_maximum_bytes: {
                [key: string]: number;
            };
            /** @description Verification limits. */
            verify: {
                /**
                 * @description Largest file (or sidecar manifest) the C2PA engine reads: it holds up to about three times a file's size in memory. A file with a manifest that needs the engine (any manifest but the JPEG form this service signs, when it verifies completely) above its limit is refused with 413 `svc.request.too_large`.
                 * @example 12582912
                 */
                engine_read_maximum_bytes: number;
                /**
                 * @description Largest `file` part of POST /v1/verify.
                 * @example 26214400
                 */
                file_maximum_bytes: number;
                /** @description How to verify a file larger than `file_maximum_bytes`, and why the limit is below the largest upload. */
                larger_files: string;
                /**
                 * @description Largest `manifest` (sidecar .c2pa) part of POST /v1/verify.
                 * @example 10485760
                 */
                manifest_maximum_bytes: number;
                /**
                 * @description Largest manifest store fetched from `manifest_uri`.
                 * @example 10485760
                 */
                manifest_uri_maximum_bytes: number;
                /**
                 * @description Largest multipart body of POST /v1/verify (a full-size file and manifest together, plus framing).
                 * @example 36765696
                 */
                request_maximum_bytes: number;
                /**
                 * @description Largest stored object verified by `asset_id` (POST /v1/verify) or `object_id` (POST /v1/verifications) when it is read whole; the media types of `streamed_object_maximum_bytes` are verified by streaming up to their own limit. Above its limit an object is refused with 413 `svc.request.too_large`.
                 * @example 52428800
                 */
                stored_object_maximum_bytes: number;
                /**
                 * @description Media types verified by streaming by `asset_id` or `object_id` above `embedded_signing_maximum_bytes` (never held in memory: the manifest store is validated alone and the hard binding hashed as the object streams), with their largest object. Only a hard binding of the form this service signs by streaming is judged so; another form of file above `engine_read_maximum_bytes` is refused with 413 `svc.request.too_large`.
                 * @example {
                 *       "video/mp4": 2147483648,
                 *       "audio/wav": 1073741824
                 *     }
                 */
                streamed_object_maximum_bytes: {
                    [key: string]: number;
                };
            };
            /**
             * @description The image watermark needs at least this many pixels on the image's shorter side.
             * @example 128
             */
            watermark_minimum_edge_pixels: number;
        };
        /** @description The minimal projection a share grants: the outcome and who signed. No tenant, asset, object or manifest ids, no codes, no evidence. */
        SharedVerification: {
            /**
             * @description Confidence, 0 to 1 (null for hard failures and publication checks).
             * @example 0.95
             */
            confidence: number | null;
            /**
             * @description What it does not.
             * @example [
             *       "That the content is true, or that the scene or event it shows happened as shown."
             *     ]
             */
            does_not_prove: string[];
            /**
             * @description Overall outcome.
             * @example valid
             * @enum {string}
             */
            overall: "valid" | "invalid" | "indeterminate" | "recovered";
            /**
             * @description What the evidence supports.
             * @example [
             *       "The file is byte-for-byte what the signer signed (the hard binding matches)."
             *     ]
             */
            proves: string[];
            /**
             * @description Organization (O) of the signing certificate, when the verification read one.
             * @example Example News
             */
            signer_organization: string | null;
            /**
             * @description Status code of the closed vocabulary (null for a signing job's publication-time check, which has none).
             * @example verified_manifest
             */
            status: string | null;
            /**
             * @description Status vocabulary of `status` (table at /docs/verification-statuses).
             * @example svc.verification-status.v1
             */
            status_vocabulary_version: string | null;
            /**
             * @description Plain-language summary.
             * @example This file carries intact Content Credentials from a trusted signer. Nothing in the file has changed since it was signed.
             */
            user_explanation: string;
            /**
             * Format: date-time
             * @description When validation ran.
             * @example 2026-11-22T10:00:00.000Z
             */
            validated_at: string;
        };
        /** @description Present only for sidecar formats. */
        SidecarManifestResponse: {
            /**
             * @description Exact size.
             * @example 14230
             */
            byte_length: number;
            /**
             * @description The asset's download filename plus `.c2pa`.
             * @example ast_abcdefghij234567.pdf.c2pa
             */
            filename: string;
            /**
             * @description Send exactly these headers with the GET (never the API key).
             * @example {}
             */
            headers: {
                [key: string]: string;
            };
            /**
             * @description Lowercase hex SHA-256.
             * @example 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08
             */
            sha256: string;
            /**
             * Format: uri
             * @description Where to GET the .c2pa manifest store.
             */
            url: string;
        } | null;
        SignBatchItemResult: {
            /** @description Why the item was refused. */
            error: components["schemas"]["ErrorResponse"] | null;
            /**
             * @description Position of the item in the request.
             * @example 0
             */
            index: number;
            /** @description The admitted job (also on replay). */
            job: components["schemas"]["JobResponse"] | null;
            /**
             * @description What POST /v1/sign would have answered for this item alone: 202, or an error status.
             * @example 202
             */
            status: number;
        };
        SignBatchRequest: {
            /** @description 1 to 100 sign requests; each item's `mode` is ignored (always asynchronous). */
            items: components["schemas"]["SignRequest"][];
        };
        SignBatchResponse: {
            /** @description One result per item, in request order. */
            items: components["schemas"]["SignBatchItemResult"][];
        };
        SignRequest: {
            /** @description Declares generative-model origin; sign-only recipes only. */
            ai_declaration?: {
                /**
                 * @description IPTC digital source type recorded with the c2pa.created action (http://cv.iptc.org/newscodes/digitalsourcetype/<value>).
                 * @example trainedAlgorithmicMedia
                 * @enum {string}
                 */
                digital_source_type: "trainedAlgorithmicMedia" | "compositeWithTrainedAlgorithmicMedia" | "algorithmicMedia" | "compositeSynthetic" | "digitalCreation";
                /**
                 * @description Generative model name, recorded as the action's software agent.
                 * @example example-diffusion-2
                 */
                model?: string | null;
            } | null;
            /**
             * @description Asset id (the tenant-visible id; never an `aob_` object id).
             * @example ast_abcdefghij234567
             */
            asset_id: string;
            /**
             * @description An active creator identity of this tenant to attribute (POST /v1/creator-identities). The manifest carries only an opaque `creator_ref` and a salted commitment (assertion `svc.creator`), never the name or e-mail. An unknown id answers 422 `svc.sign.creator_unknown`; a withdrawn or erased identity 422 `svc.sign.creator_inactive`.
             * @example crid_abcdefghij234567
             */
            creator_id?: string | null;
            /**
             * @description Replaces the default fingerprint set; the locked image ISCC code is always added.
             * @example [
             *       "iscc-image",
             *       "pdq"
             *     ]
             */
            fingerprint_algorithms?: ("chromaprint" | "audfprint" | "iscc-audio" | "iscc-image" | "dinov2" | "pdq" | "dinov2-lsh256" | "tmk-pdqf" | "vpdq")[] | null;
            /**
             * @description `express` runs rcp_system_watermark_then_sign and rcp_system_express_watermark_then_sign on JPEG, PNG, WebP, TIFF or AVIF images in the request and answers 200 with `download` when the job finishes within the bounded wait; otherwise, and for every other recipe or media type, the job runs on the ordinary pipeline and the answer is 202. Omitted means standard.
             * @example standard
             * @enum {string|null}
             */
            mode?: "express" | "standard" | null;
            /**
             * @description Recipe id.
             * @example rcp_system_sign_only
             */
            recipe_id?: string | null;
            /**
             * @description Watermark recipes only; must be offered and available for the media type. Omitted: SPEC's default for the modality when available, else svc-wm-tiledss-1 for images (our own watermark; the learned models need weights this deployment does not have; see GET /v1/capabilities).
             * @example svc-wm-tiledss-1
             * @enum {string|null}
             */
            watermark_algorithm?: "audioseal" | "audioseal-mm02-4" | "pixelseal" | "trustmark-b" | "trustmark-c" | "trustmark-p" | "trustmark-q" | "videoseal-image" | "svc-wm-tiledss-1" | "pixelseal-video" | "videoseal" | null;
            /**
             * @description Watermark recipes only; default balanced.
             * @example balanced
             * @enum {string|null}
             */
            watermark_strength?: "subtle" | "balanced" | "robust" | null;
        };
        SoftBindingMatch: {
            /**
             * @description The watermark or fingerprint algorithm.
             * @example svc-wm-tiledss-1
             */
            algorithm: string;
            /**
             * @description Hamming distance (0 for exact matches and watermarks). For `chromaprint`, the differing bits over the aligned frames of the file (about 8 frames a second, 32 bits each).
             * @example 0
             */
            distance: number;
            /**
             * @description What matched.
             * @example watermark
             * @enum {string}
             */
            kind: "watermark" | "fingerprint";
            /**
             * @description That publication's active manifest (GET /v1/verify/{manifest_id} or the soft-binding resolution API).
             * @example urn:c2pa:3fa85f64-5717-4562-b3fc-2c963f66afa6
             */
            manifest_id: string | null;
            /**
             * @description The publication the value is registered to.
             * @example pub_abcdefghij234567
             */
            publication_id: string;
            /**
             * @description Strength of the match, 0 to 1.
             * @example 0.97
             */
            score: number;
        };
        StoredVerificationResponse: {
            /**
             * Format: date-time
             * @description When it reached a terminal state.
             * @example 2026-11-22T10:00:00.000Z
             */
            completed_at: string | null;
            /**
             * Format: date-time
             * @description When it was accepted.
             * @example 2026-11-22T10:00:00.000Z
             */
            created_at: string;
            /**
             * @description Why it failed (`svc.verifications.object_unavailable`; `svc.request.too_large` when its manifest needs the C2PA engine and the object is larger than `limits.verify.engine_read_maximum_bytes`).
             * @example null
             */
            error_code: string | null;
            /**
             * @description Human-readable reason.
             * @example null
             */
            error_message: string | null;
            /**
             * @description GET /v1/verification-evidence/{evidence_id}; present once completed.
             * @example vfy_abcdefghij234567
             */
            evidence_id: string | null;
            /**
             * @description The checked stored object; null for a file uploaded to POST /v1/verify (never stored) or a manifest URI.
             * @example aob_abcdefghij234567
             */
            object_id: string | null;
            /** @description The verification result; present when completed. For a job's publication-time verification it is derived from the reference engine's codes recorded at publication (OCSP, watermark and fingerprints were not part of that check; see the evidence), and null for a watermark-only publication, whose check was the watermark read-back. */
            result: components["schemas"]["VerificationResult"] | null;
            /**
             * @description Durable status; `completed` and `failed` are terminal. A verification made synchronously is `completed` from the start.
             * @example completed
             * @enum {string}
             */
            state: "queued" | "running" | "completed" | "failed";
            /**
             * @description What was verified: `stored_object` for POST /v1/verifications, `uploaded_object`/`asset`/`manifest` for an authenticated POST /v1/verify, `asset` for a job's publication-time verification.
             * @example stored_object
             * @enum {string}
             */
            subject_type: "uploaded_object" | "stored_object" | "public_url" | "asset" | "manifest" | "receipt";
            /**
             * @description Verification id (also the id of its evidence once completed).
             * @example vfy_abcdefghij234567
             */
            verification_id: string;
        };
        /** @description Fields to change; omitted fields keep their value. `events` replaces the whole subscription. A new `url` is checked against the destination policy. */
        UpdateWebhookEndpointRequest: {
            /**
             * @description The endpoint is disabled after this many consecutive failed attempts (1 to 100; default 20); its unfinished deliveries end as `dead`.
             * @example 20
             */
            auto_disable_after_failures?: number;
            /**
             * @description Exact event types to receive (see the event catalog); no wildcards, each named once.
             * @example [
             *       "asset.signed"
             *     ]
             */
            events?: string[];
            /**
             * @description At most this many requests in flight to the endpoint at once, across the whole service (1 to 20; default 2).
             * @example 2
             */
            max_concurrency?: number;
            /**
             * @description At most this many requests to the endpoint per minute (1 to 600; default 60).
             * @example 60
             */
            rate_limit_per_minute?: number;
            /**
             * @description HTTPS destination (at most 2048 characters) that passes the destination policy: no credentials, and neither the host nor any address it resolves to is loopback, private, link-local or metadata.
             * @example https://hooks.example.com/svc
             */
            url?: string;
        };
        Usage: {
            /** @description For an unmetered tenant: the plan's hard caps; null for a metered one. */
            caps: components["schemas"]["BillingCaps"] | null;
            /**
             * @description For a metered tenant: balance − reserved, what new work can still be admitted against; null otherwise.
             * @example 49.96
             */
            credit_balance_usd: string | null;
            /**
             * @description Every amount is in US dollars.
             * @example USD
             * @enum {string}
             */
            currency: "USD";
            /** @description Authoritative usage: the period's charges (settled reservations) by media family and operation. */
            items: components["schemas"]["UsageItem"][];
            /**
             * @description Whether the tenant's work is admitted against a wallet (opted in and enabled).
             * @example true
             */
            metered: boolean;
            /**
             * Format: date-time
             * @description End (exclusive) of the metering period.
             * @example 2026-11-22T10:00:00.000Z
             */
            period_end: string;
            /**
             * Format: date-time
             * @description Start of the metering period (UTC calendar month).
             * @example 2026-11-22T10:00:00.000Z
             */
            period_start: string;
            /**
             * @description The pricing version the figures were computed under.
             * @example svc.pricing.2026-11.1
             */
            pricing_version: string;
            /**
             * @description Sum of `items` (equals the sum of the period's charges).
             * @example 0.0348
             */
            total_usd: string;
        };
        UsageItem: {
            /**
             * @description Sum of the charges.
             * @example 0.0348
             */
            amount_usd: string;
            /**
             * @description Charged jobs.
             * @example 3
             */
            jobs: number;
            /**
             * @description The job's inspected media family (`unknown` when the job record is gone).
             * @example image
             */
            media_family: string;
            /**
             * @description The charged operation.
             * @example sign
             * @enum {string}
             */
            operation: "sign" | "watermark" | "watermark_then_sign";
            /** @description Exact decimal sums of the charged quantities per unit. */
            units: {
                /**
                 * @description Files charged per file.
                 * @example 3
                 */
                file: string;
                /**
                 * @description Megapixels charged.
                 * @example 36
                 */
                megapixel: string;
                /**
                 * @description Seconds of audio or video charged.
                 * @example 0
                 */
                second: string;
            };
        };
        /** @description A contract violation (422): the reason-coded envelope plus the stable `detail` of HttpErrorResponse. */
        ValidationErrorResponse: components["schemas"]["ErrorResponse"] & {
            /**
             * @description Stable summary of the validation failure.
             * @example Request validation failed.
             */
            detail: string;
        };
        /** @description What the manifest says, when there is one. */
        VerificationClaims: {
            /**
             * @description The manifest declares AI-assisted or composite content.
             * @example false
             */
            ai_assisted: boolean | null;
            /**
             * @description The manifest declares the content generated by a trained model.
             * @example false
             */
            ai_generated: boolean | null;
            /** @description The device-attested capture the manifest states (its `svc.capture` assertion), or null when it states none. Absent in results stored before capture admissions existed. */
            capture?: {
                /**
                 * @description True only when the manifest is valid, bound to these bytes and signed with this deployment's own certificate, which signs a capture statement only after a passing device-attestation admission. False: the file merely claims it.
                 * @example true
                 */
                attested_by_service: boolean;
                /**
                 * @description The admission that let the capture be signed.
                 * @example cad_2m4k6n7p2q3r4s5t
                 */
                capture_admission_id: string;
                /**
                 * @description When the admission was decided.
                 * @example 2026-11-25T10:00:00.000Z
                 */
                decided_at: string;
                /**
                 * @description SHA-256 of the file as captured and attested (before signing added the manifest).
                 * @example 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08
                 */
                media_sha256: string;
                /**
                 * @description Who attested the capture device.
                 * @example apple_app_attest
                 * @enum {string}
                 */
                provider_class: "apple_app_attest" | "google_play_integrity" | "android_key_attestation" | "other";
                /**
                 * @description The attestation verifier that checked it.
                 * @example svc-app-attest/1
                 */
                verifier_version: string;
            } | null;
            /**
             * @description Signing time (the trusted timestamp when present).
             * @example 2026-11-22T10:00:00Z
             */
            created_at: string | null;
            /** @description The creator the manifest attributes (its `svc.creator` assertion), or null when it names none. Stored results (a verification read back, its reports and shares) keep the reference, commitment and `attributed_by_service` only, never the name or brand: those are looked up live, so a withdrawal applies. Absent in results stored before creator attribution existed. */
            creator?: {
                /**
                 * @description True when the manifest is valid, bound to the bytes given (not a manifest alone, nor a sidecar whose binding cannot be checked), signed with this deployment's own certificate, its commitment is that of a creator enrolled here, and the signing tenant's share policy attributes work; otherwise the reference is only the signer's claim and nothing more is said.
                 * @example true
                 */
                attributed_by_service: boolean;
                /**
                 * @description The signing tenant's brand, when its share policy attributes work.
                 * @example Example News
                 */
                brand_name: string | null;
                /**
                 * @description The manifest's salted commitment to the identity (hex SHA-256). A party given the identity and its salt by the tenant's disclosure can recompute it.
                 * @example 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08
                 */
                commitment: string;
                /**
                 * @description The opaque creator reference the manifest carries (never a name or e-mail).
                 * @example cref_abcdefghijklmnopqrstuvwxyz
                 */
                creator_ref: string;
                /**
                 * @description What the signing tenant's share policy (`share_disclosure`) lets anyone see: `disclosed` (the name), `withheld` (reference only), `withdrawn`, `erased`, `unavailable`. Null when not attributed by the service.
                 * @example disclosed
                 * @enum {string|null}
                 */
                disclosure_state: "disclosed" | "withheld" | "withdrawn" | "erased" | "unavailable" | null;
                /**
                 * @description The creator's name, when the share policy discloses it.
                 * @example Ada Example
                 */
                name: string | null;
            } | null;
            /**
             * @description The software that wrote the manifest.
             * @example svc 0.1.0
             */
            generator: string | null;
            /**
             * @description A generative model the manifest names.
             * @example null
             */
            model: string | null;
            /**
             * @description Who signed (the signing certificate's organization or name).
             * @example Example News
             */
            origin: string | null;
        } | null;
        VerificationEvidenceResponse: {
            /**
             * @description The asset, when the subject is one.
             * @example ast_abcdefghij234567
             */
            asset_id: string | null;
            /**
             * @description The engine and version that validated.
             * @example c2pa-wasm 0.13.3
             */
            engine: string;
            /**
             * @description The job whose output was checked.
             * @example job_abcdefghij234567
             */
            job_id: string | null;
            /** @description What the engine computed for a signing self-check (null for a verify call: see `verdict`). Nothing here is inferred. */
            manifest: {
                /**
                 * @description Active manifest.
                 * @example urn:c2pa:3fa85f64-5717-4562-b3fc-2c963f66afa6
                 */
                active_manifest_label: string | null;
                /**
                 * @description Whether the asset bytes were compared with the manifest's hard binding.
                 * @example true
                 */
                asset_binding_checked: boolean;
                /**
                 * @description C2PA failure codes.
                 * @example []
                 */
                failure_codes: string[];
                /**
                 * @description C2PA informational codes.
                 * @example []
                 */
                informational_codes: string[];
                /**
                 * @description C2PA success codes.
                 * @example [
                 *       "claimSignature.validated",
                 *       "timeStamp.validated"
                 *     ]
                 */
                success_codes: string[];
                /**
                 * @description The reference engine's verdict.
                 * @example Trusted
                 * @enum {string}
                 */
                validation_state: "Trusted" | "Valid" | "Invalid";
            } | null;
            /** @description What was checked (never its bytes). */
            object: {
                /**
                 * @description Its size.
                 * @example 52310
                 */
                byte_length: number | null;
                /**
                 * @description Its media type.
                 * @example image/jpeg
                 */
                media_type: string | null;
                /**
                 * @description The checked object.
                 * @example aob_abcdefghij234567
                 */
                object_id: string | null;
            };
            /**
             * @description Overall outcome.
             * @example valid
             * @enum {string}
             */
            overall: "valid" | "invalid" | "indeterminate" | "recovered";
            /**
             * @description Policy version.
             * @example svc.sign-policy.v1
             */
            policy_version: string | null;
            /**
             * @description What was verified.
             * @example asset
             */
            subject_type: string;
            /**
             * Format: date-time
             * @description When validation ran.
             * @example 2026-11-22T10:00:00.000Z
             */
            validated_at: string;
            /**
             * @description How it was validated: `c2pa.embedded` or `c2pa.sidecar`.
             * @example c2pa.embedded
             */
            validation_path: string | null;
            /** @description For a verify call: the verdict as answered (no bytes, no requester data). */
            verdict: {
                /**
                 * @description Confidence (null for hard failures).
                 * @example 0.7
                 */
                confidence: number | null;
                /**
                 * @description Technical summary with the C2PA codes.
                 * @example status verified_manifest; ...
                 */
                developer_explanation: string;
                /**
                 * @description Active manifest label.
                 * @example urn:c2pa:3fa85f64-5717-4562-b3fc-2c963f66afa6
                 */
                manifest_id: string | null;
                /**
                 * @description Per-signal results (absent: not computed).
                 * @example {
                 *       "c2pa_manifest_present": true
                 *     }
                 */
                signals: {
                    [key: string]: boolean | string;
                };
                /**
                 * @description Status code of the verdict.
                 * @example verified_manifest
                 */
                status: string;
                /**
                 * @description Status vocabulary.
                 * @example svc.verification-status.v1
                 */
                status_vocabulary_version: string;
                /**
                 * @description Warnings, including signals not computed.
                 * @example []
                 */
                warnings: string[];
            } | null;
            /**
             * @description Verification id.
             * @example vfy_abcdefghij234567
             */
            verification_id: string;
        };
        VerificationHistoryResponse: {
            /**
             * Format: date-time
             * @description When it was recorded.
             * @example 2026-11-22T10:00:00.000Z
             */
            created_at: string;
            /**
             * @description The job whose output was checked.
             * @example job_abcdefghij234567
             */
            job_id: string | null;
            /**
             * @description Overall outcome.
             * @example valid
             * @enum {string}
             */
            overall: "valid" | "invalid" | "indeterminate" | "recovered";
            /**
             * @description Policy version.
             * @example svc.sign-policy.v1
             */
            policy_version: string | null;
            /**
             * @description Size of the checked bytes.
             * @example 52310
             */
            source_byte_length: number | null;
            /**
             * @description Media type of the checked bytes.
             * @example image/jpeg
             */
            source_media_type: string | null;
            /**
             * @description Status vocabulary of the verdict (null for a signing self-check).
             * @example null
             */
            status_vocabulary_version: string | null;
            /**
             * @description What was verified.
             * @example asset
             * @enum {string}
             */
            subject_type: "uploaded_object" | "stored_object" | "public_url" | "asset" | "manifest" | "receipt";
            /**
             * Format: date-time
             * @description When validation ran.
             * @example 2026-11-22T10:00:00.000Z
             */
            validated_at: string;
            /**
             * @description How it was validated.
             * @example c2pa.embedded
             */
            validation_path: string | null;
            /**
             * @description Verification id.
             * @example vfy_abcdefghij234567
             */
            verification_id: string;
            /**
             * @description Path of the history record.
             * @example /v1/verification-history/vfy_abcdefghij234567
             */
            verification_url: string;
        };
        VerificationPage: {
            /** @description Newest first. */
            items: components["schemas"]["VerificationHistoryResponse"][];
            /** @description Cursor of the next page, or null on the last page. Pages are snapshot-consistent: rows created after the first page are not included. */
            next_cursor: string | null;
        };
        /** @description The C2PA engine's result as recorded: for a publication check its structured output, for a verification the codes its developer explanation names. */
        VerificationReportC2pa: {
            /**
             * @description Whether the bytes were compared with the hard binding (null: not recorded).
             * @example true
             */
            asset_binding_checked: boolean | null;
            /**
             * @description The engine and version that validated.
             * @example c2pa-wasm 0.13.3
             */
            engine: string | null;
            /**
             * @description C2PA failure codes of the active manifest.
             * @example []
             */
            failure_codes: string[];
            /**
             * @description C2PA informational codes.
             * @example []
             */
            informational_codes: string[];
            /**
             * @description C2PA failure codes reported for ingredients.
             * @example []
             */
            ingredient_failure_codes: string[];
            /**
             * @description The active manifest's label.
             * @example urn:c2pa:3fa85f64-5717-4562-b3fc-2c963f66afa6
             */
            manifest_id: string | null;
            /**
             * @description C2PA success codes.
             * @example [
             *       "claimSignature.validated"
             *     ]
             */
            success_codes: string[];
            /**
             * @description The engine's validation state (null: no manifest was read).
             * @example Trusted
             * @enum {string|null}
             */
            validation_state: "Trusted" | "Valid" | "Invalid" | null;
        };
        /** @description What the manifest says, when the record has it. */
        VerificationReportClaims: {
            /**
             * @description The manifest declares AI-assisted or composite content.
             * @example false
             */
            ai_assisted: boolean | null;
            /**
             * @description The manifest declares the content generated by a trained model.
             * @example false
             */
            ai_generated: boolean | null;
            /** @description The device-attested capture the manifest states (absent in older records). */
            capture?: {
                /**
                 * @description True only when the manifest is valid, bound to these bytes and signed with this deployment's own certificate, which signs a capture statement only after a passing device-attestation admission. False: the file merely claims it.
                 * @example true
                 */
                attested_by_service: boolean;
                /**
                 * @description The admission that let the capture be signed.
                 * @example cad_2m4k6n7p2q3r4s5t
                 */
                capture_admission_id: string;
                /**
                 * @description When the admission was decided.
                 * @example 2026-11-25T10:00:00.000Z
                 */
                decided_at: string;
                /**
                 * @description SHA-256 of the file as captured and attested (before signing added the manifest).
                 * @example 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08
                 */
                media_sha256: string;
                /**
                 * @description Who attested the capture device.
                 * @example apple_app_attest
                 * @enum {string}
                 */
                provider_class: "apple_app_attest" | "google_play_integrity" | "android_key_attestation" | "other";
                /**
                 * @description The attestation verifier that checked it.
                 * @example svc-app-attest/1
                 */
                verifier_version: string;
            } | null;
            /**
             * @description Signing time (the trusted timestamp when present).
             * @example 2026-11-22T10:00:00Z
             */
            created_at: string | null;
            /** @description The creator the manifest attributes, as the verification showed it to anyone (absent in older records). */
            creator?: {
                /**
                 * @description True when the manifest is valid, bound to the bytes given (not a manifest alone, nor a sidecar whose binding cannot be checked), signed with this deployment's own certificate, its commitment is that of a creator enrolled here, and the signing tenant's share policy attributes work; otherwise the reference is only the signer's claim and nothing more is said.
                 * @example true
                 */
                attributed_by_service: boolean;
                /**
                 * @description The signing tenant's brand, when its share policy attributes work.
                 * @example Example News
                 */
                brand_name: string | null;
                /**
                 * @description The manifest's salted commitment to the identity (hex SHA-256). A party given the identity and its salt by the tenant's disclosure can recompute it.
                 * @example 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08
                 */
                commitment: string;
                /**
                 * @description The opaque creator reference the manifest carries (never a name or e-mail).
                 * @example cref_abcdefghijklmnopqrstuvwxyz
                 */
                creator_ref: string;
                /**
                 * @description What the signing tenant's share policy (`share_disclosure`) lets anyone see: `disclosed` (the name), `withheld` (reference only), `withdrawn`, `erased`, `unavailable`. Null when not attributed by the service.
                 * @example disclosed
                 * @enum {string|null}
                 */
                disclosure_state: "disclosed" | "withheld" | "withdrawn" | "erased" | "unavailable" | null;
                /**
                 * @description The creator's name, when the share policy discloses it.
                 * @example Ada Example
                 */
                name: string | null;
            } | null;
            /**
             * @description The software that wrote the manifest.
             * @example svc 0.1.0
             */
            generator: string | null;
            /**
             * @description A generative model the manifest names.
             * @example null
             */
            model: string | null;
            /**
             * @description Who signed (the signing certificate's organization or name).
             * @example Example News
             */
            origin: string | null;
        } | null;
        /** @description The canonical JSON report (keys sorted, no white space): a pure function of the stored verification, so the same evidence always gives the same bytes. */
        VerificationReportDocument: {
            c2pa: components["schemas"]["VerificationReportC2pa"];
            claims: components["schemas"]["VerificationReportClaims"];
            /**
             * @description Confidence, 0 to 1 (null for hard failures and publication checks).
             * @example 0.95
             */
            confidence: number | null;
            /**
             * @description Technical summary naming the engine's codes (verifications only).
             * @example status verified_manifest; c2pa-rs validation_state Trusted ...
             */
            developer_explanation: string | null;
            /** @description What it does not. */
            does_not_prove: string[];
            /**
             * @description `verification`: a verify call or stored-object check (with a status of the closed vocabulary). `publication_check`: a signing job's check of its own output at publication (no status).
             * @example verification
             * @enum {string}
             */
            kind: "verification" | "publication_check";
            /** @description Soft-binding matches (watermark, fingerprints). */
            matches: components["schemas"]["VerificationReportMatch"][];
            /**
             * @description Overall outcome.
             * @example valid
             * @enum {string}
             */
            overall: "valid" | "invalid" | "indeterminate" | "recovered";
            /** @description What the evidence supports. */
            proves: string[];
            /**
             * @description The renderer that made this document; a new renderer is a new version.
             * @example svc.verification-report.v1
             * @enum {string}
             */
            report_version: "svc.verification-report.v1";
            /**
             * @description Per-signal results as recorded (a signal that was not computed is absent).
             * @example {
             *       "c2pa_manifest_present": true,
             *       "signer_trusted": true
             *     }
             */
            signals: {
                [key: string]: boolean | string;
            };
            signer: components["schemas"]["VerificationReportSigner"];
            /**
             * @description Status code of the verdict (null for a publication check).
             * @example verified_manifest
             */
            status: string | null;
            /**
             * @description One-line definition of the status from the vocabulary table.
             * @example Valid manifest from a trusted signer; the file is unchanged since signing.
             */
            status_summary: string | null;
            /**
             * @description Status vocabulary of `status`.
             * @example svc.verification-status.v1
             */
            status_vocabulary_version: string | null;
            subject: components["schemas"]["VerificationReportSubject"];
            /**
             * @description Plain-language title of the outcome.
             * @example Verified Content Credentials
             */
            title: string;
            /**
             * @description Plain-language summary for anyone.
             * @example This file carries intact Content Credentials from a trusted signer.
             */
            user_explanation: string;
            /**
             * @description When validation ran (ISO 8601).
             * @example 2026-11-22T10:00:00.000Z
             */
            validated_at: string;
            /**
             * @description The verification the report renders.
             * @example vfy_abcdefghij234567
             */
            verification_id: string;
            /**
             * @description Non-fatal issues, including signals not computed and why.
             * @example []
             */
            warnings: string[];
            /** @description Publication checks of watermarking recipes: the watermark read back from the output (null otherwise). */
            watermark_read_back: {
                /**
                 * @description The embedded watermark's algorithm.
                 * @example svc-wm-tiledss-1
                 */
                algorithm: string;
                /**
                 * @description Whether the payload read back from the output is the one embedded.
                 * @example true
                 */
                payload_matches: boolean;
            } | null;
        };
        /** @description Self-contained, print-friendly HTML for people: no scripts, no links, no external resources. */
        VerificationReportFormat: {
            /**
             * @description Size of the exact bytes.
             * @example 14210
             */
            byte_length: number;
            /**
             * @description File name it is served under (Content-Disposition).
             * @example verification-report-vfy_abcdefghij234567.html
             */
            filename: string;
            /**
             * @description Content-Type it is served with.
             * @example text/html; charset=utf-8
             */
            media_type: string;
            /**
             * @description SHA-256 (hex) of the exact bytes; also the ETag. The same evidence always gives the same hash.
             * @example 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08
             */
            sha256: string;
            /**
             * @description Path that serves this format (GET, `recovery:read`).
             * @example /v1/verification-reports/vrp_abcdefghij234567?format=html
             */
            url: string;
        };
        /** @description A soft-binding match. */
        VerificationReportMatch: {
            /**
             * @description The watermark or fingerprint algorithm.
             * @example svc-wm-tiledss-1
             */
            algorithm: string;
            /**
             * @description Hamming distance (0 for exact matches and watermarks).
             * @example 0
             */
            distance: number;
            /**
             * @description What matched: `watermark` or `fingerprint`.
             * @example watermark
             */
            kind: string;
            /**
             * @description That publication's active manifest.
             * @example urn:c2pa:3fa85f64-5717-4562-b3fc-2c963f66afa6
             */
            manifest_id: string | null;
            /**
             * @description The publication the value is registered to.
             * @example pub_abcdefghij234567
             */
            publication_id: string;
            /**
             * @description Strength of the match, 0 to 1.
             * @example 0.97
             */
            score: number;
        };
        VerificationReportResponse: {
            /**
             * Format: date-time
             * @description When this report was recorded (not part of the documents).
             * @example 2026-11-22T10:00:00.000Z
             */
            created_at: string;
            /** @description The two renderings of the same evidence. */
            formats: {
                html: components["schemas"]["VerificationReportFormat"];
                json: components["schemas"]["VerificationReportFormat"] & unknown;
            };
            /**
             * @description Report id.
             * @example vrp_abcdefghij234567
             */
            report_id: string;
            /**
             * @description The renderer that made the documents; a new renderer is a new version, never a silent change.
             * @example svc.verification-report.v1
             */
            report_version: string;
            /**
             * @description The verification the report renders.
             * @example vfy_abcdefghij234567
             */
            verification_id: string;
        };
        /** @description The signing certificate (null when the record names none, e.g. a publication check). */
        VerificationReportSigner: {
            /**
             * @description Signing certificate subject CN.
             * @example Example News C2PA signer
             */
            common_name: string | null;
            /**
             * @description Issuing CA.
             * @example Example CA
             */
            issuer: string | null;
            /**
             * @description Certificate expiry.
             * @example 2027-11-22T00:00:00Z
             */
            not_after: string | null;
            /**
             * @description Signing certificate subject O.
             * @example Example News
             */
            organization: string | null;
            /**
             * @description Certificate serial (hex).
             * @example 5d47814b0ba2fa1e
             */
            serial_number: string | null;
            /**
             * @description RFC 3161 timestamp time.
             * @example 2026-11-22T10:00:00Z
             */
            timestamp: string | null;
            /**
             * @description The TSA's name.
             * @example Example TSA
             */
            timestamp_authority: string | null;
        } | null;
        /** @description What was checked (never its bytes). */
        VerificationReportSubject: {
            /**
             * @description The asset, when the subject is one.
             * @example ast_abcdefghij234567
             */
            asset_id: string | null;
            /**
             * @description Size of the checked bytes.
             * @example 52310
             */
            byte_length: number | null;
            /**
             * @description The job whose output was checked.
             * @example job_abcdefghij234567
             */
            job_id: string | null;
            /**
             * @description Media type of the checked bytes.
             * @example image/jpeg
             */
            media_type: string | null;
            /**
             * @description The checked object.
             * @example aob_abcdefghij234567
             */
            object_id: string | null;
            /**
             * @description Signing policy version (publication checks).
             * @example svc.sign-policy.v1
             */
            policy_version: string | null;
            /**
             * @description What was verified.
             * @example uploaded_object
             */
            type: string;
            /**
             * @description How it was validated: `c2pa.embedded`, `c2pa.sidecar` or `soft_binding`.
             * @example c2pa.embedded
             */
            validation_path: string | null;
        };
        VerificationResult: {
            claims: components["schemas"]["VerificationClaims"];
            /**
             * @description Weighted aggregate of the signals under the status's fixed rule; null for hard failures.
             * @example 0.95
             */
            confidence: number | null;
            /**
             * @description Technical summary naming the underlying C2PA validation codes.
             * @example status verified_manifest; c2pa-rs validation_state Trusted ...
             */
            developer_explanation: string;
            /** @description What it does not. */
            does_not_prove: string[];
            /**
             * @description The active manifest's label (for GET /v1/verify/{manifest_id}).
             * @example urn:c2pa:3fa85f64-5717-4562-b3fc-2c963f66afa6
             */
            manifest_id: string | null;
            /** @description Soft-binding matches (watermark, fingerprints), used for watermark_only and fingerprint_match_only. For a file with a manifest, only matches of that manifest's publication, or a decoded watermark: a watermark naming another publication than the manifest (evidence the signer put in the file) is the one thing that yields `conflicting_provenance`. */
            matches: components["schemas"]["SoftBindingMatch"][];
            /**
             * @description The media type read from the bytes.
             * @example image/jpeg
             */
            media_type: string;
            /** @description What the evidence supports. */
            proves: string[];
            /** @description Other publications whose content is similar to the file's (a fingerprint match), by any tenant, including the same content signed again. Informational: they never downgrade a valid manifest. Only public facts are shown (the publication's manifest id and publication time), never its owner, asset or publication ids; only publications still published are listed. */
            related_publications: components["schemas"]["RelatedPublication"][];
            /** @description Per-signal results. A signal that was not computed is absent, and a warning says why. */
            signals: {
                /**
                 * @description The manifest's hash is in a sealed transparency-log batch and its inclusion proof verifies.
                 * @example true
                 */
                anchor_match?: boolean;
                /**
                 * @description A C2PA manifest store was found.
                 * @example true
                 */
                c2pa_manifest_present?: boolean;
                /**
                 * @description The active manifest's claim signature validates.
                 * @example true
                 */
                c2pa_signature_valid?: boolean;
                /**
                 * @description A fingerprint of the content matches a published asset: for a file with a manifest, that manifest's own publication (similar content published elsewhere is listed in `related_publications`).
                 * @example true
                 */
                fingerprint_match?: boolean;
                /**
                 * @description Revocation of the signing certificate (RFC 6960); `unavailable` comes with a warning.
                 * @example good
                 * @enum {string}
                 */
                ocsp_status?: "good" | "revoked" | "unknown" | "unavailable" | "not_checked";
                /**
                 * @description The signing certificate chains to a configured trust anchor.
                 * @example true
                 */
                signer_trusted?: boolean;
                /**
                 * @description An RFC 3161 timestamp validates and its TSA is trusted (TSA trust is separate from signer trust).
                 * @example true
                 */
                timestamp_valid?: boolean;
                /**
                 * @description Its payload passed error correction and its checksum. Absent when no watermark was found (not applicable).
                 * @example true
                 */
                watermark_payload_valid?: boolean;
                /**
                 * @description Our watermark was detected in the pixels.
                 * @example true
                 */
                watermark_present?: boolean;
            };
            signer: components["schemas"]["VerificationSigner"];
            /**
             * @description One of 16 closed codes (svc.verification-status.v1; table at /docs/verification-statuses).
             * @example verified_manifest_and_watermark_match
             * @enum {string}
             */
            status: "verified_manifest_and_watermark_match" | "verified_manifest_and_fingerprint_match" | "verified_manifest" | "conflicting_provenance" | "valid_manifest_untrusted_signer" | "signer_revoked" | "signer_certificate_expired" | "manifest_tampered" | "asset_tampered" | "ingredient_invalid" | "unsupported_manifest" | "remote_manifest_unavailable" | "watermark_only" | "fingerprint_match_only" | "durable_credential_unresolved" | "no_provenance_found";
            /**
             * @description Version of the status table.
             * @example svc.verification-status.v1
             * @enum {string}
             */
            status_vocabulary_version: "svc.verification-status.v1";
            /**
             * @description Plain-language summary for anyone.
             * @example This file carries intact Content Credentials from a trusted signer.
             */
            user_explanation: string;
            /**
             * @description The stored verification record (authenticated calls; null for the public variant, which stores nothing).
             * @example vfy_abcdefghij234567
             */
            verification_id: string | null;
            /**
             * @description Non-fatal issues, including every signal that was not computed and why.
             * @example []
             */
            warnings: string[];
        };
        /** @description Share metadata. The token is never stored and never shown again after issue. */
        VerificationShare: {
            /**
             * Format: date-time
             * @description When the share was closed; null while it is not.
             * @example 2026-11-22T10:00:00.000Z
             */
            closed_at: string | null;
            /**
             * Format: date-time
             * @description When the share was issued.
             * @example 2026-11-22T10:00:00.000Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @description When the token stops working.
             * @example 2026-11-22T10:00:00.000Z
             */
            expires_at: string;
            /**
             * @description Your label for the share (who it was given to); never shown to its holder.
             * @example Fact-check desk, Example Daily
             */
            label: string | null;
            /**
             * @description Share id.
             * @example vsh_abcdefghij234567
             */
            share_id: string;
            /**
             * @description `active` until `expires_at` or until closed; `closed` wins over `expired`.
             * @example active
             * @enum {string}
             */
            state: "active" | "expired" | "closed";
            /**
             * @description The verification it shares.
             * @example vfy_abcdefghij234567
             */
            verification_id: string;
        };
        VerificationSharePage: {
            /** @description Shares of the verification, newest first (every state). */
            items: components["schemas"]["VerificationShare"][];
            /** @description Cursor of the next page, or null on the last page. Pages are snapshot-consistent: rows created after the first page are not included. */
            next_cursor: string | null;
        };
        /** @description The signing certificate, when there is a manifest. */
        VerificationSigner: {
            /**
             * @description Signing certificate subject CN.
             * @example Example News C2PA signer
             */
            common_name: string | null;
            /**
             * @description Issuing CA.
             * @example Example CA
             */
            issuer: string | null;
            /**
             * @description Certificate expiry.
             * @example 2027-11-22T00:00:00Z
             */
            not_after: string | null;
            /**
             * @description Signing certificate subject O.
             * @example Example News
             */
            organization: string | null;
            /**
             * @description Certificate serial (hex).
             * @example 5d47814b0ba2fa1e
             */
            serial_number: string | null;
            /**
             * @description RFC 3161 timestamp time.
             * @example 2026-11-22T10:00:00Z
             */
            timestamp: string | null;
            /**
             * @description The TSA's name.
             * @example Example TSA
             */
            timestamp_authority: string | null;
        } | null;
        VerifyFormRequest: {
            /**
             * Format: binary
             * @description The file to verify (any reviewed format, at most 25 MiB). Its type is read from its bytes.
             */
            file?: string;
            /**
             * Format: binary
             * @description Optional sidecar manifest store (`.c2pa`) for `file`, when its manifest travels beside it.
             */
            manifest?: string;
        };
        VerifyJsonRequest: {
            /**
             * @description Verify one of your published assets (needs an API key with `verify:write`).
             * @example ast_abcdefghij234567
             */
            asset_id?: string;
            /**
             * @description Verify a manifest store published at this https URL on a configured manifest host (`{manifest_base_url}`). Fetched through an SSRF guard: no private, loopback, link-local or metadata addresses, no redirects, at most 10 MiB within 5 s. Without the asset the hard binding cannot be checked; a warning says so.
             * @example https://manifests.example.com/m/urn:c2pa:3fa85f64-5717-4562-b3fc-2c963f66afa6.c2pa
             */
            manifest_uri?: string;
        };
        /** @description Before the tenant opted in, the wallet as it would be: `enabled` false, zero amounts, no transactions, `version` 0. */
        Wallet: {
            auto_recharge: components["schemas"]["AutoRecharge"];
            /**
             * @description Prepaid balance (may be negative after a refund or dispute).
             * @example 50.00
             */
            balance_usd: string;
            /**
             * @description Every amount is in US dollars.
             * @example USD
             * @enum {string}
             */
            currency: "USD";
            /**
             * @description Whether the tenant's work is metered and admitted against this wallet.
             * @example true
             */
            enabled: boolean;
            /**
             * @description Charges settled this UTC calendar month.
             * @example 3.21
             */
            month_to_date_spend_usd: string;
            /**
             * @description Monthly spend limit, or null for none.
             * @example 500.00
             */
            monthly_spend_limit_usd: string | null;
            /**
             * @description An automatic recharge was started and has not completed.
             * @example false
             */
            recharge_pending: boolean;
            /**
             * @description Quoted cost of admitted, unpublished work; new work is admitted only while its quote fits balance − reserved.
             * @example 0.0116
             */
            reserved_usd: string;
            /**
             * @description Largest top-up (and auto-recharge amount).
             * @enum {string}
             */
            top_up_max_usd: "10000.00";
            /**
             * @description Smallest top-up (and auto-recharge amount).
             * @enum {string}
             */
            top_up_min_usd: "10.00";
            /** @description The latest 20 balance movements (charges included), newest first. */
            transactions: components["schemas"]["WalletTransaction"][];
            /**
             * @description Send as `expected_version` to change the settings; 0 before the tenant opted in.
             * @example 1
             */
            version: number;
        };
        WalletSettingsRequest: {
            /** @description The auto-recharge settings wanted (required; send the current ones to leave them unchanged). */
            auto_recharge: {
                /**
                 * @description Required when enabled: 10.00 to 10000.00. Decimal string, whole cents.
                 * @default null
                 * @example 50.00
                 */
                amount_usd: string | null;
                /**
                 * @description Auto-recharge on or off; turning it on needs a console session.
                 * @example false
                 */
                enabled: boolean;
                /**
                 * @description Required when enabled: 0.00 to 10000.00. Decimal string, whole cents.
                 * @default null
                 * @example 20.00
                 */
                threshold_usd: string | null;
            };
            /**
             * @description false opts out (refused while balance is negative or work is reserved).
             * @default true
             * @example true
             */
            enabled: boolean;
            /**
             * @description The wallet `version` last read; 0 opts in (creates the wallet).
             * @example 0
             */
            expected_version: number;
            /**
             * @description Monthly spend limit (0.00 to 1000000.00); null removes it; absent leaves it unchanged. Decimal string, whole cents.
             * @example 500.00
             */
            monthly_spend_limit_usd?: string | null;
        };
        WalletTransaction: {
            /**
             * @description Signed: credits positive, debits (charges, refunds, disputes) negative.
             * @example -0.0116
             */
            amount_usd: string;
            /**
             * Format: date-time
             * @description When it moved the balance.
             * @example 2026-11-22T10:00:00.000Z
             */
            created_at: string;
            /**
             * @description What moved the balance.
             * @example charge
             * @enum {string}
             */
            kind: "top_up" | "refund" | "dispute" | "adjustment" | "charge";
            /**
             * @description The charge id (`chg_…`) for a charge, else the ledger transaction id.
             * @example chg_abcdefghij234567
             */
            reference: string;
        };
        WebhookAttemptPage: {
            /** @description Attempts, oldest first. */
            data: components["schemas"]["WebhookAttemptResponse"][];
            /** @description Cursor of the next page, or null on the last page. Pages are snapshot-consistent: rows created after the first page are not included. */
            next_cursor: string | null;
        };
        WebhookAttemptResponse: {
            /**
             * @description 1 for the first attempt.
             * @example 1
             */
            attempt_number: number;
            /**
             * @description Time to the answer (or to the failure).
             * @example 84
             */
            duration_ms: number;
            /**
             * @description Why no usable answer came, when none did (`internal_error`: the service could not make the attempt; retried like a network error).
             * @example null
             * @enum {string|null}
             */
            error: "timeout" | "network_error" | "redirect_not_followed" | "destination_refused" | "internal_error" | null;
            /**
             * @description What the attempt led to.
             * @example retry_scheduled
             * @enum {string}
             */
            outcome: "acknowledged" | "retry_scheduled" | "ended";
            /**
             * @description SHA-256 (hex) of the first 64 KiB of the body.
             * @example null
             */
            response_body_sha256: string | null;
            /**
             * @description HTTP status; null when no answer came.
             * @example 503
             */
            response_code: number | null;
            /**
             * @description The receiver's Retry-After, when it sent one (honoured: the next attempt is no sooner).
             * @example 2
             */
            retry_after_seconds: number | null;
            /**
             * @description Signatures sent in `webhook-signature` (2 during a rotation overlap).
             * @example 1
             */
            signature_count: number;
            /**
             * Format: date-time
             * @description When the request was sent.
             * @example 2026-11-22T10:00:00.000Z
             */
            started_at: string;
        };
        WebhookDeliveryPage: {
            /** @description Deliveries, newest first. */
            data: components["schemas"]["WebhookDeliveryResponse"][];
            /** @description Cursor of the next page, or null on the last page. Pages are snapshot-consistent: rows created after the first page are not included. */
            next_cursor: string | null;
        };
        WebhookDeliveryReplayResponse: {
            /**
             * @description Event id; sent as `webhook-id` (and `Idempotency-Key`) on every attempt of every delivery of the event.
             * @example whevt_abcdefghij234567
             */
            event_id: string;
        };
        WebhookDeliveryResponse: {
            /**
             * @description Attempts made so far (replays included).
             * @example 1
             */
            attempt_count: number;
            /**
             * Format: date-time
             * @description When the delivery was created (fan-out).
             * @example 2026-11-22T10:00:00.000Z
             */
            created_at: string;
            /**
             * @description Webhook delivery id.
             * @example whd_abcdefghij234567
             */
            delivery_id: string;
            /**
             * @description Webhook endpoint id.
             * @example whe_abcdefghij234567
             */
            endpoint_id: string;
            /**
             * @description Event id; sent as `webhook-id` (and `Idempotency-Key`) on every attempt of every delivery of the event.
             * @example whevt_abcdefghij234567
             */
            event_id: string;
            /**
             * @description The event's type, or `webhook.test`.
             * @example asset.signed
             */
            event_type: components["schemas"]["CustomerEventType"] | "webhook.test";
            /**
             * Format: date-time
             * @description When the next attempt is due; null unless pending.
             * @example 2026-11-22T10:00:00.000Z
             */
            next_attempt_at: string | null;
            /**
             * @description Times the delivery was replayed.
             * @example 0
             */
            replay_count: number;
            /**
             * @description SHA-256 (hex) of the first 64 KiB of the last answer's body.
             * @example null
             */
            response_body_sha256: string | null;
            /**
             * @description HTTP status of the last answer; null when none came (timeout, network error) or no attempt yet.
             * @example 200
             */
            response_code: number | null;
            /**
             * @description `pending`: waiting for its next attempt (at `next_attempt_at`), including after a retryable failure; `delivering`: an attempt is in flight; `delivered`: acknowledged (2xx); `failed`: ended by the receiver's answer or the destination policy; `dead`: gave up (retries exhausted) or fenced (endpoint disabled or deleted). `failed` and `dead` can be replayed.
             * @example delivered
             * @enum {string}
             */
            status: "pending" | "delivering" | "delivered" | "failed" | "dead";
            terminal_reason: components["schemas"]["WebhookDeliveryTerminalReason"];
        };
        /**
         * @description Why a delivery ended unacknowledged. `failed`: `receiver_rejected` (an answer other than 2xx, 408, 425, 429, 5xx), `redirect_not_followed` (3xx), `destination_refused` (the destination no longer passes the policy). `dead`: `retries_exhausted`, `endpoint_disabled`, `endpoint_auto_disabled`, `endpoint_deleted`.
         * @example receiver_rejected
         * @enum {string|null}
         */
        WebhookDeliveryTerminalReason: "receiver_rejected" | "redirect_not_followed" | "destination_refused" | "retries_exhausted" | "endpoint_disabled" | "endpoint_auto_disabled" | "endpoint_deleted" | null;
        WebhookEndpointPage: {
            /** @description Endpoints, newest first. */
            data: components["schemas"]["WebhookEndpointResponse"][];
            /** @description Cursor of the next page, or null on the last page. Pages are snapshot-consistent: rows created after the first page are not included. */
            next_cursor: string | null;
        };
        WebhookEndpointResponse: {
            /**
             * @description The endpoint is disabled after this many consecutive failed attempts (1 to 100; default 20); its unfinished deliveries end as `dead`.
             * @example 20
             */
            auto_disable_after_failures: number;
            /**
             * @description Failed attempts since the last acknowledged one.
             * @example 0
             */
            consecutive_failures: number;
            /**
             * Format: date-time
             * @description When the endpoint was created.
             * @example 2026-11-22T10:00:00.000Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @description When the endpoint was deleted.
             * @example 2026-11-22T10:00:00.000Z
             */
            deleted_at: string | null;
            /**
             * @description Why a disabled endpoint is disabled: by the disable operation, or automatically after `auto_disable_after_failures` consecutive failed attempts.
             * @example null
             * @enum {string|null}
             */
            disabled_reason: "manual" | "consecutive_failures" | null;
            /**
             * @description Webhook endpoint id.
             * @example whe_abcdefghij234567
             */
            endpoint_id: string;
            /**
             * @description Event catalog of the subscription.
             * @example svc.customer-events.v1
             * @enum {string}
             */
            event_catalog_version: "svc.customer-events.v1";
            /** @description Subscribed event types. */
            events: components["schemas"]["CustomerEventType"][];
            /**
             * @description At most this many requests in flight to the endpoint at once, across the whole service (1 to 20; default 2).
             * @example 2
             */
            max_concurrency: number;
            /**
             * @description At most this many requests to the endpoint per minute (1 to 600; default 60).
             * @example 60
             */
            rate_limit_per_minute: number;
            /**
             * Format: date-time
             * @description A deleted endpoint stays readable until then.
             * @example 2026-11-22T10:00:00.000Z
             */
            retained_until: string | null;
            /** @description An open rotation overlap: deliveries carry two signatures (new secret first). Null when one secret signs. */
            secret_overlap: {
                /**
                 * Format: date-time
                 * @description When rotate-secret issued the new secret; both secrets sign until the overlap is completed.
                 * @example 2026-11-22T10:00:00.000Z
                 */
                started_at: string;
            } | null;
            /**
             * @description `active` receives deliveries; `disabled` receives none until enabled; `deleted` is retained read-only.
             * @example active
             * @enum {string}
             */
            state: "active" | "disabled" | "deleted";
            /**
             * Format: date-time
             * @description Last change.
             * @example 2026-11-22T10:00:00.000Z
             */
            updated_at: string;
            /**
             * @description Destination.
             * @example https://hooks.example.com/svc
             */
            url: string;
        };
        WebhookEventReplayResponse: {
            /**
             * @description Deliveries queued by this replay (one per active endpoint subscribed to the event).
             * @example 2
             */
            delivery_count: number;
            /**
             * @description Event id; sent as `webhook-id` (and `Idempotency-Key`) on every attempt of every delivery of the event.
             * @example whevt_abcdefghij234567
             */
            event_id: string;
        };
        /** @description The queued synthetic `webhook.test` delivery; follow it with the delivery operations. */
        WebhookTestEventResponse: {
            /**
             * @description Webhook delivery id.
             * @example whd_abcdefghij234567
             */
            delivery_id: string;
            /**
             * @description Event id; sent as `webhook-id` (and `Idempotency-Key`) on every attempt of every delivery of the event.
             * @example whevt_abcdefghij234567
             */
            event_id: string;
        };
        WorkspaceGovernance: {
            /**
             * @description An account deletion is queued or running: assets disappear as it proceeds and new captures are refused.
             * @example false
             */
            deletion_pending: boolean;
            /**
             * @description Whether downloads are currently allowed tenant-wide (no governance rule withholds them: a hold preserves, a deletion removes).
             * @example true
             */
            delivery_allowed: boolean;
            /**
             * @description An account-wide legal hold is active (GET /v1/governance/legal-holds): nothing of the tenant can be deleted and retention expiry is suspended. It does not withhold delivery.
             * @example false
             */
            legal_hold: boolean;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: {
        /** @description Remaining quota and seconds until it resets, e.g. `"key";r=0;t=12` (sent with `API_KEY_RATE_LIMITED`). */
        RateLimit: string;
        /** @description The limit that refused the request (IETF RateLimit header fields), e.g. `"key";q=60;w=60`: at most q requests per w seconds. */
        "RateLimit-Policy": string;
        /** @description Whole seconds to wait before retrying (with the same Idempotency-Key for a write). */
        "Retry-After": number;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getHealthz: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The Worker is alive. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HealthResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getHealthzDb: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description D1 answered. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DatabaseHealthResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description D1 did not answer in time. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DatabaseHealthResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    mcp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["McpRequest"];
            };
        };
        responses: {
            /** @description The JSON-RPC response (`tools/list`, `tools/call`, `initialize`, `ping`). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["McpResponse"];
                };
            };
            /** @description A notification (e.g. `notifications/initialized`) was accepted; no body. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description No credential (the same body as every keyed operation). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description An `Origin` other than the configured public origin (`svc.mcp.origin_refused`; the body also carries the JSON-RPC error `-32000`). Never for a scope (an operation performed on the caller's behalf that needs one the key lacks is refused inside the answer): the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"] | components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The `Accept` header does not list both `application/json` and `text/event-stream` (`svc.mcp.not_acceptable`; the body also carries the JSON-RPC error fields). */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than 4259840 bytes (`svc.request.too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is not `application/json` (`svc.request.unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`), or a cursor is unusable (`svc.cursor.invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getReadyz: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ready to serve. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReadinessResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description A required adapter is unavailable. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReadinessResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getReadyzGovernance: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description All authorities ready. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GovernanceReadinessResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description At least one authority is not ready. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GovernanceReadinessResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getExportArchive: {
        parameters: {
            query: {
                /** @description Expiry (ms since epoch), as issued. */
                expires: string;
                /** @description Capability signature, as issued. */
                signature: string;
            };
            header?: never;
            path: {
                /** @description Export id. */
                export_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The archive, as an attachment, with `X-Content-Type-Options: nosniff` and the sandbox CSP. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/x-tar": string;
                };
            };
            /** @description Signature invalid (`svc.storage.capability_invalid`) or expired (`svc.storage.capability_expired`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The archive is gone (`svc.resource.not_found`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`), or a cursor is unusable (`svc.cursor.invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getObjectContent: {
        parameters: {
            query: {
                /** @description Expiry (ms since epoch), as issued. */
                expires: string;
                /** @description Capability signature, as issued. */
                signature: string;
            };
            header?: never;
            path: {
                /** @description Object id. */
                object_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The object's bytes, as an attachment (`Content-Disposition: attachment` with the filename), with `X-Content-Type-Options: nosniff` and `Content-Security-Policy: sandbox; default-src 'none'`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": string;
                };
            };
            /** @description Signature invalid (`svc.storage.capability_invalid`) or expired (`svc.storage.capability_expired`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The object is gone (`svc.resource.not_found`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`), or a cursor is unusable (`svc.cursor.invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    putUploadContent: {
        parameters: {
            query: {
                /** @description Expiry (ms since epoch), as issued. */
                expires: string;
                /** @description Capability signature, as issued. */
                signature: string;
            };
            header?: never;
            path: {
                /** @description Upload id. */
                upload_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Stored. The ETag header identifies the bytes. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request body broke off before its end (`svc.storage.body_incomplete`): nothing was stored. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Signature invalid (`svc.storage.capability_invalid`) or expired (`svc.storage.capability_expired`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The upload no longer accepts bytes (`svc.storage.upload_closed`). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`), or a cursor is unusable (`svc.cursor.invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    putUploadPart: {
        parameters: {
            query: {
                /** @description Expiry (ms since epoch), as issued. */
                expires: string;
                /** @description Capability signature, as issued. */
                signature: string;
            };
            header?: never;
            path: {
                /** @description Part number. */
                part_number: number;
                /** @description Upload id. */
                upload_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Stored. The ETag header is the part's ETag. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request body broke off before its end (`svc.storage.body_incomplete`): nothing was stored. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Signature invalid (`svc.storage.capability_invalid`) or expired (`svc.storage.capability_expired`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The upload no longer accepts bytes (`svc.storage.upload_closed`). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`), or a cursor is unusable (`svc.cursor.invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getAnchorCheckpoint: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The checkpoint. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AnchorCheckpoint"];
                };
            };
            /** @description Not found for this tenant (`svc.resource.not_found`; another tenant's resource answers the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getAnchorCheckpointBySize: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Tree size. */
                tree_size: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The checkpoint. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AnchorCheckpoint"];
                };
            };
            /** @description Not found for this tenant (`svc.resource.not_found`; another tenant's resource answers the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`), or a cursor is unusable (`svc.cursor.invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getAnchorConsistency: {
        parameters: {
            query: {
                /** @description Older tree size. */
                first: number;
                /** @description Newer tree size. */
                second: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The proof. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AnchorConsistencyProof"];
                };
            };
            /** @description Not found for this tenant (`svc.resource.not_found`; another tenant's resource answers the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`), or a cursor is unusable (`svc.cursor.invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listApiKeys: {
        parameters: {
            query?: {
                /** @description Opaque cursor from the previous page's `next_cursor` (`^[A-Za-z0-9_-]+$`, at most 256 chars). Bound to this tenant, list and filters; valid for 24 hours, or until its traversal is released with DELETE /v1/history/snapshots. */
                cursor?: string;
                /** @description Page size, 1 to 100. */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of keys. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyPage"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `api_keys:read` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`), or a cursor is unusable (`svc.cursor.invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    createApiKey: {
        parameters: {
            query?: never;
            header?: {
                /** @description A fresh UUID per logical operation, reused when retrying it. Replays return the stored response; a different request under the same key answers 409. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateApiKeyRequest"];
            };
        };
        responses: {
            /** @description The key and its one-time secret. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IssuedApiKeyResponse"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description A requested scope is not held by the calling key (`svc.api_keys.scope_not_grantable`), or the requested expiry is later than the calling key's (`svc.api_keys.outranks_caller`). The key lacks the `api_keys:write` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"] | components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description Idempotency-Key reused for a different request (`svc.idempotency.key_reused`), its first request still in progress (`svc.idempotency.request_in_progress`), or a one-time secret that cannot be replayed (`secret_not_replayable`). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request body is too large (`svc.request.too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is not `application/json` (`svc.request.unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`). The Idempotency-Key header is malformed (`svc.idempotency.key_invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description API key id. */
                api_key_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The key (never its secret). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyResponse"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `api_keys:read` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found for this tenant (`svc.resource.not_found`; another tenant's resource answers the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`), or a cursor is unusable (`svc.cursor.invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    revokeApiKey: {
        parameters: {
            query?: never;
            header?: {
                /** @description A fresh UUID per logical operation, reused when retrying it. Replays return the stored response; a different request under the same key answers 409. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description API key id. */
                api_key_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The revoked key. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyResponse"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The calling key does not cover this key (`svc.api_keys.outranks_caller`). The key lacks the `api_keys:write` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"] | components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description Not found for this tenant (`svc.resource.not_found`; another tenant's resource answers the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Already revoked (`svc.api_keys.already_revoked`), or rotating (`svc.api_keys.rotation_in_progress`: complete or cancel the rotation first, so no successor is left alive unseen). Or the Idempotency-Key was reused for a different request (`svc.idempotency.key_reused`) or its first request is still in progress (`svc.idempotency.request_in_progress`). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`). The Idempotency-Key header is malformed (`svc.idempotency.key_invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getApiKeyRestrictions: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description API key id. */
                api_key_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The restrictions. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyRestrictionsResponse"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `api_keys:read` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found for this tenant (`svc.resource.not_found`; another tenant's resource answers the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`), or a cursor is unusable (`svc.cursor.invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    putApiKeyRestrictions: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description API key id. */
                api_key_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PutApiKeyRestrictionsRequest"];
            };
        };
        responses: {
            /** @description The new restrictions. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyRestrictionsResponse"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The calling key does not cover this key, or the new restrictions would be looser than its own (`svc.api_keys.outranks_caller`). The key lacks the `api_keys:write` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"] | components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description Not found for this tenant (`svc.resource.not_found`; another tenant's resource answers the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description expected_version is stale (`svc.api_keys.version_conflict`), or the key is revoked or expired (`svc.api_keys.already_revoked`: after a rotation, change the successor). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request body is too large (`svc.request.too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is not `application/json` (`svc.request.unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`), or a cursor is unusable (`svc.cursor.invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getApiKeyRetention: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description API key id. */
                api_key_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The retention. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyRetentionResponse"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `api_keys:read` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found for this tenant (`svc.resource.not_found`; another tenant's resource answers the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`), or a cursor is unusable (`svc.cursor.invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    putApiKeyRetention: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description API key id. */
                api_key_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PutApiKeyRetentionRequest"];
            };
        };
        responses: {
            /** @description The new retention. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyRetentionResponse"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `api_keys:write` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found for this tenant (`svc.resource.not_found`; another tenant's resource answers the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description expected_version is stale (`svc.api_keys.version_conflict`), or the key is revoked or expired (`svc.api_keys.already_revoked`: after a rotation, change the successor). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request body is too large (`svc.request.too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is not `application/json` (`svc.request.unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`), or a cursor is unusable (`svc.cursor.invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    rotateApiKey: {
        parameters: {
            query?: never;
            header?: {
                /** @description A fresh UUID per logical operation, reused when retrying it. Replays return the stored response; a different request under the same key answers 409. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description API key id. */
                api_key_id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["RotateApiKeyRequest"];
            };
        };
        responses: {
            /** @description The successor and its one-time secret. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RotateApiKeyResponse"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The calling key does not cover this key (`svc.api_keys.outranks_caller`): a key may rotate only keys whose scopes it holds and whose restrictions are at least as tight as its own. The key lacks the `api_keys:write` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"] | components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description Not found for this tenant (`svc.resource.not_found`; another tenant's resource answers the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Revoked or expired (`svc.api_keys.already_revoked`), a rotation already overlapping (`svc.api_keys.rotation_in_progress`), or the key's rotation completed or lapsed (`svc.api_keys.rotation_ended`). Or the Idempotency-Key was reused for a different request (`svc.idempotency.key_reused`) or its first request is still in progress (`svc.idempotency.request_in_progress`). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request body is too large (`svc.request.too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is not `application/json` (`svc.request.unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`). The Idempotency-Key header is malformed (`svc.idempotency.key_invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    cancelApiKeyRotation: {
        parameters: {
            query?: never;
            header?: {
                /** @description A fresh UUID per logical operation, reused when retrying it. Replays return the stored response; a different request under the same key answers 409. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description API key id. */
                api_key_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Both keys after the change. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyRotationResult"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The calling key does not cover this key or its successor (`svc.api_keys.outranks_caller`). The key lacks the `api_keys:write` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"] | components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description Not found for this tenant (`svc.resource.not_found`; another tenant's resource answers the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No rotation was begun (`svc.api_keys.no_rotation`), the rotation already ended — completed, canceled, lapsed, or the successor was revoked (`svc.api_keys.rotation_ended`) — or the key is revoked (`svc.api_keys.already_revoked`). No move leaves an ended rotation and none reactivates a retired key. Or the Idempotency-Key was reused for a different request (`svc.idempotency.key_reused`) or its first request is still in progress (`svc.idempotency.request_in_progress`). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`). The Idempotency-Key header is malformed (`svc.idempotency.key_invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    completeApiKeyRotation: {
        parameters: {
            query?: never;
            header?: {
                /** @description A fresh UUID per logical operation, reused when retrying it. Replays return the stored response; a different request under the same key answers 409. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description API key id. */
                api_key_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Both keys after the change. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyRotationResult"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The calling key does not cover this key or its successor (`svc.api_keys.outranks_caller`). The key lacks the `api_keys:write` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"] | components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description Not found for this tenant (`svc.resource.not_found`; another tenant's resource answers the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No rotation was begun (`svc.api_keys.no_rotation`), the rotation already ended — completed, canceled, lapsed, or the successor was revoked (`svc.api_keys.rotation_ended`) — or the key is revoked (`svc.api_keys.already_revoked`). No move leaves an ended rotation and none reactivates a retired key. Or the Idempotency-Key was reused for a different request (`svc.idempotency.key_reused`) or its first request is still in progress (`svc.idempotency.request_in_progress`). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`). The Idempotency-Key header is malformed (`svc.idempotency.key_invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getApiKeySigningProfile: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description API key id. */
                api_key_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The signing profile. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeySigningProfileResponse"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `api_keys:read` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found for this tenant (`svc.resource.not_found`; another tenant's resource answers the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`), or a cursor is unusable (`svc.cursor.invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    putApiKeySigningProfile: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description API key id. */
                api_key_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PutApiKeySigningProfileRequest"];
            };
        };
        responses: {
            /** @description The new profile. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeySigningProfileResponse"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `api_keys:write` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found for this tenant (`svc.resource.not_found`; another tenant's resource answers the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description expected_version is stale (`svc.api_keys.version_conflict`), or the key is revoked or expired (`svc.api_keys.already_revoked`: after a rotation, change the successor). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request body is too large (`svc.request.too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is not `application/json` (`svc.request.unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`), or a cursor is unusable (`svc.cursor.invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listApiKeyScopes: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The scope vocabulary. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScopeListResponse"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `api_keys:read` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listApiRequestLogs: {
        parameters: {
            query?: {
                /** @description Only requests of this key. */
                api_key_id?: string;
                /** @description Opaque cursor from the previous page's `next_cursor` (`^[A-Za-z0-9_-]+$`, at most 256 chars). Bound to this tenant, list and filters; valid for 24 hours, or until its traversal is released with DELETE /v1/history/snapshots. */
                cursor?: string;
                /** @description Page size, 1 to 100. */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of request logs. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiRequestLogPage"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `api_keys:read` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`), or a cursor is unusable (`svc.cursor.invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getApiRequestLogSummary: {
        parameters: {
            query?: {
                /** @description Only requests of this key. */
                api_key_id?: string;
                /** @description Start of the window (at most 30 days back). */
                since?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The summary. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiRequestLogSummary"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `api_keys:read` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`), or a cursor is unusable (`svc.cursor.invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listAssets: {
        parameters: {
            query?: {
                /** @description Opaque cursor from the previous page's `next_cursor` (`^[A-Za-z0-9_-]+$`, at most 256 chars). Bound to this tenant, list and filters; valid for 24 hours, or until its traversal is released with DELETE /v1/history/snapshots. */
                cursor?: string;
                /** @description Only assets created at or after this time. */
                from?: string;
                /** @description Media family. */
                kind?: "image" | "audio" | "video" | "document" | "font" | "model" | "text";
                /** @description Page size, 1 to 100. */
                limit?: number;
                /** @description Media type (case-insensitive). */
                media?: string;
                /** @description Only assets published with this recipe. */
                recipe_id?: string;
                /** @description Asset status. */
                status?: "awaiting_upload" | "uploaded" | "processing" | "published" | "failed" | "upload_aborted" | "upload_expired" | "upload_failed" | "retention_expired";
                /** @description Only assets with a verification of this outcome. */
                verification_outcome?: "valid" | "invalid" | "indeterminate" | "recovered";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of assets. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AssetPage"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `assets:read` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`), or a cursor is unusable (`svc.cursor.invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getAsset: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Asset id (the tenant-visible id; never an `aob_` object id). */
                asset_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The asset. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AssetResponse"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `assets:read` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found for this tenant (`svc.resource.not_found`; another tenant's resource answers the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`), or a cursor is unusable (`svc.cursor.invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getAssetDetail: {
        parameters: {
            query?: {
                /** @description Cursor of the activity list. */
                activity_cursor?: string;
                /** @description Page size of each list, 1 to 25. */
                limit?: number;
                /** @description Cursor of the verification history list. */
                verification_cursor?: string;
            };
            header?: never;
            path: {
                /** @description Asset id (the tenant-visible id; never an `aob_` object id). */
                asset_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The asset detail. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AssetDetailResponse"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `assets:read` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found for this tenant (`svc.resource.not_found`; another tenant's resource answers the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`), or a cursor is unusable (`svc.cursor.invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    downloadAsset: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Asset id (the tenant-visible id; never an `aob_` object id). */
                asset_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The download capability. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DownloadResponse"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `assets:read` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found for this tenant (`svc.resource.not_found`; another tenant's resource answers the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not published yet (`svc.assets.not_published`). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Retention passed; the media were deleted (`svc.assets.retention_expired`). */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`), or a cursor is unusable (`svc.cursor.invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    createAssetPreview: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Asset id (the tenant-visible id; never an `aob_` object id). */
                asset_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The preview capability. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PreviewResponse"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `assets:read` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found for this tenant (`svc.resource.not_found`; another tenant's resource answers the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not published yet (`svc.assets.not_published`), or no preview for this asset (`svc.assets.preview_unavailable`). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`), or a cursor is unusable (`svc.cursor.invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getAssetPreview: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Asset id (the tenant-visible id; never an `aob_` object id). */
                asset_id: string;
                /** @description The capability (`^[A-Za-z0-9_-]+$`, at most 1024 chars). */
                capability: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The JPEG (inline, with `X-Content-Type-Options: nosniff` and `Content-Security-Policy: sandbox; default-src 'none'`). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "image/jpeg": string;
                };
            };
            /** @description Every unusable capability: `svc.resource.not_found`, "The preview is not available." */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`), or a cursor is unusable (`svc.cursor.invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getBillingAccount: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The account. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BillingAccount"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `billing:read` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listBillingCharges: {
        parameters: {
            query?: {
                /** @description `next_before` of the previous page. */
                before?: string;
                /** @description Page size, 1 to 100. */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of charges. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BillingCharges"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `billing:read` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`), or a cursor is unusable (`svc.cursor.invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    createBillingCheckoutIntent: {
        parameters: {
            query?: never;
            header?: {
                /** @description A fresh UUID per logical operation, reused when retrying it. Replays return the stored response; a different request under the same key answers 409. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CheckoutIntentRequest"];
            };
        };
        responses: {
            /** @description The intent. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BillingIntent"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `billing:write` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `svc.billing.wallet_not_enabled`: a top-up into a wallet that is not opted in and enabled. Or the Idempotency-Key was reused for a different request (`svc.idempotency.key_reused`) or its first request is still in progress (`svc.idempotency.request_in_progress`). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request body is too large (`svc.request.too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is not `application/json` (`svc.request.unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `redirect_url_not_allowed` (success or cancel URL not on a configured console origin), `svc.billing.plan_unknown`, `svc.billing.plan_required`, or `svc.request.invalid`. The Idempotency-Key header is malformed (`svc.idempotency.key_invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"] | components["schemas"]["ValidationErrorResponse"];
                };
            };
            /** @description `BILLING_INTENT_RATE_LIMITED`: more than 10 intents in the last minute for this account; see Retry-After. The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `svc.billing.provider_error`: the provider rejected the service's credentials or answered something unusable. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `svc.billing.provider_unavailable` (no provider configured, or unreachable) or `svc.billing.plan_not_priced` (the plan has no provider price). A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listBillingPlans: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The plans. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BillingPlans"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `billing:read` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    createBillingPortalIntent: {
        parameters: {
            query?: never;
            header?: {
                /** @description A fresh UUID per logical operation, reused when retrying it. Replays return the stored response; a different request under the same key answers 409. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PortalIntentRequest"];
            };
        };
        responses: {
            /** @description The intent. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BillingIntent"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `billing:write` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Idempotency-Key reused for a different request (`svc.idempotency.key_reused`), its first request still in progress (`svc.idempotency.request_in_progress`), or a one-time secret that cannot be replayed (`secret_not_replayable`). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request body is too large (`svc.request.too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is not `application/json` (`svc.request.unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `redirect_url_not_allowed`: return_url is not on a configured console origin; or `svc.request.invalid`. The Idempotency-Key header is malformed (`svc.idempotency.key_invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"] | components["schemas"]["ValidationErrorResponse"];
                };
            };
            /** @description `BILLING_INTENT_RATE_LIMITED`: more than 10 intents in the last minute for this account; see Retry-After. The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `svc.billing.provider_error`: the provider rejected the service's credentials or answered something unusable. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `svc.billing.provider_unavailable`: no provider configured, or unreachable. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getBillingPricing: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The pricing. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BillingPricing"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `billing:read` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    createBillingQuote: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BillingQuoteRequest"];
            };
        };
        responses: {
            /** @description The quote. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BillingQuote"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `billing:read` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request body is too large (`svc.request.too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is not `application/json` (`svc.request.unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `svc.billing.quote_outside_envelope` (or a field error). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getBillingWallet: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The wallet. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Wallet"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `billing:read` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    putBillingWalletSettings: {
        parameters: {
            query?: never;
            header?: {
                /** @description A fresh UUID per logical operation, reused when retrying it. Replays return the stored response; a different request under the same key answers 409. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WalletSettingsRequest"];
            };
        };
        responses: {
            /** @description The wallet after the change. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Wallet"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description `svc.billing.console_session_required`. The key lacks the `billing:write` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"] | components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description `svc.billing.wallet_version_conflict` or `svc.billing.wallet_opt_out_refused`. Or the Idempotency-Key was reused for a different request (`svc.idempotency.key_reused`) or its first request is still in progress (`svc.idempotency.request_in_progress`). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request body is too large (`svc.request.too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is not `application/json` (`svc.request.unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description A field error (amounts outside their bounds or not whole cents). The Idempotency-Key header is malformed (`svc.idempotency.key_invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"] | components["schemas"]["ValidationErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getCapabilities: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Capabilities of this deployment. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CapabilitiesResponse"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `capabilities:read` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    createCaptureAdmissionChallenge: {
        parameters: {
            query?: never;
            header: {
                /** @description Required: a request without it answers 422 `svc.idempotency.key_required`. A fresh UUID per logical operation, reused when retrying it. Replays return the stored response; a different request under the same key answers 409. */
                "idempotency-key": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CaptureAdmissionChallengeRequest"];
            };
        };
        responses: {
            /** @description The challenge. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CaptureAdmissionChallengeResponse"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `capture:write` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found for this tenant (`svc.resource.not_found`; another tenant's resource answers the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `svc.capture.identity_revoked`: the identity is revoked. Or the Idempotency-Key was reused for a different request (`svc.idempotency.key_reused`) or its first request is still in progress (`svc.idempotency.request_in_progress`). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request body is too large (`svc.request.too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is not `application/json` (`svc.request.unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`). The Idempotency-Key header is missing (`svc.idempotency.key_required`) or malformed (`svc.idempotency.key_invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listCaptureAdmissions: {
        parameters: {
            query?: {
                /** @description Capture identity id. */
                capture_identity_id?: string;
                /** @description Opaque cursor from the previous page's `next_cursor` (`^[A-Za-z0-9_-]+$`, at most 256 chars). Bound to this tenant, list and filters; valid for 24 hours, or until its traversal is released with DELETE /v1/history/snapshots. */
                cursor?: string;
                /** @description Only decisions at or after this instant. */
                decided_from?: string;
                /** @description Only decisions at or before this instant. */
                decided_through?: string;
                /** @description Only this decision. */
                decision?: "pass" | "reject";
                /** @description Page size, 1 to 100. */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of admissions. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CaptureAdmissionPage"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `capture:read` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`), or a cursor is unusable (`svc.cursor.invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    createCaptureAdmission: {
        parameters: {
            query?: never;
            header?: {
                /** @description A fresh UUID per logical operation, reused when retrying it. Replays return the stored response; a different request under the same key answers 409. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CaptureAdmissionRequest"];
            };
        };
        responses: {
            /** @description The decision already stored for this exact submission. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CaptureAdmissionResult"];
                };
            };
            /** @description The new decision. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CaptureAdmissionResult"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `capture:write` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found for this tenant (`svc.resource.not_found`; another tenant's resource answers the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Idempotency-Key reused for a different request (`svc.idempotency.key_reused`), its first request still in progress (`svc.idempotency.request_in_progress`), or a one-time secret that cannot be replayed (`secret_not_replayable`). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request body is too large (`svc.request.too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is not `application/json` (`svc.request.unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `svc.capture.upload_object_invalid` or `svc.capture.sensor_evidence_invalid` (or a field error). The Idempotency-Key header is malformed (`svc.idempotency.key_invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"] | components["schemas"]["ValidationErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `svc.capture.trust_unavailable`. Retry later. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getCaptureAdmission: {
        parameters: {
            query?: never;
            header?: {
                /** @description An ETag from an earlier read; when it matches, 304 without a body. */
                "if-none-match"?: string;
            };
            path: {
                /** @description Capture admission id. */
                capture_admission_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The admission. */
            200: {
                headers: {
                    /** @description The quoted SHA-256 (hex) of the body. */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CaptureAdmission"];
                };
            };
            /** @description Not modified: If-None-Match names this admission's ETag. */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `capture:read` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found for this tenant (`svc.resource.not_found`; another tenant's resource answers the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`), or a cursor is unusable (`svc.cursor.invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listCaptureIdentities: {
        parameters: {
            query?: {
                /** @description Opaque cursor from the previous page's `next_cursor` (`^[A-Za-z0-9_-]+$`, at most 256 chars). Bound to this tenant, list and filters; valid for 24 hours, or until its traversal is released with DELETE /v1/history/snapshots. */
                cursor?: string;
                /** @description Page size, 1 to 100. */
                limit?: number;
                /** @description Only identities of this platform. */
                platform?: "ios" | "android";
                /** @description Only identities attested by this provider class. */
                provider_class?: "apple_app_attest" | "google_play_integrity" | "android_key_attestation" | "other";
                /** @description Only identities in this state. */
                state?: "active" | "revoked";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of identities. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CaptureIdentityPage"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `capture:read` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`), or a cursor is unusable (`svc.cursor.invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    createCaptureIdentity: {
        parameters: {
            query?: never;
            header?: {
                /** @description A fresh UUID per logical operation, reused when retrying it. Replays return the stored response; a different request under the same key answers 409. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CaptureIdentityCreateRequest"];
            };
        };
        responses: {
            /** @description The identity this enrolment already created with this statement. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CaptureIdentityCreateResponse"];
                };
            };
            /** @description The new identity. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CaptureIdentityCreateResponse"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `capture:write` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found for this tenant (`svc.resource.not_found`; another tenant's resource answers the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `svc.capture.enrollment_expired`, `svc.capture.enrollment_completed` or `svc.capture.identity_conflict`. Or the Idempotency-Key was reused for a different request (`svc.idempotency.key_reused`) or its first request is still in progress (`svc.idempotency.request_in_progress`). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request body is too large (`svc.request.too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is not `application/json` (`svc.request.unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`). The Idempotency-Key header is malformed (`svc.idempotency.key_invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `svc.capture.trust_unavailable` or `svc.capture.evidence_unavailable`. Retry later. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getCaptureIdentity: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Capture identity id. */
                capture_identity_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The identity. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CaptureIdentityResponse"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `capture:read` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found for this tenant (`svc.resource.not_found`; another tenant's resource answers the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`), or a cursor is unusable (`svc.cursor.invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    revokeCaptureIdentity: {
        parameters: {
            query?: never;
            header?: {
                /** @description A fresh UUID per logical operation, reused when retrying it. Replays return the stored response; a different request under the same key answers 409. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description Capture identity id. */
                capture_identity_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The revoked identity. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CaptureIdentityResponse"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `capture:write` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found for this tenant (`svc.resource.not_found`; another tenant's resource answers the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Idempotency-Key reused for a different request (`svc.idempotency.key_reused`), its first request still in progress (`svc.idempotency.request_in_progress`), or a one-time secret that cannot be replayed (`secret_not_replayable`). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`). The Idempotency-Key header is malformed (`svc.idempotency.key_invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    createCaptureIdentityEnrollment: {
        parameters: {
            query?: never;
            header?: {
                /** @description A fresh UUID per logical operation, reused when retrying it. Replays return the stored response; a different request under the same key answers 409. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CaptureIdentityEnrollmentRequest"];
            };
        };
        responses: {
            /** @description The enrolment challenge. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CaptureIdentityEnrollmentResponse"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `capture:write` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Idempotency-Key reused for a different request (`svc.idempotency.key_reused`), its first request still in progress (`svc.idempotency.request_in_progress`), or a one-time secret that cannot be replayed (`secret_not_replayable`). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request body is too large (`svc.request.too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is not `application/json` (`svc.request.unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`). The Idempotency-Key header is malformed (`svc.idempotency.key_invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `svc.capture.trust_unavailable`: no capture trust snapshot is configured. Retry later. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getConnectCatalog: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The connect catalog. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConnectCatalogResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getCreatorDisclosurePolicy: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The policy. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatorDisclosurePolicyResponse"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `creators:read` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    putCreatorDisclosurePolicy: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreatorDisclosurePolicyRequest"];
            };
        };
        responses: {
            /** @description The policy now in effect. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatorDisclosurePolicyResponse"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `creators:write` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request body is too large (`svc.request.too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is not `application/json` (`svc.request.unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`), or a cursor is unusable (`svc.cursor.invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listCreatorIdentities: {
        parameters: {
            query?: {
                /** @description Opaque cursor from the previous page's `next_cursor` (`^[A-Za-z0-9_-]+$`, at most 256 chars). Bound to this tenant, list and filters; valid for 24 hours, or until its traversal is released with DELETE /v1/history/snapshots. */
                cursor?: string;
                /** @description Page size, 1 to 100. */
                limit?: number;
                /** @description Only identities with this status; all when omitted. */
                state?: "active" | "withdrawn" | "erased";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of identities. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatorIdentityPage"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `creators:read` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`), or a cursor is unusable (`svc.cursor.invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    createCreatorIdentity: {
        parameters: {
            query?: never;
            header: {
                /** @description Required: a request without it answers 422 `svc.idempotency.key_required`. A fresh UUID per logical operation, reused when retrying it. Replays return the stored response; a different request under the same key answers 409. */
                "idempotency-key": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateCreatorIdentityRequest"];
            };
        };
        responses: {
            /** @description The tenant's existing active identity for this e-mail. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatorIdentityResponse"];
                };
            };
            /** @description The new identity. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatorIdentityResponse"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `creators:write` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Idempotency-Key reused for a different request (`svc.idempotency.key_reused`), its first request still in progress (`svc.idempotency.request_in_progress`), or a one-time secret that cannot be replayed (`secret_not_replayable`). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request body is too large (`svc.request.too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is not `application/json` (`svc.request.unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`). The Idempotency-Key header is missing (`svc.idempotency.key_required`) or malformed (`svc.idempotency.key_invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `svc.creators.sealing_unavailable`: personal data cannot be encrypted now (no data master key configured, or the tenant's data key cannot be unwrapped); or credential verification is unavailable (`svc.auth.unavailable`). Retry later. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getCreatorIdentity: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Creator identity id. */
                creator_identity_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The identity. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatorIdentityResponse"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `creators:read` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found for this tenant (`svc.resource.not_found`; another tenant's resource answers the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`), or a cursor is unusable (`svc.cursor.invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getCreatorDisclosure: {
        parameters: {
            query?: {
                /** @description `owning_tenant` (default): what the tenant's own audience may see (`console_disclosure`). `public`: what anyone would be shown (`share_disclosure`). `operator`: reserved to the service operator; an API key gets 403 `svc.creators.audience_not_allowed`. */
                audience?: "owning_tenant" | "public" | "operator";
            };
            header?: never;
            path: {
                /** @description Creator identity id. */
                creator_identity_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The disclosure for this audience. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatorDisclosureResponse"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description `svc.creators.audience_not_allowed`: the `operator` audience is reserved to the service operator and never reachable with an API key. The key lacks the `creators:disclose` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"] | components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description Not found for this tenant (`svc.resource.not_found`; another tenant's resource answers the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`), or a cursor is unusable (`svc.cursor.invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `svc.audit.unavailable`: the disclosure could not be recorded in the audit log, so nothing was disclosed; retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    withdrawCreatorIdentity: {
        parameters: {
            query?: never;
            header?: {
                /** @description A fresh UUID per logical operation, reused when retrying it. Replays return the stored response; a different request under the same key answers 409. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description Creator identity id. */
                creator_identity_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The withdrawn identity. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatorIdentityResponse"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `creators:write` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found for this tenant (`svc.resource.not_found`; another tenant's resource answers the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `svc.creators.erased`: the identity is erased. Or the Idempotency-Key was reused for a different request (`svc.idempotency.key_reused`) or its first request is still in progress (`svc.idempotency.request_in_progress`). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`). The Idempotency-Key header is malformed (`svc.idempotency.key_invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getDeveloperOnboarding: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Onboarding state. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeveloperOnboardingResponse"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `identity:read` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    createFeedback: {
        parameters: {
            query?: never;
            header?: {
                /** @description A fresh UUID per logical operation, reused when retrying it. Replays return the stored response; a different request under the same key answers 409. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["FeedbackRequest"];
            };
        };
        responses: {
            /** @description Stored. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Feedback"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `feedback:write` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Idempotency-Key reused for a different request (`svc.idempotency.key_reused`), its first request still in progress (`svc.idempotency.request_in_progress`), or a one-time secret that cannot be replayed (`secret_not_replayable`). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request body is too large (`svc.request.too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is not `application/json` (`svc.request.unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`). The Idempotency-Key header is malformed (`svc.idempotency.key_invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `svc.feedback.sealing_unavailable`: the message cannot be encrypted now (no data master key, or the tenant's data key unusable); or credential verification is unavailable. Retry later. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listAuditEntries: {
        parameters: {
            query?: {
                /** @description Only this action (exact). */
                action?: string;
                /** @description Only entries by this actor id. */
                actor_id?: string;
                /** @description Opaque cursor from the previous page's `next_cursor` (`^[A-Za-z0-9_-]+$`, at most 256 chars). Bound to this tenant, list and filters; valid for 24 hours, or until its traversal is released with DELETE /v1/history/snapshots. */
                cursor?: string;
                /** @description Page size, 1 to 200. */
                limit?: number;
                /** @description Only entries at or after this instant. */
                occurred_from?: string;
                /** @description Only entries at or before this instant. */
                occurred_through?: string;
                /** @description Only this outcome. */
                outcome?: "succeeded" | "denied" | "failed";
                /** @description Only entries about this resource id. */
                target_id?: string;
                /** @description Also verify the chain from its first entry (cost grows with the log's length, up to 200,000 entries per request). */
                verify?: "true" | "false";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of audit entries. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditPage"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `governance:read` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`), or a cursor is unusable (`svc.cursor.invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listDeletions: {
        parameters: {
            query?: {
                /** @description Opaque cursor from the previous page's `next_cursor` (`^[A-Za-z0-9_-]+$`, at most 256 chars). Bound to this tenant, list and filters; valid for 24 hours, or until its traversal is released with DELETE /v1/history/snapshots. */
                cursor?: string;
                /** @description Page size, 1 to 100. */
                limit?: number;
                /** @description Only deletions in this state. */
                state?: "queued" | "running" | "completed" | "refused" | "failed";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of deletions. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletionPage"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `governance:read` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`), or a cursor is unusable (`svc.cursor.invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    createDeletion: {
        parameters: {
            query?: never;
            header?: {
                /** @description A fresh UUID per logical operation, reused when retrying it. Replays return the stored response; a different request under the same key answers 409. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DeletionRequest"];
            };
        };
        responses: {
            /** @description Accepted: the deletion is queued (or the one already in progress for this target). */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deletion"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `governance:delete` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The asset does not exist for this tenant (`svc.resource.not_found`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `svc.governance.legal_hold_active`: a legal hold covers the target; nothing was removed. Or the Idempotency-Key was reused for a different request (`svc.idempotency.key_reused`) or its first request is still in progress (`svc.idempotency.request_in_progress`). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request body is too large (`svc.request.too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is not `application/json` (`svc.request.unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `svc.governance.confirmation_mismatch`: `confirm` is not this tenant's id; or the body does not match the contract. The Idempotency-Key header is malformed (`svc.idempotency.key_invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"] | components["schemas"]["ValidationErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getDeletion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Deletion id. */
                deletion_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The deletion. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deletion"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `governance:read` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found for this tenant (`svc.resource.not_found`; another tenant's resource answers the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`), or a cursor is unusable (`svc.cursor.invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listGovernanceExports: {
        parameters: {
            query?: {
                /** @description Opaque cursor from the previous page's `next_cursor` (`^[A-Za-z0-9_-]+$`, at most 256 chars). Bound to this tenant, list and filters; valid for 24 hours, or until its traversal is released with DELETE /v1/history/snapshots. */
                cursor?: string;
                /** @description Page size, 1 to 100. */
                limit?: number;
                /** @description Only exports in this state. */
                state?: "queued" | "running" | "completed" | "failed" | "expired";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of exports. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GovernanceExportPage"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `governance:read` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`), or a cursor is unusable (`svc.cursor.invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    createGovernanceExport: {
        parameters: {
            query?: never;
            header?: {
                /** @description A fresh UUID per logical operation, reused when retrying it. Replays return the stored response; a different request under the same key answers 409. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Accepted: the export, queued. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GovernanceExport"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `governance:write` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `svc.governance.export_in_progress`: an export is queued or running. Or the Idempotency-Key was reused for a different request (`svc.idempotency.key_reused`) or its first request is still in progress (`svc.idempotency.request_in_progress`). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`). The Idempotency-Key header is malformed (`svc.idempotency.key_invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `svc.governance.export_signing_unavailable`. Retry later. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getGovernanceExport: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Export id. */
                export_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The export. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GovernanceExport"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `governance:read` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found for this tenant (`svc.resource.not_found`; another tenant's resource answers the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`), or a cursor is unusable (`svc.cursor.invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listLegalHolds: {
        parameters: {
            query?: {
                /** @description Opaque cursor from the previous page's `next_cursor` (`^[A-Za-z0-9_-]+$`, at most 256 chars). Bound to this tenant, list and filters; valid for 24 hours, or until its traversal is released with DELETE /v1/history/snapshots. */
                cursor?: string;
                /** @description Page size, 1 to 100. */
                limit?: number;
                /** @description Only active or only released holds; all when omitted. */
                status?: "active" | "released";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of legal holds. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LegalHoldPage"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `governance:read` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`), or a cursor is unusable (`svc.cursor.invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    releaseHistorySnapshot: {
        parameters: {
            query: {
                /** @description A `next_cursor` of any list (`^[A-Za-z0-9_-]+$`, at most 256 chars). */
                cursor: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Released. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `assets:read` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`), or a cursor is unusable (`svc.cursor.invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listImageProfiles: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Image profiles. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImageProfilesResponse"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `capabilities:read` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listJobs: {
        parameters: {
            query?: {
                /** @description Opaque cursor from the previous page's `next_cursor` (`^[A-Za-z0-9_-]+$`, at most 256 chars). Bound to this tenant, list and filters; valid for 24 hours, or until its traversal is released with DELETE /v1/history/snapshots. */
                cursor?: string;
                /** @description Only jobs of this recipe kind. */
                kind?: "sign_only" | "watermark_only" | "watermark_then_sign";
                /** @description Page size, 1 to 100. */
                limit?: number;
                /** @description Only jobs in this state. */
                state?: "accepted" | "queued" | "running" | "cancel_requested" | "completed" | "canceled" | "expired" | "rejected" | "failed";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of jobs. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobPage"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `jobs:read` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`), or a cursor is unusable (`svc.cursor.invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getJob: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Job id. */
                job_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The job. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobResponse"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `jobs:read` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found for this tenant (`svc.resource.not_found`; another tenant's resource answers the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`), or a cursor is unusable (`svc.cursor.invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    cancelJob: {
        parameters: {
            query?: never;
            header: {
                /** @description Required: a request without it answers 422 `svc.idempotency.key_required`. A fresh UUID per logical operation, reused when retrying it. Replays return the stored response; a different request under the same key answers 409. */
                "idempotency-key": string;
            };
            path: {
                /** @description Job id. */
                job_id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["CancelJobRequest"];
            };
        };
        responses: {
            /** @description The job after the request. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobResponse"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `sign:write` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found for this tenant (`svc.resource.not_found`; another tenant's resource answers the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Already terminal (`svc.jobs.terminal`). Or the Idempotency-Key was reused for a different request (`svc.idempotency.key_reused`) or its first request is still in progress (`svc.idempotency.request_in_progress`). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request body is too large (`svc.request.too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is not `application/json` (`svc.request.unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`). The Idempotency-Key header is missing (`svc.idempotency.key_required`) or malformed (`svc.idempotency.key_invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The caller. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MeResponse"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `identity:read` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getOverview: {
        parameters: {
            query?: {
                /** @description `7d` (default) or `30d`: days back from now; `12m`: twelve calendar months back. */
                range?: "7d" | "30d" | "12m";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The overview. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Overview"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `overview:read` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`), or a cursor is unusable (`svc.cursor.invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listReceipts: {
        parameters: {
            query?: {
                /** @description Only receipts of this asset. */
                asset_id?: string;
                /** @description Opaque cursor from the previous page's `next_cursor` (`^[A-Za-z0-9_-]+$`, at most 256 chars). Bound to this tenant, list and filters; valid for 24 hours, or until its traversal is released with DELETE /v1/history/snapshots. */
                cursor?: string;
                /** @description Only the receipt of this job. */
                job_id?: string;
                /** @description Page size, 1 to 100. */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of receipts. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReceiptPage"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `assets:read` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`), or a cursor is unusable (`svc.cursor.invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getReceipt: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Receipt id. */
                receipt_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The receipt. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReceiptResponse"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `assets:read` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found for this tenant (`svc.resource.not_found`; another tenant's resource answers the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`), or a cursor is unusable (`svc.cursor.invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listRecipes: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The recipe catalog. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RecipeListResponse"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `jobs:read` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getRecipe: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Recipe id. */
                recipe_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The recipe. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RecipeCatalogResponse"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `jobs:read` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found for this tenant (`svc.resource.not_found`; another tenant's resource answers the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`), or a cursor is unusable (`svc.cursor.invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getSharedVerification: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The share token (43 base64url chars). */
                token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The shared outcome. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SharedVerification"];
                };
            };
            /** @description Every unusable token: `svc.resource.not_found`, "No verification is shared under this token." */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`), or a cursor is unusable (`svc.cursor.invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    sign: {
        parameters: {
            query?: never;
            header: {
                /** @description Required: a request without it answers 422 `svc.idempotency.key_required`. A fresh UUID per logical operation, reused when retrying it. Replays return the stored response; a different request under the same key answers 409. */
                "idempotency-key": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SignRequest"];
            };
        };
        responses: {
            /** @description Express mode only: the job completed within the wait; `download` fetches the output. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExpressSignResponse"];
                };
            };
            /** @description The admitted job (standard mode, or an express job still running or not completed at the end of the wait). */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobResponse"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description Payment required (tenants metered by the prepaid wallet): `svc.billing.insufficient_funds` when the job's quote does not fit the wallet's balance minus the quotes of admitted, unpublished work; `svc.billing.monthly_limit_reached` past the monthly spend limit. Nothing is created. */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The key's signing profile does not allow this recipe (`svc.sign.recipe_not_allowed`) or this watermark or fingerprint option (`svc.sign.option_not_allowed`). The key lacks the `sign:write` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"] | components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description Not found for this tenant (`svc.resource.not_found`; another tenant's resource answers the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The asset's upload is not completed (`svc.sign.asset_not_uploaded`), another job is working on it (`svc.sign.asset_busy`), or it is already published (`svc.sign.asset_published`: upload the media again to sign it anew). Or the Idempotency-Key was reused for a different request (`svc.idempotency.key_reused`) or its first request is still in progress (`svc.idempotency.request_in_progress`). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request body is too large (`svc.request.too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is not `application/json` (`svc.request.unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The recipe does not exist (`svc.sign.recipe_unknown`), is not available here (`svc.sign.recipe_unavailable`) or does not take the asset's media type (`svc.sign.media_type_not_supported`); an option does not apply to it (`svc.sign.option_not_applicable`), its algorithm is not offered or not installed (`svc.sign.algorithm_not_offered`, `svc.sign.algorithm_unavailable`), or the image's dimensions are outside what pixel work takes (`svc.sign.image_dimensions_unsupported`); `creator_id` is unknown or inactive (`svc.sign.creator_unknown`, `svc.sign.creator_inactive`); the price list has no price for the work (`svc.billing.not_priced`); or a field error (`svc.request.invalid`, with `field_details`). The Idempotency-Key header is missing (`svc.idempotency.key_required`) or malformed (`svc.idempotency.key_invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"] | components["schemas"]["ValidationErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    signBatch: {
        parameters: {
            query?: never;
            header: {
                /** @description Required; at most 196 characters (item keys append `.b<i>`). */
                "idempotency-key": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SignBatchRequest"];
            };
        };
        responses: {
            /** @description Per-item results. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignBatchResponse"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `sign:write` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Idempotency-Key reused for a different request (`svc.idempotency.key_reused`), its first request still in progress (`svc.idempotency.request_in_progress`), or a one-time secret that cannot be replayed (`secret_not_replayable`). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request body is too large (`svc.request.too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is not `application/json` (`svc.request.unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`). The Idempotency-Key header is missing (`svc.idempotency.key_required`) or malformed (`svc.idempotency.key_invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getManifestById: {
        parameters: {
            query?: {
                /** @description Specifies if only the active manifest should be returned. By default the entire C2PA Manifest Store is returned. */
                returnActiveManifest?: boolean;
            };
            header?: never;
            path: {
                /** @description Identifier of the C2PA Manifest to return (its label, URL-encoded), as a match's `manifestId`. */
                manifestId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful operation: the manifest store. */
            200: {
                headers: {
                    /** @description `attachment; filename="manifest.c2pa"`. */
                    "Content-Disposition"?: string;
                    /** @description SHA-256 (hex) of the returned bytes, quoted. */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/c2pa": string;
                };
            };
            /** @description Invalid C2PA Manifest Id supplied (`svc.resolution.invalid_request`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description A credential was sent but is invalid (`svc.auth.invalid_key`); send a valid key, or none for the public variant. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The key lacks the `recovery:read` scope and the request narrows the search to the tenant (`scope=tenant`; without it the key is served the public answer), or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description C2PA Manifest Id not found among published assets (`svc.resource.not_found`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    queryByBinding: {
        parameters: {
            query: {
                /** @description The soft binding algorithm, by its name in the C2PA soft binding algorithm list (https://github.com/c2pa-org/softbinding-algorithm-list) or, for this service's own algorithms, as the `alg` of the manifest's `c2pa.soft-binding` assertion. GET /services/supportedAlgorithms lists those resolved here. */
                alg: string;
                /** @description The maximum number of manifest identifiers to return (C2PA: minimum 1, default 10); values above 100 are treated as 100. */
                maxResults?: number;
                /** @description Extension of this service. `global` (default): every published asset of every tenant; matches name manifests, never tenants. `tenant`: only the calling key's tenant's publications; needs an API key holding `recovery:read` (401 `svc.resolution.credential_required` without one). */
                scope?: "global" | "tenant";
                /** @description Base64 of the soft binding value, exactly as the `value` of the manifest's soft-binding block: the 8-byte watermark payload, the 8-byte ISCC image digest, or the 32-byte PDQ hash (matched within Hamming distance 31). URL-safe base64 and missing padding are accepted. */
                value: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful operation. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["c2pa.softBindingQueryResult"];
                };
            };
            /** @description Invalid query value: a missing or malformed parameter (`svc.resolution.invalid_request`, with `field_details`), or an algorithm this service does not resolve (`svc.resolution.algorithm_unsupported`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `scope=tenant` without an API key (`svc.resolution.credential_required`), or an invalid credential (`svc.auth.invalid_key`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The key lacks the `recovery:read` scope and the request narrows the search to the tenant (`scope=tenant`; without it the key is served the public answer), or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Query too long, consider using POST instead (`svc.resolution.query_too_long`). */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    queryByLargeBinding: {
        parameters: {
            query?: {
                /** @description The maximum number of manifest identifiers to return (C2PA: minimum 1, default 10); values above 100 are treated as 100. */
                maxResults?: number;
                /** @description Extension of this service. `global` (default): every published asset of every tenant; matches name manifests, never tenants. `tenant`: only the calling key's tenant's publications; needs an API key holding `recovery:read` (401 `svc.resolution.credential_required` without one). */
                scope?: "global" | "tenant";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description Soft binding query JSON document. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["c2pa.softBindingQuery"];
            };
        };
        responses: {
            /** @description Successful operation. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["c2pa.softBindingQueryResult"];
                };
            };
            /** @description Invalid query value: a missing or malformed field or unparsable JSON (`svc.resolution.invalid_request`, with `field_details`), or an algorithm this service does not resolve (`svc.resolution.algorithm_unsupported`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `scope=tenant` without an API key (`svc.resolution.credential_required`), or an invalid credential (`svc.auth.invalid_key`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The key lacks the `recovery:read` scope and the request narrows the search to the tenant (`scope=tenant`; without it the key is served the public answer), or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is larger than 1 MiB (`svc.request.too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is not application/json (`svc.request.unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    uploadFile: {
        parameters: {
            query?: {
                /** @description The soft binding algorithm, by its name in the C2PA soft binding algorithm list (https://github.com/c2pa-org/softbinding-algorithm-list) or, for this service's own algorithms, as the `alg` of the manifest's `c2pa.soft-binding` assertion. GET /services/supportedAlgorithms lists those resolved here. */
                alg?: string;
                /** @description An additional soft binding algorithm (as `alg`) to aid resolution; requires `hintValue`. */
                hintAlg?: string;
                /** @description The value (base64, as in byBinding) of the soft binding named by `hintAlg`. */
                hintValue?: string;
                /** @description The maximum number of manifest identifiers to return (C2PA: minimum 1, default 10); values above 100 are treated as 100. */
                maxResults?: number;
                /** @description Extension of this service. `global` (default): every published asset of every tenant; matches name manifests, never tenants. `tenant`: only the calling key's tenant's publications; needs an API key holding `recovery:read` (401 `svc.resolution.credential_required` without one). */
                scope?: "global" | "tenant";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description Asset to match to manifests. */
        requestBody: {
            content: {
                "application/*": string;
                "audio/*": string;
                "image/*": string;
                "model/*": string;
                "text/*": string;
                "video/*": string;
            };
        };
        responses: {
            /** @description Successful operation. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["c2pa.softBindingQueryResult"];
                };
            };
            /** @description An empty body, an incomplete hint or a malformed parameter (`svc.resolution.invalid_request`), or an algorithm this service does not resolve (`svc.resolution.algorithm_unsupported`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `scope=tenant` without an API key (`svc.resolution.credential_required`), or an invalid credential (`svc.auth.invalid_key`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The key lacks the `recovery:read` scope and the request narrows the search to the tenant (`scope=tenant`; without it the key is served the public answer), or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The asset is larger than 25 MiB or 12 MP (`svc.request.too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Invalid asset type: not a resolved image type, undecodable, or no/another Content-Type (`svc.resolution.unsupported_asset_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limit (`svc.resolution.rate_limited`), with Retry-After. The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getSupportedBindings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful operation. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["c2pa.softBindingAlgList"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    createUpload: {
        parameters: {
            query?: never;
            header?: {
                /** @description A fresh UUID per logical operation, reused when retrying it. Replays return the stored response; a different request under the same key answers 409. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateUploadRequest"];
            };
        };
        responses: {
            /** @description The upload and its presigned request(s). */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreateUploadResponse"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `uploads:write` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Idempotency-Key reused for a different request (`svc.idempotency.key_reused`), its first request still in progress (`svc.idempotency.request_in_progress`), or a one-time secret that cannot be replayed (`secret_not_replayable`). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request body is too large (`svc.request.too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is not `application/json` (`svc.request.unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `declared_media_type` is not a reviewed format (`svc.uploads.media_type_unknown`) or not enabled here (`svc.uploads.media_type_unavailable`: see GET /v1/capabilities), `byte_length` is above the type's `upload.maximum_bytes` (`svc.uploads.too_large`), the declared `parts` do not fit the mode or the length (`svc.uploads.parts_invalid`), or a field error (`svc.request.invalid`, with `field_details`). The Idempotency-Key header is malformed (`svc.idempotency.key_invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"] | components["schemas"]["ValidationErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    abortUpload: {
        parameters: {
            query?: never;
            header?: {
                /** @description A fresh UUID per logical operation, reused when retrying it. Replays return the stored response; a different request under the same key answers 409. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description Upload id. */
                upload_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The upload's status. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AbortUploadResponse"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `uploads:write` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found for this tenant (`svc.resource.not_found`; another tenant's resource answers the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Already completed (`svc.uploads.already_completed`). Or the Idempotency-Key was reused for a different request (`svc.idempotency.key_reused`) or its first request is still in progress (`svc.idempotency.request_in_progress`). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`). The Idempotency-Key header is malformed (`svc.idempotency.key_invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    completeUpload: {
        parameters: {
            query?: never;
            header: {
                /** @description Required: a request without it answers 422 `svc.idempotency.key_required`. A fresh UUID per logical operation, reused when retrying it. Replays return the stored response; a different request under the same key answers 409. */
                "idempotency-key": string;
            };
            path: {
                /** @description Upload id. */
                upload_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CompleteUploadRequest"];
            };
        };
        responses: {
            /** @description The pinned object. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CompleteUploadResponse"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `uploads:write` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found for this tenant (`svc.resource.not_found`; another tenant's resource answers the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No bytes uploaded yet (`svc.uploads.bytes_missing`), or the upload failed for good (`svc.uploads.failed`: a multipart upload whose assembled bytes did not match what was declared). Or the Idempotency-Key was reused for a different request (`svc.idempotency.key_reused`) or its first request is still in progress (`svc.idempotency.request_in_progress`). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The upload was aborted or expired (`svc.uploads.gone`). */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request body is too large (`svc.request.too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is not `application/json` (`svc.request.unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The stored bytes are refused: not the declared `byte_length` (`svc.uploads.length_mismatch`) or `sha256` (`svc.uploads.sha256_mismatch`), not a reviewed format (`svc.media.unsupported_type`), another format than declared (`svc.media.type_mismatch`), truncated or malformed (`svc.media.corrupt`), or a video codec not supported (`MEDIA_CODEC_UNSUPPORTED`); wrong or missing part ETags (`svc.uploads.parts_invalid`); or a field error (`svc.request.invalid`, with `field_details`). The Idempotency-Key header is missing (`svc.idempotency.key_required`) or malformed (`svc.idempotency.key_invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"] | components["schemas"]["ValidationErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Object storage did not complete the upload; it is unchanged (`svc.uploads.storage_unavailable`, retryable). A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getUsage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Usage and availability. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Usage"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `billing:read` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getVerificationEvidence: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Verification id. */
                verification_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The evidence. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VerificationEvidenceResponse"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `recovery:read` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found for this tenant (`svc.resource.not_found`; another tenant's resource answers the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`), or a cursor is unusable (`svc.cursor.invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    createVerificationReport: {
        parameters: {
            query?: never;
            header?: {
                /** @description A fresh UUID per logical operation, reused when retrying it. Replays return the stored response; a different request under the same key answers 409. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description Verification id. */
                verification_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The report and where to download each format. */
            201: {
                headers: {
                    /** @description Path of the report. */
                    Location?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VerificationReportResponse"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `recovery:read` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found for this tenant (`svc.resource.not_found`; another tenant's resource answers the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Idempotency-Key reused for a different request (`svc.idempotency.key_reused`), its first request still in progress (`svc.idempotency.request_in_progress`), or a one-time secret that cannot be replayed (`secret_not_replayable`). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`). The Idempotency-Key header is malformed (`svc.idempotency.key_invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listVerificationShares: {
        parameters: {
            query?: {
                /** @description Opaque cursor from the previous page's `next_cursor` (`^[A-Za-z0-9_-]+$`, at most 256 chars). Bound to this tenant, list and filters; valid for 24 hours, or until its traversal is released with DELETE /v1/history/snapshots. */
                cursor?: string;
                /** @description Page size, 1 to 100. */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description Verification id. */
                verification_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VerificationSharePage"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `recovery:read` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found for this tenant (`svc.resource.not_found`; another tenant's resource answers the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`), or a cursor is unusable (`svc.cursor.invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    createVerificationShare: {
        parameters: {
            query?: never;
            header: {
                /** @description Required: a request without it answers 422 `svc.idempotency.key_required`. A fresh UUID per logical operation, reused when retrying it. Replays return the stored response; a different request under the same key answers 409. */
                "idempotency-key": string;
            };
            path: {
                /** @description Verification id. */
                verification_id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["CreateVerificationShareRequest"];
            };
        };
        responses: {
            /** @description The share and its one-time token. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IssuedVerificationShare"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `verify:write` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found for this tenant (`svc.resource.not_found`; another tenant's resource answers the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Idempotency-Key reused for a different request (`svc.idempotency.key_reused`), its first request still in progress (`svc.idempotency.request_in_progress`), or a one-time secret that cannot be replayed (`secret_not_replayable`). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request body is too large (`svc.request.too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is not `application/json` (`svc.request.unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`). The Idempotency-Key header is missing (`svc.idempotency.key_required`) or malformed (`svc.idempotency.key_invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getVerificationHistory: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Verification id. */
                verification_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The history summary. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VerificationHistoryResponse"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `recovery:read` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found for this tenant (`svc.resource.not_found`; another tenant's resource answers the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`), or a cursor is unusable (`svc.cursor.invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getVerificationReport: {
        parameters: {
            query?: {
                /** @description Which rendering to download (default `json`). */
                format?: "json" | "html";
            };
            header?: {
                /** @description An ETag from an earlier download; when it matches, 304 without a body. */
                "if-none-match"?: string;
            };
            path: {
                /** @description Report id. */
                report_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The report in the requested format. */
            200: {
                headers: {
                    /** @description `inline; filename="verification-report-<verification_id>.<html|json>"`. */
                    "Content-Disposition"?: string;
                    /** @description The quoted SHA-256 (hex) of the body. */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VerificationReportDocument"];
                    "text/html": string;
                };
            };
            /** @description Not modified: If-None-Match names this format's ETag. */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `recovery:read` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found for this tenant (`svc.resource.not_found`; another tenant's resource answers the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`), or a cursor is unusable (`svc.cursor.invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    closeVerificationShare: {
        parameters: {
            query?: never;
            header?: {
                /** @description A fresh UUID per logical operation, reused when retrying it. Replays return the stored response; a different request under the same key answers 409. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description Share id. */
                share_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The closed share. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VerificationShare"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `verify:write` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found for this tenant (`svc.resource.not_found`; another tenant's resource answers the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Idempotency-Key reused for a different request (`svc.idempotency.key_reused`), its first request still in progress (`svc.idempotency.request_in_progress`), or a one-time secret that cannot be replayed (`secret_not_replayable`). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`). The Idempotency-Key header is malformed (`svc.idempotency.key_invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listVerifications: {
        parameters: {
            query?: {
                /** @description Opaque cursor from the previous page's `next_cursor` (`^[A-Za-z0-9_-]+$`, at most 256 chars). Bound to this tenant, list and filters; valid for 24 hours, or until its traversal is released with DELETE /v1/history/snapshots. */
                cursor?: string;
                /** @description Page size, 1 to 100. */
                limit?: number;
                /** @description Only this outcome. */
                overall?: "valid" | "invalid" | "indeterminate" | "recovered";
                /** @description Only this subject type. */
                subject_type?: "uploaded_object" | "stored_object" | "public_url" | "asset" | "manifest" | "receipt";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VerificationPage"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `recovery:read` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`), or a cursor is unusable (`svc.cursor.invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    createVerification: {
        parameters: {
            query?: never;
            header: {
                /** @description Required: a request without it answers 422 `svc.idempotency.key_required`. A fresh UUID per logical operation, reused when retrying it. Replays return the stored response; a different request under the same key answers 409. */
                "idempotency-key": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateVerificationRequest"];
            };
        };
        responses: {
            /** @description Accepted. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StoredVerificationResponse"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `verify:write` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found for this tenant (`svc.resource.not_found`; another tenant's resource answers the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Idempotency-Key reused for a different request (`svc.idempotency.key_reused`), its first request still in progress (`svc.idempotency.request_in_progress`), or a one-time secret that cannot be replayed (`secret_not_replayable`). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The object is larger than `limits.verify.stored_object_maximum_bytes` (a streamed type: `limits.verify.streamed_object_maximum_bytes`) (`svc.request.too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is not `application/json` (`svc.request.unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`). The Idempotency-Key header is missing (`svc.idempotency.key_required`) or malformed (`svc.idempotency.key_invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getVerification: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Verification id. */
                verification_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The durable status. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StoredVerificationResponse"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `recovery:read` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found for this tenant (`svc.resource.not_found`; another tenant's resource answers the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`), or a cursor is unusable (`svc.cursor.invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    verify: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["VerifyJsonRequest"];
                "multipart/form-data": components["schemas"]["VerifyFormRequest"];
            };
        };
        responses: {
            /** @description The verification result. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VerificationResult"];
                };
            };
            /** @description Nothing to verify (`svc.verify.no_input`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description A credential was sent but is invalid (`svc.auth.invalid_key`); send a valid key, or none for the public variant. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The key lacks the `verify:write` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `asset_id` names no asset of yours, or it is not published (`svc.resource.not_found`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The file is larger than 25 MiB, the asset named by `asset_id` is larger than `limits.verify.stored_object_maximum_bytes` (its media type's `limits.verify.streamed_object_maximum_bytes` for a type verified by streaming), or the file has a manifest that the C2PA engine must read and is larger than `limits.verify.engine_read_maximum_bytes` (`svc.request.too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The file is not a reviewed format (`svc.verify.unsupported_file_type`), or the body is neither JSON nor multipart (`svc.request.unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `manifest_uri` refused by the outbound guard (`svc.verify.manifest_uri_refused`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limit (`svc.ratelimit.exceeded`), with Retry-After. The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `manifest_uri` could not be fetched (`svc.verify.manifest_uri_unavailable`). */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getVerifyResult: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Active manifest label. */
                manifest_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The stored result. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VerificationResult"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `recovery:read` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found for this tenant (`svc.resource.not_found`; another tenant's resource answers the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`), or a cursor is unusable (`svc.cursor.invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listWebhookEndpoints: {
        parameters: {
            query?: {
                /** @description Opaque cursor from the previous page's `next_cursor` (`^[A-Za-z0-9_-]+$`, at most 256 chars). Bound to this tenant, list and filters; valid for 24 hours, or until its traversal is released with DELETE /v1/history/snapshots. */
                cursor?: string;
                /** @description Include deleted endpoints that are still retained. */
                include_deleted?: "true" | "false";
                /** @description Page size, 1 to 100. */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of endpoints. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointPage"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `webhooks:read` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`), or a cursor is unusable (`svc.cursor.invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    createWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: {
                /** @description A fresh UUID per logical operation, reused when retrying it. Replays return the stored response; a different request under the same key answers 409. */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateWebhookEndpointRequest"];
            };
        };
        responses: {
            /** @description The endpoint and its one-time secret. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IssuedWebhookEndpointResponse"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `webhooks:write` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `secret_not_replayable` for a replayed completed create; `svc.webhooks.endpoint_limit` at 50 endpoints. Or the Idempotency-Key was reused for a different request (`svc.idempotency.key_reused`) or its first request is still in progress (`svc.idempotency.request_in_progress`). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request body is too large (`svc.request.too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is not `application/json` (`svc.request.unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `svc.webhooks.destination_refused` or `svc.webhooks.subscription_invalid`, or a malformed body. The Idempotency-Key header is malformed (`svc.idempotency.key_invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"] | components["schemas"]["ValidationErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Webhook endpoint id. */
                endpoint_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The endpoint. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointResponse"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `webhooks:read` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found for this tenant (`svc.resource.not_found`; another tenant's resource answers the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`), or a cursor is unusable (`svc.cursor.invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    deleteWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: {
                /** @description A fresh UUID per logical operation, reused when retrying it. Replays return the stored response; a different request under the same key answers 409. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description Webhook endpoint id. */
                endpoint_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The deleted endpoint. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointResponse"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `webhooks:write` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found for this tenant (`svc.resource.not_found`; another tenant's resource answers the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `svc.webhooks.endpoint_deleted`. Or the Idempotency-Key was reused for a different request (`svc.idempotency.key_reused`) or its first request is still in progress (`svc.idempotency.request_in_progress`). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`). The Idempotency-Key header is malformed (`svc.idempotency.key_invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    updateWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: {
                /** @description A fresh UUID per logical operation, reused when retrying it. Replays return the stored response; a different request under the same key answers 409. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description Webhook endpoint id. */
                endpoint_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateWebhookEndpointRequest"];
            };
        };
        responses: {
            /** @description The updated endpoint. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointResponse"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `webhooks:write` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found for this tenant (`svc.resource.not_found`; another tenant's resource answers the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `svc.webhooks.endpoint_deleted`. Or the Idempotency-Key was reused for a different request (`svc.idempotency.key_reused`) or its first request is still in progress (`svc.idempotency.request_in_progress`). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request body is too large (`svc.request.too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is not `application/json` (`svc.request.unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `svc.webhooks.destination_refused`, `svc.webhooks.subscription_invalid`, or a malformed body. The Idempotency-Key header is malformed (`svc.idempotency.key_invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"] | components["schemas"]["ValidationErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                /** @description Opaque cursor from the previous page's `next_cursor` (`^[A-Za-z0-9_-]+$`, at most 256 chars). Bound to this tenant, list and filters; valid for 24 hours, or until its traversal is released with DELETE /v1/history/snapshots. */
                cursor?: string;
                /** @description Page size, 1 to 100. */
                limit?: number;
                /** @description Only deliveries in this status. */
                status?: "pending" | "delivering" | "delivered" | "failed" | "dead";
            };
            header?: never;
            path: {
                /** @description Webhook endpoint id. */
                endpoint_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of deliveries. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryPage"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `webhooks:read` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found for this tenant (`svc.resource.not_found`; another tenant's resource answers the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`), or a cursor is unusable (`svc.cursor.invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    disableWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: {
                /** @description A fresh UUID per logical operation, reused when retrying it. Replays return the stored response; a different request under the same key answers 409. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description Webhook endpoint id. */
                endpoint_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The disabled endpoint. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointResponse"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `webhooks:write` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found for this tenant (`svc.resource.not_found`; another tenant's resource answers the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `svc.webhooks.endpoint_deleted`. Or the Idempotency-Key was reused for a different request (`svc.idempotency.key_reused`) or its first request is still in progress (`svc.idempotency.request_in_progress`). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`). The Idempotency-Key header is malformed (`svc.idempotency.key_invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    enableWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: {
                /** @description A fresh UUID per logical operation, reused when retrying it. Replays return the stored response; a different request under the same key answers 409. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description Webhook endpoint id. */
                endpoint_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The active endpoint. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointResponse"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `webhooks:write` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found for this tenant (`svc.resource.not_found`; another tenant's resource answers the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `svc.webhooks.endpoint_deleted`. Or the Idempotency-Key was reused for a different request (`svc.idempotency.key_reused`) or its first request is still in progress (`svc.idempotency.request_in_progress`). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `svc.webhooks.destination_refused`: the destination no longer passes the policy; update the URL first. The Idempotency-Key header is malformed (`svc.idempotency.key_invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"] | components["schemas"]["ValidationErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    rotateWebhookEndpointSecret: {
        parameters: {
            query?: never;
            header?: {
                /** @description A fresh UUID per logical operation, reused when retrying it. Replays return the stored response; a different request under the same key answers 409. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description Webhook endpoint id. */
                endpoint_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The endpoint (with `secret_overlap` open) and its new secret. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IssuedWebhookEndpointResponse"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `webhooks:write` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found for this tenant (`svc.resource.not_found`; another tenant's resource answers the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `svc.webhooks.rotation_in_progress`, `svc.webhooks.endpoint_deleted` or `secret_not_replayable`. Or the Idempotency-Key was reused for a different request (`svc.idempotency.key_reused`) or its first request is still in progress (`svc.idempotency.request_in_progress`). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`). The Idempotency-Key header is malformed (`svc.idempotency.key_invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    completeWebhookSecretOverlap: {
        parameters: {
            query?: never;
            header?: {
                /** @description A fresh UUID per logical operation, reused when retrying it. Replays return the stored response; a different request under the same key answers 409. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description Webhook endpoint id. */
                endpoint_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The endpoint with one secret. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointResponse"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `webhooks:write` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found for this tenant (`svc.resource.not_found`; another tenant's resource answers the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `svc.webhooks.no_secret_overlap` or `svc.webhooks.endpoint_deleted`. Or the Idempotency-Key was reused for a different request (`svc.idempotency.key_reused`) or its first request is still in progress (`svc.idempotency.request_in_progress`). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`). The Idempotency-Key header is malformed (`svc.idempotency.key_invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    sendWebhookTestEvent: {
        parameters: {
            query?: never;
            header?: {
                /** @description A fresh UUID per logical operation, reused when retrying it. Replays return the stored response; a different request under the same key answers 409. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description Webhook endpoint id. */
                endpoint_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The queued test delivery. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookTestEventResponse"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `webhooks:write` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found for this tenant (`svc.resource.not_found`; another tenant's resource answers the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `svc.webhooks.endpoint_disabled` or `svc.webhooks.endpoint_deleted`. Or the Idempotency-Key was reused for a different request (`svc.idempotency.key_reused`) or its first request is still in progress (`svc.idempotency.request_in_progress`). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`). The Idempotency-Key header is malformed (`svc.idempotency.key_invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `svc.ratelimit.exceeded`: 10 test events per hour per endpoint; see Retry-After. The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getWebhookDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Webhook delivery id. */
                delivery_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The delivery. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryResponse"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `webhooks:read` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found for this tenant (`svc.resource.not_found`; another tenant's resource answers the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`), or a cursor is unusable (`svc.cursor.invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listWebhookDeliveryAttempts: {
        parameters: {
            query?: {
                /** @description Opaque cursor from the previous page's `next_cursor` (`^[A-Za-z0-9_-]+$`, at most 256 chars). Bound to this tenant, list and filters; valid for 24 hours, or until its traversal is released with DELETE /v1/history/snapshots. */
                cursor?: string;
                /** @description Page size, 1 to 100. */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description Webhook delivery id. */
                delivery_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of attempts. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookAttemptPage"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `webhooks:read` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found for this tenant (`svc.resource.not_found`; another tenant's resource answers the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`), or a cursor is unusable (`svc.cursor.invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    replayWebhookDelivery: {
        parameters: {
            query?: never;
            header: {
                /** @description Required: a request without it answers 422 `svc.idempotency.key_required`. A fresh UUID per logical operation, reused when retrying it. Replays return the stored response; a different request under the same key answers 409. */
                "idempotency-key": string;
            };
            path: {
                /** @description Webhook delivery id. */
                delivery_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The replayed event. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryReplayResponse"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `webhooks:write` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found for this tenant (`svc.resource.not_found`; another tenant's resource answers the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `svc.webhooks.delivery_in_progress`, `svc.webhooks.endpoint_disabled` or `svc.webhooks.endpoint_deleted`. Or the Idempotency-Key was reused for a different request (`svc.idempotency.key_reused`) or its first request is still in progress (`svc.idempotency.request_in_progress`). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`). The Idempotency-Key header is missing (`svc.idempotency.key_required`) or malformed (`svc.idempotency.key_invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getWebhookEventCatalog: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The catalog. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventCatalogResponse"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `webhooks:read` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    replayWebhookEvent: {
        parameters: {
            query?: never;
            header?: {
                /** @description A fresh UUID per logical operation, reused when retrying it. Replays return the stored response; a different request under the same key answers 409. */
                "idempotency-key"?: string;
            };
            path: {
                /** @description Event id; sent as `webhook-id` (and `Idempotency-Key`) on every attempt of every delivery of the event. */
                event_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The event and how many deliveries were queued. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEventReplayResponse"];
                };
            };
            /** @description Credential missing, malformed, expired, revoked or invalid; one identical body whatever the cause. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"];
                };
            };
            /** @description The key lacks the `webhooks:write` scope, or the identity is deactivated (`HttpErrorResponse`: `detail` only); or the key is used from a network outside its IP allowlist (`API_KEY_IP_NOT_ALLOWED`, `ErrorResponse`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HttpErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Not found for this tenant (`svc.resource.not_found`; another tenant's resource answers the same). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Idempotency-Key reused for a different request (`svc.idempotency.key_reused`), its first request still in progress (`svc.idempotency.request_in_progress`), or a one-time secret that cannot be replayed (`secret_not_replayable`). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`). The Idempotency-Key header is malformed (`svc.idempotency.key_invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"] | components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The key's request rate limit is reached (`API_KEY_RATE_LIMITED`, with `Retry-After` and `RateLimit-Policy`); the refused request used no capacity: wait and retry with the same Idempotency-Key. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Credential verification unavailable (`svc.auth.unavailable`); retry. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    receiveIdpCallback: {
        parameters: {
            query?: never;
            header: {
                /** @description The event's unique id (the deduplication key). */
                "idp-id": string;
                /** @description Space-separated `v1,<base64 HMAC-SHA256>` entries (several while the provider rotates its secret). */
                "idp-signature": string;
                /** @description Unix seconds the provider signed at. */
                "idp-timestamp": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["IdpEvent"];
            };
        };
        responses: {
            /** @description Received: applied, unchanged, for an unknown user, ignored, or a duplicate. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IdpCallbackResponse"];
                };
            };
            /** @description `svc.session.idp_signature_invalid` (missing or malformed headers, wrong or stale signature) or `svc.session.idp_event_invalid` (the body is not JSON). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `svc.session.idp_identity_conflict`: the change conflicts with the user's state (a deleted user reactivated, an e-mail another user holds). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `svc.request.too_large`: body over 64 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is not `application/json` (`svc.request.unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `svc.session.idp_event_unprocessable`: JSON that is not an IdpEvent, or an understood event missing what it needs. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `svc.session.idp_unavailable`: no signing secret configured (SVC_IDP_WEBHOOK_SECRET), or the user's data cannot be sealed. A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    receivePaymentsCallback: {
        parameters: {
            query?: never;
            header: {
                /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256>` (v1 repeated during secret rotation). */
                "stripe-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description Received: applied, ignored, or a duplicate. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaymentsCallbackResult"];
                };
            };
            /** @description `svc.billing.signature_invalid` (missing, wrong or stale signature) or `svc.billing.event_invalid`. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `svc.billing.identity_conflict`: the event's tenant, customer, session or amount does not match its intent. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `svc.request.too_large`: body over 256 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is not `application/json` (`svc.request.unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request does not match the contract (`svc.request.invalid`, with `field_details`), or a cursor is unusable (`svc.cursor.invalid`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationErrorResponse"];
                };
            };
            /** @description Unexpected error (`svc.internal`); quote the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `svc.billing.verification_unavailable`: no provider or signing secret configured; or `svc.billing.provider_unavailable`: a dispute names only its charge and the provider could not be asked which intent it belongs to (the provider retries). A dependency (database, object store, queue, or a coordinating object: rate limiter, audit log, webhook gate) failed for this request (`svc.dependency.unavailable`, `retryable: true`, with `Retry-After`); nothing was half-written: retry, with the same Idempotency-Key for a write. A rate limit that cannot be checked refuses the request this way (it never lets it through unlimited). */
            503: {
                headers: {
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
}
