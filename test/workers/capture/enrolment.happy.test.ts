import { describe, expect, it } from "vitest";
import { database } from "../../../src/db/client";
import { captureIdentities, captureIdentityEnrollments } from "../../../src/db/schema";
import { sha256Hex } from "../../../src/platform/crypto";
import { createTenant, json, testEnv } from "../support/helpers";
import { appAttestStatement, complete, enrolment, installation, playStatement } from "./helpers";
import { TEST_APPLE_APP_ID, TEST_TRUST_VERSION } from "./trust-fixture";

describe("POST /v1/capture-identity-enrollments", () => {
  it("issues a 43-character secret once, stores only its SHA-256, and expires in 10 minutes", async () => {
    const t = await createTenant();
    const before = Date.now();
    const e = await enrolment(t.key, "play_integrity");
    expect(Object.keys(e).sort()).toEqual(["attestation_kind", "capture_identity_enrollment_id", "challenge_secret", "expires_at"]);
    expect(e.capture_identity_enrollment_id).toMatch(/^cie_[a-z2-7]{16}$/);
    expect(e.attestation_kind).toBe("play_integrity");
    expect(e.challenge_secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const expires = Date.parse(e.expires_at);
    expect(expires).toBeGreaterThanOrEqual(before + 10 * 60_000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 10 * 60_000);
    const rows = await database(testEnv.DB).select().from(captureIdentityEnrollments).all();
    const row = rows.find((r) => r.id === e.capture_identity_enrollment_id)!;
    expect(row.secretHash).toBe(await sha256Hex(e.challenge_secret));
    expect(JSON.stringify(rows)).not.toContain(e.challenge_secret);
  });
});

describe("POST /v1/capture-identities", () => {
  it("App Attest: 201 with version 1; the identity stores the attested facts; the same completion replays 200", async () => {
    const t = await createTenant();
    const e = await enrolment(t.key);
    const minted = await appAttestStatement(e.challenge_secret);
    const body = {
      capture_identity_enrollment_id: e.capture_identity_enrollment_id,
      attestation_kind: "app_attest",
      challenge_secret: e.challenge_secret,
      statement: minted.statement,
    };
    const res = await complete(t.key, body);
    expect(res.status, await res.clone().text()).toBe(201);
    const created = await json(res);
    expect(created).toEqual({
      capture_identity_id: expect.stringMatching(/^cid_[a-z2-7]{16}$/),
      enrolled_at: expect.any(String),
      identity_version: 1,
      identity_version_id: expect.stringMatching(/^div_[a-z2-7]{16}$/),
    });
    const replay = await complete(t.key, body);
    expect(replay.status).toBe(200);
    expect(await json(replay)).toEqual(created);

    const [row] = await database(testEnv.DB)
      .select()
      .from(captureIdentities)
      .all()
      .then((rs) => rs.filter((r) => r.id === created.capture_identity_id));
    expect(row).toMatchObject({
      state: "active",
      providerClass: "apple_app_attest",
      platform: "ios",
      appId: TEST_APPLE_APP_ID,
      counter: 0,
      environment: "production",
      trustSnapshotVersion: TEST_TRUST_VERSION,
      verifierVersion: "svc-app-attest/1",
      revocationSnapshotVersion: null,
    });
    expect(row!.keyId).toBe(btoa(String.fromCharCode(...minted.keyId)));
    expect(row!.publicKeySpki).toBe(btoa(String.fromCharCode(...minted.spki)));
  });

  it("Play Integrity: the token's requestHash is the secret text itself", async () => {
    const t = await createTenant();
    const e = await enrolment(t.key, "play_integrity");
    const res = await complete(t.key, {
      capture_identity_enrollment_id: e.capture_identity_enrollment_id,
      attestation_kind: "play_integrity",
      challenge_secret: e.challenge_secret,
      statement: await playStatement(e.challenge_secret),
    });
    expect(res.status, await res.clone().text()).toBe(201);
  });

  it("after revocation of nothing else, a new installation of the same tenant enrols independently", async () => {
    const t = await createTenant();
    for (const inst of [installation(), installation()]) {
      const e = await enrolment(t.key, "app_attest", inst);
      const res = await complete(t.key, {
        capture_identity_enrollment_id: e.capture_identity_enrollment_id,
        attestation_kind: "app_attest",
        challenge_secret: e.challenge_secret,
        statement: (await appAttestStatement(e.challenge_secret)).statement,
      });
      expect(res.status).toBe(201);
    }
  });
});
