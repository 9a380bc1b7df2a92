// @svc/client: the svc API typed from its served OpenAPI document, plus helpers that follow the contract's
// client rules (retries, Idempotency-Key, capability URLs, hash checks). Runs in Node ≥ 20, Workers and browsers.
export {
  type CompleteUploadResponse,
  type CreateUploadResponse,
  createSvcClient,
  DEFAULT_BASE_URL,
  type Download,
  type DownloadedAsset,
  type DownloadOptions,
  type ExpressSignResponse,
  type Job,
  type PollOptions,
  type SignedJob,
  type SignOptions,
  type SignRequest,
  type SignResult,
  type SvcClient,
  type SvcClientOptions,
  TERMINAL_JOB_STATES,
  type UploadOptions,
  type UploadProgress,
  type UploadSource,
  unwrap,
  type VerificationResult,
  type VerifyInput,
  type VerifyOptions,
} from "./client.ts";
export { fromEnv } from "./env.ts";
export { type FieldDetail, type JobReference, SvcError, SvcIntegrityError, SvcJobError } from "./errors.ts";
export type { components, operations, paths } from "./openapi.js";
export type { RetryOptions } from "./retry.ts";
export { Sha256, sha256Blob, sha256Bytes } from "./sha256.ts";
export { SvcWebhookError, verifyWebhook, type WebhookEvent, type WebhookHeaders, webhooks } from "./webhooks.ts";
