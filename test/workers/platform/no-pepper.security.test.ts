import { createExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../../../src/index";
import { createTenant, testEnv } from "../support/helpers";

describe("without a key pepper", () => {
  it("authenticated operations answer 503 svc.auth.unavailable (retryable), probes still work", async () => {
    const { key } = await createTenant();
    const env = { ...testEnv, SVC_KEY_PEPPER: undefined };
    const call = (path: string, headers: Record<string, string> = {}) =>
      worker.fetch(new Request(`http://svc.test${path}`, { headers }), env, createExecutionContext());
    const res = await call("/v1/capabilities", { authorization: `Bearer ${key}` });
    expect(res.status).toBe(503);
    const body = (await res.json()) as { code: string; retryable: boolean };
    expect(body.code).toBe("svc.auth.unavailable");
    expect(body.retryable).toBe(true);
    expect((await call("/healthz")).status).toBe(200);
    expect((await call("/readyz")).status).toBe(503);
  });
});
