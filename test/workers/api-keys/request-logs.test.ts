import { describe, expect, it } from "vitest";
import { api, createTenant, json } from "../support/helpers";

async function eventually<T>(read: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  for (let i = 0; i < 50; i++) {
    const v = await read();
    if (ok(v)) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
  return read();
}

describe("API request logs", () => {
  it("records each request of a key as metadata only, lists them newest first and summarises them", async () => {
    const t = await createTenant();
    const other = await createTenant();
    const me = await api("/v1/me", { key: t.key });
    const requestId = me.headers.get("x-request-id");
    await api("/v1/jobs/job_aaaaaaaaaaaaaaaa", { key: t.key }); // 404
    await api("/v1/api-keys", { method: "POST", key: t.key, body: { name: "secret-bearing", scopes: ["identity:read"] } });
    await api("/v1/me", { key: other.key });

    const page = await eventually(
      async () => json(await api(`/v1/api-request-logs?api_key_id=${t.keyId}`, { key: t.key })),
      (p) => p.items.length >= 3,
    );
    const ops = page.items.map((r: { method: string; operation: string; status: number }) => `${r.method} ${r.operation} ${r.status}`);
    expect(ops).toEqual(expect.arrayContaining(["GET /v1/me 200", "GET /v1/jobs/{job_id} 404", "POST /v1/api-keys 201"]));
    expect(page.items.find((r: { request_id: string }) => r.request_id === requestId)).toBeDefined();
    const text = JSON.stringify(page);
    expect(text).not.toContain("svc_live_"); // no secrets, no bodies
    expect(text).not.toContain("job_aaaaaaaaaaaaaaaa"); // path templates, not concrete ids
    // Another tenant's requests never show.
    const all = await json(await api("/v1/api-request-logs?limit=100", { key: t.key }));
    expect(all.items.every((r: { api_key_id: string }) => r.api_key_id === t.keyId)).toBe(true);

    const summary = await json(await api("/v1/api-request-logs/summary", { key: t.key }));
    expect(summary.total).toBeGreaterThanOrEqual(3);
    expect(summary.by_status_class["2xx"]).toBeGreaterThanOrEqual(2);
    expect(summary.by_status_class["4xx"]).toBeGreaterThanOrEqual(1);
    expect(summary.by_operation.map((o: { operation: string }) => o.operation)).toContain("/v1/me");
  });
});
