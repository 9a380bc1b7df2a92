/**
 * Bindings of the Worker: what wrangler.toml declares (generated into worker-configuration.d.ts by
 * `npm run cf-typegen`) plus the secrets, which are never in wrangler.toml and may be absent.
 */
export type Bindings = Env & {
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
};
