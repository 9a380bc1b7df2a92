import { describe, expect, it } from "vitest";
import { ALL_SCOPES } from "../../../src/platform/auth/scopes";
import { FORBIDDEN_SCOPE_DETAIL } from "../../../src/platform/errors";
import { addKey, api, createTenant, json } from "../support/helpers";
import { appAttestStatement, complete, enrolment, expectError, installation } from "./helpers";

describe("capture enrolment security", () => {
  it("without a key 401; without capture:write 403 and nothing is created", async () => {
    const t = await createTenant();
    const body = { attestation_kind: "app_attest", installation_id_sha256: installation() };
    expect((await api("/v1/capture-identity-enrollments", { method: "POST", body })).status).toBe(401);
    const { key } = await addKey(t.tenantId, { scopes: ALL_SCOPES.filter((s) => s !== "capture:write") });
    for (const path of ["/v1/capture-identity-enrollments", "/v1/capture-identities"]) {
      const res = await api(path, { method: "POST", key, body });
      expect(res.status, path).toBe(403);
      expect(await json(res)).toEqual({ detail: FORBIDDEN_SCOPE_DETAIL });
    }
    const { key: readOnly } = await addKey(t.tenantId, { scopes: ["capture:read"] });
    expect((await api("/v1/capture-identity-enrollments", { method: "POST", key: readOnly, body })).status).toBe(403);
    const { key: writeOnly } = await addKey(t.tenantId, { scopes: ["capture:write"] });
    expect((await api("/v1/capture-identity-enrollments", { method: "POST", key: writeOnly, body })).status).toBe(201);
  });

  it("another tenant's enrolment answers 404, even with its secret and a valid statement", async () => {
    const a = await createTenant();
    const b = await createTenant();
    const e = await enrolment(a.key);
    const { statement } = await appAttestStatement(e.challenge_secret);
    const body = {
      capture_identity_enrollment_id: e.capture_identity_enrollment_id,
      attestation_kind: "app_attest",
      challenge_secret: e.challenge_secret,
      statement,
    };
    await expectError(await complete(b.key, body), 404, "svc.resource.not_found");
    expect((await complete(a.key, body)).status).toBe(201);
  });

  it("the one-time secret is never replayed: the same Idempotency-Key answers 409 secret_not_replayable", async () => {
    const t = await createTenant();
    const headers = { "idempotency-key": crypto.randomUUID() };
    const body = { attestation_kind: "app_attest", installation_id_sha256: installation() };
    const first = await api("/v1/capture-identity-enrollments", { method: "POST", key: t.key, body, headers });
    expect(first.status).toBe(201);
    const secret = (await json(first)).challenge_secret;
    const again = await api("/v1/capture-identity-enrollments", { method: "POST", key: t.key, body, headers });
    const text = await again.text();
    expect(again.status, text).toBe(409);
    expect(JSON.parse(text).code).toBe("secret_not_replayable");
    expect(text).not.toContain(secret);
  });

  it("refusals never echo the secret or the statement", async () => {
    const t = await createTenant();
    const e = await enrolment(t.key);
    const other = await enrolment(t.key);
    const res = await complete(t.key, {
      capture_identity_enrollment_id: e.capture_identity_enrollment_id,
      attestation_kind: "app_attest",
      challenge_secret: other.challenge_secret,
      statement: "statement-marker-7f3a",
    });
    const text = await res.text();
    expect(res.status).toBe(422);
    expect(text).not.toContain(other.challenge_secret);
    expect(text).not.toContain(e.challenge_secret);
    expect(text).not.toContain("statement-marker-7f3a");
  });
});
