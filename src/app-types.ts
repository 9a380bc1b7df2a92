import type { createRouter } from "./platform/context";

/** The router type every `register*(app)` takes. */
export type Router = ReturnType<typeof createRouter>;
