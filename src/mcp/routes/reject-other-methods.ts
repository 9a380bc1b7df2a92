import type { Router } from "../../app-types";
import { MCP_PATH } from "../schemas";

/**
 * GET (a server-to-client SSE stream) and DELETE (ending a session) answer 405, as the Streamable HTTP transport
 * allows a server without sessions to: every POST stands alone, so there is no stream to resume and no session to
 * end, and a Worker holding a stream open per client would only cost an isolate's time. Registered for every method
 * after POST /mcp, so it answers only the others (OPTIONS too: no CORS preflight ever succeeds).
 */
export function register(app: Router) {
  app.all(MCP_PATH, (c) =>
    c.json(
      { jsonrpc: "2.0", error: { code: -32000, message: "Method not allowed: this MCP server is stateless; use POST." }, id: null },
      405,
      {
        Allow: "POST",
      },
    ),
  );
}
