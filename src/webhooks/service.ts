import type { Bindings } from "../env";
import { newId } from "../platform/ids";
import { iso } from "../platform/openapi";
import { fenceDeliveriesStatement, sendDeliverMany } from "./delivery";
import { checkWebhookDestination } from "./destination";
import { type CustomerEventType, EVENT_CATALOG_VERSION, isCustomerEventType, TEST_EVENT_TYPE, testEventBody } from "./events";
import { DELIVERY_CONTROL_DEFAULTS, type TerminalReason } from "./schemas";
import { generateWebhookSecret, sealSecret } from "./signing";

/*
 * Endpoint commands and the views of endpoints, deliveries and attempts. No HTTP here: results are
 * discriminated unions that the routes turn into responses.
 */

/** Endpoints a tenant may have at once (deleted ones do not count). */
export const MAX_ENDPOINTS_PER_TENANT = 50;
/** A deleted endpoint stays readable this long. */
export const DELETED_RETENTION_MS = 30 * 86_400_000;

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

export function endpointView(row: EndpointRow) {
  return {
    endpoint_id: row.id,
    url: row.url,
    event_catalog_version: EVENT_CATALOG_VERSION as typeof EVENT_CATALOG_VERSION,
    events: JSON.parse(row.events) as CustomerEventType[],
    max_concurrency: row.max_concurrency,
    rate_limit_per_minute: row.rate_limit_per_minute,
    auto_disable_after_failures: row.auto_disable_after_failures,
    state: row.state,
    disabled_reason: row.state === "disabled" ? row.disabled_reason : null,
    consecutive_failures: row.consecutive_failures,
    secret_overlap: row.previous_secret_ciphertext && row.secret_rotated_at !== null ? { started_at: iso(row.secret_rotated_at) } : null,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    deleted_at: iso(row.deleted_at),
    retained_until: iso(row.retain_until),
  };
}

export interface DeliveryRow {
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  status: "pending" | "delivering" | "delivered" | "failed" | "dead";
  attempt_count: number;
  replay_count: number;
  next_attempt_at: number | null;
  response_code: number | null;
  response_body_sha256: string | null;
  terminal_reason: TerminalReason | null;
  created_at: number;
}

export function deliveryView(row: DeliveryRow) {
  return {
    delivery_id: row.id,
    endpoint_id: row.endpoint_id,
    event_id: row.event_id,
    event_type: row.event_type as CustomerEventType | typeof TEST_EVENT_TYPE,
    status: row.status,
    attempt_count: row.attempt_count,
    replay_count: row.replay_count,
    created_at: iso(row.created_at),
    next_attempt_at: row.status === "pending" ? iso(row.next_attempt_at) : null,
    response_code: row.response_code,
    response_body_sha256: row.response_body_sha256,
    terminal_reason: row.terminal_reason,
  };
}

export interface AttemptRow {
  attempt_number: number;
  started_at: number;
  duration_ms: number;
  response_code: number | null;
  response_body_sha256: string | null;
  outcome: "acknowledged" | "retry_scheduled" | "ended";
  error: "timeout" | "network_error" | "redirect_not_followed" | "destination_refused" | "internal_error" | null;
  retry_after_seconds: number | null;
  signature_count: number;
}

export function attemptView(row: AttemptRow) {
  return {
    attempt_number: row.attempt_number,
    started_at: iso(row.started_at),
    duration_ms: row.duration_ms,
    response_code: row.response_code,
    response_body_sha256: row.response_body_sha256,
    outcome: row.outcome,
    error: row.error,
    retry_after_seconds: row.retry_after_seconds,
    signature_count: row.signature_count,
  };
}

/** The retained-visible endpoint of a tenant (deleted ones until their retention ends), or null. */
export async function findEndpoint(d1: D1Database, tenantId: string, endpointId: string, now = Date.now()): Promise<EndpointRow | null> {
  return d1
    .prepare("SELECT * FROM webhook_endpoints WHERE id = ? AND tenant_id = ? AND (state != 'deleted' OR retain_until > ?)")
    .bind(endpointId, tenantId, now)
    .first<EndpointRow>();
}

export type SubscriptionCheck = { status: "ok"; events: CustomerEventType[] } | { status: "invalid"; message: string };

/** Exact names from the catalog, each once; `webhook.test` and wildcards are refused by name. */
export function checkSubscription(events: readonly string[]): SubscriptionCheck {
  const unknown = events.filter((e) => !isCustomerEventType(e));
  if (unknown.length > 0) {
    const hint = unknown.some((e) => e.includes("*"))
      ? " Wildcards are not supported; name each event."
      : unknown.includes(TEST_EVENT_TYPE)
        ? " webhook.test is sent only by the test operation and cannot be subscribed to."
        : "";
    return { status: "invalid", message: `Not in the event catalog ${EVENT_CATALOG_VERSION}: ${unknown.join(", ")}.${hint}` };
  }
  if (new Set(events).size !== events.length) return { status: "invalid", message: "Each event may be named once." };
  return { status: "ok", events: events as CustomerEventType[] };
}

export type DestinationResult = { status: "ok" } | { status: "refused"; reason: string };

async function destination(env: Bindings, url: string): Promise<DestinationResult> {
  const check = await checkWebhookDestination(env, url);
  return check.status === "allowed" ? { status: "ok" } : { status: "refused", reason: check.reason };
}

export type CreateResult =
  | { status: "created"; row: EndpointRow; secret: string }
  | { status: "destination_refused"; reason: string }
  | { status: "subscription_invalid"; message: string }
  | { status: "limit_reached" };

export async function createEndpoint(
  env: Bindings,
  pepper: string,
  tenantId: string,
  input: {
    url: string;
    events: string[];
    max_concurrency?: number | undefined;
    rate_limit_per_minute?: number | undefined;
    auto_disable_after_failures?: number | undefined;
  },
): Promise<CreateResult> {
  const subscription = checkSubscription(input.events);
  if (subscription.status === "invalid") return { status: "subscription_invalid", message: subscription.message };
  const dest = await destination(env, input.url);
  if (dest.status === "refused") return { status: "destination_refused", reason: dest.reason };
  const id = newId("webhookEndpoint");
  const secret = generateWebhookSecret();
  const now = Date.now();
  const row: EndpointRow = {
    id,
    tenant_id: tenantId,
    url: input.url,
    event_catalog_version: EVENT_CATALOG_VERSION,
    events: JSON.stringify(subscription.events),
    max_concurrency: input.max_concurrency ?? DELIVERY_CONTROL_DEFAULTS.max_concurrency,
    rate_limit_per_minute: input.rate_limit_per_minute ?? DELIVERY_CONTROL_DEFAULTS.rate_limit_per_minute,
    auto_disable_after_failures: input.auto_disable_after_failures ?? DELIVERY_CONTROL_DEFAULTS.auto_disable_after_failures,
    state: "active",
    disabled_reason: null,
    consecutive_failures: 0,
    secret_ciphertext: await sealSecret(pepper, id, secret),
    previous_secret_ciphertext: null,
    secret_rotated_at: null,
    created_at: now,
    updated_at: now,
    deleted_at: null,
    retain_until: null,
  };
  // The limit is checked in the insert itself, so concurrent creates cannot overshoot it.
  const inserted = await env.DB.prepare(
    `INSERT INTO webhook_endpoints (id, tenant_id, url, event_catalog_version, events, max_concurrency, rate_limit_per_minute, auto_disable_after_failures, state, consecutive_failures, secret_ciphertext, created_at, updated_at)
     SELECT ?, ?, ?, ?, ?, ?, ?, ?, 'active', 0, ?, ?, ? WHERE (SELECT COUNT(*) FROM webhook_endpoints WHERE tenant_id = ? AND state != 'deleted') < ?`,
  )
    .bind(
      row.id,
      tenantId,
      row.url,
      row.event_catalog_version,
      row.events,
      row.max_concurrency,
      row.rate_limit_per_minute,
      row.auto_disable_after_failures,
      row.secret_ciphertext,
      now,
      now,
      tenantId,
      MAX_ENDPOINTS_PER_TENANT,
    )
    .run();
  if (inserted.meta.changes !== 1) return { status: "limit_reached" };
  return { status: "created", row, secret };
}

export type MutationResult =
  | { status: "ok"; row: EndpointRow }
  | { status: "not_found" }
  | { status: "deleted" }
  | { status: "destination_refused"; reason: string }
  | { status: "subscription_invalid"; message: string }
  | {
      status: "conflict";
      code: "svc.webhooks.endpoint_disabled" | "svc.webhooks.rotation_in_progress" | "svc.webhooks.no_secret_overlap";
      message: string;
    };

async function mutable(
  d1: D1Database,
  tenantId: string,
  endpointId: string,
): Promise<{ status: "ok"; row: EndpointRow } | { status: "not_found" } | { status: "deleted" }> {
  const row = await findEndpoint(d1, tenantId, endpointId);
  if (!row) return { status: "not_found" };
  if (row.state === "deleted") return { status: "deleted" };
  return { status: "ok", row };
}

async function reread(d1: D1Database, tenantId: string, endpointId: string): Promise<MutationResult> {
  const row = await findEndpoint(d1, tenantId, endpointId);
  return row ? { status: "ok", row } : { status: "not_found" };
}

export async function updateEndpoint(
  env: Bindings,
  tenantId: string,
  endpointId: string,
  patch: {
    url?: string | undefined;
    events?: string[] | undefined;
    max_concurrency?: number | undefined;
    rate_limit_per_minute?: number | undefined;
    auto_disable_after_failures?: number | undefined;
  },
): Promise<MutationResult> {
  const current = await mutable(env.DB, tenantId, endpointId);
  if (current.status !== "ok") return current;
  let events: string | undefined;
  if (patch.events) {
    const subscription = checkSubscription(patch.events);
    if (subscription.status === "invalid") return { status: "subscription_invalid", message: subscription.message };
    events = JSON.stringify(subscription.events);
  }
  if (patch.url !== undefined && patch.url !== current.row.url) {
    const dest = await destination(env, patch.url);
    if (dest.status === "refused") return { status: "destination_refused", reason: dest.reason };
  }
  // Only the named fields are written, so two PATCHes of different fields never undo each other.
  await env.DB.prepare(
    `UPDATE webhook_endpoints SET url = COALESCE(?, url), events = COALESCE(?, events), max_concurrency = COALESCE(?, max_concurrency),
       rate_limit_per_minute = COALESCE(?, rate_limit_per_minute), auto_disable_after_failures = COALESCE(?, auto_disable_after_failures), updated_at = ?
      WHERE id = ? AND tenant_id = ? AND state != 'deleted'`,
  )
    .bind(
      patch.url ?? null,
      events ?? null,
      patch.max_concurrency ?? null,
      patch.rate_limit_per_minute ?? null,
      patch.auto_disable_after_failures ?? null,
      Date.now(),
      endpointId,
      tenantId,
    )
    .run();
  return reread(env.DB, tenantId, endpointId);
}

/** Soft delete: the row stays readable until its retention ends, its secrets are wiped, unfinished deliveries fenced. */
export async function deleteEndpoint(d1: D1Database, tenantId: string, endpointId: string): Promise<MutationResult> {
  const current = await mutable(d1, tenantId, endpointId);
  if (current.status !== "ok") return current;
  const now = Date.now();
  await d1.batch([
    d1
      .prepare(
        `UPDATE webhook_endpoints SET state = 'deleted', deleted_at = ?, retain_until = ?, secret_ciphertext = '', previous_secret_ciphertext = NULL, secret_rotated_at = NULL, updated_at = ?
          WHERE id = ? AND tenant_id = ? AND state != 'deleted'`,
      )
      .bind(now, now + DELETED_RETENTION_MS, now, endpointId, tenantId),
    fenceDeliveriesStatement(d1, endpointId, "endpoint_deleted", now, { sql: "1 = 1", binds: [] }),
  ]);
  return reread(d1, tenantId, endpointId);
}

/** Disable (idempotent): no further attempts; unfinished deliveries end visibly as `dead` (`endpoint_disabled`). */
export async function disableEndpoint(d1: D1Database, tenantId: string, endpointId: string): Promise<MutationResult> {
  const current = await mutable(d1, tenantId, endpointId);
  if (current.status !== "ok") return current;
  const now = Date.now();
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
  return reread(d1, tenantId, endpointId);
}

/** Enable (idempotent): the destination is checked again first; the failure streak starts from zero. */
export async function enableEndpoint(env: Bindings, tenantId: string, endpointId: string): Promise<MutationResult> {
  const current = await mutable(env.DB, tenantId, endpointId);
  if (current.status !== "ok") return current;
  if (current.row.state === "active") return current;
  const dest = await destination(env, current.row.url);
  if (dest.status === "refused") return { status: "destination_refused", reason: dest.reason };
  await env.DB.prepare(
    "UPDATE webhook_endpoints SET state = 'active', disabled_reason = NULL, consecutive_failures = 0, updated_at = ? WHERE id = ? AND tenant_id = ? AND state = 'disabled'",
  )
    .bind(Date.now(), endpointId, tenantId)
    .run();
  return reread(env.DB, tenantId, endpointId);
}

/** Rotation: the new secret signs first and the outgoing one still signs until the overlap is completed. */
export async function rotateSecret(
  d1: D1Database,
  pepper: string,
  tenantId: string,
  endpointId: string,
): Promise<MutationResult | { status: "rotated"; row: EndpointRow; secret: string }> {
  const current = await mutable(d1, tenantId, endpointId);
  if (current.status !== "ok") return current;
  if (current.row.previous_secret_ciphertext) {
    return {
      status: "conflict",
      code: "svc.webhooks.rotation_in_progress",
      message: "A rotation overlap is already open: complete it (secret-overlap/complete) before rotating again.",
    };
  }
  const secret = generateWebhookSecret();
  const now = Date.now();
  const result = await d1
    .prepare(
      `UPDATE webhook_endpoints SET previous_secret_ciphertext = secret_ciphertext, secret_ciphertext = ?, secret_rotated_at = ?, updated_at = ?
        WHERE id = ? AND tenant_id = ? AND state != 'deleted' AND previous_secret_ciphertext IS NULL AND secret_ciphertext = ?`,
    )
    .bind(await sealSecret(pepper, endpointId, secret), now, now, endpointId, tenantId, current.row.secret_ciphertext)
    .run();
  if (result.meta.changes !== 1)
    return {
      status: "conflict",
      code: "svc.webhooks.rotation_in_progress",
      message: "The secret changed concurrently; read the endpoint and try again.",
    };
  const row = await findEndpoint(d1, tenantId, endpointId);
  return row ? { status: "rotated", row, secret } : { status: "not_found" };
}

export async function completeSecretOverlap(d1: D1Database, tenantId: string, endpointId: string): Promise<MutationResult> {
  const current = await mutable(d1, tenantId, endpointId);
  if (current.status !== "ok") return current;
  if (!current.row.previous_secret_ciphertext)
    return { status: "conflict", code: "svc.webhooks.no_secret_overlap", message: "No rotation overlap is open: only one secret signs." };
  await d1
    .prepare(
      "UPDATE webhook_endpoints SET previous_secret_ciphertext = NULL, secret_rotated_at = NULL, updated_at = ? WHERE id = ? AND tenant_id = ? AND state != 'deleted'",
    )
    .bind(Date.now(), endpointId, tenantId)
    .run();
  return reread(d1, tenantId, endpointId);
}

/**
 * Sends the deliver messages of rows already committed as pending and due. A failure here must not fail the
 * request (the change is done, and a retry would do it twice): the cron sweep sends what this could not.
 */
async function nudge(env: Bindings, deliveryIds: string[]): Promise<void> {
  try {
    await sendDeliverMany(env, deliveryIds);
  } catch (error) {
    console.warn(
      JSON.stringify({
        level: "warn",
        problem: "deliver message not sent; the sweep will send it",
        deliveries: deliveryIds.length,
        error: String(error),
      }),
    );
  }
}

export type TestResult = MutationResult | { status: "queued"; deliveryId: string; eventId: string };

/** A synthetic signed `webhook.test` event with a delivery to this endpoint only (the caller applies the hourly limit). */
/** Why an endpoint takes no test event now (checked before the hourly allowance is charged), or null. */
export function testEventRefusal(row: EndpointRow): Exclude<MutationResult, { status: "ok" }> | null {
  if (row.state === "deleted") return { status: "deleted" };
  if (row.state !== "active")
    return {
      status: "conflict",
      code: "svc.webhooks.endpoint_disabled",
      message: "The endpoint is disabled; enable it to send a test event.",
    };
  return null;
}

export async function sendTestEvent(env: Bindings, endpoint: EndpointRow): Promise<TestResult> {
  const { tenant_id: tenantId, id: endpointId } = endpoint;
  const eventId = newId("webhookEvent");
  const deliveryId = newId("webhookDelivery");
  const now = Date.now();
  const written = await env.DB.batch([
    env.DB.prepare(
      "INSERT INTO webhook_events (id, tenant_id, type, body, test, target_endpoint_id, fanned_out_at, created_at) VALUES (?, ?, ?, ?, 1, ?, ?, ?)",
    ).bind(eventId, tenantId, TEST_EVENT_TYPE, JSON.stringify(testEventBody(eventId, endpointId, now)), endpointId, now, now),
    // Only while the endpoint is active: a disable or delete committed meanwhile fences it first.
    env.DB.prepare(
      `INSERT INTO webhook_deliveries (id, tenant_id, endpoint_id, event_id, event_type, status, attempt_count, replay_count, next_attempt_at, created_at, updated_at)
       SELECT ?, ?, ?, ?, ?, 'pending', 0, 0, ?, ?, ? WHERE EXISTS (SELECT 1 FROM webhook_endpoints WHERE id = ? AND state = 'active')`,
    ).bind(deliveryId, tenantId, endpointId, eventId, TEST_EVENT_TYPE, now, now, now, endpointId),
  ]);
  if (written[1]!.meta.changes !== 1)
    return {
      status: "conflict",
      code: "svc.webhooks.endpoint_disabled",
      message: "The endpoint was disabled meanwhile; enable it to send a test event.",
    };
  await nudge(env, [deliveryId]);
  return { status: "queued", deliveryId, eventId };
}

export async function findDelivery(d1: D1Database, tenantId: string, deliveryId: string): Promise<DeliveryRow | null> {
  return d1.prepare("SELECT * FROM webhook_deliveries WHERE id = ? AND tenant_id = ?").bind(deliveryId, tenantId).first<DeliveryRow>();
}

export type ReplayResult =
  | { status: "replayed"; eventId: string }
  | { status: "not_found" }
  | {
      status: "conflict";
      code: "svc.webhooks.delivery_in_progress" | "svc.webhooks.endpoint_disabled" | "svc.webhooks.endpoint_deleted";
      message: string;
    };

/** Authorizes one more delivery of the original event (same body, same `webhook-id`) and raises `replay_count`. */
export async function replayDelivery(env: Bindings, tenantId: string, deliveryId: string): Promise<ReplayResult> {
  const delivery = await findDelivery(env.DB, tenantId, deliveryId);
  if (!delivery) return { status: "not_found" };
  const now = Date.now();
  const result = await env.DB.prepare(
    `UPDATE webhook_deliveries SET status = 'pending', replay_count = replay_count + 1, attempt_base = attempt_count, next_attempt_at = ?, terminal_reason = NULL, updated_at = ?
      WHERE id = ? AND tenant_id = ? AND status IN ('delivered', 'failed', 'dead')
        AND EXISTS (SELECT 1 FROM webhook_endpoints WHERE id = ? AND state = 'active')`,
  )
    .bind(now, now, deliveryId, tenantId, delivery.endpoint_id)
    .run();
  if (result.meta.changes === 1) {
    await nudge(env, [deliveryId]);
    return { status: "replayed", eventId: delivery.event_id };
  }
  const endpoint = await env.DB.prepare("SELECT state FROM webhook_endpoints WHERE id = ?")
    .bind(delivery.endpoint_id)
    .first<{ state: string }>();
  if (endpoint?.state === "deleted")
    return {
      status: "conflict",
      code: "svc.webhooks.endpoint_deleted",
      message: "The endpoint is deleted; its deliveries cannot be replayed.",
    };
  if (endpoint?.state !== "active")
    return { status: "conflict", code: "svc.webhooks.endpoint_disabled", message: "The endpoint is disabled; enable it, then replay." };
  return {
    status: "conflict",
    code: "svc.webhooks.delivery_in_progress",
    message: "The delivery is still pending or in flight; replay it once it has finished.",
  };
}

export type EventReplayResult = { status: "replayed"; eventId: string; deliveryCount: number } | { status: "not_found" };

/**
 * Replays an event to every active endpoint that is subscribed to it now (its target only, for a test event):
 * finished deliveries start again, endpoints without one get one; deliveries still in progress are left alone.
 */
export async function replayEvent(env: Bindings, tenantId: string, eventId: string): Promise<EventReplayResult> {
  const d1 = env.DB;
  const event = await d1
    .prepare("SELECT id, type, target_endpoint_id FROM webhook_events WHERE id = ? AND tenant_id = ?")
    .bind(eventId, tenantId)
    .first<{ id: string; type: string; target_endpoint_id: string | null }>();
  if (!event) return { status: "not_found" };
  const endpoints = event.target_endpoint_id
    ? await d1
        .prepare("SELECT id FROM webhook_endpoints WHERE id = ? AND tenant_id = ? AND state = 'active'")
        .bind(event.target_endpoint_id, tenantId)
        .all<{ id: string }>()
    : await d1
        .prepare(
          "SELECT id FROM webhook_endpoints WHERE tenant_id = ? AND state = 'active' AND EXISTS (SELECT 1 FROM json_each(webhook_endpoints.events) WHERE value = ?)",
        )
        .bind(tenantId, event.type)
        .all<{ id: string }>();
  const now = Date.now();
  const queued: string[] = [];
  for (const endpoint of endpoints.results) {
    const fresh = newId("webhookDelivery");
    const row = await d1
      .prepare(
        `INSERT INTO webhook_deliveries (id, tenant_id, endpoint_id, event_id, event_type, status, attempt_count, replay_count, next_attempt_at, created_at, updated_at)
         SELECT ?, ?, ?, ?, ?, 'pending', 0, 0, ?, ?, ? WHERE EXISTS (SELECT 1 FROM webhook_endpoints WHERE id = ? AND state = 'active')
         ON CONFLICT (endpoint_id, event_id) DO UPDATE SET status = 'pending', replay_count = replay_count + 1, attempt_base = attempt_count,
           next_attempt_at = excluded.next_attempt_at, terminal_reason = NULL, updated_at = excluded.updated_at
         WHERE webhook_deliveries.status IN ('delivered', 'failed', 'dead')
         RETURNING id`,
      )
      .bind(fresh, tenantId, endpoint.id, event.id, event.type, now, now, now, endpoint.id)
      .first<{ id: string }>();
    if (row) queued.push(row.id);
  }
  await d1.prepare("UPDATE webhook_events SET fanned_out_at = COALESCE(fanned_out_at, ?) WHERE id = ?").bind(now, event.id).run();
  await nudge(env, queued);
  return { status: "replayed", eventId: event.id, deliveryCount: queued.length };
}
