import { describe, expect, it } from "vitest";
import { gateChallengeOf } from "../../../src/capture/service";
import { database } from "../../../src/db/client";
import { captureAdmissionChallenges } from "../../../src/db/schema";
import { ALL_SCOPES } from "../../../src/platform/auth/scopes";
import { sha256Hex } from "../../../src/platform/crypto";
import { addKey, api, createTenant, json, testEnv } from "../support/helpers";
import { enrolledIdentity, expectError, idem } from "./helpers";

const ask = (key: string, id: string, headers: Record<string, string> = idem()) =>
  api("/v1/capture-admission-challenges", { method: "POST", key, body: { capture_identity_id: id }, headers });

describe("POST /v1/capture-admission-challenges", () => {
  it("201: a 43-character single-use secret stored only as its hash, expiring in 10 minutes", async () => {
    const t = await createTenant();
    const identity = await enrolledIdentity(t.key);
    const before = Date.now();
    const res = await ask(t.key, identity.capture_identity_id);
    expect(res.status, await res.clone().text()).toBe(201);
    const c = await json(res);
    expect(Object.keys(c).sort()).toEqual(["capture_identity_id", "challenge_id", "challenge_secret", "expires_at"]);
    expect(c.capture_identity_id).toBe(identity.capture_identity_id);
    expect(c.challenge_id).toMatch(/^cch_[a-z2-7]{16}$/);
    expect(c.challenge_secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(c.expires_at)).toBeGreaterThanOrEqual(before + 10 * 60_000);
    const rows = await database(testEnv.DB).select().from(captureAdmissionChallenges).all();
    expect(rows.find((r) => r.id === c.challenge_id)!.secretHash).toBe(await sha256Hex(c.challenge_secret));
    expect(JSON.stringify(rows)).not.toContain(c.challenge_secret);
    // What the admission gates will be handed: the secret checked against the hash, unused, this identity's.
    expect(await gateChallengeOf(database(testEnv.DB), t.tenantId, c.challenge_id, c.challenge_secret)).toEqual({
      capture_identity_id: identity.capture_identity_id,
      expires_at: c.expires_at,
      used: false,
      secret_matches: true,
    });
    const other = await json(await ask(t.key, identity.capture_identity_id));
    expect(other.challenge_secret).not.toBe(c.challenge_secret);
    expect((await gateChallengeOf(database(testEnv.DB), t.tenantId, c.challenge_id, other.challenge_secret))?.secret_matches).toBe(false);
    expect(await gateChallengeOf(database(testEnv.DB), "ten_abcdefghij234567", c.challenge_id, c.challenge_secret)).toBeNull();
  });

  it("Idempotency-Key required (422); a retried key answers 409 secret_not_replayable without the secret", async () => {
    const t = await createTenant();
    const identity = await enrolledIdentity(t.key);
    await expectError(await ask(t.key, identity.capture_identity_id, {}), 422, "svc.idempotency.key_required");
    const headers = idem();
    const first = await json(await ask(t.key, identity.capture_identity_id, headers));
    const again = await ask(t.key, identity.capture_identity_id, headers);
    const text = await again.text();
    expect(again.status).toBe(409);
    expect(JSON.parse(text).code).toBe("secret_not_replayable");
    expect(text).not.toContain(first.challenge_secret);
  });

  it("revoked identity 409; unknown or another tenant's identity 404; malformed id 422", async () => {
    const a = await createTenant();
    const b = await createTenant();
    const identity = await enrolledIdentity(a.key);
    await expectError(await ask(b.key, identity.capture_identity_id), 404, "svc.resource.not_found");
    await expectError(await ask(a.key, "cid_abcdefghij234567"), 404, "svc.resource.not_found");
    await expectError(await ask(a.key, "crid_abcdefghij234567"), 422, "svc.request.invalid");
    await api(`/v1/capture-identities/${identity.capture_identity_id}/revoke`, { method: "POST", key: a.key, headers: idem() });
    await expectError(await ask(a.key, identity.capture_identity_id), 409, "svc.capture.identity_revoked");
    const rows = await database(testEnv.DB).select().from(captureAdmissionChallenges).all();
    expect(rows.filter((r) => r.captureIdentityId === identity.capture_identity_id)).toHaveLength(0);
  });

  it("needs capture:write", async () => {
    const t = await createTenant();
    const identity = await enrolledIdentity(t.key);
    const { key } = await addKey(t.tenantId, { scopes: ALL_SCOPES.filter((s) => s !== "capture:write") });
    expect((await ask(key, identity.capture_identity_id)).status).toBe(403);
    expect((await api("/v1/capture-admission-challenges", { method: "POST", body: {}, headers: idem() })).status).toBe(401);
  });
});
