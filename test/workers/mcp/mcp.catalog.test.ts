import { describe, expect, it } from "vitest";
import { api, BASE, createTenant, json } from "../support/helpers";
import { connectClient } from "./mcp-client";

interface Guidance {
  id: string;
  title: string;
  text: string;
}

describe("the connect catalog's MCP section (#21)", () => {
  it("its configuration snippet names the served endpoint, and a client configured from it connects and lists the tools", async () => {
    const catalog = await json(await api("/v1/connect-catalog"));
    const snippet = (catalog.mcp_clients as Guidance[]).find((c) => c.id === "json-config");
    expect(snippet).toBeDefined();
    const config = JSON.parse(snippet!.text) as {
      mcpServers: Record<string, { type: string; url: string; headers: Record<string, string> }>;
    };
    const server = config.mcpServers.svc!;
    expect(server.type).toBe("http");
    expect(server.url).toBe(`${catalog.public_api_origin}/mcp`);
    expect(server.url).toBe(`${BASE}/mcp`);
    expect(server.headers).toEqual({ Authorization: "Bearer <SVC_API_KEY>" });

    // Configure a client exactly as the snippet says, with a real key in place of the placeholder.
    const { key } = await createTenant();
    const headers = Object.fromEntries(Object.entries(server.headers).map(([name, value]) => [name, value.replace("<SVC_API_KEY>", key)]));
    const client = await connectClient(headers, server.url);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain("verify_media");
    await client.close();

    // The other snippets and the feature groups point at the same endpoint and name every tool with its scope.
    for (const entry of catalog.mcp_clients as Guidance[]) expect(entry.text, entry.id).toContain(server.url);
    const toolsGroup = (catalog.mcp_feature_groups as Guidance[]).find((g) => g.id === "tools")!;
    for (const tool of tools) expect(toolsGroup.text).toContain(tool.name);
    expect((catalog.ai_actions as Guidance[]).map((a) => a.id)).toEqual(tools.map((t) => t.name));
    expect((catalog.connection_modes as Guidance[]).map((m) => m.id)).toEqual(["https", "mcp"]);
  });
});
