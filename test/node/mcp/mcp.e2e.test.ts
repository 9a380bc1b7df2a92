/**
 * #21 must-show, on the real Worker bundle (wrangler's build, in Miniflare's workerd): the MCP SDK's own client,
 * configured from the connect catalog's snippet, connects over Streamable HTTP, lists the tools and calls
 * verify_media on a JPEG this service signed, getting its verification status. The bundle is what production runs,
 * so this also proves the SDK's server runs in workerd as bundled (no run-time code generation reached).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { download, fixtureBytes, type SignedService, signAndWait, startSignedService, uploadAsset } from "../../support/svc-client";

let svc: SignedService;

beforeAll(async () => {
  svc = await startSignedService();
}, 120_000);

afterAll(async () => {
  await svc?.dispose();
});

/** Requests of the MCP client go over HTTP to the Worker (Miniflare's entry socket), headers as plain pairs. */
const workerFetch = (url: string | URL, init?: RequestInit) =>
  svc.worker.mf.dispatchFetch(String(url), {
    method: init?.method,
    headers: Object.fromEntries(new Headers(init?.headers).entries()),
    body: init?.body,
  } as never) as unknown as Promise<Response>;

describe("MCP over HTTP on the Worker bundle", () => {
  it("a client configured from the catalog lists the tools and verify_media answers a signed JPEG's status", async () => {
    const { assetId } = await uploadAsset(svc, fixtureBytes("sample.jpg"), "image/jpeg", "photo.jpg");
    const job = await signAndWait(svc, assetId, "rcp_system_sign_only");
    expect(job.state, JSON.stringify(job)).toBe("completed");
    const signed = (await download(svc, assetId)).bytes;

    const catalog = (await svc.call("GET", "/v1/connect-catalog")).body;
    const snippet = catalog.mcp_clients.find((c: { id: string }) => c.id === "json-config");
    const server = JSON.parse(snippet.text).mcpServers.svc as { url: string; headers: Record<string, string> };
    expect(server.url).toBe("http://svc.local/mcp");
    const headers = Object.fromEntries(Object.entries(server.headers).map(([k, v]) => [k, v.replace("<SVC_API_KEY>", svc.key)]));

    const client = new Client({ name: "svc-e2e", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers }, fetch: workerFetch }));
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(["verify_media", "get_verification", "sign_asset", "get_job", "list_assets", "get_capabilities"]),
    );

    const result = (await client.callTool({
      name: "verify_media",
      arguments: { file_base64: Buffer.from(signed).toString("base64"), file_name: "photo.jpg" },
    })) as CallToolResult;
    expect(result.isError, JSON.stringify(result)).toBeFalsy();
    const body = result.structuredContent as Record<string, any>;
    expect(body).toMatchObject({ status: "verified_manifest", media_type: "image/jpeg" });
    expect(body.verification_id).toMatch(/^vfy_/);
    expect((result.content[0] as { text: string }).text).toMatch(/^status verified_manifest/);

    // The record it stored is the REST API's too.
    const stored = await svc.call("GET", `/v1/verifications/${body.verification_id}`);
    expect(stored.status).toBe(200);
    expect(stored.body.result.status).toBe("verified_manifest");
    await client.close();
  }, 120_000);
});
