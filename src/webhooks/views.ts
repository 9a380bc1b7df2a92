import { iso } from "../platform/openapi";
import { type CustomerEventType, EVENT_CATALOG_VERSION, type TEST_EVENT_TYPE } from "./events";
import type { AttemptRow, DeliveryRow } from "./repo/deliveries";
import type { EndpointRow } from "./repo/endpoints";

/* How stored rows are served: the response bodies of endpoints, deliveries and attempts (never a secret). */

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
