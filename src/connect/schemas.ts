import { z } from "@hono/zod-openapi";

const Guidance = z
  .object({
    id: z.string().openapi({ description: "Stable id of the entry.", example: "curl" }),
    title: z.string().openapi({ description: "Short title.", example: "curl" }),
    text: z.string().openapi({
      description: "The guidance itself.",
      example: 'curl -H "Authorization: Bearer $SVC_API_KEY" $SVC_API_BASE_URL/v1/capabilities',
    }),
  })
  .openapi("ConnectGuidance");

export const ConnectCatalogResponseSchema = z
  .object({
    version: z.literal("svc.connect-catalog.v1").openapi({ description: "Catalog version." }),
    public_api_origin: z.string().url().openapi({ description: "Origin of this API.", example: "http://127.0.0.1:8787" }),
    documentation_url: z.string().url().openapi({ description: "Human-readable API reference.", example: "http://127.0.0.1:8787/docs" }),
    api_reference_url: z.string().url().openapi({ description: "OpenAPI 3.1 document.", example: "http://127.0.0.1:8787/openapi.json" }),
    authorization_header: z.string().openapi({ description: "How to authenticate.", example: "Authorization: Bearer <SVC_API_KEY>" }),
    processing_modes: z.array(Guidance).openapi({ description: "Synchronous and asynchronous processing." }),
    clients: z.array(Guidance).openapi({ description: "Ways to call the API." }),
    templates: z.array(Guidance).openapi({ description: "Request templates." }),
    canonical_calls: z.array(Guidance).openapi({ description: "The calls of the typical flow, in order." }),
    common_errors: z.array(Guidance).openapi({ description: "Errors newcomers meet and what to do." }),
    environment_variables: z.array(Guidance).openapi({ description: "Variables examples read." }),
    safety_statements: z.array(Guidance).openapi({ description: "Rules for handling keys and capabilities." }),
    connection_modes: z.array(Guidance).openapi({ description: "How clients connect." }),
    ai_actions: z
      .array(Guidance)
      .openapi({ description: "Actions an AI assistant may take with this API: one per MCP tool, with its scope and REST operation." }),
    ai_prompt: z.string().openapi({ description: "A prompt that tells an assistant how to use this API safely." }),
    mcp_clients: z.array(Guidance).openapi({
      description:
        "How to connect an MCP client to this API's MCP server (POST /mcp): `json-config` is the `mcpServers` JSON most clients read, with the key as the placeholder `<SVC_API_KEY>`.",
    }),
    mcp_feature_groups: z
      .array(Guidance)
      .openapi({ description: "What the MCP server offers: its tools (with scopes), authentication, transport." }),
    limits: z.array(Guidance).openapi({ description: "Limits that shape integrations." }),
    cost_guidance: z.array(Guidance).openapi({ description: "How to reason about cost." }),
  })
  .openapi("ConnectCatalogResponse");
