import { afterEach, describe, expect, it, vi } from "vitest";

/*
 * #19: `npm start` runs wrangler dev without its local trace store (X_LOCAL_OBSERVABILITY), which costs every request
 * an SQLite write and an fsync on the Worker's thread; a developer who wants the traces sets the variable.
 */

const saved = process.env.X_LOCAL_OBSERVABILITY;
afterEach(() => {
  if (saved === undefined) delete process.env.X_LOCAL_OBSERVABILITY;
  else process.env.X_LOCAL_OBSERVABILITY = saved;
  vi.resetModules();
});

describe("npm start's wrangler environment (#19)", () => {
  it("turns wrangler dev's local trace store off unless the developer asks for it", async () => {
    delete process.env.X_LOCAL_OBSERVABILITY;
    vi.resetModules();
    expect((await import("../../../scripts/lib/dev.mjs")).QUIET_ENV.X_LOCAL_OBSERVABILITY).toBe("false");
    process.env.X_LOCAL_OBSERVABILITY = "true";
    vi.resetModules();
    expect((await import("../../../scripts/lib/dev.mjs")).QUIET_ENV.X_LOCAL_OBSERVABILITY).toBe("true");
  });
});
