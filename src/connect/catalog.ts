import { MCP_PATH } from "../mcp/schemas";
import { MCP_TOOLS } from "../mcp/service";

/**
 * The configuration an MCP client needs, in the `mcpServers` JSON most clients read (Claude Code's `.mcp.json`,
 * Cursor, Windsurf…): the served endpoint and the Authorization header, with the key left as a placeholder.
 */
export function mcpClientConfig(origin: string) {
  return { mcpServers: { svc: { type: "http", url: `${origin}${MCP_PATH}`, headers: { Authorization: "Bearer <SVC_API_KEY>" } } } };
}

/** The integration facts of the connect catalog. Pure data plus the origin; no HTTP here. */
export function connectCatalog(origin: string) {
  const g = (id: string, title: string, text: string) => ({ id, title, text });
  const mcpUrl = `${origin}${MCP_PATH}`;
  return {
    version: "svc.connect-catalog.v1" as const,
    public_api_origin: origin,
    documentation_url: `${origin}/docs`,
    api_reference_url: `${origin}/openapi.json`,
    authorization_header: "Authorization: Bearer <SVC_API_KEY>",
    processing_modes: [
      g(
        "standard",
        "Standard (asynchronous)",
        "POST /v1/sign answers 202 with a job; poll GET /v1/jobs/{job_id} (first after 1 s, doubling to 30 s, with jitter) or subscribe to webhooks.",
      ),
      g(
        "express",
        "Express",
        "For the express watermark-then-sign recipes on JPEG, PNG, WebP, TIFF and AVIF, the job runs in the request and answers 200 with the download when it finishes in time, else 202.",
      ),
    ],
    clients: [
      g("curl", "curl", `curl -H "Authorization: Bearer $SVC_API_KEY" ${origin}/v1/capabilities`),
      g(
        "fetch",
        "JavaScript fetch",
        `await fetch("${origin}/v1/capabilities", { headers: { Authorization: \`Bearer \${process.env.SVC_API_KEY}\` } })`,
      ),
    ],
    templates: [
      g(
        "idempotent-write",
        "Idempotent write",
        "Send Idempotency-Key: <fresh UUID> on every write; reuse it when retrying the same operation.",
      ),
    ],
    canonical_calls: [
      g("capabilities", "1. Read capabilities", "GET /v1/capabilities"),
      g(
        "upload",
        "2. Create an upload",
        "POST /v1/uploads, then PUT the bytes to upload.url with exactly upload.headers, then POST /v1/uploads/{upload_id}/complete",
      ),
      g("sign", "3. Sign", "POST /v1/sign with asset_id and recipe_id"),
      g("poll", "4. Poll the job", "GET /v1/jobs/{job_id} until a terminal state"),
      g("download", "5. Download", "POST /v1/assets/{asset_id}/download, then GET url with exactly headers"),
      g("verify", "6. Verify", "POST /v1/verify with the file"),
    ],
    common_errors: [
      g("401", "401", "The key is missing, malformed, revoked or expired: fix the key. The body never says which."),
      g("403", "403", "The key lacks the operation's scope, or the network is not allowed."),
      g("409", "409", "Conflicting state, or an Idempotency-Key reused for a different request."),
      g("422", "422", "The request does not match the contract; field_details names the fields."),
      g("429", "429", "Rate limited: wait Retry-After seconds and retry with the same Idempotency-Key."),
    ],
    environment_variables: [
      g("SVC_API_BASE_URL", "SVC_API_BASE_URL", `Base URL of the API (${origin}).`),
      g("SVC_API_KEY", "SVC_API_KEY", "A server-side API key (svc_live_...)."),
    ],
    safety_statements: [
      g(
        "server-only-key",
        "Keys are server-side secrets",
        "Never embed an API key in a browser, app or repository; it is shown once at creation.",
      ),
      g(
        "no-key-to-storage",
        "Capabilities carry their own authority",
        "Upload and download URLs take exactly the headers returned with them; never send the API key to them.",
      ),
      g("log-request-id", "Log request ids, not keys", "Log the request_id of errors; never log the key."),
    ],
    connection_modes: [
      g("https", "HTTPS REST", "JSON over HTTPS; uploads and downloads go directly to object storage through short-lived capabilities."),
      g(
        "mcp",
        "MCP (Streamable HTTP)",
        `POST ${mcpUrl} with an API key: a stateless Model Context Protocol server for AI agents (JSON answers; GET and DELETE answer 405).`,
      ),
    ],
    // One action per MCP tool, each the REST operation it calls with the caller's key (so under that operation's scope).
    ai_actions: MCP_TOOLS.map((tool) =>
      g(
        tool.name,
        tool.title,
        `${tool.annotations.readOnlyHint ? "Read-only" : "Write"}; scope ${tool.scope}; ${tool.operations.join(" or ")}. MCP tool \`${tool.name}\`.`,
      ),
    ),
    ai_prompt:
      "You can call the svc API at SVC_API_BASE_URL with the header 'Authorization: Bearer $SVC_API_KEY', or use its MCP server at SVC_API_BASE_URL/mcp with the same header. Read GET /v1/capabilities (MCP: get_capabilities) first and only submit formats whose availability.available is true. Send a fresh Idempotency-Key on every write. Never print or store the API key.",
    mcp_clients: [
      g("json-config", "MCP client configuration (mcpServers JSON)", JSON.stringify(mcpClientConfig(origin), null, 2)),
      g("claude-code", "Claude Code", `claude mcp add --transport http svc ${mcpUrl} --header "Authorization: Bearer $SVC_API_KEY"`),
      g(
        "typescript-sdk",
        "TypeScript (@modelcontextprotocol/sdk)",
        `const client = new Client({ name: "my-agent", version: "1.0.0" });\nawait client.connect(new StreamableHTTPClientTransport(new URL("${mcpUrl}"), { requestInit: { headers: { Authorization: \`Bearer \${process.env.SVC_API_KEY}\` } } }));\nconst { tools } = await client.listTools();`,
      ),
    ],
    mcp_feature_groups: [
      g("tools", "Tools", MCP_TOOLS.map((tool) => `${tool.name} (${tool.scope})`).join(", ")),
      g(
        "auth",
        "Authentication",
        "The API key of the REST API (Authorization: Bearer). Any valid key may connect; each tool call is the REST operation with that key, so its scope, tenant isolation and rate limit apply. A refused call is a tool result with isError and the contract's error body.",
      ),
      g(
        "transport",
        "Transport",
        "Streamable HTTP, stateless: no Mcp-Session-Id, JSON answers, no server-to-client stream; bodies up to 4 MiB (inline files for verify_media up to 3 MiB, larger ones by upload and object_id).",
      ),
    ],
    limits: [
      g("public-verify", "Public verify", "10 requests per minute per IP without a credential."),
      g("batch", "Batch sign", "1 to 100 items per POST /v1/sign/batch."),
      g("pages", "Page sizes", "History lists 1 to 100 (default 25); webhook lists 1 to 100 (default 50)."),
    ],
    cost_guidance: [
      g(
        "pricing",
        "Read prices from the API",
        "Prices and quotas are not inferable from request counts; read GET /v1/billing/pricing and GET /v1/usage.",
      ),
    ],
  };
}
