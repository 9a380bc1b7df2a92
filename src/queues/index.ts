import type { HandlerRegistry } from "./dispatch";

/**
 * Handlers of the `svc-jobs` queue (sign, watermark, fingerprint, stored-object verification, exports) and of
 * the `svc-webhooks` queue (deliveries). The signing spine and the webhooks issue register theirs here.
 */
export const JOB_HANDLERS: HandlerRegistry = {};
export const WEBHOOK_HANDLERS: HandlerRegistry = {};

export const QUEUES = { jobs: "svc-jobs", webhooks: "svc-webhooks" } as const;
