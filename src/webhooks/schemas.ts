import { z } from "@hono/zod-openapi";
import { idSchema } from "../platform/ids";
import { Timestamp } from "../platform/openapi";
import { NextCursorSchema } from "../platform/pagination";
import { WEBHOOK_URL_MAX_LENGTH } from "./destination";
import { CUSTOMER_EVENT_TYPES, EVENT_CATALOG_VERSION, TEST_EVENT_TYPE } from "./events";

export const WebhookEndpointIdSchema = idSchema("webhookEndpoint", "Webhook endpoint id.");
export const WebhookDeliveryIdSchema = idSchema("webhookDelivery", "Webhook delivery id.");
export const WebhookEventIdSchema = idSchema(
  "webhookEvent",
  "Event id; sent as `webhook-id` (and `Idempotency-Key`) on every attempt of every delivery of the event.",
);

export const CustomerEventTypeSchema = z
  .enum(CUSTOMER_EVENT_TYPES)
  .openapi("CustomerEventType", { description: "A customer event type of `svc.customer-events.v1`.", example: "asset.signed" });

/** Delivery controls, SPEC "Limits": bounds and defaults. */
export const DELIVERY_CONTROL_DEFAULTS = { max_concurrency: 2, rate_limit_per_minute: 60, auto_disable_after_failures: 20 } as const;

const controls = {
  max_concurrency: z.number().int().min(1).max(20).openapi({
    description: "At most this many requests in flight to the endpoint at once, across the whole service (1 to 20; default 2).",
    example: 2,
  }),
  rate_limit_per_minute: z
    .number()
    .int()
    .min(1)
    .max(600)
    .openapi({ description: "At most this many requests to the endpoint per minute (1 to 600; default 60).", example: 60 }),
  auto_disable_after_failures: z.number().int().min(1).max(100).openapi({
    description:
      "The endpoint is disabled after this many consecutive failed attempts (1 to 100; default 20); its unfinished deliveries end as `dead`.",
    example: 20,
  }),
};

const url = z.string().min(1).max(WEBHOOK_URL_MAX_LENGTH).openapi({
  description:
    "HTTPS destination (at most 2048 characters) that passes the destination policy: no credentials, and neither the host nor any address it resolves to is loopback, private, link-local or metadata.",
  example: "https://hooks.example.com/svc",
});

const events = z
  .array(z.string().max(100))
  .min(1)
  .max(CUSTOMER_EVENT_TYPES.length)
  .openapi({
    description: "Exact event types to receive (see the event catalog); no wildcards, each named once.",
    example: ["asset.signed"],
  });

export const CreateWebhookEndpointRequestSchema = z
  .object({
    url,
    event_catalog_version: z
      .literal(EVENT_CATALOG_VERSION)
      .openapi({ description: "The event catalog the subscription is written against.", example: EVENT_CATALOG_VERSION }),
    events,
    max_concurrency: controls.max_concurrency.optional(),
    rate_limit_per_minute: controls.rate_limit_per_minute.optional(),
    auto_disable_after_failures: controls.auto_disable_after_failures.optional(),
  })
  .strict()
  .openapi("CreateWebhookEndpointRequest");

export const UpdateWebhookEndpointRequestSchema = z
  .object({
    url: url.optional(),
    events: events.optional(),
    max_concurrency: controls.max_concurrency.optional(),
    rate_limit_per_minute: controls.rate_limit_per_minute.optional(),
    auto_disable_after_failures: controls.auto_disable_after_failures.optional(),
  })
  .strict()
  .refine((b) => Object.values(b).some((v) => v !== undefined), { message: "Name at least one field to change." })
  .openapi("UpdateWebhookEndpointRequest", {
    description:
      "Fields to change; omitted fields keep their value. `events` replaces the whole subscription. A new `url` is checked against the destination policy.",
  });

export const WebhookEndpointResponseSchema = z
  .object({
    endpoint_id: WebhookEndpointIdSchema,
    url: z.string().openapi({ description: "Destination.", example: "https://hooks.example.com/svc" }),
    event_catalog_version: z
      .literal(EVENT_CATALOG_VERSION)
      .openapi({ description: "Event catalog of the subscription.", example: EVENT_CATALOG_VERSION }),
    events: z.array(CustomerEventTypeSchema).openapi({ description: "Subscribed event types." }),
    max_concurrency: controls.max_concurrency,
    rate_limit_per_minute: controls.rate_limit_per_minute,
    auto_disable_after_failures: controls.auto_disable_after_failures,
    state: z.enum(["active", "disabled", "deleted"]).openapi({
      description: "`active` receives deliveries; `disabled` receives none until enabled; `deleted` is retained read-only.",
      example: "active",
    }),
    disabled_reason: z.enum(["manual", "consecutive_failures"]).nullable().openapi({
      description:
        "Why a disabled endpoint is disabled: by the disable operation, or automatically after `auto_disable_after_failures` consecutive failed attempts.",
      example: null,
    }),
    consecutive_failures: z.number().int().openapi({ description: "Failed attempts since the last acknowledged one.", example: 0 }),
    secret_overlap: z
      .object({ started_at: Timestamp("When rotate-secret issued the new secret; both secrets sign until the overlap is completed.") })
      .nullable()
      .openapi({
        description: "An open rotation overlap: deliveries carry two signatures (new secret first). Null when one secret signs.",
      }),
    created_at: Timestamp("When the endpoint was created."),
    updated_at: Timestamp("Last change."),
    deleted_at: Timestamp("When the endpoint was deleted.").nullable(),
    retained_until: Timestamp("A deleted endpoint stays readable until then.").nullable(),
  })
  .openapi("WebhookEndpointResponse");

const secret = z
  .string()
  .regex(/^whsec_[A-Za-z0-9+/]{43}=$/)
  .openapi({
    description:
      "Signing secret (`whsec_` + base64 of 32 random bytes). Returned once; the service cannot show it again, so replaying the Idempotency-Key answers 409 `secret_not_replayable`.",
    example: `whsec_${"A".repeat(43)}=`,
  });

export const IssuedWebhookEndpointResponseSchema = z
  .object({ endpoint: WebhookEndpointResponseSchema, secret })
  .openapi("IssuedWebhookEndpointResponse");

export const WebhookEndpointPageSchema = z
  .object({
    data: z.array(WebhookEndpointResponseSchema).openapi({ description: "Endpoints, newest first." }),
    next_cursor: NextCursorSchema,
  })
  .openapi("WebhookEndpointPage");

export const CustomerEventDescriptorResponseSchema = z
  .object({
    type: CustomerEventTypeSchema,
    description: z.string().openapi({ description: "What the event means.", example: "An asset was signed and published." }),
    emitted_when: z.string().openapi({ description: "When the service emits it.", example: "A job whose recipe signs finishes." }),
  })
  .openapi("CustomerEventDescriptorResponse");

export const EventCatalogResponseSchema = z
  .object({
    catalog_version: z.literal(EVENT_CATALOG_VERSION).openapi({ description: "Catalog version.", example: EVENT_CATALOG_VERSION }),
    events: z
      .array(CustomerEventDescriptorResponseSchema)
      .openapi({ description: "Subscribable events. `webhook.test` is not among them: it is only sent by the test operation." }),
    wildcard_supported: z.literal(false).default(false).openapi({ description: "Always false: events are named exactly.", example: false }),
  })
  .openapi("EventCatalogResponse");

export const TERMINAL_REASONS = [
  "receiver_rejected",
  "redirect_not_followed",
  "destination_refused",
  "retries_exhausted",
  "endpoint_disabled",
  "endpoint_auto_disabled",
  "endpoint_deleted",
] as const;
export type TerminalReason = (typeof TERMINAL_REASONS)[number];

export const WebhookDeliveryTerminalReasonSchema = z.enum(TERMINAL_REASONS).openapi("WebhookDeliveryTerminalReason", {
  description:
    "Why a delivery ended unacknowledged. `failed`: `receiver_rejected` (an answer other than 2xx, 408, 425, 429, 5xx), `redirect_not_followed` (3xx), `destination_refused` (the destination no longer passes the policy). `dead`: `retries_exhausted`, `endpoint_disabled`, `endpoint_auto_disabled`, `endpoint_deleted`.",
  example: "receiver_rejected",
});

export const WebhookDeliveryResponseSchema = z
  .object({
    delivery_id: WebhookDeliveryIdSchema,
    endpoint_id: WebhookEndpointIdSchema,
    event_id: WebhookEventIdSchema,
    event_type: z
      .union([CustomerEventTypeSchema, z.literal(TEST_EVENT_TYPE)])
      .openapi({ description: "The event's type, or `webhook.test`.", example: "asset.signed" }),
    status: z.enum(["pending", "delivering", "delivered", "failed", "dead"]).openapi({
      description:
        "`pending`: waiting for its next attempt (at `next_attempt_at`), including after a retryable failure; `delivering`: an attempt is in flight; `delivered`: acknowledged (2xx); `failed`: ended by the receiver's answer or the destination policy; `dead`: gave up (retries exhausted) or fenced (endpoint disabled or deleted). `failed` and `dead` can be replayed.",
      example: "delivered",
    }),
    attempt_count: z.number().int().openapi({ description: "Attempts made so far (replays included).", example: 1 }),
    replay_count: z.number().int().openapi({ description: "Times the delivery was replayed.", example: 0 }),
    created_at: Timestamp("When the delivery was created (fan-out)."),
    next_attempt_at: Timestamp("When the next attempt is due; null unless pending.").nullable(),
    response_code: z.number().int().nullable().openapi({
      description: "HTTP status of the last answer; null when none came (timeout, network error) or no attempt yet.",
      example: 200,
    }),
    response_body_sha256: z
      .string()
      .nullable()
      .openapi({ description: "SHA-256 (hex) of the first 64 KiB of the last answer's body.", example: null }),
    terminal_reason: WebhookDeliveryTerminalReasonSchema.nullable(),
  })
  .openapi("WebhookDeliveryResponse");

export const WebhookDeliveryPageSchema = z
  .object({
    data: z.array(WebhookDeliveryResponseSchema).openapi({ description: "Deliveries, newest first." }),
    next_cursor: NextCursorSchema,
  })
  .openapi("WebhookDeliveryPage");

export const WebhookAttemptResponseSchema = z
  .object({
    attempt_number: z.number().int().min(1).openapi({ description: "1 for the first attempt.", example: 1 }),
    started_at: Timestamp("When the request was sent."),
    duration_ms: z.number().int().openapi({ description: "Time to the answer (or to the failure).", example: 84 }),
    response_code: z.number().int().nullable().openapi({ description: "HTTP status; null when no answer came.", example: 503 }),
    response_body_sha256: z.string().nullable().openapi({ description: "SHA-256 (hex) of the first 64 KiB of the body.", example: null }),
    outcome: z
      .enum(["acknowledged", "retry_scheduled", "ended"])
      .openapi({ description: "What the attempt led to.", example: "retry_scheduled" }),
    error: z.enum(["timeout", "network_error", "redirect_not_followed", "destination_refused", "internal_error"]).nullable().openapi({
      description:
        "Why no usable answer came, when none did (`internal_error`: the service could not make the attempt; retried like a network error).",
      example: null,
    }),
    retry_after_seconds: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "The receiver's Retry-After, when it sent one (honoured: the next attempt is no sooner).", example: 2 }),
    signature_count: z
      .number()
      .int()
      .openapi({ description: "Signatures sent in `webhook-signature` (2 during a rotation overlap).", example: 1 }),
  })
  .openapi("WebhookAttemptResponse");

export const WebhookAttemptPageSchema = z
  .object({
    data: z.array(WebhookAttemptResponseSchema).openapi({ description: "Attempts, oldest first." }),
    next_cursor: NextCursorSchema,
  })
  .openapi("WebhookAttemptPage");

export const DeliveryReplayResponseSchema = z.object({ event_id: WebhookEventIdSchema }).openapi("WebhookDeliveryReplayResponse");
export const EventReplayResponseSchema = z
  .object({
    event_id: WebhookEventIdSchema,
    delivery_count: z
      .number()
      .int()
      .openapi({ description: "Deliveries queued by this replay (one per active endpoint subscribed to the event).", example: 2 }),
  })
  .openapi("WebhookEventReplayResponse");

export const TestEventResponseSchema = z
  .object({ delivery_id: WebhookDeliveryIdSchema, event_id: WebhookEventIdSchema })
  .openapi("WebhookTestEventResponse", {
    description: "The queued synthetic `webhook.test` delivery; follow it with the delivery operations.",
  });

export const EndpointIdParams = z.object({ endpoint_id: WebhookEndpointIdSchema });
export const DeliveryIdParams = z.object({ delivery_id: WebhookDeliveryIdSchema });
