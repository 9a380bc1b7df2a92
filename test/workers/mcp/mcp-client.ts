import { exports } from "cloudflare:workers";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
import { BASE } from "../support/helpers";

/** The Worker's own fetch handler, as the MCP client's fetch (the client speaks HTTP to it as to any server). */
export const workerFetch = (url: string | URL, init?: RequestInit) =>
  (exports as unknown as { default: Fetcher }).default.fetch(new Request(url, init)) as unknown as Promise<Response>;

/** The MCP SDK's own client, connected to POST /mcp with `headers` (the API key) over Streamable HTTP. */
export async function connectClient(headers: Record<string, string>, url = `${BASE}/mcp`): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers }, fetch: workerFetch });
  // Ajv (the SDK's default) compiles code at run time, which workerd forbids; the client runs here in workerd too.
  const client = new Client({ name: "svc-test", version: "1.0.0" }, { jsonSchemaValidator: new CfWorkerJsonSchemaValidator() });
  await client.connect(transport);
  return client;
}

/** tools/call, typed as the tool result it is. */
export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** The structured content of a tool result, as a loose record for assertions. */
export function structured(result: CallToolResult): Record<string, any> {
  return (result.structuredContent ?? {}) as Record<string, any>;
}

/** Bytes as padded standard base64. */
export function base64Of(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
