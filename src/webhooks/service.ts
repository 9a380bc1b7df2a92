import type { Bindings } from "../env";
import { IDEMPOTENCY_TTL_MS } from "../platform/idempotency/repo";
import { newId } from "../platform/ids";
import { checkWebhookDestination } from "./destination";
import { type CustomerEventType, EVENT_CATALOG_VERSION, isCustomerEventType, TEST_EVENT_TYPE } from "./events";
import {
  closeSecretOverlap,
  disableEndpointManually,
  type EndpointRow,
  enableDisabledEndpoint,
  endpointIdTaken,
  findEndpoint,
  insertEndpointUnderLimit,
  openSecretOverlap,
  resealUnshownSecret,
  revertSecretOverlap,
  softDeleteEndpoint,
  updateEndpointFields,
} from "./repo/endpoints";
import { DELIVERY_CONTROL_DEFAULTS } from "./schemas";
import { generateWebhookSecret, sealSecret } from "./signing";

/*
 * Endpoint commands: create, change, delete, disable, enable, rotate the secret. No HTTP here: results are
 * discriminated unions that the routes turn into responses.
 */

/** Endpoints a tenant may have at once (deleted ones do not count). */
export const MAX_ENDPOINTS_PER_TENANT = 50;
/** A deleted endpoint stays readable this long. */
export const DELETED_RETENTION_MS = 30 * 86_400_000;

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
  derivedId?: string,
): Promise<CreateResult> {
  const subscription = checkSubscription(input.events);
  if (subscription.status === "invalid") return { status: "subscription_invalid", message: subscription.message };
  const dest = await destination(env, input.url);
  if (dest.status === "refused") return { status: "destination_refused", reason: dest.reason };
  const secret = generateWebhookSecret();
  const now = Date.now();
  // Under an Idempotency-Key the id is the key's (`idFor`): a retry after a crash that lost the answer finds the
  // endpoint the first attempt created; its secret was never shown, so it is sealed anew and shown to the retry.
  const earlier = derivedId ? await findEndpoint(env.DB, tenantId, derivedId, now) : null;
  if (earlier) {
    // Only inside the key's replay window (after it the same Idempotency-Key is a new request); the reseal itself
    // requires that no delivery was ever attempted (nobody could have relied on the first secret).
    const same =
      earlier.created_at > now - IDEMPOTENCY_TTL_MS &&
      earlier.url === input.url &&
      earlier.events === JSON.stringify(subscription.events) &&
      earlier.max_concurrency === (input.max_concurrency ?? DELIVERY_CONTROL_DEFAULTS.max_concurrency) &&
      earlier.rate_limit_per_minute === (input.rate_limit_per_minute ?? DELIVERY_CONTROL_DEFAULTS.rate_limit_per_minute) &&
      earlier.auto_disable_after_failures === (input.auto_disable_after_failures ?? DELIVERY_CONTROL_DEFAULTS.auto_disable_after_failures);
    const sealed = await sealSecret(pepper, earlier.id, secret);
    if (same && (await resealUnshownSecret(env.DB, tenantId, earlier.id, earlier.secret_ciphertext, sealed, now)))
      return { status: "created", row: { ...earlier, secret_ciphertext: sealed, updated_at: now }, secret };
    derivedId = undefined; // another request's endpoint (a key reused after its record expired): a new endpoint
  } else if (derivedId && (await endpointIdTaken(env.DB, derivedId))) {
    derivedId = undefined; // a deleted endpoint kept for its deliveries holds the id: a new endpoint
  }
  const id = derivedId ?? newId("webhookEndpoint");
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
  if (!(await insertEndpointUnderLimit(env.DB, row, MAX_ENDPOINTS_PER_TENANT))) return { status: "limit_reached" };
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
  await updateEndpointFields(
    env.DB,
    tenantId,
    endpointId,
    {
      url: patch.url ?? null,
      events: events ?? null,
      max_concurrency: patch.max_concurrency ?? null,
      rate_limit_per_minute: patch.rate_limit_per_minute ?? null,
      auto_disable_after_failures: patch.auto_disable_after_failures ?? null,
    },
    Date.now(),
  );
  return reread(env.DB, tenantId, endpointId);
}

/** Soft delete: the row stays readable until its retention ends, its secrets are wiped, unfinished deliveries fenced. */
export async function deleteEndpoint(d1: D1Database, tenantId: string, endpointId: string): Promise<MutationResult> {
  const current = await mutable(d1, tenantId, endpointId);
  if (current.status !== "ok") return current;
  const now = Date.now();
  await softDeleteEndpoint(d1, tenantId, endpointId, now, now + DELETED_RETENTION_MS);
  return reread(d1, tenantId, endpointId);
}

/** Disable (idempotent): no further attempts; unfinished deliveries end visibly as `dead` (`endpoint_disabled`). */
export async function disableEndpoint(d1: D1Database, tenantId: string, endpointId: string): Promise<MutationResult> {
  const current = await mutable(d1, tenantId, endpointId);
  if (current.status !== "ok") return current;
  const now = Date.now();
  await disableEndpointManually(d1, tenantId, endpointId, now);
  return reread(d1, tenantId, endpointId);
}

/** Enable (idempotent): the destination is checked again first; the failure streak starts from zero. */
export async function enableEndpoint(env: Bindings, tenantId: string, endpointId: string): Promise<MutationResult> {
  const current = await mutable(env.DB, tenantId, endpointId);
  if (current.status !== "ok") return current;
  if (current.row.state === "active") return current;
  const dest = await destination(env, current.row.url);
  if (dest.status === "refused") return { status: "destination_refused", reason: dest.reason };
  await enableDisabledEndpoint(env.DB, tenantId, endpointId, Date.now());
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
  const opened = await openSecretOverlap(
    d1,
    tenantId,
    endpointId,
    await sealSecret(pepper, endpointId, secret),
    current.row.secret_ciphertext,
    now,
  );
  if (!opened)
    return {
      status: "conflict",
      code: "svc.webhooks.rotation_in_progress",
      message: "The secret changed concurrently; read the endpoint and try again.",
    };
  const row = await findEndpoint(d1, tenantId, endpointId);
  return row ? { status: "rotated", row, secret } : { status: "not_found" };
}

/**
 * Undoes a rotation whose new secret was withheld (never shown: its audit entry could not be appended): the
 * outgoing secret signs alone again, so no delivery is signed with a secret nobody holds and the retry (keyed or
 * not) can rotate afresh instead of meeting rotation_in_progress.
 */
export async function withdrawRotatedSecret(d1: D1Database, tenantId: string, endpointId: string, sealedSecret: string): Promise<void> {
  await revertSecretOverlap(d1, tenantId, endpointId, sealedSecret, Date.now());
}

export async function completeSecretOverlap(d1: D1Database, tenantId: string, endpointId: string): Promise<MutationResult> {
  const current = await mutable(d1, tenantId, endpointId);
  if (current.status !== "ok") return current;
  if (!current.row.previous_secret_ciphertext)
    return { status: "conflict", code: "svc.webhooks.no_secret_overlap", message: "No rotation overlap is open: only one secret signs." };
  await closeSecretOverlap(d1, tenantId, endpointId, Date.now());
  return reread(d1, tenantId, endpointId);
}
