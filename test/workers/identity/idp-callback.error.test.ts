import { createExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { idpSecretKey, idpSignatureHeader } from "../../../src/identity/idp-signature";
import { MAX_IDP_CALLBACK_BYTES } from "../../../src/identity/routes/idp-callback";
import worker from "../../../src/index";
import { api, json, testEnv } from "../support/helpers";
import { postIdp, signIn } from "./session-support";

async function expectCode(res: Response, status: number, code: string) {
  expect(res.status).toBe(status);
  expect((await json(res)).code).toBe(code);
}

async function userStatus(userId: string) {
  return (await testEnv.DB.prepare("SELECT status FROM users WHERE id = ?").bind(userId).first<{ status: string }>())?.status;
}

describe("POST /webhooks/idp errors", () => {
  it("400 for a wrong signature, another secret, a tampered body, a stale or future timestamp; nothing changes", async () => {
    const session = await signIn();
    const event = { type: "user.deactivated", data: { subject: session.subject } };
    const raw = JSON.stringify(event);
    const otherKey = idpSecretKey("whsec_b3RoZXItc2VjcmV0LW9mLWFub3RoZXItc2VydmljZQ==")!;
    const now = Math.floor(Date.now() / 1000);
    const cases: Record<string, Parameters<typeof postIdp>[1]> = {
      "garbage signature": { signature: "v1,AAAA" },
      "no v1 entry": { signature: "v2,abc" },
      "other secret": { id: "msg_x", timestamp: now, signature: await idpSignatureHeader(otherKey, "msg_x", now, raw) },
      "signed another id": {
        id: "msg_y",
        signature: await idpSignatureHeader(idpSecretKey(testEnv.SVC_IDP_WEBHOOK_SECRET)!, "msg_z", now, raw),
        timestamp: now,
      },
      stale: { timestamp: now - 360 },
      future: { timestamp: now + 360 },
    };
    for (const [name, options] of Object.entries(cases)) {
      const res = await postIdp(event, options);
      expect(res.status, name).toBe(400);
      expect((await json(res)).code, name).toBe("svc.session.idp_signature_invalid");
    }
    // A body changed after signing (whitespace only) fails too: the signature covers the exact raw bytes.
    const id = "msg_tamper";
    const signature = await idpSignatureHeader(idpSecretKey(testEnv.SVC_IDP_WEBHOOK_SECRET)!, id, now, raw);
    await expectCode(await postIdp(event, { id, timestamp: now, signature, raw: `${raw} ` }), 400, "svc.session.idp_signature_invalid");
    expect(await userStatus(session.userId)).toBe("active");
  });

  it("400 for missing or malformed headers", async () => {
    const event = { type: "user.deactivated", data: { subject: "s" } };
    await expectCode(await postIdp(event, { signature: null }), 400, "svc.session.idp_signature_invalid");
    await expectCode(await postIdp(event, { headers: { "idp-timestamp": "12a" } }), 400, "svc.session.idp_signature_invalid");
    await expectCode(await postIdp(event, { headers: { "idp-timestamp": "1".repeat(33) } }), 400, "svc.session.idp_signature_invalid");
    await expectCode(await postIdp(event, { id: "x".repeat(257) }), 400, "svc.session.idp_signature_invalid");
    const bare = await api("/webhooks/idp", {
      method: "POST",
      rawBody: JSON.stringify(event),
      headers: { "content-type": "application/json" },
    });
    await expectCode(bare, 400, "svc.session.idp_signature_invalid");
  });

  it("400 for a signed body that is not JSON; 422 for JSON that is not a usable event", async () => {
    await expectCode(await postIdp(null, { raw: "not json" }), 400, "svc.session.idp_event_invalid");
    await expectCode(await postIdp({ type: "user.deactivated" }), 422, "svc.session.idp_event_unprocessable");
    await expectCode(await postIdp({ type: "user.deactivated", data: { subject: "" } }), 422, "svc.session.idp_event_unprocessable");
    const session = await signIn();
    await expectCode(
      await postIdp({ type: "user.email_changed", data: { subject: session.subject, email: "x@example.test" } }),
      422,
      "svc.session.idp_event_unprocessable",
    );
  });

  it("413 for a body over the limit", async () => {
    const raw = JSON.stringify({ type: "user.deactivated", data: { subject: "s", pad: "x".repeat(MAX_IDP_CALLBACK_BYTES) } });
    await expectCode(await postIdp(null, { raw }), 413, "svc.request.too_large");
  });

  it("a replay answers duplicate with the first result and changes nothing", async () => {
    const session = await signIn();
    const id = `msg_${crypto.randomUUID()}`;
    const first = await postIdp({ type: "user.deactivated", data: { subject: session.subject } }, { id });
    expect(await json(first)).toEqual({ status: "received", result: "applied", duplicate: false });
    // Reactivated by another event, then the first delivered again: it must not deactivate a second time.
    await postIdp({ type: "user.reactivated", data: { subject: session.subject } });
    const replay = await postIdp({ type: "user.deactivated", data: { subject: session.subject } }, { id });
    expect(await json(replay)).toEqual({ status: "received", result: "applied", duplicate: true });
    expect(await userStatus(session.userId)).toBe("active");
  });

  it("two concurrent deliveries of one idp-id apply and audit the change once", async () => {
    let doubled = 0;
    for (let i = 0; i < 4; i++) {
      const session = await signIn();
      const id = `msg_dup_${i}_${session.subject}`;
      const timestamp = Math.floor(Date.now() / 1000);
      const event = { type: "user.deactivated", data: { subject: session.subject } };
      const answers = await Promise.all([postIdp(event, { id, timestamp }), postIdp(event, { id, timestamp })]);
      expect(answers.map((r) => r.status)).toEqual([200, 200]);
      const bodies = await Promise.all(answers.map((r) => json(r)));
      expect(bodies.map((b) => b.duplicate).sort()).toEqual([false, true]);
      const n = await testEnv.DB.prepare("SELECT COUNT(*) AS n FROM audit_events WHERE tenant_id = ? AND action = 'user.deactivated'")
        .bind(session.tenantId)
        .first<{ n: number }>();
      if ((n?.n ?? 0) !== 1) doubled++;
    }
    expect(doubled).toBe(0);
  });

  it("unknown users and event types are acknowledged, not errors", async () => {
    expect(await json(await postIdp({ type: "user.deactivated", data: { subject: "nobody" } }))).toMatchObject({ result: "unknown_user" });
    expect(await json(await postIdp({ type: "organization.created", data: { subject: "x" } }))).toMatchObject({ result: "ignored" });
    const session = await signIn();
    await postIdp({ type: "user.deactivated", data: { subject: session.subject } });
    expect(await json(await postIdp({ type: "user.deactivated", data: { subject: session.subject } }))).toMatchObject({
      result: "unchanged",
    });
  });

  it("409 for a change that conflicts with the user's state", async () => {
    const a = await signIn();
    const b = await signIn();
    await expectCode(
      await postIdp({ type: "user.email_changed", data: { subject: b.subject, email: a.email, email_verified: true } }),
      409,
      "svc.session.idp_identity_conflict",
    );
    await postIdp({ type: "user.deleted", data: { subject: b.subject } });
    await expectCode(await postIdp({ type: "user.reactivated", data: { subject: b.subject } }), 409, "svc.session.idp_identity_conflict");
    expect(await userStatus(b.userId)).toBe("deleted");
  });

  it("503 when no signing secret is configured", async () => {
    const env = { ...testEnv, SVC_IDP_WEBHOOK_SECRET: undefined };
    const res = await worker.fetch(
      new Request("http://svc.test/webhooks/idp", { method: "POST", body: "{}", headers: { "content-type": "application/json" } }),
      env,
      createExecutionContext(),
    );
    await expectCode(res, 503, "svc.session.idp_unavailable");
  });
});
