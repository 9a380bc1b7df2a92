import type { Bindings } from "../env";
import { log } from "../platform/logger";

/** A queue message names its handler; the D1 row it points at is the truth (messages carry ids only). */
export interface QueueMessageBody {
  type: string;
  [field: string]: unknown;
}

/** Handlers must be idempotent: delivery is at least once. */
export type QueueHandler = (body: QueueMessageBody, env: Bindings, attempt: number) => Promise<void>;

/**
 * Takes all of a batch's messages of one type at once (so their work can share round trips). Returns, for each
 * body in order, null when its message is done or the error that should retry it. Idempotent like a handler.
 */
export interface BatchHandler {
  batch: (bodies: QueueMessageBody[], env: Bindings) => Promise<(unknown | null)[]>;
}

export type HandlerRegistry = Readonly<Record<string, QueueHandler | BatchHandler>>;

/** Exponential backoff with jitter for retried messages, capped at 5 minutes. */
export function retryDelaySeconds(attempt: number): number {
  const base = Math.min(300, 2 ** Math.min(attempt, 8));
  return Math.max(1, Math.round(base / 2 + Math.random() * (base / 2)));
}

/**
 * Runs each message through the handler its `type` names. A handler that throws gets its message retried
 * with backoff (the queue's dead-letter queue takes it after max_retries); a malformed message or an
 * unknown type is logged and acknowledged, since retrying it can never succeed. A BatchHandler takes all the
 * messages of its type in one call and says which to retry. `concurrent` runs the batch's messages at once
 * (webhook deliveries, which mostly wait on the network and on their endpoint's gate).
 */
export async function dispatchBatch(
  batch: MessageBatch<unknown>,
  env: Bindings,
  handlers: HandlerRegistry,
  options: { concurrent?: boolean } = {},
): Promise<void> {
  const grouped = new Map<string, Message<unknown>[]>();
  const rest: Message<unknown>[] = [];
  for (const message of batch.messages) {
    const body = message.body as Partial<QueueMessageBody> | null;
    const type = body && typeof body === "object" && typeof body.type === "string" ? body.type : undefined;
    if (type !== undefined && Object.hasOwn(handlers, type) && typeof handlers[type] === "object")
      grouped.set(type, [...(grouped.get(type) ?? []), message]);
    else rest.push(message);
  }
  const runGroup = async (type: string, messages: Message<unknown>[]) => {
    let outcomes: (unknown | null)[];
    try {
      outcomes = await (handlers[type] as BatchHandler).batch(
        messages.map((m) => m.body as QueueMessageBody),
        env,
      );
    } catch (error) {
      outcomes = messages.map(() => error);
    }
    for (const [i, message] of messages.entries()) {
      const error = outcomes[i];
      if (error === null || error === undefined) {
        message.ack();
        continue;
      }
      log.error("queue message failed; retried", { queue: batch.queue, message_id: message.id, type, error: String(error) });
      message.retry({ delaySeconds: retryDelaySeconds(message.attempts) });
    }
  };
  const run = async (message: Message<unknown>) => {
    const body = message.body as Partial<QueueMessageBody> | null;
    const found =
      body && typeof body === "object" && typeof body.type === "string" && Object.hasOwn(handlers, body.type)
        ? handlers[body.type]
        : undefined;
    const handler = typeof found === "function" ? found : undefined;
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
  if (options.concurrent) await Promise.all([...rest.map(run), ...[...grouped].map(([type, messages]) => runGroup(type, messages))]);
  else {
    for (const [type, messages] of grouped) await runGroup(type, messages);
    for (const message of rest) await run(message);
  }
}
