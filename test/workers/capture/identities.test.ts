import { describe, expect, it } from "vitest";
import { ALL_SCOPES } from "../../../src/platform/auth/scopes";
import { FORBIDDEN_SCOPE_DETAIL } from "../../../src/platform/errors";
import { addKey, api, createTenant, json } from "../support/helpers";
import { appAttestStatement, complete, enrolledIdentity, enrolment, expectError, idem, installation } from "./helpers";
import { TEST_APPLE_APP_ID, TEST_TRUST_VERSION } from "./trust-fixture";

const revoke = (key: string, id: string) => api(`/v1/capture-identities/${id}/revoke`, { method: "POST", key, headers: idem() });

describe("GET /v1/capture-identities/{id}", () => {
  it("the enrolled facts and versions; never the SPKI, the enrolment or the secret", async () => {
    const t = await createTenant();
    const created = await enrolledIdentity(t.key);
    const res = await api(`/v1/capture-identities/${created.capture_identity_id}`, { key: t.key });
    expect(res.status).toBe(200);
    const detail = await json(res);
    expect(detail).toMatchObject({
      capture_identity_id: created.capture_identity_id,
      state: "active",
      attestation_kind: "app_attest",
      provider_class: "apple_app_attest",
      platform: "ios",
      app_id: TEST_APPLE_APP_ID,
      environment: "production",
      counter: 0,
      identity_version: 1,
      identity_version_id: created.identity_version_id,
      trust_snapshot_version: TEST_TRUST_VERSION,
      revocation_snapshot_version: null,
      verifier_version: "svc-app-attest/1",
      enrolled_at: created.enrolled_at,
      revoked_at: null,
    });
    expect(detail.key_id).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(Object.keys(detail)).not.toContain("public_key_spki");
  });

  it("404 for an unknown id and for another tenant's identity", async () => {
    const a = await createTenant();
    const b = await createTenant();
    const created = await enrolledIdentity(a.key);
    await expectError(await api(`/v1/capture-identities/${created.capture_identity_id}`, { key: b.key }), 404, "svc.resource.not_found");
    await expectError(await api("/v1/capture-identities/cid_abcdefghij234567", { key: a.key }), 404, "svc.resource.not_found");
    await expectError(await revoke(b.key, created.capture_identity_id), 404, "svc.resource.not_found");
    expect((await json(await api(`/v1/capture-identities/${created.capture_identity_id}`, { key: a.key }))).state).toBe("active");
  });
});

describe("GET /v1/capture-identities", () => {
  it("newest first, filtered by state, platform and provider class, paged by cursor; only this tenant's", async () => {
    const t = await createTenant();
    const other = await createTenant();
    await enrolledIdentity(other.key);
    const ios1 = await enrolledIdentity(t.key);
    const android = await enrolledIdentity(t.key, "play_integrity");
    const ios2 = await enrolledIdentity(t.key);
    expect((await revoke(t.key, ios1.capture_identity_id)).status).toBe(200);
    const ids = async (query: string) =>
      (await json(await api(`/v1/capture-identities${query}`, { key: t.key }))).items.map((i: any) => i.capture_identity_id);
    expect(await ids("")).toEqual([ios2, android, ios1].map((i) => i.capture_identity_id));
    expect(await ids("?state=active")).toEqual([ios2, android].map((i) => i.capture_identity_id));
    expect(await ids("?state=revoked")).toEqual([ios1.capture_identity_id]);
    expect(await ids("?platform=android")).toEqual([android.capture_identity_id]);
    expect(await ids("?provider_class=apple_app_attest")).toEqual([ios2, ios1].map((i) => i.capture_identity_id));
    expect(await ids("?provider_class=google_play_integrity&platform=ios")).toEqual([]);
    const first = await json(await api("/v1/capture-identities?limit=2", { key: t.key }));
    expect(first.items).toHaveLength(2);
    const second = await json(await api(`/v1/capture-identities?limit=2&cursor=${first.next_cursor}`, { key: t.key }));
    expect(second.items.map((i: any) => i.capture_identity_id)).toEqual([ios1.capture_identity_id]);
    expect(second.next_cursor).toBeNull();
    // A cursor is bound to its filters and tenant.
    await expectError(
      await api(`/v1/capture-identities?limit=2&state=active&cursor=${first.next_cursor}`, { key: t.key }),
      422,
      "svc.cursor.invalid",
    );
    await expectError(
      await api(`/v1/capture-identities?limit=2&cursor=${first.next_cursor}`, { key: other.key }),
      422,
      "svc.cursor.invalid",
    );
    await expectError(await api("/v1/capture-identities?platform=windows", { key: t.key }), 422, "svc.request.invalid");
    await expectError(await api("/v1/capture-identities?limit=101", { key: t.key }), 422, "svc.request.invalid");
  });
});

describe("POST /v1/capture-identities/{id}/revoke", () => {
  it("terminal and idempotent: revoking again answers 200 unchanged; the installation can then enrol anew", async () => {
    const t = await createTenant();
    const inst = installation();
    const created = await enrolledIdentity(t.key, "app_attest", inst);
    const first = await revoke(t.key, created.capture_identity_id);
    expect(first.status).toBe(200);
    const revoked = await json(first);
    expect(revoked.state).toBe("revoked");
    expect(Date.parse(revoked.revoked_at)).toBeGreaterThan(0);
    const again = await revoke(t.key, created.capture_identity_id);
    expect(again.status).toBe(200);
    expect(await json(again)).toEqual(revoked);
    const fresh = await enrolledIdentity(t.key, "app_attest", inst);
    expect(fresh.capture_identity_id).not.toBe(created.capture_identity_id);
    expect((await json(await api(`/v1/capture-identities/${created.capture_identity_id}`, { key: t.key }))).state).toBe("revoked");
  });

  it("a revoked identity's enrolment still replays its original result (nothing re-activates)", async () => {
    const t = await createTenant();
    const e = await enrolment(t.key);
    const body = {
      capture_identity_enrollment_id: e.capture_identity_enrollment_id,
      attestation_kind: "app_attest",
      challenge_secret: e.challenge_secret,
      statement: (await appAttestStatement(e.challenge_secret)).statement,
    };
    const created = await json(await complete(t.key, body));
    await revoke(t.key, created.capture_identity_id);
    const replay = await complete(t.key, body);
    expect(replay.status).toBe(200);
    expect(await json(replay)).toEqual(created);
    expect((await json(await api(`/v1/capture-identities/${created.capture_identity_id}`, { key: t.key }))).state).toBe("revoked");
  });
});

describe("scopes", () => {
  it("reads need capture:read, revocation capture:write; a refused revoke changes nothing", async () => {
    const t = await createTenant();
    const created = await enrolledIdentity(t.key);
    const id = created.capture_identity_id;
    const { key: noRead } = await addKey(t.tenantId, { scopes: ALL_SCOPES.filter((s) => s !== "capture:read") });
    for (const path of ["/v1/capture-identities", `/v1/capture-identities/${id}`]) {
      const res = await api(path, { key: noRead });
      expect(res.status, path).toBe(403);
      expect(await json(res)).toEqual({ detail: FORBIDDEN_SCOPE_DETAIL });
    }
    const { key: readOnly } = await addKey(t.tenantId, { scopes: ["capture:read"] });
    expect((await revoke(readOnly, id)).status).toBe(403);
    expect((await json(await api(`/v1/capture-identities/${id}`, { key: readOnly }))).state).toBe("active");
    expect((await api(`/v1/capture-identities/${id}/revoke`, { method: "POST", headers: idem() })).status).toBe(401);
  });
});
