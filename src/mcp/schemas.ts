import { z } from "@hono/zod-openapi";
import { ASSET_STATUSES } from "../assets/schemas";
import { JobIdSchema, RecipeIdSchema } from "../jobs/schemas";
import { IDEMPOTENCY_KEY_MAX_LENGTH } from "../platform/idempotency";
import { idSchema } from "../platform/ids";
import { AssetIdSchema, ObjectIdSchema } from "../uploads/schemas";

/** The path of the MCP endpoint (Streamable HTTP, stateless). */
export const MCP_PATH = "/mcp";

/**
 * Bound on one POST /mcp body. JSON-RPC messages are small; the one large field is verify_media's `file_base64`
 * (4/3 of the file), so files up to MCP_INLINE_FILE_MAXIMUM_BYTES travel inline and larger ones go through an upload.
 */
export const MCP_REQUEST_MAXIMUM_BYTES = 4 * 1024 * 1024 + 64 * 1024;
/** Largest decoded `file_base64` verify_media takes inline: its base64 (4 MiB) and the JSON-RPC envelope fit the body bound. */
export const MCP_INLINE_FILE_MAXIMUM_BYTES = 3 * 1024 * 1024;

/*
 * Tool inputs. Each is a zod shape the MCP SDK turns into the tool's JSON Schema and checks before the tool runs;
 * ids reuse the REST schemas, so a tool never builds a path from an unchecked string.
 */

export const VerifyMediaInput = {
  file_base64: z
    .string()
    .max((MCP_INLINE_FILE_MAXIMUM_BYTES / 3) * 4)
    .optional()
    .describe(
      `The file itself, base64-encoded (standard alphabet, no line breaks), at most ${MCP_INLINE_FILE_MAXIMUM_BYTES} bytes decoded. Any reviewed format (see get_capabilities); its type is read from its bytes.`,
    ),
  file_name: z.string().max(255).optional().describe("Optional name of that file (informational only)."),
  asset_id: AssetIdSchema.optional().describe("Verify one of your published assets (`ast_…`) instead of sending bytes."),
  object_id: ObjectIdSchema.optional().describe(
    "Verify an object you uploaded (`aob_…`, from POST /v1/uploads then /complete). Asynchronous: the answer is a verification record in state `queued`; read it with get_verification until `completed` or `failed`.",
  ),
  manifest_uri: z
    .string()
    .max(2048)
    .optional()
    .describe("Verify a manifest store published at this https URL on a configured manifest host (the hard binding cannot be checked)."),
};

export const UploadFileInput = {
  file_base64: z
    .string()
    .max((MCP_INLINE_FILE_MAXIMUM_BYTES / 3) * 4)
    .describe(
      `The file, base64-encoded (standard alphabet, padded, no line breaks), at most ${MCP_INLINE_FILE_MAXIMUM_BYTES} bytes decoded.`,
    ),
  media_type: z
    .string()
    .max(127)
    .regex(/^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*$/)
    .describe("Its media type (e.g. `image/jpeg`); must be enabled in get_capabilities."),
  file_name: z.string().max(255).optional().describe("Original file name, for display."),
};

export const GetVerificationInput = {
  verification_id: idSchema("verification", "Verification id.").describe("The verification record (`vfy_…`) to read."),
};

export const SignAssetInput = {
  asset_id: AssetIdSchema.describe("The uploaded asset (`ast_…`) to sign."),
  recipe_id: RecipeIdSchema.optional().describe("The recipe (`rcp_…`, see list_recipes); omitted: the signing profile's default recipe."),
  mode: z
    .enum(["express", "standard"])
    .optional()
    .describe(
      "`express` runs the express watermark-then-sign recipes on images in the request and may answer the finished job at once; default `standard` (asynchronous: poll get_job).",
    ),
  idempotency_key: z
    .string()
    .min(1)
    .max(IDEMPOTENCY_KEY_MAX_LENGTH)
    .regex(/^[\x21-\x7e]+$/)
    .optional()
    .describe(
      "Reuse the same value when retrying the same signing, so it is done once; omitted: a fresh key (each call starts a new job).",
    ),
};

export const GetJobInput = {
  job_id: JobIdSchema.describe("The job (`job_…`) to read."),
};

export const ListAssetsInput = {
  kind: z.enum(["image", "audio", "video", "document", "font", "model", "text"]).optional().describe("Only this media family."),
  status: z.enum(ASSET_STATUSES).optional().describe("Only assets in this status."),
  limit: z.number().int().min(1).max(100).optional().describe("Page size, 1 to 100 (default 25)."),
  cursor: z.string().max(256).optional().describe("`next_cursor` of the previous page."),
};

export const ListRecipesInput = {};
export const GetCapabilitiesInput = {};

/* The HTTP side, for the OpenAPI document: POST /mcp carries JSON-RPC 2.0 messages of the MCP protocol. */

export const McpRequestSchema = z
  .object({
    jsonrpc: z.literal("2.0").openapi({ description: "JSON-RPC version.", example: "2.0" }),
    id: z.union([z.string(), z.number()]).optional().openapi({ description: "Request id; absent for notifications.", example: 1 }),
    method: z.string().openapi({
      description: "MCP method: `initialize`, `notifications/initialized`, `tools/list`, `tools/call`, `ping`.",
      example: "tools/list",
    }),
    params: z.record(z.string(), z.unknown()).optional().openapi({ description: "Method parameters." }),
  })
  .openapi("McpRequest", {
    description:
      "One JSON-RPC 2.0 message of the Model Context Protocol. Batches (arrays) are refused (422): the protocol dropped them in 2025-06-18, and one POST running many tool calls at once would multiply a request's memory and CPU inside one isolate.",
  });

export const McpResponseSchema = z
  .object({
    jsonrpc: z.literal("2.0").openapi({ description: "JSON-RPC version.", example: "2.0" }),
    id: z.union([z.string(), z.number(), z.null()]).openapi({ description: "The request's id.", example: 1 }),
    result: z.record(z.string(), z.unknown()).optional().openapi({ description: "The method's result." }),
    error: z
      .object({
        code: z.number().int().openapi({ description: "JSON-RPC error code (e.g. -32602 invalid params).", example: -32602 }),
        message: z.string().openapi({ description: "What went wrong.", example: "Tool delete_everything not found" }),
        data: z.unknown().optional().openapi({ description: "More about the error, when given." }),
      })
      .optional()
      .openapi({ description: "A JSON-RPC error (protocol-level; a failed tool answers a result with `isError`)." }),
  })
  .openapi("McpResponse", { description: "One JSON-RPC 2.0 response of the Model Context Protocol." });
