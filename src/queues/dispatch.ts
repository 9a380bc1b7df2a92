import type { Bindings } from "../env";
import { log } from "../platform/logger";

/** A queue message names its handler; the D1 row it points at is the truth (messages carry ids only). */
export interface QueueMessageBody {
  type: string;
  [field: string]: unknown;
}

/** Handlers must be idempotent: delivery is at least once. */
export type QueueHandler = (body: QueueMessageBody, env: Bindings, attempt: number) => Promise<void>;

export type HandlerRegistry = Readonly<Record<string, QueueHandler>>;

/** Exponential backoff with jitter for retried messages, capped at 5 minutes. */
export function retryDelaySeconds(attempt: number): number {
  const base = Math.min(300, 2 ** Math.min(attempt, 8));
  return Math.max(1, Math.round(base / 2 + Math.random() * (base / 2)));
}

/**
 * Runs each message through the handler its `type` names. A handler that throws gets its message retried
 * with backoff (the queue's dead-letter queue takes it after max_retries); a malformed message or an
 * unknown type is logged and acknowledged, since retrying it can never succeed. `concurrent` runs the
 * batch's messages at once (webhook deliveries, which mostly wait on the network and on their endpoint's gate).
 */
export async function dispatchBatch(
  batch: MessageBatch<unknown>,
  env: Bindings,
  handlers: HandlerRegistry,
  options: { concurrent?: boolean } = {},
): Promise<void> {
  const run = async (message: Message<unknown>) => {
    const body = message.body as Partial<QueueMessageBody> | null;
    const handler = body && typeof body === "object" && typeof body.type === "string" ? handlers[body.type] : undefined;
    if (!handler) {
      log.warn("no handler for message", { queue: batch.queue, message_id: message.id, type: body?.type ?? null });
      message.ack();
      return;
    }
    try {
      await handler(body as QueueMessageBody, env, message.attempts);
      message.ack();
    } catch (error) {
      log.error("queue message failed; retried", { queue: batch.queue, message_id: message.id, type: body?.type, error: String(error) });
      message.retry({ delaySeconds: retryDelaySeconds(message.attempts) });
    }
  };
  if (options.concurrent) await Promise.all(batch.messages.map(run));
  else for (const message of batch.messages) await run(message);
}
