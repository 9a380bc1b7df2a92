import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { notFound } from "../../platform/context";
import { json, NOT_FOUND } from "../../platform/openapi";
import { checkpointView } from "../log";
import { checkpointOfSize } from "../repo";
import { CheckpointSchema } from "../schemas";

const bySizeRoute = createRoute({
  method: "get",
  path: "/v1/anchor/checkpoints/{tree_size}",
  operationId: "getAnchorCheckpointBySize",
  tags: ["Transparency log"],
  summary: "A signed checkpoint by tree size",
  request: {
    params: z.object({
      tree_size: z.coerce
        .number()
        .int()
        .min(1)
        .openapi({ param: { name: "tree_size", in: "path" }, description: "Tree size.", example: 42 }),
    }),
  },
  responses: { 200: json(CheckpointSchema, "The checkpoint."), ...NOT_FOUND },
});

export function register(app: Router) {
  app.openapi(bySizeRoute, async (c) => {
    const row = await checkpointOfSize(c.var.db, c.req.valid("param").tree_size);
    if (!row) throw notFound("checkpoint");
    return c.json(await checkpointView(c.env, row), 200);
  });
}
