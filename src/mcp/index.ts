import { createRouter } from "../platform/context";
import { type Dispatch, register as registerPostMcp } from "./routes/post-mcp";
import { register as registerRejectOtherMethods } from "./routes/reject-other-methods";

export type { Dispatch } from "./routes/post-mcp";

/** The MCP endpoint; `dispatch` is the whole application's fetch, through which every tool makes its REST call. */
export function mcpRoutes(dispatch: Dispatch) {
  const app = createRouter();
  registerPostMcp(app, dispatch);
  registerRejectOtherMethods(app);
  return app;
}
