import { newId } from "../../platform/ids";
import {
  type AssetEventData,
  assetEventBody,
  type CustomerEventType,
  EVENT_CATALOG_VERSION,
  type EventBody,
  type JobEndedEventData,
} from "../events";

/*
 * D1 statements on webhook_events (the outbox). The publication and job-end rows are built here and run inside
 * the caller's batch under its guard (INSERT … SELECT … WHERE guard), so an event exists only if its cause committed.
 */

/** The event of a fan-out or replay. Invariant: `target_endpoint_id` is set only for a test event. */
export interface EventRow {
  id: string;
  tenant_id: string;
  type: string;
  target_endpoint_id: string | null;
  fanned_out_at: number | null;
}

/**
 * The event of a fan-out and the active endpoints it goes to now (its one target, for a test event), in one D1
 * round trip (#19: the fan-out read them in two).
 */
export async function findEventWithRecipients(
  d1: D1Database,
  eventId: string,
): Promise<{ event: EventRow; recipients: { id: string }[] } | null> {
  const [event, recipients] = await d1.batch([
    d1.prepare("SELECT id, tenant_id, type, target_endpoint_id, fanned_out_at FROM webhook_events WHERE id = ?").bind(eventId),
    // The rule of findTenantEventWithRecipients (the join keeps the endpoints the event's tenant's).
    d1
      .prepare(
        `SELECT e.id FROM webhook_events ev JOIN webhook_endpoints e ON e.tenant_id = ev.tenant_id
          WHERE ev.id = ? AND e.state = 'active'
            AND CASE WHEN ev.target_endpoint_id IS NOT NULL THEN e.id = ev.target_endpoint_id
                     ELSE EXISTS (SELECT 1 FROM json_each(e.events) WHERE value = ev.type) END`,
      )
      .bind(eventId),
  ]);
  const row = event!.results[0] as EventRow | undefined;
  return row ? { event: row, recipients: recipients!.results as { id: string }[] } : null;
}

/** The fan-out's mark, set once (a second fan-out of the same event finds it set and creates nothing). */
export function markFannedOutStatement(d1: D1Database, eventId: string, now: number): D1PreparedStatement {
  return d1.prepare("UPDATE webhook_events SET fanned_out_at = ? WHERE id = ? AND fanned_out_at IS NULL").bind(now, eventId);
}

/**
 * A tenant's event and the active endpoints subscribed to it now (its one target, for a test event), in one D1
 * round trip (#19: a replay read them in two); the recipients are those of findEventWithRecipients.
 */
export async function findTenantEventWithRecipients(
  d1: D1Database,
  tenantId: string,
  eventId: string,
): Promise<{ event: { id: string; type: string; target_endpoint_id: string | null }; recipients: { id: string }[] } | null> {
  const [event, recipients] = await d1.batch([
    d1.prepare("SELECT id, type, target_endpoint_id FROM webhook_events WHERE id = ? AND tenant_id = ?").bind(eventId, tenantId),
    d1
      .prepare(
        `SELECT e.id FROM webhook_events ev JOIN webhook_endpoints e ON e.tenant_id = ev.tenant_id
          WHERE ev.id = ? AND ev.tenant_id = ? AND e.state = 'active'
            AND CASE WHEN ev.target_endpoint_id IS NOT NULL THEN e.id = ev.target_endpoint_id
                     ELSE EXISTS (SELECT 1 FROM json_each(e.events) WHERE value = ev.type) END`,
      )
      .bind(eventId, tenantId),
  ]);
  const row = event!.results[0] as { id: string; type: string; target_endpoint_id: string | null } | undefined;
  return row ? { event: row, recipients: recipients!.results as { id: string }[] } : null;
}

/** A synthetic test event aimed at one endpoint, already fanned out (its one delivery is written beside it). */
export function insertTestEventStatement(
  d1: D1Database,
  e: { id: string; tenantId: string; type: string; body: string; endpointId: string; now: number },
): D1PreparedStatement {
  return d1
    .prepare(
      "INSERT INTO webhook_events (id, tenant_id, type, body, test, target_endpoint_id, fanned_out_at, created_at) VALUES (?, ?, ?, ?, 1, ?, ?, ?)",
    )
    .bind(e.id, e.tenantId, e.type, e.body, e.endpointId, e.now, e.now);
}

/**
 * Outbox rows for a publication, to run inside the publication batch under its guard: `asset.signed` when the
 * job signed, `asset.watermarked` when it watermarked (both for watermark-then-sign). Returns the statements and
 * the event ids (to nudge the fan-out after the commit; the cron sweep fans out any the nudge missed).
 */
export function publicationEventStatements(
  d1: D1Database,
  publication: { tenantId: string; signed: boolean; watermarked: boolean; data: AssetEventData; at: number },
  guard: { sql: string; binds: unknown[] },
): { statements: D1PreparedStatement[]; eventIds: string[] } {
  const types: CustomerEventType[] = [
    ...(publication.signed ? (["asset.signed"] as const) : []),
    ...(publication.watermarked ? (["asset.watermarked"] as const) : []),
  ];
  const events = types.map((type) => {
    const id = newId("webhookEvent");
    return { id, type, body: JSON.stringify(assetEventBody(id, type, publication.data, publication.at)) };
  });
  return {
    eventIds: events.map((e) => e.id),
    statements: events.map((e) =>
      d1
        .prepare(
          `INSERT INTO webhook_events (id, tenant_id, type, body, test, target_endpoint_id, fanned_out_at, created_at) SELECT ?, ?, ?, ?, 0, NULL, NULL, ? WHERE ${guard.sql}`,
        )
        .bind(e.id, publication.tenantId, e.type, e.body, publication.at, ...guard.binds),
    ),
  };
}

/**
 * The outbox row of a `job.failed` event, to run in the batch that ends the job, under its guard (the event is
 * written only if that batch moved the job to its terminal state). Returns the statement and the event id.
 */
export function jobEndedEventStatement(
  d1: D1Database,
  ended: { tenantId: string; data: JobEndedEventData; at: number },
  guard: { sql: string; binds: unknown[] },
): { statement: D1PreparedStatement; eventId: string } {
  const id = newId("webhookEvent");
  const body: EventBody = {
    id,
    type: "job.failed",
    event_catalog_version: EVENT_CATALOG_VERSION,
    timestamp: new Date(ended.at).toISOString(),
    test: false,
    data: { ...ended.data, links: { asset: `/v1/assets/${ended.data.asset_id}`, job: `/v1/jobs/${ended.data.job_id}` } },
  };
  return {
    eventId: id,
    statement: d1
      .prepare(
        `INSERT INTO webhook_events (id, tenant_id, type, body, test, target_endpoint_id, fanned_out_at, created_at) SELECT ?, ?, 'job.failed', ?, 0, NULL, NULL, ? WHERE ${guard.sql}`,
      )
      .bind(id, ended.tenantId, JSON.stringify(body), ended.at, ...guard.binds),
  };
}
