import type { Bindings } from "../env";
import { log } from "../platform/logger";

/*
 * Messages on the webhooks queue carry ids only; D1 is the truth:
 *   webhook.fanout {event_id}     → one delivery row per subscribed active endpoint, then a deliver message each
 *   webhook.deliver {delivery_id} → one attempt (see delivery.ts)
 *   webhook.deliver {delivery_ids} → one attempt of each, in runs per endpoint (delivery-run.ts); up to
 *                                    DELIVERIES_PER_MESSAGE ids, so a queue batch of 100 carries thousands
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

/** Ids per deliver message: 100 ids are ≈ 2.5 KB, far inside a message's 128 KB. */
export const DELIVERIES_PER_MESSAGE = 100;

/** The ids a deliver message names (one, or a run); [] when it names none. */
export function deliveryIdsOf(body: Record<string, unknown>): string[] {
  if (Array.isArray(body.delivery_ids)) return body.delivery_ids.filter((id): id is string => typeof id === "string");
  return typeof body.delivery_id === "string" ? [body.delivery_id] : [];
}

/** Deliver messages for deliveries due now, DELIVERIES_PER_MESSAGE ids each, 100 messages per sendBatch. */
export async function sendDeliverMany(env: Bindings, deliveryIds: readonly string[]): Promise<void> {
  const messages: { body: { type: string; delivery_ids: string[] } }[] = [];
  for (let i = 0; i < deliveryIds.length; i += DELIVERIES_PER_MESSAGE)
    messages.push({ body: { type: DELIVER_MESSAGE, delivery_ids: deliveryIds.slice(i, i + DELIVERIES_PER_MESSAGE) } });
  for (let i = 0; i < messages.length; i += 100) await env.WEBHOOKS_QUEUE.sendBatch(messages.slice(i, i + 100));
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
