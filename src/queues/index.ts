import { DELETION_MESSAGE, runDeletion } from "../governance/deletions/service";
import { EXPORT_MESSAGE, runExport } from "../governance/exports/seal";
import { JOB_MESSAGE, runJob } from "../jobs/runner";
import { mediaServices } from "../media";
import { runStoredVerification, VERIFICATION_MESSAGE } from "../verifications/stored";
import { deliverMessages } from "../webhooks/delivery-run";
import { fanOutEvent } from "../webhooks/fan-out";
import { DELIVER_MESSAGE, FANOUT_MESSAGE } from "../webhooks/queue";
import type { HandlerRegistry } from "./dispatch";

/**
 * Handlers of the `svc-jobs` queue (sign, watermark, fingerprint, stored-object verification, exports) and of
 * the `svc-webhooks` queue (deliveries). The signing spine and the webhooks issue register theirs here.
 */
export const JOB_HANDLERS: HandlerRegistry = {
  [JOB_MESSAGE]: async (body, env) => runJob(env, await mediaServices(env), String(body.tenant_id), String(body.job_id)),
  [VERIFICATION_MESSAGE]: async (body, env) => runStoredVerification(env, String(body.tenant_id), String(body.verification_id)),
  [EXPORT_MESSAGE]: async (body, env) => runExport(env, String(body.export_id)),
  [DELETION_MESSAGE]: async (body, env, attempt) => runDeletion(env, String(body.tenant_id), String(body.deletion_id), attempt),
};
export const WEBHOOK_HANDLERS: HandlerRegistry = {
  [FANOUT_MESSAGE]: async (body, env) => fanOutEvent(env, String(body.event_id)),
  // A batch's deliveries share their round trips: one claim, gate call and record per endpoint and round.
  [DELIVER_MESSAGE]: { batch: (bodies, env) => deliverMessages(env, bodies) },
};

export const QUEUES = { jobs: "svc-jobs", webhooks: "svc-webhooks" } as const;
