import type { VideoMedia } from "./media/video";
import { configOf } from "./platform/config";

/**
 * Bindings of the Worker: what wrangler.toml declares (generated into worker-configuration.d.ts by
 * `npm run cf-typegen`) plus the secrets, which are never in wrangler.toml and may be absent.
 */
export type Bindings = Env & {
  /**
   * The media Worker (wrangler.media.toml, src/media/video-worker.ts): video decoding and fingerprints behind an RPC
   * entrypoint. Absent: video is signed without fingerprints and verified without those signals.
   */
  VIDEO?: VideoMedia;
  /** Server pepper for API-key hashes. Without it every authenticated operation answers 503. */
  SVC_KEY_PEPPER?: string;
  /** HMAC key for pagination cursors. */
  SVC_CURSOR_SECRET?: string;
  /** HMAC key for storage capability URLs (upload and download locations served by the Worker). */
  SVC_CAPABILITY_SECRET?: string;
  /** R2's S3 API credentials; when all are set, uploads and downloads are presigned R2 URLs instead. */
  SVC_R2_S3_ENDPOINT?: string;
  SVC_R2_ACCESS_KEY_ID?: string;
  SVC_R2_SECRET_ACCESS_KEY?: string;
  SVC_R2_BUCKET?: string;
  /** Public origin used in absolute links (documentation URLs); defaults to the request's origin. */
  SVC_PUBLIC_BASE_URL?: string;
  /** C2PA signing certificate chain (PEM, signer first, then intermediates; never the root). */
  SVC_C2PA_SIGNER_CHAIN_PEM?: string;
  /** PKCS#8 PEM private key of the C2PA signing certificate. */
  SVC_C2PA_SIGNER_KEY_PEM?: string;
  /** RFC 3161 TSA URL for manifest timestamps; "internal" uses the in-process dev TSA below. */
  SVC_TSA_URL?: string;
  /** Dev TSA certificate chain (PEM, TSA first), used when SVC_TSA_URL is "internal" and by POST /dev/tsa. */
  SVC_TSA_CHAIN_PEM?: string;
  /** PKCS#8 PEM private key of the dev TSA certificate. */
  SVC_TSA_KEY_PEM?: string;
  /** Trust anchors (PEM bundle) for verification: the dev root CA locally. */
  SVC_TRUST_ANCHORS_PEM?: string;
  /**
   * Development only: the dev PKI signer's OCSP location (its AIA). Requests for it are answered in process by
   * the dev responder below (and by POST /dev/ocsp for other tools), with revocations from POST /dev/ocsp/revocations.
   */
  SVC_DEV_OCSP_URL?: string;
  SVC_OCSP_RESPONDER_CERT_PEM?: string;
  SVC_OCSP_RESPONDER_KEY_PEM?: string;
  /** The CA the dev responder answers for (the dev intermediate). */
  SVC_OCSP_CA_CERT_PEM?: string;
  /** PKCS#8 PEM ECDSA P-256 key that signs the manifest transparency log's checkpoints; none: no anchoring. */
  SVC_ANCHOR_KEY_PEM?: string;
  /** The log's origin line (its name in checkpoints), e.g. "provenance.example/manifest-log". */
  SVC_ANCHOR_ORIGIN?: string;
  /** "off" leaves the bundled official C2PA trust list out of verification's trust anchors (default: on). */
  SVC_C2PA_TRUST_LIST?: string;
  /** Comma-separated host names `manifest_uri` may point at (SPEC `{manifest_base_url}`); none: verify-by-URI refused. */
  SVC_MANIFEST_HOSTS?: string;
  /** Per-tenant limit of authenticated POST /v1/verify calls per minute (default 600). */
  SVC_VERIFY_TENANT_RATE_PER_MINUTE?: string;
  /** "1" lets webhook endpoints use http to loopback addresses (local receivers). Development only: ignored when SVC_ENVIRONMENT is "production". */
  SVC_WEBHOOKS_ALLOW_LOOPBACK?: string;
  /** Development only (ignored in production): JSON map of host name → addresses, consulted before DNS over HTTPS, like /etc/hosts. */
  SVC_DEV_DNS_HOSTS?: string;
  /** Webhook retry schedule: comma-separated delays in seconds before attempts 2, 3, … (default: Standard Webhooks' schedule over ~3 days). */
  SVC_WEBHOOK_RETRY_SCHEDULE?: string;
  /** Data master keys "kid:base64url(32 bytes),…", first current (src/platform/sealing.ts); none: creator enrolment 503, disclosure `unavailable`. */
  SVC_DATA_MASTER_KEYS?: string;
  /** Capture attestation trust: JSON of AttestationTrust (src/media/attestation/types.ts); none: capture enrolment answers 503. */
  SVC_CAPTURE_TRUST?: string;
  /** Payments adapter: "simulation" (development only; its default there), "sandbox" or "provider"; none: billing intents 503. */
  SVC_PAYMENTS_MODE?: string;
  /** Stripe secret key (sk_test_/rk_test_ for sandbox, sk_live_/rk_live_ for provider). */
  SVC_STRIPE_SECRET_KEY?: string;
  /** Comma-separated Stripe webhook signing secrets (several during rotation); none: POST /webhooks/payments 503. */
  SVC_STRIPE_WEBHOOK_SECRETS?: string;
  /** Stripe API base URL of a local stand-in (tests, development; refused in provider mode). */
  SVC_STRIPE_API_BASE?: string;
  /** Stripe price per plan, "plan_id=price_…" comma-separated; a plan without one cannot be checked out (503). */
  SVC_STRIPE_PLAN_PRICES?: string;
  /** Comma-separated origins checkout success/cancel and portal return URLs may point at. */
  SVC_CONSOLE_ORIGINS?: string;
  /** Development only: the secret the simulated checkout signs its callbacks with (default: a fixed dev value). */
  SVC_PAYMENTS_SIMULATION_SECRET?: string;
  /**
   * Console sessions (#18): `Authorization: Bearer <JWT>` from this OIDC issuer (the token's exact `iss`). Sessions
   * are configured when the issuer, the audience and one key source are all set; otherwise a session token answers 503.
   */
  SVC_SESSION_ISSUER?: string;
  /** Accepted `aud` values, comma-separated (the console's client id at the identity provider). */
  SVC_SESSION_AUDIENCE?: string;
  /** The issuer's public keys inline, as a JWKS JSON document (`{"keys":[…]}`; public keys only). Wins over the URL. */
  SVC_SESSION_JWKS?: string;
  /** The issuer's JWKS URL (https; cached, an unknown `kid` refetches at most every 30 s). */
  SVC_SESSION_JWKS_URL?: string;
  /** Development only: PKCS#8 PEM private key of the dev session issuer (src/dev/session-issuer.ts; `npm run dev:session`). */
  SVC_DEV_SESSION_KEY_PEM?: string;
  /** Signing secret of POST /webhooks/idp (`whsec_` + base64, Svix-style); none: the callback answers 503. */
  SVC_IDP_WEBHOOK_SECRET?: string;
};

/**
 * Development mode (wrangler.toml's [env.dev]: `npm start` and the workerd tests): development routes are
 * mounted and development material (dev TSA, dev OCSP responder, static DNS hosts) may be used. Anything else,
 * including a missing or misspelt SVC_ENVIRONMENT, is production.
 */
export function isDevelopment(env: { SVC_ENVIRONMENT?: string }): boolean {
  return configOf(env).environment === "development";
}
