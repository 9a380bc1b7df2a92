import { createApp } from "./app";
import { database } from "./db/client";
import type { Bindings } from "./env";
import { sweepIdempotencyRecords } from "./platform/idempotency";
import { QUEUES, JOB_HANDLERS, WEBHOOK_HANDLERS } from "./queues";
import { dispatchBatch } from "./queues/dispatch";

export { RateLimiter } from "./durable-objects/rate-limiter";
export { WebhookEndpointGate } from "./durable-objects/webhook-endpoint-gate";

const app = createApp();

export default {
  fetch: app.fetch,

  async queue(batch, env) {
    if (batch.queue === QUEUES.jobs) return dispatchBatch(batch, env, JOB_HANDLERS);
    if (batch.queue === QUEUES.webhooks) return dispatchBatch(batch, env, WEBHOOK_HANDLERS);
    console.error(JSON.stringify({ level: "error", problem: "batch from an unknown queue", queue: batch.queue }));
    batch.retryAll();
  },

  async scheduled(_controller, env, ctx) {
    ctx.waitUntil(sweepIdempotencyRecords(database(env.DB), Date.now()));
  },
} satisfies ExportedHandler<Bindings>;
