import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { registryFor } from "../../catalog/installed";
import { json } from "../../platform/openapi";
import { ImageProfilesResponseSchema } from "../schemas";
import { imageProfilesView } from "../service";

const route = createRoute({
  method: "get",
  path: "/v1/image-profiles",
  operationId: "listImageProfiles",
  tags: ["Capabilities"],
  summary: "Image profiles",
  description: "Each reviewed image format, with what is accepted now kept apart from the planned envelope, its limits and availability.",
  responses: { 200: json(ImageProfilesResponseSchema, "Image profiles.") },
});

export function registerListImageProfiles(app: Router) {
  app.openapi(route, (c) => c.json(imageProfilesView(registryFor(c.env)), 200));
}
