import { createRoute } from "@hono/zod-openapi";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { Router } from "../../app-types";
import { configOf } from "../../platform/config";
import { type AppContext, type AppEnv, publicOrigin } from "../../platform/context";
import { ApiError, errorBody, HttpErrorResponseSchema, HttpProblem, UNAUTHORIZED_DETAIL } from "../../platform/errors";
import { errorResponse, json } from "../../platform/openapi";
import { MCP_PATH, MCP_REQUEST_MAXIMUM_BYTES, McpRequestSchema, McpResponseSchema } from "../schemas";
import { type CapabilityCall, MCP_TOOLS, type McpTool, type RestAnswer, type RestCall, type ToolContext } from "../service";

/**
 * How the MCP server checks tool inputs: made at start-up on purpose, unlike the rest of the MCP SDK (../server).
 * @cfworker/json-schema derives its base URI from `self.location` when it is evaluated, and the Emscripten media
 * decoders set `self.location = { href: "" }` the first time they run; evaluated after a decode (the first MCP request
 * of an isolate that signed an image), it threw "Invalid URL string". Small and stateless (no code generation: the
 * SDK's default, Ajv, compiles code at run time, which workerd forbids).
 */
const validator = new CfWorkerJsonSchemaValidator();

/** How the endpoint reaches the service's own REST operations: the whole application's fetch (wired by app.ts). */
export type Dispatch = (request: Request, env: Env, ctx: AppContext["executionCtx"]) => Response | Promise<Response>;

const route = createRoute({
  method: "post",
  path: MCP_PATH,
  operationId: "mcp",
  tags: ["MCP"],
  summary: "MCP server (Streamable HTTP)",
  description:
    "The Model Context Protocol endpoint for AI agents: JSON-RPC 2.0 over Streamable HTTP, stateless (no `Mcp-Session-Id`; every POST stands alone; GET and DELETE answer 405). " +
    "Send `Accept: application/json, text/event-stream` and `Content-Type: application/json`; answers are JSON. " +
    "Requires an API key (`Authorization: Bearer <key>`); without one the answer is 401 as for every keyed operation. Any valid key may connect and list the tools; " +
    "each tool calls one REST operation with the same key, so that operation's scope, tenant isolation, validation and rate limit apply (a refused call is a tool result with `isError` carrying the contract's error body). " +
    `Tools: ${MCP_TOOLS.map((t) => `\`${t.name}\` (${t.scope})`).join(", ")}. ` +
    `Requests from a browser page (an \`Origin\` header) are refused (403) unless it is the configured public origin (\`SVC_PUBLIC_BASE_URL\`; never the request's own Host, which a DNS-rebinding page chooses); bodies are limited to ${MCP_REQUEST_MAXIMUM_BYTES} bytes. ` +
    "Each tool call spends one request of the key's rate limit for the POST /mcp and one for the operation it makes.",
  request: {
    body: {
      content: { "application/json": { schema: McpRequestSchema } },
      required: true,
    },
  },
  responses: {
    200: json(McpResponseSchema, "The JSON-RPC response (`tools/list`, `tools/call`, `initialize`, `ping`)."),
    202: { description: "A notification (e.g. `notifications/initialized`) was accepted; no body." },
    401: json(HttpErrorResponseSchema, "No credential (the same body as every keyed operation)."),
    403: errorResponse(
      "An `Origin` other than the configured public origin (`svc.mcp.origin_refused`; the body also carries the JSON-RPC error `-32000`).",
    ),
    406: errorResponse(
      "The `Accept` header does not list both `application/json` and `text/event-stream` (`svc.mcp.not_acceptable`; the body also carries the JSON-RPC error fields).",
    ),
    413: errorResponse(`The body is larger than ${MCP_REQUEST_MAXIMUM_BYTES} bytes (\`svc.request.too_large\`).`),
  },
});

/**
 * Before the body is read: a credential is required (the `delegated` policy already refuses an absent one; checked
 * again here so the route never runs anonymous), a browser page of any other origin is refused (DNS-rebinding and
 * cross-site defence; no CORS headers are ever sent), and the body is bounded.
 */
const guard: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.req.method !== "POST") return next();
  if (c.get("principal").kind === "anonymous") throw new HttpProblem(401, UNAUTHORIZED_DETAIL);
  // Compared with the configured public origin only: the request's own Host is what a DNS-rebinding page chose, so
  // without SVC_PUBLIC_BASE_URL every page origin is refused (agents and servers send no Origin).
  const origin = c.req.header("origin");
  const configured = configOf(c.env).publicBaseUrl;
  if (origin !== undefined && (configured === undefined || origin !== new URL(configured).origin)) {
    const message = "Forbidden: this Origin may not use the MCP endpoint.";
    return c.json({ ...envelope(c, "svc.mcp.origin_refused", message), jsonrpc: "2.0", error: { code: -32000, message }, id: null }, 403);
  }
  return next();
};

const limit = bodyLimit({
  maxSize: MCP_REQUEST_MAXIMUM_BYTES,
  onError: () => {
    throw new ApiError("svc.request.too_large", `MCP requests are limited to ${MCP_REQUEST_MAXIMUM_BYTES} bytes.`);
  },
});

/** The headers a tool's REST call carries: the caller's credential and network address, nothing else of theirs. */
function forwardedHeaders(c: AppContext): Headers {
  const headers = new Headers({ accept: "application/json" });
  for (const name of ["authorization", "cf-connecting-ip"]) {
    const value = c.req.header(name);
    if (value !== undefined) headers.set(name, value);
  }
  return headers;
}

/** Tools' REST calls go through the whole application (auth, policy, idempotency, audit, rate limits), in process. */
function toolContext(c: AppContext, dispatch: Dispatch): ToolContext {
  return {
    async call(request: RestCall): Promise<RestAnswer> {
      const url = new URL(request.path, c.req.url);
      for (const [name, value] of Object.entries(request.query ?? {})) if (value !== undefined) url.searchParams.set(name, String(value));
      const headers = forwardedHeaders(c);
      if (request.idempotencyKey) headers.set("idempotency-key", request.idempotencyKey);
      let body: BodyInit | undefined;
      if (request.form) body = request.form;
      else if (request.json !== undefined) {
        body = JSON.stringify(request.json);
        headers.set("content-type", "application/json");
      }
      const res = await dispatch(new Request(url, { method: request.method, headers, body }), c.env, c.executionCtx);
      const retryAfter = Number.parseInt(res.headers.get("retry-after") ?? "", 10);
      const answer = (body: unknown): RestAnswer =>
        Number.isFinite(retryAfter) && retryAfter >= 0
          ? { status: res.status, body, retryAfterSeconds: retryAfter }
          : { status: res.status, body };
      const text = await res.text();
      if (!text) return answer(null);
      try {
        return answer(JSON.parse(text) as unknown);
      } catch {
        return answer({ detail: `The operation answered ${res.headers.get("content-type") ?? "no content type"}, not JSON.` });
      }
    },
    async callCapability(request: CapabilityCall): Promise<RestAnswer> {
      const target = new URL(request.url);
      const init = { method: request.method, headers: request.headers, body: request.bytes as Uint8Array<ArrayBuffer> };
      // A Worker-served capability is this application's own route (a Worker cannot fetch itself); an R2 presigned
      // URL (production with S3 credentials) is fetched. Either was minted by POST /v1/uploads moments ago, never
      // named by the agent, and carries its own authority: the caller's key is never sent.
      const res =
        target.origin === publicOrigin(c)
          ? await dispatch(new Request(new URL(`${target.pathname}${target.search}`, c.req.url), init), c.env, c.executionCtx)
          : target.protocol === "https:"
            ? await fetch(target, init)
            : null;
      if (!res)
        return {
          status: 500,
          body: errorBody("svc.internal", "The storage URL is not usable.", { requestId: c.var.requestId, origin: publicOrigin(c) }),
        };
      const text = await res.text();
      let body: unknown = null;
      try {
        body = text ? JSON.parse(text) : null;
      } catch {
        body = { detail: `Storage answered ${res.status}.` };
      }
      return { status: res.status, body };
    },
    refusal: (code, message) => errorBody(code, message, { requestId: c.var.requestId, origin: publicOrigin(c) }),
  };
}

function envelope(c: AppContext, code: "svc.mcp.invalid_message" | "svc.mcp.not_acceptable" | "svc.mcp.origin_refused", message: string) {
  return errorBody(code, message, { requestId: c.var.requestId, origin: publicOrigin(c) });
}

/** The transport's own refusals (wrong Accept, a message it cannot take) answer JSON-RPC errors; every refusal of
 * this API also carries the contract's envelope, so both kinds of client read it. */
async function withEnvelope(c: AppContext, res: Response): Promise<Response> {
  const code = res.status === 406 ? "svc.mcp.not_acceptable" : res.status === 400 ? "svc.mcp.invalid_message" : null;
  if (!code) return res;
  let rpc: Record<string, unknown> = {};
  try {
    rpc = (await res.clone().json()) as Record<string, unknown>;
  } catch {
    // not JSON: the envelope alone
  }
  const message = ((rpc.error as { message?: unknown } | undefined)?.message as string | undefined) ?? "The MCP request was refused.";
  const headers = new Headers(res.headers);
  headers.set("content-type", "application/json");
  return new Response(JSON.stringify({ ...envelope(c, code, message), ...rpc }), { status: res.status, headers });
}

export function register(app: Router, dispatch: Dispatch) {
  app.use(MCP_PATH, guard, (c, next) => (c.req.method === "POST" ? limit(c, next) : next()));
  app.openapi(route, async (c) => {
    // The validator has read and checked the body. The MCP SDK is loaded here, on the first MCP request an isolate
    // serves, not at its start-up (../server); later requests find the module already evaluated.
    const parsedBody = await c.req.json();
    const { serveMcp } = await import("../server");
    const answer = await serveMcp(c.req.raw, parsedBody, {
      tools: MCP_TOOLS as readonly McpTool[],
      ctx: toolContext(c, dispatch),
      validator,
      maxRequestBodySize: MCP_REQUEST_MAXIMUM_BYTES,
    });
    return (await withEnvelope(c, answer)) as never;
  });
}
