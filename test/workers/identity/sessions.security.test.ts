import { describe, expect, it } from "vitest";
import { api, createTenant, json } from "../support/helpers";
import { postIdp, sessionToken, signIn } from "./session-support";

describe("console session security", () => {
  it("a session of account A never reads or changes B's resources", async () => {
    const a = await signIn();
    const b = await createTenant();
    const bKey = (await json(await api("/v1/api-keys", { key: b.key }))).items[0].api_key_id as string;
    expect((await api(`/v1/api-keys/${bKey}`, { key: a.token })).status).toBe(404);
    expect((await api(`/v1/api-keys/${bKey}`, { method: "DELETE", key: a.token })).status).toBe(404);
    const list = await json(await api("/v1/api-keys", { key: a.token }));
    expect(list.items).toEqual([]);
    // B's audit does not see A's provisioning.
    const bAudit = await json(await api("/v1/governance/audit", { key: b.key }));
    expect(bAudit.items.every((e: any) => e.actor.kind !== "console_user")).toBe(true);
  });

  it("a deleted user's session and keys never work again, nor does a new token for the same subject", async () => {
    const session = await signIn();
    const key = (
      await json(await api("/v1/api-keys", { method: "POST", key: session.token, body: { name: "k", scopes: ["identity:read"] } }))
    ).secret;
    expect((await postIdp({ type: "user.deleted", data: { subject: session.subject } })).status).toBe(200);
    expect((await api("/v1/me", { key: session.token })).status).toBe(403);
    expect((await api("/v1/me", { key })).status).toBe(403);
    // A fresh token for the same subject does not provision a new account: the identity is deleted.
    const fresh = await sessionToken({ subject: session.subject, email: session.email });
    expect((await api("/v1/me", { key: fresh })).status).toBe(403);
    // Nor does the deleted user's (erased) e-mail block someone else from using it now.
    const reuse = await api("/v1/me", { key: await sessionToken({ subject: `${session.subject}-new`, email: session.email }) });
    expect(reuse.status).toBe(200);
    expect((await json(reuse)).public_id).not.toBe(session.tenantId);
  });

  it("a key a session created is rotated into a successor still bound to that user", async () => {
    const session = await signIn();
    const created = await json(
      await api("/v1/api-keys", { method: "POST", key: session.token, body: { name: "k", scopes: ["identity:read"] } }),
    );
    const rotated = await api(`/v1/api-keys/${created.api_key.api_key_id}/rotate`, { method: "POST", key: session.token, body: {} });
    expect(rotated.status).toBe(201);
    const successor = (await json(rotated)).secret as string;
    expect((await api("/v1/me", { key: successor })).status).toBe(200);
    await postIdp({ type: "user.deactivated", data: { subject: session.subject } });
    expect((await api("/v1/me", { key: successor })).status).toBe(403);
  });

  it("a key made by a session-created key is bound to the same user: deactivating the user stops the grandchild too", async () => {
    const session = await signIn();
    const k1 = (
      await json(
        await api("/v1/api-keys", {
          method: "POST",
          key: session.token,
          body: { name: "k1", scopes: ["identity:read", "api_keys:write"] },
        }),
      )
    ).secret as string;
    const k2res = await api("/v1/api-keys", { method: "POST", key: k1, body: { name: "k2", scopes: ["identity:read", "api_keys:write"] } });
    expect(k2res.status).toBe(201);
    const k2 = (await json(k2res)).secret as string;
    expect((await api("/v1/me", { key: k2 })).status).toBe(200);
    expect((await postIdp({ type: "user.deactivated", data: { subject: session.subject } })).status).toBe(200);
    expect((await api("/v1/me", { key: session.token })).status, "session").toBe(403);
    expect((await api("/v1/me", { key: k1 })).status, "k1").toBe(403);
    expect((await api("/v1/me", { key: k2 })).status, "k2 (grandchild)").toBe(403);
  });

  it("the idp callback needs no API key and ignores one (its credential is the signature)", async () => {
    const { key } = await createTenant();
    const res = await api("/webhooks/idp", { method: "POST", key, rawBody: "{}", headers: { "content-type": "application/json" } });
    expect(res.status).toBe(400);
  });
});
