import type { Bindings } from "../env";
import { log } from "../platform/logger";

/*
 * Messages on the webhooks queue carry ids only; D1 is the truth:
 *   webhook.fanout {event_id}     → one delivery row per subscribed active endpoint, then a deliver message each
 *   webhook.deliver {delivery_id} → one attempt (see delivery.ts)
 */

export const FANOUT_MESSAGE = "webhook.fanout";
export const DELIVER_MESSAGE = "webhook.deliver";

/** Cloudflare Queues delays a message at most 12 hours; longer waits are re-sent on arrival. */
const MAX_QUEUE_DELAY_SECONDS = 43_200;

const delaySecondsOf = (delayMs: number) => Math.min(MAX_QUEUE_DELAY_SECONDS, Math.max(0, Math.ceil(delayMs / 1000)));

export async function sendDeliver(env: Bindings, deliveryId: string, delayMs = 0): Promise<void> {
  const delaySeconds = delaySecondsOf(delayMs);
  await env.WEBHOOKS_QUEUE.send({ type: DELIVER_MESSAGE, delivery_id: deliveryId }, delaySeconds > 0 ? { delaySeconds } : undefined);
}

/** Deliver messages each with its own delay, 100 per sendBatch. */
export async function sendDeliverDelayed(env: Bindings, items: readonly { id: string; delayMs: number }[]): Promise<void> {
  for (let i = 0; i < items.length; i += 100) {
    await env.WEBHOOKS_QUEUE.sendBatch(
      items.slice(i, i + 100).map(({ id, delayMs }) => {
        const delaySeconds = delaySecondsOf(delayMs);
        return { body: { type: DELIVER_MESSAGE, delivery_id: id }, ...(delaySeconds > 0 ? { delaySeconds } : {}) };
      }),
    );
  }
}

export async function sendDeliverMany(env: Bindings, deliveryIds: readonly string[]): Promise<void> {
  for (let i = 0; i < deliveryIds.length; i += 100) {
    await env.WEBHOOKS_QUEUE.sendBatch(deliveryIds.slice(i, i + 100).map((id) => ({ body: { type: DELIVER_MESSAGE, delivery_id: id } })));
  }
}

/** Queues take at most 100 messages per sendBatch. */
export async function sendFanout(env: Bindings, eventIds: readonly string[]): Promise<void> {
  for (let i = 0; i < eventIds.length; i += 100) {
    await env.WEBHOOKS_QUEUE.sendBatch(eventIds.slice(i, i + 100).map((id) => ({ body: { type: FANOUT_MESSAGE, event_id: id } })));
  }
}

/**
 * Sends the deliver messages of rows already committed as pending and due. A failure here must not fail the
 * request (the change is done, and a retry would do it twice): the cron sweep sends what this could not.
 */
export async function nudge(env: Bindings, deliveryIds: string[]): Promise<void> {
  try {
    await sendDeliverMany(env, deliveryIds);
  } catch (error) {
    log.warn("deliver message not sent; the sweep will send it", { deliveries: deliveryIds.length, error: String(error) });
  }
}
