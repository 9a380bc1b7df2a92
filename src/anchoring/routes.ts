import { createRoute, z } from "@hono/zod-openapi";
import { asc, eq, lte } from "drizzle-orm";
import { anchorCheckpoints, anchorEntries } from "../db/schema";
import { fromHex, hex } from "../platform/bytes";
import { createRouter, notFound } from "../platform/context";
import { ApiError } from "../platform/errors";
import { json, NOT_FOUND } from "../platform/openapi";
import { anchorOrigin, latestCheckpoint, verifierKey } from "./log";
import { MerkleTree } from "./merkle";

/*
 * The transparency log's read-only face: signed checkpoints and consistency proofs between them, public like
 * Certificate Transparency's get-sth / get-sth-consistency, so anyone can audit that the log only grows.
 */

const CheckpointSchema = z
  .object({
    origin: z.string().openapi({ description: "The log's name (first line of the checkpoint).", example: "svc.local/manifest-log" }),
    tree_size: z.number().int().openapi({ description: "Entries in the tree.", example: 42 }),
    root_hash: z.string().openapi({ description: "RFC 6962 root hash (hex).", example: "5f3a…" }),
    checkpoint: z.string().openapi({
      description: "The signed note (C2SP tlog-checkpoint in a signed-note, ECDSA P-256).",
      example: "svc.local/manifest-log\n42\n…",
    }),
    verifier_key: z.string().nullable().openapi({
      description: "The log's verifier key in signed-note form (`<origin>+<key id>+<base64 key>`).",
      example: "svc.local/manifest-log+1a2b3c4d+Ag…",
    }),
    sealed_at: z.string().openapi({ description: "When the checkpoint was signed.", example: "2026-11-22T10:00:00.000Z" }),
  })
  .openapi("AnchorCheckpoint");

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

export function anchorRoutes() {
  const app = createRouter();
  const view = async (env: Parameters<typeof latestCheckpoint>[0], row: typeof anchorCheckpoints.$inferSelect) => ({
    origin: anchorOrigin(env),
    tree_size: row.treeSize,
    root_hash: row.rootHash,
    checkpoint: row.note,
    verifier_key: await verifierKey(env),
    sealed_at: new Date(row.sealedAt).toISOString(),
  });
  app.openapi(latestRoute, async (c) => {
    const row = await latestCheckpoint(c.env);
    if (!row) throw notFound("checkpoint");
    return c.json(await view(c.env, row), 200);
  });
  app.openapi(bySizeRoute, async (c) => {
    const [row] = await c.var.db
      .select()
      .from(anchorCheckpoints)
      .where(eq(anchorCheckpoints.treeSize, c.req.valid("param").tree_size))
      .limit(1);
    if (!row) throw notFound("checkpoint");
    return c.json(await view(c.env, row), 200);
  });
  app.openapi(consistencyRoute, async (c) => {
    const { first, second } = c.req.valid("query");
    if (first > second) throw new ApiError("svc.request.invalid", "`first` must not exceed `second`.");
    const db = c.var.db;
    for (const size of [first, second]) {
      const [row] = await db
        .select({ s: anchorCheckpoints.treeSize })
        .from(anchorCheckpoints)
        .where(eq(anchorCheckpoints.treeSize, size))
        .limit(1);
      if (!row) throw notFound("checkpoint");
    }
    const leaves = await db
      .select({ leafHash: anchorEntries.leafHash })
      .from(anchorEntries)
      .where(lte(anchorEntries.leafIndex, second - 1))
      .orderBy(asc(anchorEntries.leafIndex));
    const tree = await MerkleTree.fromLeafHashes(leaves.map((l) => fromHex(l.leafHash)));
    const proof = await tree.consistencyProof(first, second);
    return c.json({ first, second, proof: proof.map((p) => hex(p)) }, 200);
  });
  return app;
}
