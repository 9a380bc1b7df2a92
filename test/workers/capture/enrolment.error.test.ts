import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { database } from "../../../src/db/client";
import { captureIdentities, captureIdentityEnrollments } from "../../../src/db/schema";
import { fromBase64url } from "../../../src/platform/bytes";
import { createTenant, testEnv } from "../support/helpers";
import { appAttestStatement, callWith, complete, enrolment, enrolRequest, expectError, installation, playStatement } from "./helpers";

const db = () => database(testEnv.DB);
const identityCount = async (tenantId: string) =>
  (await db().select().from(captureIdentities).where(eq(captureIdentities.tenantId, tenantId)).all()).length;

function body(e: any, statement: string, extra: Record<string, unknown> = {}) {
  return {
    capture_identity_enrollment_id: e.capture_identity_enrollment_id,
    attestation_kind: e.attestation_kind,
    challenge_secret: e.challenge_secret,
    statement,
    ...extra,
  };
}

describe("enrolment request validation", () => {
  it("422 for an unknown kind, a malformed installation id, or unknown members", async () => {
    const t = await createTenant();
    await expectError(await enrolRequest(t.key, "safetynet"), 422, "svc.request.invalid");
    await expectError(await enrolRequest(t.key, "app_attest", "ABC"), 422, "svc.request.invalid");
    await expectError(await enrolRequest(t.key, "app_attest", "A".repeat(64)), 422, "svc.request.invalid");
  });

  it("a statement over 349528 characters or a secret that is not 43 base64url characters: 422 contract", async () => {
    const t = await createTenant();
    const e = await enrolment(t.key);
    await expectError(await complete(t.key, body(e, "x".repeat(349_529))), 422, "svc.request.invalid");
    await expectError(await complete(t.key, body(e, "x", { challenge_secret: "short" })), 422, "svc.request.invalid");
  });
});

describe("completing an enrolment: refusals create nothing", () => {
  it("unknown enrolment 404; wrong secret 422; wrong kind 422", async () => {
    const t = await createTenant();
    const e = await enrolment(t.key);
    const { statement } = await appAttestStatement(e.challenge_secret);
    await expectError(
      await complete(t.key, body(e, statement, { capture_identity_enrollment_id: "cie_abcdefghij234567" })),
      404,
      "svc.resource.not_found",
    );
    const other = await enrolment(t.key);
    await expectError(
      await complete(t.key, body(e, statement, { challenge_secret: other.challenge_secret })),
      422,
      "svc.capture.challenge_secret_mismatch",
    );
    await expectError(
      await complete(t.key, body(e, statement, { attestation_kind: "play_integrity" })),
      422,
      "svc.capture.attestation_kind_mismatch",
    );
    expect(await identityCount(t.tenantId)).toBe(0);
    // The enrolment is still open: the right completion succeeds.
    expect((await complete(t.key, body(e, statement))).status).toBe(201);
  });

  it("evidence bound to another challenge, with a flipped byte, or from an untrusted root: 422 evidence_invalid", async () => {
    const t = await createTenant();
    const e = await enrolment(t.key);
    const other = await enrolment(t.key);
    const wrongChallenge = (await appAttestStatement(other.challenge_secret)).statement;
    await expectError(await complete(t.key, body(e, wrongChallenge)), 422, "svc.capture.evidence_invalid");
    const good = JSON.parse((await appAttestStatement(e.challenge_secret)).statement);
    const object = Uint8Array.from(atob(good.attestation_object), (c) => c.charCodeAt(0));
    object[object.length - 40]! ^= 0x01;
    const flipped = JSON.stringify({ ...good, attestation_object: btoa(String.fromCharCode(...object)) });
    await expectError(await complete(t.key, body(e, flipped)), 422, "svc.capture.evidence_invalid");
    const { mintTestCa } = await import("../../support/app-attest-mint");
    const foreign = await appAttestStatement(e.challenge_secret, { ca: await mintTestCa(new Date()) });
    await expectError(await complete(t.key, body(e, foreign.statement)), 422, "svc.capture.evidence_invalid");
    await expectError(await complete(t.key, body(e, "not json")), 422, "svc.capture.evidence_invalid");
    expect(await identityCount(t.tenantId)).toBe(0);
  });

  it("a verified attestation for an app the deployment does not trust: 422 app_untrusted", async () => {
    const t = await createTenant();
    const e = await enrolment(t.key);
    const { statement } = await appAttestStatement(e.challenge_secret, { appId: "OTHERTEAM1.com.example.other" });
    await expectError(await complete(t.key, body(e, statement)), 422, "svc.capture.app_untrusted");
    const p = await enrolment(t.key, "play_integrity");
    await expectError(
      await complete(t.key, body(p, await playStatement(p.challenge_secret, "com.example.other"))),
      422,
      "svc.capture.evidence_invalid",
    );
    expect(await identityCount(t.tenantId)).toBe(0);
  });

  it("expired enrolment: 409 enrollment_expired", async () => {
    const t = await createTenant();
    const e = await enrolment(t.key);
    await db()
      .update(captureIdentityEnrollments)
      .set({ expiresAt: Date.now() - 1 })
      .where(eq(captureIdentityEnrollments.id, e.capture_identity_enrollment_id));
    const { statement } = await appAttestStatement(e.challenge_secret);
    await expectError(await complete(t.key, body(e, statement)), 409, "svc.capture.enrollment_expired");
    expect(await identityCount(t.tenantId)).toBe(0);
  });

  it("a completed enrolment with another statement: 409; the same statement still replays after expiry", async () => {
    const t = await createTenant();
    const e = await enrolment(t.key);
    const first = (await appAttestStatement(e.challenge_secret)).statement;
    const created = await complete(t.key, body(e, first));
    expect(created.status).toBe(201);
    const second = (await appAttestStatement(e.challenge_secret)).statement;
    await expectError(await complete(t.key, body(e, second)), 409, "svc.capture.enrollment_completed");
    await db()
      .update(captureIdentityEnrollments)
      .set({ expiresAt: Date.now() - 1 })
      .where(eq(captureIdentityEnrollments.id, e.capture_identity_enrollment_id));
    const replay = await complete(t.key, body(e, first));
    expect(replay.status).toBe(200);
    expect(await replay.json()).toEqual(await created.json());
    expect(await identityCount(t.tenantId)).toBe(1);
  });

  it("an installation already enrolled under an active identity: 409 identity_conflict", async () => {
    const t = await createTenant();
    const inst = installation();
    const a = await enrolment(t.key, "app_attest", inst);
    expect((await complete(t.key, body(a, (await appAttestStatement(a.challenge_secret)).statement))).status).toBe(201);
    const b = await enrolment(t.key, "play_integrity", inst);
    await expectError(await complete(t.key, body(b, await playStatement(b.challenge_secret))), 409, "svc.capture.identity_conflict");
    expect(await identityCount(t.tenantId)).toBe(1);
  });

  it("the challenge is the secret's 32 decoded bytes, not its text", async () => {
    const t = await createTenant();
    const e = await enrolment(t.key);
    expect(fromBase64url(e.challenge_secret)!.length).toBe(32);
    const text = new TextEncoder().encode(e.challenge_secret);
    const { mintAttestation } = await import("../../support/app-attest-mint");
    const { appleCa } = await import("./helpers");
    const { TEST_APPLE_APP_ID } = await import("./trust-fixture");
    const wrong = await mintAttestation({ ca: await appleCa(), appId: TEST_APPLE_APP_ID, challenge: text, now: new Date() });
    await expectError(await complete(t.key, body(e, wrong.statement)), 422, "svc.capture.evidence_invalid");
  });
});

describe("trust configuration", () => {
  it("no SVC_CAPTURE_TRUST (or a malformed one): 503 trust_unavailable on enrolment and completion", async () => {
    const t = await createTenant();
    const e = await enrolment(t.key);
    for (const value of [undefined, "{not json", JSON.stringify({ version: "v" })]) {
      const env = { SVC_CAPTURE_TRUST: value };
      const res = await callWith(env, "/v1/capture-identity-enrollments", t.key, {
        attestation_kind: "app_attest",
        installation_id_sha256: installation(),
      });
      const err = await expectError(res, 503, "svc.capture.trust_unavailable");
      expect(err.retryable).toBe(true);
      await expectError(await callWith(env, "/v1/capture-identities", t.key, body(e, "x")), 503, "svc.capture.trust_unavailable");
    }
  });

  it("a snapshot without roots for the kind: 503 evidence_unavailable, nothing stored", async () => {
    const t = await createTenant();
    const e = await enrolment(t.key);
    const { statement } = await appAttestStatement(e.challenge_secret);
    const env = { SVC_CAPTURE_TRUST: JSON.stringify({ version: "no-apple", apps: [] }) };
    await expectError(await callWith(env, "/v1/capture-identities", t.key, body(e, statement)), 503, "svc.capture.evidence_unavailable");
    expect(await identityCount(t.tenantId)).toBe(0);
  });
});
