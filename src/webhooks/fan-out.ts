import type { Bindings } from "../env";
import { newId } from "../platform/ids";
import { sendDeliverMany } from "./queue";
import { firstAttemptsDue, insertDeliveriesStatements } from "./repo/deliveries";
import { activeRecipients } from "./repo/endpoints";
import { findEvent, markFannedOutStatement } from "./repo/events";

/**
 * Creates the deliveries of one event: one per active endpoint subscribed to its type (or its one target, for
 * a test event), each due now. Idempotent: a delivery exists at most once per (endpoint, event).
 */
export async function fanOutEvent(env: Bindings, eventId: string): Promise<void> {
  const d1 = env.DB;
  const event = await findEvent(d1, eventId);
  if (!event) return;
  if (event.fanned_out_at === null) {
    const endpoints = await activeRecipients(d1, event);
    const now = Date.now();
    await d1.batch([
      // Each row re-checks its endpoint: one disabled or deleted since the read above gets no delivery. Set-wise
      // (#19): one statement per 45 endpoints.
      ...insertDeliveriesStatements(
        d1,
        endpoints.map((e) => ({
          id: newId("webhookDelivery"),
          tenantId: event.tenant_id,
          endpointId: e.id,
          eventId: event.id,
          eventType: event.type,
          now,
        })),
      ),
      markFannedOutStatement(d1, event.id, now),
    ]);
  }
  await sendDeliverMany(env, await firstAttemptsDue(d1, eventId));
}
