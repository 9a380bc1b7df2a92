import { describe, expect, it } from "vitest";
import { DEV_SESSION_EMAIL } from "../../../src/dev/session-issuer";
import { ALL_SCOPES } from "../../../src/platform/auth/scopes";
import { FORBIDDEN_IDENTITY_DETAIL } from "../../../src/platform/errors";
import { api, json, testEnv } from "../support/helpers";
import { postIdp, sessionToken, signIn } from "./session-support";

describe("console sessions", () => {
  it("sign in provisions an account, creates a key; the provider deactivates the user → 403 for both; all audited", async () => {
    const session = await signIn();
    expect(session.tenantId).toMatch(/^ten_/);
    expect(session.userId).toMatch(/^usr_/);

    const me = await json(await api("/v1/me", { key: session.token }));
    expect(me).toMatchObject({
      email: session.email,
      public_id: session.tenantId,
      credential: { kind: "session", api_key_id: null, user_id: session.userId },
    });
    expect([...me.credential.scopes].sort()).toEqual([...ALL_SCOPES].sort());

    // The same subject again is the same user and account (no second provisioning).
    const again = await json(await api("/v1/me", { key: await sessionToken({ subject: session.subject, email: session.email }) }));
    expect(again.public_id).toBe(session.tenantId);

    const created = await api("/v1/api-keys", {
      method: "POST",
      key: session.token,
      body: { name: "from console", scopes: ["identity:read"] },
    });
    expect(created.status).toBe(201);
    const { secret, api_key } = await json(created);
    const keyMe = await json(await api("/v1/me", { key: secret }));
    expect(keyMe).toMatchObject({
      public_id: session.tenantId,
      credential: { kind: "api_key", api_key_id: api_key.api_key_id, user_id: null },
    });

    const deactivated = await postIdp({ type: "user.deactivated", data: { subject: session.subject } });
    expect(deactivated.status).toBe(200);
    expect(await json(deactivated)).toEqual({ status: "received", result: "applied", duplicate: false });

    for (const credential of [session.token, secret]) {
      const res = await api("/v1/me", { key: credential });
      expect(res.status).toBe(403);
      expect(await json(res)).toEqual({ detail: FORBIDDEN_IDENTITY_DETAIL });
    }

    // A key of the same account read the audit before; read it now with a key not created by the user.
    const { addKey } = await import("../support/helpers");
    const reader = await addKey(session.tenantId, { scopes: ["governance:read"] });
    const page = await json(await api("/v1/governance/audit?verify=true", { key: reader.key }));
    const entries = [...page.items].reverse();
    // …then both refusals after the deactivation, each audited as denied (the user is no longer active).
    expect(entries.map((e: any) => e.action)).toEqual([
      "session.provisioned",
      "POST /v1/api-keys",
      "user.deactivated",
      "GET /v1/me",
      "GET /v1/me",
    ]);
    expect(entries.slice(3).map((e: any) => [e.outcome, e.detail.reason])).toEqual([
      ["denied", "user_inactive"],
      ["denied", "user_inactive"],
    ]);
    expect(entries[0]).toMatchObject({ actor: { kind: "console_user", id: session.userId }, target: { type: "user", id: session.userId } });
    expect(entries[1]).toMatchObject({ actor: { kind: "console_user", id: session.userId }, target: { id: api_key.api_key_id } });
    expect(entries[2]).toMatchObject({ actor: { kind: "identity_provider" }, target: { type: "user", id: session.userId } });
    expect(JSON.stringify(page)).not.toContain(session.email);
    expect(page.verification).toMatchObject({ intact: true });

    // Reactivated: both work again.
    expect((await postIdp({ type: "user.reactivated", data: { subject: session.subject } })).status).toBe(200);
    expect((await api("/v1/me", { key: session.token })).status).toBe(200);
    expect((await api("/v1/me", { key: secret })).status).toBe(200);
  });

  it("keys created by other keys are unaffected by a user's deactivation", async () => {
    const session = await signIn();
    const { addKey } = await import("../support/helpers");
    const other = await addKey(session.tenantId, { scopes: ["identity:read"] });
    await postIdp({ type: "user.deactivated", data: { subject: session.subject } });
    expect((await api("/v1/me", { key: other.key })).status).toBe(200);
  });

  it("the e-mail is sealed at rest and only its blind index is stored", async () => {
    const session = await signIn();
    const row = await testEnv.DB.prepare("SELECT * FROM users WHERE id = ?").bind(session.userId).first<Record<string, string>>();
    expect(JSON.stringify(row)).not.toContain(session.email);
    expect(row?.email_index).toMatch(/^[0-9a-f]{64}$/);
    const tenant = await testEnv.DB.prepare("SELECT * FROM tenants WHERE id = ?").bind(session.tenantId).first();
    expect(JSON.stringify(tenant)).not.toContain(session.email);
  });

  it("the provider changes the e-mail; a deletion erases it and the session stops for good", async () => {
    const session = await signIn();
    const changed = await postIdp({
      type: "user.email_changed",
      data: { subject: session.subject, email: "Moved@Example.test", email_verified: true },
    });
    expect(await json(changed)).toMatchObject({ result: "applied" });
    expect((await json(await api("/v1/me", { key: session.token }))).email).toBe("moved@example.test");
    expect(await json(await postIdp({ type: "user.deleted", data: { subject: session.subject } }))).toMatchObject({ result: "applied" });
    const row = await testEnv.DB.prepare("SELECT status, email_sealed, email_index FROM users WHERE id = ?").bind(session.userId).first();
    expect(row).toEqual({ status: "deleted", email_sealed: null, email_index: null });
    expect((await api("/v1/me", { key: session.token })).status).toBe(403);
  });

  it("a sign-in is audited at most once an hour per user", async () => {
    const session = await signIn();
    const { addKey } = await import("../support/helpers");
    const reader = await addKey(session.tenantId, { scopes: ["governance:read"] });
    const actions = async () => (await json(await api("/v1/governance/audit", { key: reader.key }))).items.map((e: any) => e.action);
    await testEnv.DB.prepare("UPDATE users SET last_signed_in_at = ? WHERE id = ?")
      .bind(Date.now() - 2 * 3_600_000, session.userId)
      .run();
    for (let i = 0; i < 3; i++) expect((await api("/v1/me", { key: session.token })).status).toBe(200);
    let seen: string[] = [];
    for (let i = 0; i < 50 && !seen.includes("session.signed_in"); i++) {
      seen = await actions();
      if (!seen.includes("session.signed_in")) await new Promise((r) => setTimeout(r, 100));
    }
    expect(seen.filter((a) => a === "session.signed_in")).toHaveLength(1);
    expect(seen.filter((a) => a === "session.provisioned")).toHaveLength(1);
  });

  it("the dev user's default token signs in", async () => {
    const token = await sessionToken();
    const res = await api("/v1/me", { key: token });
    expect(res.status).toBe(200);
    expect((await json(res)).email).toBe(DEV_SESSION_EMAIL);
  });

  it("a session may turn wallet auto-recharge on; a key may not", async () => {
    const session = await signIn();
    const { addKey } = await import("../support/helpers");
    const key = await addKey(session.tenantId, { scopes: ["billing:write", "billing:read"] });
    const off = { enabled: false, threshold_usd: null, amount_usd: null };
    const opened = await api("/v1/billing/wallet/settings", {
      method: "PUT",
      key: key.key,
      body: { expected_version: 0, auto_recharge: off },
    });
    expect(opened.status).toBe(200);
    const version = (await json(opened)).version;
    const on = { expected_version: version, auto_recharge: { enabled: true, threshold_usd: "5.00", amount_usd: "20.00" } };
    void off;
    const byKey = await api("/v1/billing/wallet/settings", { method: "PUT", key: key.key, body: on });
    expect(byKey.status).toBe(403);
    expect((await json(byKey)).code).toBe("svc.billing.console_session_required");
    const bySession = await api("/v1/billing/wallet/settings", { method: "PUT", key: session.token, body: on });
    expect(bySession.status).toBe(200);
  });
});
