/**
 * Reason codes a failed, rejected or expired job reports in `error_code` (not HTTP errors). Documented on /docs/errors.
 * `rejected` is for input the service cannot process (REJECTING_CODES); every other code ends the job `failed`.
 */
export const JOB_ERROR_CODES = {
  "svc.jobs.source_unavailable": "The uploaded bytes could not be read back unchanged from storage.",
  "svc.jobs.sign_failed": "The C2PA engine could not sign this file.",
  "svc.jobs.output_invalid": "The signed output did not validate with the reference engine, so it was not published.",
  "svc.jobs.media_unsupported": "The engine does not support this media type.",
  "svc.jobs.decode_failed": "The image or audio could not be decoded for watermarking or fingerprinting.",
  "svc.jobs.watermark_failed":
    "The watermark could not be embedded, or did not read back from the encoded output, so nothing was published.",
  "svc.jobs.fingerprint_failed": "A fingerprint could not be computed.",
  "svc.jobs.creator_inactive":
    "The creator identity the job attributes was withdrawn or erased after the job was admitted, so nothing was signed or published.",
  // Stored-object verifications (POST /v1/verifications) report theirs here too.
  "svc.verifications.object_unavailable":
    "The object's bytes are no longer stored (deleted by retention, or changed), so the verification failed.",
  "svc.verifications.failed": "The verification could not be completed after several attempts.",
  "svc.jobs.step_unavailable": "A step of the recipe is not installed in this deployment.",
  "svc.jobs.attempts_exhausted":
    "The job's steps stopped before finishing on every one of its bounded attempts (the worker crashed or ran out of time), so it failed and nothing was published. Sign the asset again.",
  "svc.jobs.expired": "The job was not started before its start deadline, so it expired without running. Sign the asset again.",
} as const;

export type JobErrorCode = keyof typeof JOB_ERROR_CODES;

/** Codes that say the job's input cannot be processed (the job ends `rejected`, not `failed`). */
export const REJECTING_CODES: ReadonlySet<JobErrorCode> = new Set<JobErrorCode>([
  "svc.jobs.media_unsupported",
  "svc.jobs.decode_failed",
  "svc.jobs.creator_inactive",
]);
