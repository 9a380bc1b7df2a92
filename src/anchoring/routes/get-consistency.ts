import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { fromHex, hex } from "../../platform/bytes";
import { notFound } from "../../platform/context";
import { ApiError } from "../../platform/errors";
import { json, NOT_FOUND } from "../../platform/openapi";
import { MerkleTree } from "../merkle";
import { checkpointOfSize, sealedLeafHashes } from "../repo";

const consistencyRoute = createRoute({
  method: "get",
  path: "/v1/anchor/consistency",
  operationId: "getAnchorConsistency",
  tags: ["Transparency log"],
  summary: "Consistency proof between two checkpoints",
  description: "RFC 6962 §2.1.2 proof that the tree of `second` entries extends the tree of `first` entries (both sealed checkpoints).",
  request: {
    query: z.object({
      first: z.coerce.number().int().min(1).openapi({ description: "Older tree size.", example: 10 }),
      second: z.coerce.number().int().min(1).openapi({ description: "Newer tree size.", example: 42 }),
    }),
  },
  responses: {
    200: json(
      z
        .object({
          first: z.number().int().openapi({ description: "Older size.", example: 10 }),
          second: z.number().int().openapi({ description: "Newer size.", example: 42 }),
          proof: z.array(z.string()).openapi({ description: "Consistency proof (hex).", example: [] }),
        })
        .openapi("AnchorConsistencyProof"),
      "The proof.",
    ),
    ...NOT_FOUND,
  },
});

export function register(app: Router) {
  app.openapi(consistencyRoute, async (c) => {
    const { first, second } = c.req.valid("query");
    if (first > second) throw new ApiError("svc.request.invalid", "`first` must not exceed `second`.");
    const db = c.var.db;
    for (const size of [first, second]) {
      if (!(await checkpointOfSize(db, size))) throw notFound("checkpoint");
    }
    const leaves = await sealedLeafHashes(db, second - 1);
    const tree = await MerkleTree.fromLeafHashes(leaves.map((l) => fromHex(l.leafHash)));
    const proof = await tree.consistencyProof(first, second);
    return c.json({ first, second, proof: proof.map((p) => hex(p)) }, 200);
  });
}
