import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GATE_ORDER } from "../../../src/capture/gates";
import { ADMISSION_REASONS } from "../../../src/capture/gates-types";
import { seedWallet } from "../billing/wallet-fixture";
import { api, createTenant, json, testEnv, waitForJob } from "../support/helpers";
import {
  type AdmissionBody,
  admissionBody,
  admit,
  androidDevice,
  appAttestDevice,
  capturedUpload,
  challengeFor,
  playDevice,
} from "./admission-helpers";
import { callWith, installation } from "./helpers";
import { captureTestTrustJson } from "./trust-fixture";

/*
 * Issue #16's table: every admission reason produced over HTTP by one crafted submission (or one crafted deployment
 * state), each failing exactly the gate it aims at (governance from #18's legal holds and pending deletions) — the
 * set of reasons produced is asserted at the end.
 */

let key: string;
const produced = new Set<string>();

beforeAll(async () => {
  ({ key } = await createTenant());
});

async function decided(res: Response, reason: string, failed: string[] = reason === "passed" ? [] : [reason]) {
  const text = await res.text();
  expect(res.status, text).toBe(201);
  const body = JSON.parse(text);
  expect(body.reason, text).toBe(reason);
  expect(body.failed_gates, text).toEqual(failed);
  expect(body.decision).toBe(reason === "passed" ? "pass" : "reject");
  expect(body.job_id === null).toBe(reason !== "passed");
  produced.add(reason);
  return body;
}

const post = (body: AdmissionBody) => admit(key, body);

describe("admission reasons over HTTP (#16)", () => {
  it("passed", async () => {
    await decided(await post(await admissionBody(key, await appAttestDevice(key))), "passed");
  });

  it("capture_identity_revoked: the identity was revoked after the challenge was issued", async () => {
    const device = await appAttestDevice(key);
    const challenge = await challengeFor(key, device.capture_identity_id);
    const revoked = await api(`/v1/capture-identities/${device.capture_identity_id}/revoke`, { method: "POST", key, body: {} });
    expect(revoked.status).toBe(200);
    await decided(await post(await admissionBody(key, device, { challenge })), "capture_identity_revoked");
  });

  it("capture_identity_conflict: the installation presented is another active identity's", async () => {
    const device = await appAttestDevice(key);
    const other = await appAttestDevice(key);
    const body = await admissionBody(key, device);
    await decided(await post({ ...body, installation_id_sha256: other.installation }), "capture_identity_conflict", [
      "capture_identity_conflict",
      "reinstall_restore",
    ]);
  });

  it("evidence_unavailable: Android evidence in a deployment without a revocation list", async () => {
    const device = await androidDevice(key);
    const trust = JSON.parse(captureTestTrustJson());
    delete trust.androidRevocations;
    const res = await callWith(
      { SVC_CAPTURE_TRUST: JSON.stringify(trust) },
      "/v1/capture-admissions",
      key,
      await admissionBody(key, device),
    );
    const body = await decided(res, "evidence_unavailable");
    const detail = await json(await api(`/v1/capture-admissions/${body.capture_admission_id}`, { key }));
    // Without verified facts the device gates cannot run: listed, never counted as failed.
    expect(detail.not_evaluated).toEqual([
      "app_identity_mismatch",
      "app_downgrade",
      "os_downgrade",
      "security_level",
      "boot_state",
      "counter_replay",
    ]);
    expect(detail.revocation_snapshot_version).toBe("none");
  });

  it("evidence_invalid: one flipped byte in the assertion", async () => {
    const body = await admissionBody(key, await appAttestDevice(key));
    const statement = JSON.parse(body.statement);
    const raw = Uint8Array.from(atob(statement.assertion), (c) => c.charCodeAt(0));
    raw[raw.length - 5]! ^= 0x01;
    statement.assertion = btoa(String.fromCharCode(...raw));
    await decided(await post({ ...body, statement: JSON.stringify(statement) }), "evidence_invalid");
  });

  it("app_identity_mismatch: Play does not recognise this version of the app", async () => {
    const body = await admissionBody(key, await playDevice(key), {
      play: (v) => void (v.appIntegrity.appRecognitionVerdict = "UNRECOGNIZED_VERSION"),
    });
    await decided(await post(body), "app_identity_mismatch");
  });

  it("app_downgrade: an older app version than the identity attested", async () => {
    const body = await admissionBody(key, await playDevice(key), { play: (v) => void (v.appIntegrity.versionCode = "41") });
    await decided(await post(body), "app_downgrade");
  });

  it("os_downgrade: an older Android version than the identity attested", async () => {
    await decided(await post(await admissionBody(key, await androidDevice(key), { android: { osVersion: 140000 } })), "os_downgrade");
  });

  it("security_level: Play's verdict without strong (hardware-backed) integrity, under a policy asking TEE", async () => {
    const body = await admissionBody(key, await playDevice(key), {
      play: (v) => void (v.deviceIntegrity.deviceRecognitionVerdict = ["MEETS_BASIC_INTEGRITY", "MEETS_DEVICE_INTEGRITY"]),
    });
    await decided(await post(body), "security_level");
  });

  it("boot_state: an Android device that did not boot verified", async () => {
    await decided(await post(await admissionBody(key, await androidDevice(key), { android: { bootState: 2 } })), "boot_state");
  });

  it("counter_replay: an App Attest counter that did not move past the enrolled one", async () => {
    await decided(await post(await admissionBody(key, await appAttestDevice(key), { counter: 0 })), "counter_replay");
  });

  it("clock_rollback: a Play verdict made before the one the identity enrolled with", async () => {
    const body = await admissionBody(key, await playDevice(key), {
      play: (v) => void (v.requestDetails.timestampMillis = String(Date.now() - 5 * 60_000)),
    });
    await decided(await post(body), "clock_rollback");
  });

  it("reinstall_restore: a new installation id", async () => {
    const body = await admissionBody(key, await appAttestDevice(key));
    await decided(await post({ ...body, installation_id_sha256: installation() }), "reinstall_restore");
  });

  it("request_mismatch: another identity's challenge", async () => {
    const device = await appAttestDevice(key);
    const other = await appAttestDevice(key);
    const challenge = await challengeFor(key, other.capture_identity_id);
    await decided(await post(await admissionBody(key, device, { challenge })), "request_mismatch");
  });

  it("media_substitution: the device attested other media than the upload", async () => {
    await decided(await post(await admissionBody(key, await appAttestDevice(key), { mediaSha256: "ab".repeat(32) })), "media_substitution");
  });

  it("governance_rejected: a legal hold on the upload's asset, or an account deletion queued (rule svc.governance-capture.v1)", async () => {
    const device = await appAttestDevice(key);
    const upload = await capturedUpload(key);
    const tenantId = (await json(await api("/v1/me", { key }))).public_id as string;
    await testEnv.DB.prepare(
      "INSERT INTO legal_holds (id, tenant_id, scope, asset_id, reason, placed_by, placed_at) VALUES ('lgh_capturecapturecap', ?, 'asset', ?, 'test', 'ops', ?)",
    )
      .bind(tenantId, upload.assetId, Date.now())
      .run();
    const body = await decided(await post(await admissionBody(key, device, { upload })), "governance_rejected");
    const detail = await json(await api(`/v1/capture-admissions/${body.capture_admission_id}`, { key }));
    expect(detail.governance_policy_version).toBe("svc.governance-capture.v1");
    expect(detail.admission_policy_version).toMatch(/\+governance:svc\.governance-capture\.v1$/);
    // Released: the same asset is admitted again.
    await testEnv.DB.prepare("UPDATE legal_holds SET released_at = ?, released_by = 'ops' WHERE id = 'lgh_capturecapturecap'")
      .bind(Date.now())
      .run();
    // An account deletion queued for another tenant refuses its captures.
    const t = await createTenant();
    const queued = Date.now();
    await testEnv.DB.prepare(
      "INSERT INTO governance_deletions (id, tenant_id, scope, target, state, removed, created_at, updated_at) VALUES ('gdl_capturecapturecap', ?, 'account', 'account', 'queued', '{}', ?, ?)",
    )
      .bind(t.tenantId, queued, queued)
      .run();
    await decided(await admit(t.key, await admissionBody(t.key, await appAttestDevice(t.key))), "governance_rejected");
  });

  it("asset_closed: the upload's asset is already published", async () => {
    const device = await appAttestDevice(key);
    const upload = await capturedUpload(key);
    const first = await decided(await post(await admissionBody(key, device, { upload, counter: 1 })), "passed");
    expect((await waitForJob(key, first.job_id)).state).toBe("completed");
    await decided(await post(await admissionBody(key, device, { upload, counter: 2 })), "asset_closed");
  });

  it("commercial_rejected: the tenant's prepaid wallet cannot cover the capture's signing job", async () => {
    const t = await createTenant();
    await seedWallet(t.tenantId, 1_000); // $0.001: less than one image sign
    const res = await admit(t.key, await admissionBody(t.key, await appAttestDevice(t.key)));
    const body = await decided(res, "commercial_rejected");
    const detail = await json(await api(`/v1/capture-admissions/${body.capture_admission_id}`, { key: t.key }));
    expect(detail.admission_policy_version).toMatch(/^svc\.capture-admission\.v1\+commercial:svc\.pricing\./);
  });

  it("capture_work_conflict: a job for the upload's asset is in flight", async () => {
    const device = await appAttestDevice(key);
    const upload = await capturedUpload(key);
    await testEnv.DB.prepare("UPDATE assets SET status = 'processing' WHERE id = ?").bind(upload.assetId).run();
    await decided(await post(await admissionBody(key, device, { upload })), "capture_work_conflict");
    await testEnv.DB.prepare("UPDATE assets SET status = 'uploaded' WHERE id = ?").bind(upload.assetId).run();
  });

  it("capture_work_unavailable: a deployment that cannot sign", async () => {
    const body = await admissionBody(key, await appAttestDevice(key));
    const res = await callWith(
      { SVC_C2PA_SIGNER_KEY_PEM: undefined, SVC_C2PA_SIGNER_CHAIN_PEM: undefined },
      "/v1/capture-admissions",
      key,
      body,
    );
    await decided(res, "capture_work_unavailable");
  });
});

afterAll(() => {
  // Every reason was produced above, over HTTP.
  expect([...produced].sort()).toEqual([...ADMISSION_REASONS].sort());
  expect(GATE_ORDER).toEqual(expect.arrayContaining(["governance_rejected"]));
});
