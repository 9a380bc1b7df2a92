import { describe, expect, it } from "vitest";
import { database } from "../../../src/db/client";
import { applyIdpEvent } from "../../../src/identity/repo/users";
import { api, createTenant, json, testEnv } from "../support/helpers";
import { freshUser, postIdp, sessionToken, signIn } from "./session-support";

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

  it("concurrent user.deleted and user.deactivated never leave a deleted user deactivated (and so reactivatable)", async () => {
    let resurrected = 0;
    for (let i = 0; i < 6; i++) {
      const session = await signIn();
      const [a, b] = await Promise.all([
        postIdp({ type: "user.deleted", data: { subject: session.subject } }),
        postIdp({ type: "user.deactivated", data: { subject: session.subject } }),
      ]);
      expect([a.status, b.status]).toEqual([200, 200]);
      if ((await userRow(session.userId))?.status !== "deleted") {
        const re = await postIdp({ type: "user.reactivated", data: { subject: session.subject } });
        if (re.status === 200 && (await api("/v1/me", { key: session.token })).status === 200) resurrected++;
      }
    }
    expect(resurrected).toBe(0);
  });

  it("concurrent user.deleted and user.email_changed never re-store an e-mail on the deleted user", async () => {
    let restored = 0;
    for (let i = 0; i < 6; i++) {
      const session = await signIn();
      await Promise.all([
        postIdp({
          type: "user.email_changed",
          data: { subject: session.subject, email: `new-${i}-${session.email}`, email_verified: true },
        }),
        postIdp({ type: "user.deleted", data: { subject: session.subject } }),
      ]);
      const after = await userRow(session.userId);
      if (after?.status !== "deleted")
        restored += 100; // the deletion lost entirely
      else if (after.email_index !== null || after.email_sealed !== null) restored++;
    }
    expect(restored).toBe(0);
  });

  it("a change decided on a status the user no longer has writes nothing, and nothing lands on a deleted user", async () => {
    const db = database(testEnv.DB);
    const session = await signIn();
    await postIdp({ type: "user.deleted", data: { subject: session.subject } });
    const now = Date.now();
    // As if an e-mail change read the user while still active, and writes after the deletion committed.
    const stale = await applyIdpEvent(
      db,
      {
        id: `msg_stale_${session.userId}`,
        type: "user.email_changed",
        tenantId: session.tenantId,
        userId: session.userId,
        result: "applied",
        receivedAt: now,
      },
      {
        userId: session.userId,
        from: "active",
        set: { emailIndex: `idx-${session.userId}`, emailSealed: "x", emailDataKeyId: "k", updatedAt: now },
      },
    );
    expect(stale).toBe("stale");
    expect(await userRow(session.userId)).toMatchObject({ status: "deleted", email_index: null, email_sealed: null });
    // Nor is the callback recorded as applied: its retry re-decides on the deleted user.
    expect(await testEnv.DB.prepare("SELECT id FROM idp_events WHERE id = ?").bind(`msg_stale_${session.userId}`).first()).toBeNull();
    // Even a write that claims to start from "deleted" cannot move a deleted user.
    expect(
      await applyIdpEvent(
        db,
        { id: `msg_undelete_${session.userId}`, type: "user.reactivated", result: "applied", receivedAt: now },
        {
          userId: session.userId,
          from: "deleted",
          set: { status: "active", updatedAt: now },
        },
      ),
    ).toBe("stale");
    expect((await userRow(session.userId))?.status).toBe("deleted");
  });

  it("a deactivation sent before the subject ever signed in is kept: no sign-up until the provider reactivates it", async () => {
    const user = freshUser();
    const sent = await postIdp({ type: "user.deactivated", data: { subject: user.subject } });
    expect(await json(sent)).toMatchObject({ result: "unknown_user" });
    const token = await sessionToken({ subject: user.subject, email: user.email });
    const refused = await api("/v1/me", { key: token });
    expect(refused.status).toBe(403);
    expect(refused.headers.get("content-type")).toContain("json");
    expect(await testEnv.DB.prepare("SELECT id FROM users WHERE subject = ?").bind(user.subject).first()).toBeNull();
    expect(await json(await postIdp({ type: "user.reactivated", data: { subject: user.subject } }))).toMatchObject({
      result: "unknown_user",
    });
    expect((await api("/v1/me", { key: token })).status).toBe(200);
  });

  it("a deletion sent before the subject ever signed in is final: no sign-up, not even after a reactivation", async () => {
    const user = freshUser();
    await postIdp({ type: "user.deleted", data: { subject: user.subject } });
    // A later deactivation does not soften the kept deletion, nor does a reactivation lift it.
    await postIdp({ type: "user.deactivated", data: { subject: user.subject } });
    await postIdp({ type: "user.reactivated", data: { subject: user.subject } });
    const token = await sessionToken({ subject: user.subject, email: user.email });
    expect((await api("/v1/me", { key: token })).status).toBe(403);
    expect(await testEnv.DB.prepare("SELECT id FROM users WHERE subject = ?").bind(user.subject).first()).toBeNull();
  });

  it("a deactivation racing the subject's first sign-in is never lost", async () => {
    let lost = 0;
    for (let i = 0; i < 6; i++) {
      const user = freshUser();
      const token = await sessionToken({ subject: user.subject, email: user.email });
      await Promise.all([api("/v1/me", { key: token }), postIdp({ type: "user.deactivated", data: { subject: user.subject } })]);
      if ((await api("/v1/me", { key: token })).status !== 403) lost++;
    }
    expect(lost).toBe(0);
  });
});

async function userRow(userId: string) {
  return await testEnv.DB.prepare("SELECT status, email_index, email_sealed FROM users WHERE id = ?")
    .bind(userId)
    .first<{ status: string; email_index: string | null; email_sealed: string | null }>();
}
