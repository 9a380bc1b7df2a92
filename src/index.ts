import { sealPending } from "./anchoring/log";
import { sweepRequestLogs } from "./api-keys/repo/request-logs";
import { type App, createApp } from "./app";
import { sweepExpiredRetention } from "./assets/retention";
import { database } from "./db/client";
import { reconcileDerivedIndex } from "./derived-index/service";
import type { Bindings } from "./env";
import { drainAuditOutbox } from "./governance/audit/service";
import { sweepDeletions } from "./governance/deletions/service";
import { sweepExports } from "./governance/exports/seal";
import { sweepReleasedCursors } from "./history/repo";
import { sweepJobOrphans } from "./jobs/orphans";
import { requeueStaleJobs } from "./jobs/sweep";
import { sweepOverviewAggregates } from "./overview/aggregate";
import { configOf } from "./platform/config";
import { sweepIdempotencyRecords } from "./platform/idempotency";
import { log } from "./platform/logger";
import { rewrapDataKeys } from "./platform/sealing";
import { JOB_HANDLERS, QUEUES, WEBHOOK_HANDLERS } from "./queues";
import { dispatchBatch } from "./queues/dispatch";
import { checkDeployment } from "./system/deployment";
import { sweepExpiredUploads } from "./uploads/service";
import { requeueStaleVerifications } from "./verifications/stored";
import { sweepWebhooks } from "./webhooks/sweep";

export { AuditChain } from "./durable-objects/audit-chain";
export { RateLimiter } from "./durable-objects/rate-limiter";
export { WebhookEndpointGate } from "./durable-objects/webhook-endpoint-gate";

/** One app per mode, built on first use: development routes exist only in the development app. */
const apps: { development?: App; production?: App } = {};
function appFor(env: Bindings): App {
  return configOf(env).environment === "development"
    ? (apps.development ??= createApp({ development: true }))
    : (apps.production ??= createApp());
}

/** Cron sweeps: each is idempotent and bounded, and one failing does not stop the others. */
async function sweep(env: Bindings) {
  const db = database(env.DB);
  const now = Date.now();
  const results = await Promise.allSettled([
    sweepIdempotencyRecords(db, now),
    sweepExpiredUploads(db, env.OBJECTS, now),
    sweepReleasedCursors(db, now),
    requeueStaleJobs(env, now),
    sweepJobOrphans(env, now),
    sweepRequestLogs(db, now),
    sweepExpiredRetention(db, env.OBJECTS, now),
    sealPending(env, now),
    requeueStaleVerifications(env, now),
    sweepWebhooks(env, now),
    rewrapDataKeys(db, env, now),
    sweepExports(env, now),
    sweepDeletions(env, now),
    reconcileDerivedIndex(env, now),
    sweepOverviewAggregates(env, now),
    drainAuditOutbox(env, now),
  ]);
  for (const r of results) if (r.status === "rejected") log.error("sweep failed", { error: String(r.reason) });
}

/** Development always runs; production only once checkDeployment passes (the same rule the API answers by). */
function deploymentReady(env: Bindings): boolean {
  if (configOf(env).environment === "development") return true;
  const check = checkDeployment(env);
  if (!check.ready) log.error("deployment not configured: background work paused", { missing: check.problems });
  return check.ready;
}

export default {
  fetch: (request, env, ctx) => appFor(env).fetch(request, env, ctx),

  async queue(batch, env) {
    // An unconfigured production Worker does no background work either (it would sign with fallbacks): the
    // messages wait in the queue until an operator completes the configuration.
    if (!deploymentReady(env)) return batch.retryAll({ delaySeconds: 60 });
    if (batch.queue === QUEUES.jobs) return dispatchBatch(batch, env, JOB_HANDLERS);
    if (batch.queue === QUEUES.webhooks) return dispatchBatch(batch, env, WEBHOOK_HANDLERS, { concurrent: true });
    log.error("batch from an unknown queue", { queue: batch.queue });
    batch.retryAll();
  },

  async scheduled(_controller, env, ctx) {
    if (!deploymentReady(env)) return;
    ctx.waitUntil(sweep(env));
  },
} satisfies ExportedHandler<Bindings>;
