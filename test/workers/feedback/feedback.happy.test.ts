import { describe, expect, it } from "vitest";
import { database } from "../../../src/db/client";
import { utf8 } from "../../../src/platform/bytes";
import { open, tenantDataKey } from "../../../src/platform/sealing";
import { api, createTenant, json, testEnv } from "../support/helpers";

const MESSAGE = "The verification says invalid, but Ada Lovelace (ada@news.test) signed it with our app.";

describe("POST /v1/feedback", () => {
  it("stores feedback with its message sealed at rest, answers 201 without echoing it, and is audited", async () => {
    const t = await createTenant();
    const res = await api("/v1/feedback", {
      method: "POST",
      key: t.key,
      body: { kind: "verification_dispute", message: MESSAGE, verification_id: "vfy_abcdefghij234567", asset_id: "ast_abcdefghij234567" },
    });
    expect(res.status).toBe(201);
    const body = await json(res);
    expect(body).toEqual({
      id: expect.stringMatching(/^fdb_[a-z2-7]{16}$/),
      kind: "verification_dispute",
      message_length: MESSAGE.length,
      asset_id: "ast_abcdefghij234567",
      job_id: null,
      verification_id: "vfy_abcdefghij234567",
      created_at: expect.any(String),
    });
    expect(JSON.stringify(body)).not.toContain("Lovelace");

    // At rest: no plaintext anywhere in the row; the sealed message opens only under this tenant, record and field.
    const row = await testEnv.DB.prepare("SELECT * FROM feedback WHERE id = ?").bind(body.id).first<Record<string, unknown>>();
    expect(row).toMatchObject({ tenant_id: t.tenantId, kind: "verification_dispute", actor_kind: "api_key", actor_id: t.keyId });
    expect(JSON.stringify(row)).not.toContain("Lovelace");
    expect(JSON.stringify(row)).not.toContain("ada@news.test");
    const key = await tenantDataKey(database(testEnv.DB), testEnv, t.tenantId, { create: false });
    if (key.status !== "ok") throw new Error("no data key");
    const opened = await open(key.key, { recordId: body.id, field: "message" }, row!.message_sealed as string);
    expect(opened).toEqual(utf8(MESSAGE));
    expect(await open(key.key, { recordId: "fdb_abcdefghij234567", field: "message" }, row!.message_sealed as string)).toBeNull();

    // Audited by the write middleware: action, actor and the feedback as target; never the message.
    const audit = await json(await api("/v1/governance/audit", { key: t.key }));
    expect(audit.items[0]).toMatchObject({
      action: "POST /v1/feedback",
      outcome: "succeeded",
      actor: { id: t.keyId },
      target: { type: "feedback", id: body.id },
    });
    expect(JSON.stringify(audit)).not.toContain("Lovelace");
  });

  it("accepts each kind, the longest message, and an Idempotency-Key (a retry stores once)", async () => {
    const t = await createTenant();
    for (const kind of ["bug", "idea", "question", "other"])
      expect((await api("/v1/feedback", { method: "POST", key: t.key, body: { kind, message: "x" } })).status).toBe(201);
    expect((await api("/v1/feedback", { method: "POST", key: t.key, body: { kind: "bug", message: "é".repeat(4000) } })).status).toBe(201);
    const headers = { "idempotency-key": crypto.randomUUID() };
    const first = await json(await api("/v1/feedback", { method: "POST", key: t.key, headers, body: { kind: "idea", message: "once" } }));
    const again = await json(await api("/v1/feedback", { method: "POST", key: t.key, headers, body: { kind: "idea", message: "once" } }));
    expect(again.id).toBe(first.id);
    const n = await testEnv.DB.prepare("SELECT COUNT(*) AS n FROM feedback WHERE tenant_id = ?").bind(t.tenantId).first<{ n: number }>();
    expect(n?.n).toBe(6);
  });
});
