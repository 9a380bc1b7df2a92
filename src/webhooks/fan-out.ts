import type { Bindings } from "../env";
import { newId } from "../platform/ids";
import { sendDeliverMany } from "./queue";
import { firstAttemptsDueStatement, insertDeliveriesStatements } from "./repo/deliveries";
import { findEventWithRecipients, markFannedOutStatement } from "./repo/events";

/**
 * Creates the deliveries of one event: one per active endpoint subscribed to its type (or its one target, for
 * a test event), each due now. Idempotent: a delivery exists at most once per (endpoint, event). Two D1 round
 * trips (#19: were four): the event with its recipients; then the inserts, the fanned-out mark and the read of
 * the deliveries not attempted yet.
 */
export async function fanOutEvent(env: Bindings, eventId: string): Promise<void> {
  const d1 = env.DB;
  const found = await findEventWithRecipients(d1, eventId);
  if (!found) return;
  const { event, recipients } = found;
  const now = Date.now();
  const writes =
    event.fanned_out_at === null
      ? [
          // Each row re-checks its endpoint: one disabled or deleted since the read above gets no delivery. Set-wise
          // (#19): one statement per 45 endpoints.
          ...insertDeliveriesStatements(
            d1,
            recipients.map((e) => ({
              id: newId("webhookDelivery"),
              tenantId: event.tenant_id,
              endpointId: e.id,
              eventId: event.id,
              eventType: event.type,
              now,
            })),
          ),
          markFannedOutStatement(d1, event.id, now),
        ]
      : [];
  const results = await d1.batch<{ id: string }>([...writes, firstAttemptsDueStatement(d1, eventId)]);
  await sendDeliverMany(
    env,
    results[results.length - 1]!.results.map((r) => r.id),
  );
}
