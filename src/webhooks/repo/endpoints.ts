import { eq } from "drizzle-orm";
import { database } from "../../db/client";
import { webhookEndpoints } from "../../db/schema";
import type { TerminalReason } from "../schemas";

/*
 * D1 statements on webhook_endpoints. Mostly typed raw SQL rather than drizzle: the rows are read and served in their
 * column names (snake_case) and most writes carry a guard (limit in the insert, state in the WHERE) that makes a
 * race harmless; the guards are part of each statement and must stay there.
 */

/** A webhook_endpoints row as stored. Invariant: `secret_ciphertext` is '' once deleted; `previous_*` set only during an overlap. */
export interface EndpointRow {
  id: string;
  tenant_id: string;
  url: string;
  event_catalog_version: string;
  events: string;
  max_concurrency: number;
  rate_limit_per_minute: number;
  auto_disable_after_failures: number;
  state: "active" | "disabled" | "deleted";
  disabled_reason: "manual" | "consecutive_failures" | null;
  consecutive_failures: number;
  secret_ciphertext: string;
  previous_secret_ciphertext: string | null;
  secret_rotated_at: number | null;
  created_at: number;
  updated_at: number;
  deleted_at: number | null;
  retain_until: number | null;
}

/** The retained-visible endpoint of a tenant (deleted ones until their retention ends), or null. */
export async function findEndpoint(d1: D1Database, tenantId: string, endpointId: string, now = Date.now()): Promise<EndpointRow | null> {
  return d1
    .prepare("SELECT * FROM webhook_endpoints WHERE id = ? AND tenant_id = ? AND (state != 'deleted' OR retain_until > ?)")
    .bind(endpointId, tenantId, now)
    .first<EndpointRow>();
}

/** The state of an endpoint of any tenant (undefined once purged). */
export async function endpointState(d1: D1Database, endpointId: string): Promise<EndpointRow["state"] | undefined> {
  const row = await database(d1)
    .select({ state: webhookEndpoints.state })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.id, endpointId))
    .get();
  return row?.state;
}

/** Whether any endpoint row, deleted ones included, holds this id. */
export async function endpointIdTaken(d1: D1Database, endpointId: string): Promise<boolean> {
  return (await d1.prepare("SELECT 1 FROM webhook_endpoints WHERE id = ?").bind(endpointId).first()) !== null;
}

/**
 * Seals a new secret into an endpoint whose secret nobody was ever shown, only while it still holds `previous` and
 * never rotated: the endpoint of a create whose answer was lost to a crash, re-issued to the retry (#22).
 */
export async function resealUnshownSecret(
  d1: D1Database,
  tenantId: string,
  endpointId: string,
  previous: string,
  next: string,
  now: number,
): Promise<boolean> {
  const result = await d1
    .prepare(
      "UPDATE webhook_endpoints SET secret_ciphertext = ?, updated_at = ? WHERE id = ? AND tenant_id = ? AND secret_ciphertext = ? AND previous_secret_ciphertext IS NULL AND secret_rotated_at IS NULL AND state = 'active' AND NOT EXISTS (SELECT 1 FROM webhook_deliveries WHERE endpoint_id = webhook_endpoints.id AND attempt_count > 0)",
    )
    .bind(next, now, endpointId, tenantId, previous)
    .run();
  return result.meta.changes === 1;
}

/** Inserts an active endpoint only while the tenant has fewer than `limit` (checked in the insert, so concurrent creates cannot overshoot). */
export async function insertEndpointUnderLimit(d1: D1Database, row: EndpointRow, limit: number): Promise<boolean> {
  const inserted = await d1
    .prepare(
      `INSERT INTO webhook_endpoints (id, tenant_id, url, event_catalog_version, events, max_concurrency, rate_limit_per_minute, auto_disable_after_failures, state, consecutive_failures, secret_ciphertext, created_at, updated_at)
     SELECT ?, ?, ?, ?, ?, ?, ?, ?, 'active', 0, ?, ?, ? WHERE (SELECT COUNT(*) FROM webhook_endpoints WHERE tenant_id = ? AND state != 'deleted') < ?`,
    )
    .bind(
      row.id,
      row.tenant_id,
      row.url,
      row.event_catalog_version,
      row.events,
      row.max_concurrency,
      row.rate_limit_per_minute,
      row.auto_disable_after_failures,
      row.secret_ciphertext,
      row.created_at,
      row.updated_at,
      row.tenant_id,
      limit,
    )
    .run();
  return inserted.meta.changes === 1;
}

export interface EndpointFields {
  url: string | null;
  events: string | null;
  max_concurrency: number | null;
  rate_limit_per_minute: number | null;
  auto_disable_after_failures: number | null;
}

/** Writes only the non-null fields, so two PATCHes of different fields never undo each other. */
export async function updateEndpointFields(
  d1: D1Database,
  tenantId: string,
  endpointId: string,
  fields: EndpointFields,
  now: number,
): Promise<void> {
  await d1
    .prepare(
      `UPDATE webhook_endpoints SET url = COALESCE(?, url), events = COALESCE(?, events), max_concurrency = COALESCE(?, max_concurrency),
       rate_limit_per_minute = COALESCE(?, rate_limit_per_minute), auto_disable_after_failures = COALESCE(?, auto_disable_after_failures), updated_at = ?
      WHERE id = ? AND tenant_id = ? AND state != 'deleted'`,
    )
    .bind(
      fields.url,
      fields.events,
      fields.max_concurrency,
      fields.rate_limit_per_minute,
      fields.auto_disable_after_failures,
      now,
      endpointId,
      tenantId,
    )
    .run();
}

/** Statement that ends an endpoint's unfinished deliveries (disable, delete, auto-disable), under `guard`. */
export function fenceDeliveriesStatement(
  d1: Pick<D1Database, "prepare">,
  endpointId: string,
  reason: TerminalReason,
  now: number,
  guard: { sql: string; binds: unknown[] },
): D1PreparedStatement {
  return d1
    .prepare(
      `UPDATE webhook_deliveries SET status = 'dead', terminal_reason = ?, next_attempt_at = NULL, lease_until = NULL, updated_at = ?
        WHERE endpoint_id = ? AND status IN ('pending', 'delivering') AND ${guard.sql}`,
    )
    .bind(reason, now, endpointId, ...guard.binds);
}

/** Soft delete (secrets wiped, retained until `retainUntil`) and the fence of its unfinished deliveries, in one batch. */
export async function softDeleteEndpoint(
  d1: D1Database,
  tenantId: string,
  endpointId: string,
  now: number,
  retainUntil: number,
): Promise<void> {
  await d1.batch([
    d1
      .prepare(
        `UPDATE webhook_endpoints SET state = 'deleted', deleted_at = ?, retain_until = ?, secret_ciphertext = '', previous_secret_ciphertext = NULL, secret_rotated_at = NULL, updated_at = ?
          WHERE id = ? AND tenant_id = ? AND state != 'deleted'`,
      )
      .bind(now, retainUntil, now, endpointId, tenantId),
    fenceDeliveriesStatement(d1, endpointId, "endpoint_deleted", now, { sql: "1 = 1", binds: [] }),
  ]);
}

/** Manual disable of an active endpoint and, only if it is disabled after that, the fence of its unfinished deliveries. */
export async function disableEndpointManually(d1: D1Database, tenantId: string, endpointId: string, now: number): Promise<void> {
  await d1.batch([
    d1
      .prepare(
        "UPDATE webhook_endpoints SET state = 'disabled', disabled_reason = 'manual', updated_at = ? WHERE id = ? AND tenant_id = ? AND state = 'active'",
      )
      .bind(now, endpointId, tenantId),
    fenceDeliveriesStatement(d1, endpointId, "endpoint_disabled", now, {
      sql: "EXISTS (SELECT 1 FROM webhook_endpoints WHERE id = ? AND state = 'disabled')",
      binds: [endpointId],
    }),
  ]);
}

/** Enables a disabled endpoint with its failure streak reset. */
export async function enableDisabledEndpoint(d1: D1Database, tenantId: string, endpointId: string, now: number): Promise<void> {
  await d1
    .prepare(
      "UPDATE webhook_endpoints SET state = 'active', disabled_reason = NULL, consecutive_failures = 0, updated_at = ? WHERE id = ? AND tenant_id = ? AND state = 'disabled'",
    )
    .bind(now, endpointId, tenantId)
    .run();
}

/** Opens a rotation overlap only if no overlap is open and the secret is still `expectedCiphertext` (compare-and-set). */
export async function openSecretOverlap(
  d1: D1Database,
  tenantId: string,
  endpointId: string,
  sealedSecret: string,
  expectedCiphertext: string,
  now: number,
): Promise<boolean> {
  const result = await d1
    .prepare(
      `UPDATE webhook_endpoints SET previous_secret_ciphertext = secret_ciphertext, secret_ciphertext = ?, secret_rotated_at = ?, updated_at = ?
        WHERE id = ? AND tenant_id = ? AND state != 'deleted' AND previous_secret_ciphertext IS NULL AND secret_ciphertext = ?`,
    )
    .bind(sealedSecret, now, now, endpointId, tenantId, expectedCiphertext)
    .run();
  return result.meta.changes === 1;
}

/**
 * Undoes one rotation: the outgoing secret signs alone again, only while the secret that rotation sealed is still
 * the current one and its overlap is open (a later complete or rotation is never undone).
 */
export async function revertSecretOverlap(
  d1: D1Database,
  tenantId: string,
  endpointId: string,
  sealedSecret: string,
  now: number,
): Promise<boolean> {
  const result = await d1
    .prepare(
      `UPDATE webhook_endpoints SET secret_ciphertext = previous_secret_ciphertext, previous_secret_ciphertext = NULL, secret_rotated_at = NULL, updated_at = ?
        WHERE id = ? AND tenant_id = ? AND state != 'deleted' AND previous_secret_ciphertext IS NOT NULL AND secret_ciphertext = ?`,
    )
    .bind(now, endpointId, tenantId, sealedSecret)
    .run();
  return result.meta.changes === 1;
}

export async function closeSecretOverlap(d1: D1Database, tenantId: string, endpointId: string, now: number): Promise<void> {
  await d1
    .prepare(
      "UPDATE webhook_endpoints SET previous_secret_ciphertext = NULL, secret_rotated_at = NULL, updated_at = ? WHERE id = ? AND tenant_id = ? AND state != 'deleted'",
    )
    .bind(now, endpointId, tenantId)
    .run();
}

/** One page (plus one row, to know whether more follow) of a tenant's endpoints, newest first, as of `snapshot`. */
export async function listEndpoints(
  d1: D1Database,
  q: {
    tenantId: string;
    snapshot: number;
    includeDeleted: boolean;
    now: number;
    after: { createdAt: number; id: string } | null | undefined;
    limit: number;
  },
): Promise<EndpointRow[]> {
  const rows = await d1
    .prepare(
      `SELECT * FROM webhook_endpoints WHERE tenant_id = ? AND created_at <= ?
         AND (state != 'deleted' OR (? AND retain_until > ?))
         AND (? IS NULL OR created_at < ? OR (created_at = ? AND id < ?))
       ORDER BY created_at DESC, id DESC LIMIT ?`,
    )
    .bind(
      q.tenantId,
      q.snapshot,
      q.includeDeleted ? 1 : 0,
      q.now,
      q.after?.createdAt ?? null,
      q.after?.createdAt ?? 0,
      q.after?.createdAt ?? 0,
      q.after?.id ?? "",
      q.limit,
    )
    .all<EndpointRow>();
  return rows.results;
}
