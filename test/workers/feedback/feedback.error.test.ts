import { createExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../../../src/index";
import { api, createTenant, json, testEnv } from "../support/helpers";

async function count(tenantId: string) {
  return (await testEnv.DB.prepare("SELECT COUNT(*) AS n FROM feedback WHERE tenant_id = ?").bind(tenantId).first<{ n: number }>())?.n;
}

describe("feedback bounds", () => {
  it("answers 422 naming the field for a bad kind, an empty, blank or too long message, a malformed id, an unknown field", async () => {
    const t = await createTenant();
    const cases: [Record<string, unknown>, string][] = [
      [{ kind: "complaint", message: "x" }, "kind"],
      [{ message: "x" }, "kind"],
      [{ kind: "bug" }, "message"],
      [{ kind: "bug", message: "" }, "message"],
      [{ kind: "bug", message: "  \n\t " }, "message"],
      [{ kind: "bug", message: "x".repeat(4001) }, "message"],
      [{ kind: "bug", message: 5 }, "message"],
      [{ kind: "bug", message: "x", asset_id: "job_abcdefghij234567" }, "asset_id"],
      [{ kind: "bug", message: "x", job_id: "job_ABC" }, "job_id"],
      [{ kind: "bug", message: "x", verification_id: "vfy_abcdefghij23456" }, "verification_id"],
      [{ kind: "bug", message: "x", email: "a@b.test" }, "(root)"],
    ];
    for (const [body, field] of cases) {
      const res = await api("/v1/feedback", { method: "POST", key: t.key, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      const error = await json(res);
      expect(error.code).toBe("svc.request.invalid");
      expect(error.field_details, JSON.stringify(error)).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
    }
    expect(
      (await api("/v1/feedback", { method: "POST", key: t.key, rawBody: "{not json", headers: { "content-type": "application/json" } }))
        .status,
    ).toBe(422);
    expect(await count(t.tenantId)).toBe(0);
  });

  it("answers 503 svc.feedback.sealing_unavailable and stores nothing without a data master key", async () => {
    const t = await createTenant();
    const env = { ...testEnv, SVC_DATA_MASTER_KEYS: undefined };
    const res = await worker.fetch(
      new Request("http://svc.test/v1/feedback", {
        method: "POST",
        headers: { authorization: `Bearer ${t.key}`, "content-type": "application/json" },
        body: JSON.stringify({ kind: "bug", message: "x" }),
      }),
      env,
      createExecutionContext(),
    );
    expect(res.status).toBe(503);
    expect((await json(res)).code).toBe("svc.feedback.sealing_unavailable");
    expect(await count(t.tenantId)).toBe(0);
  });
});
