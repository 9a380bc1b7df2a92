import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { notFound } from "../../platform/context";
import { json, NOT_FOUND } from "../../platform/openapi";
import { checkpointView, latestCheckpoint } from "../log";
import { CheckpointSchema } from "../schemas";

const latestRoute = createRoute({
  method: "get",
  path: "/v1/anchor/checkpoint",
  operationId: "getAnchorCheckpoint",
  tags: ["Transparency log"],
  summary: "Latest signed checkpoint",
  description:
    "The newest signed tree head of the manifest transparency log. Public; receipts carry inclusion proofs against checkpoints like this one.",
  responses: { 200: json(CheckpointSchema, "The checkpoint."), ...NOT_FOUND },
});

export function register(app: Router) {
  app.openapi(latestRoute, async (c) => {
    const row = await latestCheckpoint(c.env);
    if (!row) throw notFound("checkpoint");
    return c.json(await checkpointView(c.env, row), 200);
  });
}
