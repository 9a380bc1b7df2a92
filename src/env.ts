/**
 * Bindings of the Worker: what wrangler.toml declares (generated into worker-configuration.d.ts by
 * `npm run cf-typegen`) plus the secrets, which are never in wrangler.toml and may be absent.
 */
export type Bindings = Env & {
  /** Server pepper for API-key hashes. Without it every authenticated operation answers 503. */
  SVC_KEY_PEPPER?: string;
  /** HMAC key for pagination cursors. */
  SVC_CURSOR_SECRET?: string;
  /** Public origin used in absolute links (documentation URLs); defaults to the request's origin. */
  SVC_PUBLIC_BASE_URL?: string;
};
