import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { publicOrigin } from "../../platform/context";
import { json } from "../../platform/openapi";
import { connectCatalog } from "../catalog";
import { ConnectCatalogResponseSchema } from "../schemas";

const route = createRoute({
  method: "get",
  path: "/v1/connect-catalog",
  operationId: "getConnectCatalog",
  tags: ["Catalog"],
  summary: "Integration catalog",
  description:
    "Anonymous. Facts an integrator (or an AI assistant) needs to connect: origin, auth header, canonical calls, errors, limits.",
  responses: { 200: json(ConnectCatalogResponseSchema, "The connect catalog.") },
});

export function registerGetConnectCatalog(app: Router) {
  app.openapi(route, (c) => c.json(connectCatalog(publicOrigin(c)), 200));
}
