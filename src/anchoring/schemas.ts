import { z } from "@hono/zod-openapi";

/** A signed checkpoint as served (GET /v1/anchor/checkpoint and /v1/anchor/checkpoints/{tree_size}). */
export const CheckpointSchema = z
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
