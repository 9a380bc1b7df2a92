import type { Bindings } from "../env";
import { log } from "../platform/logger";
import { sendDeliverMany, sendFanout } from "./queue";
import { deliveriesOverdue, eventsNotFannedOut, purgeExpired } from "./repo/sweep";

/** Delivery records (events, deliveries, attempts) are kept this long; deleted endpoints until their retain_until. */
export const DELIVERY_RETENTION_MS = 30 * 86_400_000;
const SWEEP_BATCH = 500;

/**
 * Cron: re-sends what a dead Worker never sent, and forgets what is past retention. Events not fanned out a
 * minute after they were written, pending deliveries a minute overdue (a live message keeps moving
 * next_attempt_at forward, so those are the lost ones), and deliveries whose claim lapsed a minute ago get their
 * message again. Each part is bounded and runs even if another fails.
 */
export async function sweepWebhooks(env: Bindings, now = Date.now()): Promise<{ events: number; deliveries: number; purged: number }> {
  const d1 = env.DB;
  const stale = now - 60_000;
  const out = { events: 0, deliveries: 0, purged: 0 };
  const parts: Promise<void>[] = [
    (async () => {
      const events = await eventsNotFannedOut(d1, stale, SWEEP_BATCH);
      await sendFanout(env, events);
      out.events = events.length;
    })(),
    (async () => {
      const ids = await deliveriesOverdue(d1, stale, SWEEP_BATCH);
      await sendDeliverMany(env, ids);
      out.deliveries = ids.length;
    })(),
    (async () => {
      out.purged = await purgeExpired(d1, now - DELIVERY_RETENTION_MS, now, SWEEP_BATCH);
    })(),
  ];
  const settled = await Promise.allSettled(parts);
  for (const r of settled) if (r.status === "rejected") log.error("webhook sweep part failed", { error: String(r.reason) });
  return out;
}
