// The MCP SDK's part of the endpoint: its server and transport. Only routes/post-mcp.ts loads this module, with
// import() on the first POST /mcp, so the Worker's start-up (every isolate, every route) does not evaluate the SDK.
// It imports nothing of ours at run time (tools, validator and limits come as arguments): the bundler wraps everything
// a dynamic import reaches for lazy evaluation, and our modules must stay plain start-up code.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";
import type { McpTool, ToolContext } from "./service";

export const MCP_SERVER_INFO = { name: "svc", version: "1.0.0" } as const;

/**
 * One MCP server for one HTTP request (the endpoint is stateless: nothing of a session outlives the request).
 * Every tool is listed whatever the key's scopes: the REST call is the one scope check, and a refused call answers
 * the contract's 403 as a tool error; the description of each tool names its scope.
 */
export function createMcpServer(tools: readonly McpTool[], ctx: ToolContext, validator: jsonSchemaValidator): McpServer {
  const server = new McpServer(MCP_SERVER_INFO, {
    capabilities: { tools: { listChanged: false } },
    // Not the SDK's default (Ajv compiles code at run time, which workerd forbids): the route's interpreting one.
    jsonSchemaValidator: validator,
    instructions:
      "Provenance signing and verification (C2PA). Call get_capabilities first. To check a file, call verify_media; to sign one, upload_file (or upload through the REST API), then sign_asset and poll get_job.",
  });
  for (const tool of tools) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.input,
        annotations: tool.annotations,
        _meta: { "svc/scope": tool.scope },
      },
      (input: Record<string, unknown>) => tool.run(input as never, ctx),
    );
  }
  return server;
}

/**
 * Answers one MCP request (a body already read and checked by the route) with a server and transport made for it
 * and closed after it: stateless, so any isolate can answer any request and nothing is kept.
 */
export async function serveMcp(
  request: Request,
  parsedBody: unknown,
  options: { tools: readonly McpTool[]; ctx: ToolContext; validator: jsonSchemaValidator; maxRequestBodySize: number },
): Promise<Response> {
  const server = createMcpServer(options.tools, options.ctx, options.validator);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    maxRequestBodySize: options.maxRequestBodySize,
  });
  await server.connect(transport);
  try {
    // The transport takes the body as parsed (unknown keys kept).
    return await transport.handleRequest(request, { parsedBody });
  } finally {
    await server.close();
  }
}
