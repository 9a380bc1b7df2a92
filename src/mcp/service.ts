import type { z } from "@hono/zod-openapi";
// Types only: this module is the tool table, imported at start-up by the route's OpenAPI description and the connect
// catalog; the MCP SDK itself (server, transport, validator) is loaded by ./server on the first POST /mcp.
import type { CallToolResult, ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { Scope } from "../platform/auth/scopes";
import { fromBase64, hex } from "../platform/bytes";
import type { ErrorCode } from "../platform/errors";
import {
  GetCapabilitiesInput,
  GetJobInput,
  GetVerificationInput,
  ListAssetsInput,
  ListRecipesInput,
  SignAssetInput,
  UploadFileInput,
  VerifyMediaInput,
} from "./schemas";

/** One call of a REST operation of this service, made by an MCP tool. */
export interface RestCall {
  method: "GET" | "POST" | "PUT";
  /** The operation's path with its parameters filled in (each already checked by the tool's input schema). */
  path: string;
  query?: Record<string, string | number | undefined>;
  json?: unknown;
  form?: FormData;
  /** Writes only: the Idempotency-Key to send. */
  idempotencyKey?: string;
}

/**
 * A request to a storage capability URL the API returned (an upload's PUT): sent with exactly its headers and never
 * the caller's key; only a URL of this service is followed.
 */
export interface CapabilityCall {
  url: string;
  method: string;
  headers: Record<string, string>;
  bytes: Uint8Array;
}

/** What the REST operation answered: its HTTP status, its JSON body (null when it had none), its Retry-After in seconds. */
export interface RestAnswer {
  status: number;
  body: unknown;
  retryAfterSeconds?: number;
}

/**
 * How tools reach the service: each call is the REST operation itself, made with the MCP caller's own credential.
 * Invariant: a tool never reads or writes data except through `call`, so authentication, scopes, tenant isolation,
 * validation, rate limits and error codes are exactly the REST API's; `refusal` builds the contract's error
 * envelope for what the MCP layer itself refuses before any call (malformed tool input).
 */
export interface ToolContext {
  call(request: RestCall): Promise<RestAnswer>;
  callCapability(request: CapabilityCall): Promise<RestAnswer>;
  refusal(code: ErrorCode, message: string): Record<string, unknown>;
}

/** One MCP tool: its contract for agents and the REST operation(s) behind it. */
export interface McpTool<Shape extends z.ZodRawShape = z.ZodRawShape> {
  name: string;
  title: string;
  description: string;
  /** The scope of the REST operation the tool calls (the REST API enforces it; stated here for agents and docs). */
  scope: Scope;
  annotations: ToolAnnotations;
  input: Shape;
  run(input: z.infer<z.ZodObject<Shape>>, ctx: ToolContext): Promise<CallToolResult>;
  /** The REST operation(s) the tool calls, `METHOD /path`, for the docs and the connect catalog. */
  operations: readonly string[];
}

const READ_ONLY: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/** The tool's answer: the REST body as structured content, and as text (a summary line, then the JSON) for agents that only read text. */
export function toolResult(answer: RestAnswer, summary?: (body: Record<string, unknown>) => string): CallToolResult {
  const body = isRecord(answer.body) ? answer.body : { value: answer.body };
  if (answer.status >= 200 && answer.status < 300) {
    const head = summary ? `${summary(body)}\n` : "";
    return { content: [{ type: "text", text: `${head}${JSON.stringify(body)}` }], structuredContent: body };
  }
  return errorResult(answer.status, body, answer.retryAfterSeconds);
}

/**
 * A refused call: isError, with the contract's error body (`code`, `message`, `request_id`, … or `detail`), the HTTP
 * status and, when the operation sent Retry-After (429, 503), how long to wait: an agent sees no headers.
 */
function errorResult(status: number, body: Record<string, unknown>, retryAfterSeconds?: number): CallToolResult {
  const what = typeof body.code === "string" ? `${body.code}: ${String(body.message ?? "")}` : String(body.detail ?? "request refused");
  const wait = retryAfterSeconds === undefined ? {} : { retry_after_seconds: retryAfterSeconds };
  return {
    isError: true,
    content: [
      {
        type: "text",
        text: `HTTP ${status} ${what}${retryAfterSeconds === undefined ? "" : ` (retry after ${retryAfterSeconds} s)`}\n${JSON.stringify(body)}`,
      },
    ],
    structuredContent: { http_status: status, ...wait, ...body },
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const pathId = (id: string) => encodeURIComponent(id);

const verifyMedia: McpTool<typeof VerifyMediaInput> = {
  name: "verify_media",
  title: "Verify media provenance",
  description:
    "Checks a file's provenance (C2PA manifest and signature, signer and timestamp trust, revocation, our watermark, fingerprint lookup, transparency log) and answers one status of a closed vocabulary with a confidence and plain-language explanations (`user_explanation`, `proves`, `does_not_prove`). " +
    "Give exactly one of: `file_base64` (the bytes, up to 3 MiB; larger files: upload them and pass `object_id`), `asset_id` (your published asset), `object_id` (an uploaded object; asynchronous: poll get_verification), or `manifest_uri`. " +
    "The result is stored as a verification record (`verification_id`). Needs the `verify:write` scope.",
  scope: "verify:write",
  // It stores a verification record (not read-only) but changes nothing that exists; a repeat makes another record.
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  input: VerifyMediaInput,
  operations: ["POST /v1/verify", "POST /v1/verifications"],
  async run(input, ctx) {
    const given = (["file_base64", "asset_id", "object_id", "manifest_uri"] as const).filter((k) => input[k] !== undefined);
    if (given.length !== 1) {
      return errorResult(
        given.length === 0 ? 400 : 422,
        ctx.refusal(
          given.length === 0 ? "svc.verify.no_input" : "svc.request.invalid",
          `Give exactly one of file_base64, asset_id, object_id or manifest_uri${given.length ? ` (got ${given.join(", ")})` : ""}.`,
        ),
      );
    }
    const summary = (b: Record<string, unknown>) =>
      b.status !== undefined && b.status_vocabulary_version !== undefined
        ? `status ${String(b.status)} (confidence ${b.confidence ?? "n/a"}): ${String(b.user_explanation ?? "")}`
        : `verification ${String(b.verification_id)} is ${String(b.state)}; read it with get_verification.`;
    if (input.object_id) {
      return toolResult(
        await ctx.call({
          method: "POST",
          path: "/v1/verifications",
          json: { object_id: input.object_id },
          idempotencyKey: crypto.randomUUID(),
        }),
        summary,
      );
    }
    if (input.file_base64 !== undefined) {
      const bytes = fromBase64(input.file_base64);
      // Its length is bounded by the input schema (MCP_INLINE_FILE_MAXIMUM_BYTES decoded).
      if (!bytes || bytes.length === 0)
        return errorResult(
          422,
          ctx.refusal("svc.request.invalid", "file_base64 is not canonical, padded, standard base64 of a non-empty file."),
        );
      const form = new FormData();
      form.append("file", new File([bytes], displayName(input.file_name), { type: "application/octet-stream" }));
      return toolResult(await ctx.call({ method: "POST", path: "/v1/verify", form }), summary);
    }
    const json = input.asset_id ? { asset_id: input.asset_id } : { manifest_uri: input.manifest_uri };
    return toolResult(await ctx.call({ method: "POST", path: "/v1/verify", json }), summary);
  },
};

const uploadFile: McpTool<typeof UploadFileInput> = {
  name: "upload_file",
  title: "Upload a file",
  description:
    "Uploads a file (up to 3 MiB, base64) as a new asset, ready for sign_asset: creates the upload, sends the bytes to its storage URL and completes it, checking size and SHA-256. Answers the completed upload with `asset_id` and `asset_object_id` (verify_media takes the latter as `object_id`). Needs `uploads:write`.",
  scope: "uploads:write",
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  input: UploadFileInput,
  operations: ["POST /v1/uploads", "PUT /storage/uploads/{upload_id}", "POST /v1/uploads/{upload_id}/complete"],
  async run(input, ctx) {
    const bytes = fromBase64(input.file_base64);
    if (!bytes || bytes.length === 0)
      return errorResult(
        422,
        ctx.refusal("svc.request.invalid", "file_base64 is not canonical, padded, standard base64 of a non-empty file."),
      );
    const sha256 = hex(await crypto.subtle.digest("SHA-256", bytes));
    const created = await ctx.call({
      method: "POST",
      path: "/v1/uploads",
      json: {
        byte_length: bytes.length,
        declared_media_type: input.media_type,
        mode: "single",
        sha256,
        filename: input.file_name === undefined ? null : displayName(input.file_name),
      },
    });
    if (created.status !== 201 || !isRecord(created.body)) return toolResult(created);
    const upload = created.body.upload as { url: string; method: string; headers: Record<string, string> };
    const put = await ctx.callCapability({ url: upload.url, method: upload.method, headers: upload.headers, bytes });
    if (put.status < 200 || put.status >= 300) return toolResult(put);
    const uploadId = String(created.body.upload_id);
    const completed = await ctx.call({
      method: "POST",
      path: `/v1/uploads/${pathId(uploadId)}/complete`,
      json: {},
      idempotencyKey: crypto.randomUUID(),
    });
    return toolResult(
      completed,
      (b) => `uploaded: asset ${String(b.asset_id)} (object ${String(b.asset_object_id)}); sign it with sign_asset`,
    );
  },
};

const getVerification: McpTool<typeof GetVerificationInput> = {
  name: "get_verification",
  title: "Read a verification",
  description:
    "Reads a stored verification record: its state (`queued`, `running`, `completed`, `failed`) and, once completed, the full result (status, confidence, explanations). Poll it after verify_media with object_id (first after 1 s, doubling to 30 s). Needs `recovery:read`.",
  scope: "recovery:read",
  annotations: READ_ONLY,
  input: GetVerificationInput,
  operations: ["GET /v1/verifications/{verification_id}"],
  async run(input, ctx) {
    return toolResult(await ctx.call({ method: "GET", path: `/v1/verifications/${pathId(input.verification_id)}` }), (b) => {
      const result = isRecord(b.result) ? b.result : null;
      return `verification ${String(b.verification_id)}: ${String(b.state)}${result ? `, status ${String(result.status)}` : ""}`;
    });
  },
};

/** The one-line text of a job answer (sign_asset and get_job answer the same JobResponse). */
const jobSummary = (b: Record<string, unknown>) => `job ${String(b.job_id)} is ${String(b.state)}`;

const signAsset: McpTool<typeof SignAssetInput> = {
  name: "sign_asset",
  title: "Sign an asset",
  description:
    "Starts a signing job on an uploaded asset with a recipe (Content Credentials, optionally watermark and fingerprints). Usually answers 202 with a queued job: poll get_job until a terminal state; `express` mode may answer the completed job at once. " +
    "A write that may be billed: pass the same `idempotency_key` when retrying so it runs once. Needs `sign:write`.",
  scope: "sign:write",
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  input: SignAssetInput,
  operations: ["POST /v1/sign"],
  async run(input, ctx) {
    const { idempotency_key, ...body } = input;
    return toolResult(
      await ctx.call({ method: "POST", path: "/v1/sign", json: body, idempotencyKey: idempotency_key ?? crypto.randomUUID() }),
      jobSummary,
    );
  },
};

const getJob: McpTool<typeof GetJobInput> = {
  name: "get_job",
  title: "Read a job",
  description:
    "Reads a signing job: state (terminal: `completed`, `canceled`, `expired`, `rejected`, `failed`), progress, steps and, when completed, its result (receipt, publication and verification ids). Poll from 1 s doubling to 30 s. Needs `jobs:read`.",
  scope: "jobs:read",
  annotations: READ_ONLY,
  input: GetJobInput,
  operations: ["GET /v1/jobs/{job_id}"],
  async run(input, ctx) {
    return toolResult(await ctx.call({ method: "GET", path: `/v1/jobs/${pathId(input.job_id)}` }), jobSummary);
  },
};

const listAssets: McpTool<typeof ListAssetsInput> = {
  name: "list_assets",
  title: "List assets",
  description:
    "Lists your assets, newest first, one page at a time (filter by media `kind` or `status`; pass `next_cursor` back as `cursor` for the next page). Needs `assets:read`.",
  scope: "assets:read",
  annotations: READ_ONLY,
  input: ListAssetsInput,
  operations: ["GET /v1/assets"],
  async run(input, ctx) {
    return toolResult(await ctx.call({ method: "GET", path: "/v1/assets", query: input }), (b) => {
      const n = Array.isArray(b.items) ? b.items.length : 0;
      return `${n} of ${String(b.total_count)} asset(s)${b.next_cursor ? "; more: pass next_cursor as cursor" : ""}`;
    });
  },
};

const listRecipes: McpTool<typeof ListRecipesInput> = {
  name: "list_recipes",
  title: "List signing recipes",
  description: "Lists the recipes sign_asset accepts (`recipe_id`), with what each does and the media it applies to. Needs `jobs:read`.",
  scope: "jobs:read",
  annotations: READ_ONLY,
  input: ListRecipesInput,
  operations: ["GET /v1/recipes"],
  async run(_input, ctx) {
    return toolResult(await ctx.call({ method: "GET", path: "/v1/recipes" }));
  },
};

const getCapabilities: McpTool<typeof GetCapabilitiesInput> = {
  name: "get_capabilities",
  title: "Read capabilities",
  description:
    "What this deployment can do: formats, watermark and fingerprint algorithms with their availability, limits. Read it first; only submit formats whose availability is true. Needs `capabilities:read`.",
  scope: "capabilities:read",
  annotations: READ_ONLY,
  input: GetCapabilitiesInput,
  operations: ["GET /v1/capabilities"],
  async run(_input, ctx) {
    return toolResult(await ctx.call({ method: "GET", path: "/v1/capabilities" }));
  },
};

/** Every tool the MCP server offers, in the order tools/list answers them. */
export const MCP_TOOLS = [getCapabilities, verifyMedia, getVerification, listRecipes, uploadFile, signAsset, getJob, listAssets] as const;

/**
 * A file name an agent gave, as it may travel in a multipart header or a stored display name: controls dropped,
 * quotes and backslashes replaced (the name is informational; it must never make the call fail).
 */
export function displayName(name: string | undefined): string {
  const clean = (name ?? "")
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, "")
    .replace(/["\\]/g, "_")
    .trim();
  return clean === "" ? "file" : clean;
}
