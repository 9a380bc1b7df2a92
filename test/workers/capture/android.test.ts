import { describe, expect, it } from "vitest";
import { api, createTenant, json } from "../support/helpers";
import { androidStatement, callWith, complete, enrolment, expectError } from "./helpers";
import { captureTestTrustJson } from "./trust-fixture";

const body = (e: any, statement: string) => ({
  capture_identity_enrollment_id: e.capture_identity_enrollment_id,
  attestation_kind: "hardware_key_attestation",
  challenge_secret: e.challenge_secret,
  statement,
});

describe("Android hardware key attestation enrolment", () => {
  it("201 with the attested facts (security level, OS, patch, app version, revocation list version)", async () => {
    const t = await createTenant();
    const e = await enrolment(t.key, "hardware_key_attestation");
    const res = await complete(t.key, body(e, (await androidStatement(e.challenge_secret)).pem));
    expect(res.status, await res.clone().text()).toBe(201);
    const created = await json(res);
    const detail = await json(await api(`/v1/capture-identities/${created.capture_identity_id}`, { key: t.key }));
    expect(detail).toMatchObject({
      provider_class: "android_key_attestation",
      platform: "android",
      app_id: "com.example.capture",
      security_level: "tee",
      os_version: 150000,
      os_patch_level: 202610,
      app_version: 42,
      counter: null,
      revocation_snapshot_version: "test-revocations-1",
      verifier_version: "svc-android-key/1",
    });
    expect(detail.key_id).toMatch(/^[0-9a-f]{64}$/);
  });

  it("without a revocation status list a genuine chain is not usable: 503 evidence_unavailable (a leaked keybox would pass)", async () => {
    const t = await createTenant();
    const e = await enrolment(t.key, "hardware_key_attestation");
    const { androidRevocations: _none, ...trust } = JSON.parse(captureTestTrustJson());
    const res = await callWith(
      { SVC_CAPTURE_TRUST: JSON.stringify(trust) },
      "/v1/capture-identities",
      t.key,
      body(e, (await androidStatement(e.challenge_secret)).pem),
    );
    await expectError(res, 503, "svc.capture.evidence_unavailable");
  });

  it("the same attested key under a second active identity: 409 identity_conflict; after revocation it enrols again", async () => {
    const t = await createTenant();
    const first = await enrolment(t.key, "hardware_key_attestation");
    const attested = await androidStatement(first.challenge_secret);
    const created = await json(await complete(t.key, body(first, attested.pem)));
    const second = await enrolment(t.key, "hardware_key_attestation");
    const again = await androidStatement(second.challenge_secret, attested.leaf);
    await expectError(await complete(t.key, body(second, again.pem)), 409, "svc.capture.identity_conflict");
    await api(`/v1/capture-identities/${created.capture_identity_id}/revoke`, { method: "POST", key: t.key });
    expect((await complete(t.key, body(second, again.pem))).status).toBe(201);
  });

  it("a chain bound to another enrolment's challenge: 422 evidence_invalid", async () => {
    const t = await createTenant();
    const e = await enrolment(t.key, "hardware_key_attestation");
    const other = await enrolment(t.key, "hardware_key_attestation");
    await expectError(
      await complete(t.key, body(e, (await androidStatement(other.challenge_secret)).pem)),
      422,
      "svc.capture.evidence_invalid",
    );
  });
});
