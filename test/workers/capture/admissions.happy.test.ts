import { beforeAll, describe, expect, it } from "vitest";
import { extractManifestStore } from "../../../src/media/c2pa/jumbf-carriers";
import { utf8 } from "../../../src/platform/bytes";
import { api, callUrl, createTenant, fixture, json, sha256HexOf, waitForJob } from "../support/helpers";
import { verifyFile } from "../support/verify-helpers";
import {
  type AppAttestDevice,
  admissionBody,
  admit,
  androidDevice,
  appAttestDevice,
  capturedUpload,
  playDevice,
} from "./admission-helpers";

let key: string;
let device: AppAttestDevice;

beforeAll(async () => {
  ({ key } = await createTenant());
  device = await appAttestDevice(key);
});

function contains(haystack: Uint8Array, needle: string): boolean {
  const n = utf8(needle);
  outer: for (let i = 0; i + n.length <= haystack.length; i++) {
    for (let j = 0; j < n.length; j++) if (haystack[i + j] !== n[j]) continue outer;
    return true;
  }
  return false;
}

describe("capture admissions (#16): a pass signs the capture", () => {
  it("App Attest: 201 pass with a job whose manifest states the admission; c2pa-rs judges the output valid", async () => {
    const body = await admissionBody(key, device);
    const res = await admit(key, body);
    const result = await json(res);
    expect(res.status, JSON.stringify(result)).toBe(201);
    expect(result).toEqual({
      capture_admission_id: expect.stringMatching(/^cad_[a-z2-7]{16}$/),
      decision: "pass",
      reason: "passed",
      failed_gates: [],
      job_id: expect.stringMatching(/^job_[a-z2-7]{16}$/),
    });
    const job = await waitForJob(key, result.job_id);
    expect(job.state, JSON.stringify(job)).toBe("completed");
    expect(job.recipe_id).toBe("rcp_system_sign");

    const detail = await json(await api(`/v1/capture-admissions/${result.capture_admission_id}`, { key }));
    const d = await json(await api(`/v1/assets/${detail.asset_id}/download`, { method: "POST", key }));
    const signed = new Uint8Array(await (await callUrl(d.url, { method: "GET", headers: d.headers })).arrayBuffer());
    const located = extractManifestStore(signed, "image/jpeg");
    expect(located.status).toBe("ok");
    const store = (located as { store: Uint8Array }).store;
    expect(contains(store, "svc.capture")).toBe(true);
    expect(contains(store, result.capture_admission_id)).toBe(true);
    expect(contains(store, "apple_app_attest")).toBe(true);
    expect(contains(store, device.capture_identity_id)).toBe(false);
    const verdict = await json(await verifyFile(signed));
    expect(verdict.status, JSON.stringify(verdict)).toBe("verified_manifest_and_fingerprint_match");
    expect(verdict.developer_explanation).toContain("validation_state Trusted");
    // Verify states the capture, and that this deployment stands behind it (its own signature over these bytes).
    expect(verdict.claims.capture).toEqual({
      capture_admission_id: result.capture_admission_id,
      provider_class: "apple_app_attest",
      verifier_version: "svc-app-attest/1",
      decided_at: detail.decided_at,
      media_sha256: await sha256HexOf(fixture("sample.jpg")),
      attested_by_service: true,
    });
    // The same manifest store beside other bytes (a sidecar of someone else's image) is only a claim.
    const elsewhere = await json(await verifyFile(fixture("sample-1mp.jpg"), { manifest: store, name: "other.jpg" }));
    expect(elsewhere.claims?.capture?.attested_by_service ?? false).toBe(false);
  });

  it("the detail carries every version string; If-None-Match with its ETag answers 304", async () => {
    const body = await admissionBody(key, device, { counter: 2 });
    const created = await json(await admit(key, body));
    const res = await api(`/v1/capture-admissions/${created.capture_admission_id}`, { key });
    expect(res.status).toBe(200);
    const etag = res.headers.get("etag")!;
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
    const detail = await json(res);
    expect(detail).toMatchObject({
      ...created,
      capture_identity_id: device.capture_identity_id,
      challenge_id: body.challenge_id,
      attestation_kind: "app_attest",
      provider_class: "apple_app_attest",
      upload_object_id: body.upload_object_id,
      asset_id: expect.stringMatching(/^ast_/),
      identity_version_id: expect.stringMatching(/^div_[a-z2-7]{16}$/),
      admission_policy_version: "svc.capture-admission.v1+commercial:unmetered+governance:svc.governance-capture.v1",
      capture_policy_id: "cpv_standardcapture2",
      capture_policy_version: "svc.capture-policy.standard.1",
      governance_policy_version: "svc.governance-capture.v1",
      verifier_version: "svc-app-attest/1",
      trust_snapshot_version: "test-trust-2026-11-25",
      revocation_snapshot_version: "none",
      evidence_schema_version: "svc.capture-statement.v1",
      sensor_schema_version: null,
    });
    expect(Date.parse(detail.decided_at)).toBeGreaterThan(Date.now() - 60_000);
    const again = await api(`/v1/capture-admissions/${created.capture_admission_id}`, { key, headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    expect(again.headers.get("etag")).toBe(etag);
    const other = await api(`/v1/capture-admissions/${created.capture_admission_id}`, { key, headers: { "if-none-match": '"00"' } });
    expect(other.status).toBe(200);
  });

  it("a replay of the same submission answers 200 with the identical decision; a second use of the challenge is refused", async () => {
    const body = await admissionBody(key, device, { counter: 3 });
    const first = await admit(key, body);
    expect(first.status).toBe(201);
    const decision = await json(first);
    const replay = await admit(key, body);
    expect(replay.status).toBe(200);
    expect(await json(replay)).toEqual(decision);

    // The same challenge with other evidence (a new upload): a new submission, rejected, no job.
    const upload = await capturedUpload(key);
    const reuse = await admissionBody(key, device, {
      counter: 4,
      upload,
      challenge: { challenge_id: body.challenge_id, challenge_secret: body.challenge_secret },
    });
    const res = await admit(key, reuse);
    expect(res.status).toBe(201);
    expect(await json(res)).toMatchObject({
      decision: "reject",
      reason: "request_mismatch",
      failed_gates: ["request_mismatch"],
      job_id: null,
    });
  });

  it("Play Integrity and Android key attestation identities pass too (each bound to its device as documented)", async () => {
    const play = await playDevice(key);
    const p = await admit(key, await admissionBody(key, play));
    expect(p.status).toBe(201);
    expect(await json(p)).toMatchObject({ decision: "pass", reason: "passed" });

    const android = await androidDevice(key);
    const a = await admit(key, await admissionBody(key, android));
    const result = await json(a);
    expect(a.status, JSON.stringify(result)).toBe(201);
    expect(result).toMatchObject({ decision: "pass", reason: "passed" });
    const detail = await json(await api(`/v1/capture-admissions/${result.capture_admission_id}`, { key }));
    expect(detail).toMatchObject({ provider_class: "android_key_attestation", revocation_snapshot_version: "test-revocations-1" });
  });

  it("lists newest first with filters (decision, identity, decision time)", async () => {
    const other = await appAttestDevice(key);
    const rejected = await json(await admit(key, await admissionBody(key, other, { counter: 0 })));
    expect(rejected.reason).toBe("counter_replay");
    const all = await json(await api("/v1/capture-admissions?limit=100", { key }));
    expect(all.items.length).toBeGreaterThanOrEqual(5);
    expect(all.items[0].capture_admission_id).toBe(rejected.capture_admission_id);
    const rejects = await json(await api("/v1/capture-admissions?decision=reject", { key }));
    expect(rejects.items.every((i: any) => i.decision === "reject")).toBe(true);
    const mine = await json(await api(`/v1/capture-admissions?capture_identity_id=${other.capture_identity_id}`, { key }));
    expect(mine.items.map((i: any) => i.capture_admission_id)).toEqual([rejected.capture_admission_id]);
    const future = await json(await api(`/v1/capture-admissions?decided_from=${new Date(Date.now() + 60_000).toISOString()}`, { key }));
    expect(future.items).toEqual([]);
    const past = await json(await api("/v1/capture-admissions?decided_through=2020-01-01T00:00:00.000Z", { key }));
    expect(past.items).toEqual([]);
  });
});
