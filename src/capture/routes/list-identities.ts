import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { releasedCheck } from "../../history/repo";
import { principalOf } from "../../platform/context";
import { json } from "../../platform/openapi";
import { pageOf, pageQuerySchema, pageRequest } from "../../platform/pagination";
import { listIdentities } from "../repo";
import { CaptureIdentityPageSchema, IDENTITY_STATES, PLATFORMS, PROVIDER_CLASSES } from "../schemas";
import { identityView } from "../service";

const route = createRoute({
  method: "get",
  path: "/v1/capture-identities",
  operationId: "listCaptureIdentities",
  tags: ["Capture"],
  summary: "List capture identities",
  description: "The tenant's capture identities, newest first, optionally filtered. Snapshot-consistent cursor pagination.",
  request: {
    query: z.object({
      state: z.enum(IDENTITY_STATES).optional().openapi({ description: "Only identities in this state.", example: "active" }),
      platform: z.enum(PLATFORMS).optional().openapi({ description: "Only identities of this platform.", example: "ios" }),
      provider_class: z
        .enum(PROVIDER_CLASSES)
        .optional()
        .openapi({ description: "Only identities attested by this provider class.", example: "apple_app_attest" }),
      ...pageQuerySchema(100, 25),
    }),
  },
  responses: { 200: json(CaptureIdentityPageSchema, "One page of identities.") },
});

export function register(app: Router) {
  app.openapi(route, async (c) => {
    const { tenantId } = principalOf(c);
    const query = c.req.valid("query");
    const filters = { state: query.state, platform: query.platform, provider_class: query.provider_class };
    const binding = {
      tenantId,
      collection: `capture_identities?state=${filters.state ?? ""}&platform=${filters.platform ?? ""}&provider_class=${filters.provider_class ?? ""}`,
    };
    const page = await pageRequest(c.env.SVC_CURSOR_SECRET, binding, query, Date.now(), releasedCheck(c.var.db, tenantId));
    const rows = await listIdentities(c.var.db, tenantId, filters, page);
    const { rows: items, nextCursor } = await pageOf(c.env.SVC_CURSOR_SECRET, binding, page, rows);
    return c.json({ items: items.map(identityView), next_cursor: nextCursor }, 200);
  });
}
