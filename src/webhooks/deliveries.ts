import type { Bindings } from "../env";
import type { BatchCompletion } from "../platform/idempotency";
import { newId } from "../platform/ids";
import { TEST_EVENT_TYPE, testEventBody } from "./events";
import { nudge } from "./queue";
import {
  findDelivery,
  insertDeliveryStatement,
  replayEventInOne,
  restartFinishedDelivery,
  upsertReplayedDeliveries,
} from "./repo/deliveries";
import { type EndpointRow, endpointState } from "./repo/endpoints";
import { findTenantEventWithRecipients, insertTestEventStatement } from "./repo/events";
import { MAX_ENDPOINTS_PER_TENANT, type MutationResult } from "./service";

/*
 * Commands that queue deliveries on request: the test event and the replays of a delivery or an event. No HTTP
 * here: results are discriminated unions that the routes turn into responses.
 */

export type TestResult = MutationResult | { status: "queued"; deliveryId: string; eventId: string };

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

/** A synthetic signed `webhook.test` event with a delivery to this endpoint only (the caller applies the hourly limit). */
export async function sendTestEvent(env: Bindings, endpoint: EndpointRow, completion?: BatchCompletion): Promise<TestResult> {
  const { tenant_id: tenantId, id: endpointId } = endpoint;
  const eventId = newId("webhookEvent");
  const deliveryId = newId("webhookDelivery");
  const now = Date.now();
  // `completion`: the request's idempotency completion in the same batch, after the inserts and only when the
  // delivery was inserted (its answer: the `queued` result, whose ids are known before the batch).
  const completing =
    completion?.statements(env.DB, {
      body: { sql: "json_object('delivery_id', ?, 'event_id', ?)", binds: [deliveryId, eventId] },
      onlyIf: { sql: "EXISTS (SELECT 1 FROM webhook_deliveries WHERE id = ?)", binds: [deliveryId] },
    }) ?? [];
  const written = await env.DB.batch([
    insertTestEventStatement(env.DB, {
      id: eventId,
      tenantId,
      type: TEST_EVENT_TYPE,
      body: JSON.stringify(testEventBody(eventId, endpointId, now)),
      endpointId,
      now,
    }),
    // Only while the endpoint is active: a disable or delete committed meanwhile fences it first.
    insertDeliveryStatement(env.DB, { id: deliveryId, tenantId, endpointId, eventId, eventType: TEST_EVENT_TYPE, now }, "fail"),
    ...completing,
  ]);
  completion?.settle(written.slice(2));
  if (written[1]!.meta.changes !== 1)
    return {
      status: "conflict",
      code: "svc.webhooks.endpoint_disabled",
      message: "The endpoint was disabled meanwhile; enable it to send a test event.",
    };
  await nudge(env, [deliveryId]);
  return { status: "queued", deliveryId, eventId };
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
export async function replayDelivery(
  env: Bindings,
  tenantId: string,
  deliveryId: string,
  completion?: BatchCompletion,
): Promise<ReplayResult> {
  const delivery = await findDelivery(env.DB, tenantId, deliveryId);
  if (!delivery) return { status: "not_found" };
  const now = Date.now();
  // `completion`: the request's idempotency claim and completion with the restart (its answer: the `replayed` result).
  const once = () =>
    restartFinishedDelivery(
      env.DB,
      tenantId,
      deliveryId,
      delivery.endpoint_id,
      now,
      completion && { eventId: delivery.event_id, statements: (answer) => completion.statements(env.DB, answer) },
    );
  let restart: Awaited<ReturnType<typeof restartFinishedDelivery>>;
  try {
    restart = await once();
  } catch (error) {
    // As replayEvent: a key not free is claimed the usual way (the batch then runs again) or answers this request.
    if (!(await completion?.recover(error))) throw error;
    restart = await once();
  }
  completion?.settle(restart.completion);
  if (restart.restarted) {
    await nudge(env, [deliveryId]);
    return { status: "replayed", eventId: delivery.event_id };
  }
  const state = await endpointState(env.DB, delivery.endpoint_id);
  if (state === "deleted")
    return {
      status: "conflict",
      code: "svc.webhooks.endpoint_deleted",
      message: "The endpoint is deleted; its deliveries cannot be replayed.",
    };
  if (state !== "active")
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
export async function replayEvent(
  env: Bindings,
  tenantId: string,
  eventId: string,
  completion?: BatchCompletion,
): Promise<EventReplayResult> {
  const d1 = env.DB;
  const now = Date.now();
  // One D1 round trip (#19): the event, its recipients' upserts and the fanned-out mark together, and the request's
  // idempotency completion with them (`completion`: its answer is the `replayed` result); ids for as many recipients
  // as a tenant may have endpoints.
  const ids = Array.from({ length: MAX_ENDPOINTS_PER_TENANT }, () => newId("webhookDelivery"));
  const once = () => replayEventInOne(d1, { tenantId, eventId, now, ids }, completion && ((answer) => completion.statements(d1, answer)));
  let done: Awaited<ReturnType<typeof replayEventInOne>>;
  try {
    done = await once();
  } catch (error) {
    // The key claimed in this batch was not free: claimed the usual way (a lapsed claim taken over), the batch runs
    // again (it wrote nothing); another request's key answers this request instead (recover throws).
    if (!(await completion?.recover(error))) throw error;
    done = await once();
  }
  // Settled whenever the batch committed (its claim, when taken there, is held from now on).
  completion?.settle(done.completion);
  const replayed = done.found ? done : null;
  if (!replayed) return { status: "not_found" };
  const queued = replayed.queued;
  if (replayed.overflow) {
    // More recipients than ids (never, while the endpoint limit holds): the rest upserted as before; those just
    // upserted are pending now, so the upsert leaves them alone.
    const found = await findTenantEventWithRecipients(d1, tenantId, eventId);
    if (found)
      queued.push(
        ...(await upsertReplayedDeliveries(
          d1,
          found.recipients.map((endpoint) => ({
            id: newId("webhookDelivery"),
            tenantId,
            endpointId: endpoint.id,
            eventId: found.event.id,
            eventType: found.event.type,
            now,
          })),
        )),
      );
  }
  await nudge(env, queued);
  return { status: "replayed", eventId, deliveryCount: queued.length };
}
