import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { json } from "../../platform/openapi";
import { EVENT_CATALOG, EVENT_CATALOG_VERSION } from "../events";
import { EventCatalogResponseSchema } from "../schemas";

const route = createRoute({
  method: "get",
  path: "/v1/webhook-endpoints/event-catalog",
  operationId: "getWebhookEventCatalog",
  tags: ["Webhook endpoints"],
  summary: "Get the event catalog",
  description:
    "The events an endpoint can subscribe to, by exact name. Every event body has the same envelope: `{id, type, event_catalog_version, timestamp, test, data}`; `data` holds ids and links to fetch the full resources (`asset_id`, `job_id`, `publication_id`, `receipt_id`, `media_type`, `recipe_id`, `manifest_label`, `watermark_algorithm`, `links`).",
  responses: { 200: json(EventCatalogResponseSchema, "The catalog.") },
});

export function register(app: Router) {
  app.openapi(route, (c) =>
    c.json({ catalog_version: EVENT_CATALOG_VERSION, events: [...EVENT_CATALOG], wildcard_supported: false as const }, 200),
  );
}
