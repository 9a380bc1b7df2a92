import { describe, expect, it } from "vitest";
import { canonicalJson } from "../../../src/catalog/canonical-json";
import { forgetCachedKeys } from "../../../src/platform/auth/key-cache";
import { ALL_SCOPES } from "../../../src/platform/auth/scopes";
import { sha256Hex } from "../../../src/platform/crypto";
import { FORBIDDEN_SCOPE_DETAIL } from "../../../src/platform/errors";
import { mintParty } from "../../support/android-key-mint";
import { addKey, api, createTenant, json, testEnv } from "../support/helpers";
import {
  admissionBody,
  admit,
  androidDevice,
  appAttestDevice,
  bindingOf,
  capturedUpload,
  challengeFor,
  playDevice,
} from "./admission-helpers";
import { expectError, idem, playStatement } from "./helpers";

/*
 * Capture admissions (#16): tenant isolation, scopes, device binding, single use of a challenge under races, what is
 * (not) stored, App Attest counters and revoked identities.
 */

const rows = async <T = Record<string, unknown>>(sql: string, ...binds: unknown[]) =>
  (
    await testEnv.DB.prepare(sql)
      .bind(...binds)
      .all<T>()
  ).results;

async function decide(key: string, body: unknown) {
  const res = await admit(key, body);
  const result = await json(res);
  expect(res.status, JSON.stringify(result)).toBe(201);
  return result;
}

describe("tenant isolation", () => {
  it("another tenant's identity, upload, admission and challenge are invisible (404 / request_mismatch / empty list)", async () => {
    const a = await createTenant();
    const b = await createTenant();
    const deviceA = await appAttestDevice(a.key);
    const deviceB = await appAttestDevice(b.key);
    const bodyA = await admissionBody(a.key, deviceA);
    const passedA = await decide(a.key, bodyA);
    expect(passedA.decision).toBe("pass");

    // B names A's identity (with its own challenge and upload): not found.
    const ownB = await admissionBody(b.key, deviceB);
    await expectError(await admit(b.key, { ...ownB, capture_identity_id: deviceA.capture_identity_id }), 404, "svc.resource.not_found");
    // B's identity with A's upload: not found.
    await expectError(await admit(b.key, { ...ownB, upload_object_id: bodyA.upload_object_id }), 404, "svc.resource.not_found");
    // A's exact submission replayed by B: not a replay for B (A's identity is not B's).
    await expectError(await admit(b.key, bodyA), 404, "svc.resource.not_found");
    // B's identity and upload with A's (unused) challenge: B's tenant has no such challenge.
    const challengeA = await challengeFor(a.key, deviceA.capture_identity_id);
    const upload = await capturedUpload(b.key);
    const stolen = await admissionBody(b.key, deviceB, { upload, challenge: challengeA });
    const mismatch = await decide(b.key, stolen);
    expect(mismatch).toMatchObject({ decision: "reject", reason: "request_mismatch", job_id: null });
    const unused = await rows<{ used_at: number | null }>(
      "SELECT used_at FROM capture_admission_challenges WHERE id = ?",
      challengeA.challenge_id,
    );
    expect(unused[0]!.used_at).toBeNull();

    await expectError(await api(`/v1/capture-admissions/${passedA.capture_admission_id}`, { key: b.key }), 404, "svc.resource.not_found");
    const listB = await json(await api("/v1/capture-admissions?limit=100", { key: b.key }));
    expect(listB.items.map((i: any) => i.capture_admission_id)).toEqual([mismatch.capture_admission_id]);
    const filtered = await json(await api(`/v1/capture-admissions?capture_identity_id=${deviceA.capture_identity_id}`, { key: b.key }));
    expect(filtered.items).toEqual([]);
    // A still sees its own.
    const listA = await json(await api("/v1/capture-admissions", { key: a.key }));
    expect(listA.items.map((i: any) => i.capture_admission_id)).toEqual([passedA.capture_admission_id]);
  });
});

describe("scopes", () => {
  it("POST needs capture:write; GET list and detail need capture:read; no key 401", async () => {
    const t = await createTenant();
    const device = await appAttestDevice(t.key);
    const body = await admissionBody(t.key, device);

    expect((await api("/v1/capture-admissions", { method: "POST", body })).status).toBe(401);
    expect((await api("/v1/capture-admissions")).status).toBe(401);
    const { key: noWrite } = await addKey(t.tenantId, { scopes: ALL_SCOPES.filter((s) => s !== "capture:write") });
    const refused = await admit(noWrite, body);
    expect(refused.status).toBe(403);
    expect(await json(refused)).toEqual({ detail: FORBIDDEN_SCOPE_DETAIL });
    expect(await rows("SELECT id FROM capture_admissions WHERE tenant_id = ?", t.tenantId)).toHaveLength(0);

    const { key: writeOnly } = await addKey(t.tenantId, { scopes: ["capture:write"] });
    const created = await decide(writeOnly, body);
    expect(created.decision).toBe("pass");

    const { key: noRead } = await addKey(t.tenantId, { scopes: ALL_SCOPES.filter((s) => s !== "capture:read") });
    for (const path of ["/v1/capture-admissions", `/v1/capture-admissions/${created.capture_admission_id}`]) {
      for (const k of [noRead, writeOnly]) {
        const res = await api(path, { key: k });
        expect(res.status, path).toBe(403);
        expect(await json(res)).toEqual({ detail: FORBIDDEN_SCOPE_DETAIL });
      }
    }
    const { key: readOnly } = await addKey(t.tenantId, { scopes: ["capture:read"] });
    expect((await api(`/v1/capture-admissions/${created.capture_admission_id}`, { key: readOnly })).status).toBe(200);
    expect((await admit(readOnly, await admissionBody(t.key, device, { counter: 2 }))).status).toBe(403);
  });
});

describe("device binding: only the enrolled device's evidence admits", () => {
  it("App Attest: an assertion signed by another enrolled device's key → evidence_invalid", async () => {
    const t = await createTenant();
    const device = await appAttestDevice(t.key);
    const other = await appAttestDevice(t.key);
    const upload = await capturedUpload(t.key);
    // The right identity, challenge, binding and counter; the other device's key signed it.
    const body = await admissionBody(t.key, { ...device, keys: other.keys }, { upload });
    const result = await decide(t.key, body);
    expect(result).toMatchObject({ decision: "reject", reason: "evidence_invalid", job_id: null });
    // The other device's own admission with its key passes (the key, not the assertion format, was refused).
    expect((await decide(t.key, await admissionBody(t.key, other, { upload }))).decision).toBe("pass");
  });

  it("Android: a genuine fresh chain, but the binding signed by a key that is not the enrolled one → evidence_invalid", async () => {
    const t = await createTenant();
    const device = await androidDevice(t.key);
    const upload = await capturedUpload(t.key);
    const result = await decide(t.key, await admissionBody(t.key, device, { upload, signer: await mintParty() }));
    expect(result).toMatchObject({ decision: "reject", reason: "evidence_invalid", job_id: null });
    const other = await androidDevice(t.key);
    const swapped = await decide(t.key, await admissionBody(t.key, device, { upload, signer: other.enrolled }));
    expect(swapped).toMatchObject({ decision: "reject", reason: "evidence_invalid", job_id: null });
  });

  it("Play Integrity: a token for another package name → reject", async () => {
    const t = await createTenant();
    const device = await playDevice(t.key);
    const upload = await capturedUpload(t.key);
    const body = await admissionBody(t.key, device, { upload });
    const binding = await bindingOf(body.challenge_secret, upload.sha256);
    const token = await playStatement(body.challenge_secret, "com.example.other", undefined, binding);
    const result = await decide(t.key, { ...body, statement: JSON.stringify({ media_sha256: upload.sha256, token }) });
    expect(result).toMatchObject({ decision: "reject", reason: "evidence_invalid", job_id: null });
  });
});

describe("a challenge is single use, even under races", () => {
  it("two different submissions on one challenge, concurrently: one pass, the other rejected with request_mismatch", async () => {
    const t = await createTenant();
    const device = await appAttestDevice(t.key);
    const challenge = await challengeFor(t.key, device.capture_identity_id);
    const [u1, u2] = [await capturedUpload(t.key), await capturedUpload(t.key)];
    const b1 = await admissionBody(t.key, device, { upload: u1, challenge, counter: 1 });
    const b2 = await admissionBody(t.key, device, { upload: u2, challenge, counter: 2 });
    const responses = await Promise.all([admit(t.key, b1), admit(t.key, b2)]);
    const results = await Promise.all(responses.map((r) => json(r)));
    expect(
      responses.map((r) => r.status),
      JSON.stringify(results),
    ).toEqual([201, 201]);
    const passes = results.filter((r) => r.decision === "pass");
    const rejects = results.filter((r) => r.decision === "reject");
    expect(passes, JSON.stringify(results)).toHaveLength(1);
    expect(rejects).toHaveLength(1);
    expect(rejects[0].failed_gates).toContain("request_mismatch");
    expect(rejects[0].job_id).toBeNull();

    const used = await rows<{ used_at: number | null }>(
      "SELECT used_at FROM capture_admission_challenges WHERE id = ?",
      challenge.challenge_id,
    );
    expect(used[0]!.used_at).not.toBeNull();
    const consumers = await rows<{ id: string }>(
      "SELECT id FROM capture_admissions WHERE consumed_challenge_id = ?",
      challenge.challenge_id,
    );
    expect(consumers.map((r) => r.id)).toEqual([passes[0].capture_admission_id]);
    expect(await rows("SELECT id FROM capture_admissions WHERE challenge_id = ?", challenge.challenge_id)).toHaveLength(2);
  });

  it("two identical submissions, concurrently: 201 and 200 with the same decision, one stored row", async () => {
    const t = await createTenant();
    const device = await appAttestDevice(t.key);
    const body = await admissionBody(t.key, device);
    const responses = await Promise.all([admit(t.key, body), admit(t.key, body)]);
    const results = await Promise.all(responses.map((r) => json(r)));
    expect(responses.map((r) => r.status).sort(), JSON.stringify(results)).toEqual([200, 201]);
    expect(results[0]).toEqual(results[1]);
    // A valid submission passes even when its twin races it for the asset (the loser waits for the twin's decision).
    expect(results[0].decision).toBe("pass");
    expect(await rows("SELECT id FROM capture_admissions WHERE challenge_id = ?", body.challenge_id)).toHaveLength(1);
    const jobs = await rows("SELECT id FROM jobs WHERE tenant_id = ?", t.tenantId);
    expect(jobs).toHaveLength(1);
  });
});

describe("nothing secret or personal is stored", () => {
  it("the admission row holds hashes only: no challenge secret, statement or sensor evidence anywhere in D1", async () => {
    const t = await createTenant();
    const device = await appAttestDevice(t.key);
    const marker = `sensor-marker-${crypto.randomUUID()}`;
    const evidence = { location: { lat: 52.3676, lon: 4.9041, note: marker }, gyro: [0.125, -0.5] };
    const body = { ...(await admissionBody(t.key, device)), sensor_evidence: evidence, sensor_schema_version: "sensors.v1" };
    const result = await decide(t.key, body);
    expect(result.decision).toBe("pass");

    const [row] = await rows<Record<string, unknown>>("SELECT * FROM capture_admissions WHERE id = ?", result.capture_admission_id);
    expect(row).toMatchObject({
      statement_sha256: await sha256Hex(body.statement),
      sensor_evidence_sha256: await sha256Hex(canonicalJson(evidence)),
      sensor_schema_version: "sensors.v1",
    });
    const text = JSON.stringify(row);
    const assertion = JSON.parse(body.statement).assertion as string;
    for (const secret of [body.challenge_secret, body.statement, assertion, marker, "52.3676", "4.9041"]) {
      expect(text).not.toContain(secret);
    }
    const [challenge] = await rows<Record<string, unknown>>("SELECT * FROM capture_admission_challenges WHERE id = ?", body.challenge_id);
    expect(challenge!.secret_hash).toBe(await sha256Hex(body.challenge_secret));
    expect(JSON.stringify(challenge)).not.toContain(body.challenge_secret);

    // No table holds them either (jobs, manifests' inputs, idempotency records, ...).
    const tables = await rows<{ name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'",
    );
    expect(tables.length).toBeGreaterThan(5);
    for (const { name } of tables) {
      const dump = JSON.stringify(await rows(`SELECT * FROM "${name}"`));
      for (const secret of [body.challenge_secret, assertion, marker]) expect(dump.includes(secret), `${name} holds ${secret}`).toBe(false);
    }
  });
});

describe("App Attest counters and revoked identities", () => {
  it("after a pass with counter 5, counter 5 again is counter_replay and 6 passes; the identity's counter is 6", async () => {
    const t = await createTenant();
    const device = await appAttestDevice(t.key);
    expect((await decide(t.key, await admissionBody(t.key, device, { counter: 5 }))).decision).toBe("pass");
    const upload = await capturedUpload(t.key);
    const replay = await decide(t.key, await admissionBody(t.key, device, { upload, counter: 5 }));
    expect(replay).toMatchObject({ decision: "reject", reason: "counter_replay", failed_gates: ["counter_replay"], job_id: null });
    const lower = await decide(t.key, await admissionBody(t.key, device, { upload, counter: 4 }));
    expect(lower.reason).toBe("counter_replay");
    const next = await decide(t.key, await admissionBody(t.key, device, { upload, counter: 6 }));
    expect(next).toMatchObject({ decision: "pass", reason: "passed", job_id: expect.stringMatching(/^job_/) });
    const identity = await json(await api(`/v1/capture-identities/${device.capture_identity_id}`, { key: t.key }));
    expect(identity.counter).toBe(6);
  });

  it("a revoked identity's admission (challenge issued before the revoke) → capture_identity_revoked, no job", async () => {
    const t = await createTenant();
    const device = await appAttestDevice(t.key);
    const challenge = await challengeFor(t.key, device.capture_identity_id);
    const revoked = await api(`/v1/capture-identities/${device.capture_identity_id}/revoke`, {
      method: "POST",
      key: t.key,
      headers: idem(),
    });
    expect(revoked.status).toBe(200);
    const result = await decide(t.key, await admissionBody(t.key, device, { challenge }));
    expect(result).toMatchObject({ decision: "reject", reason: "capture_identity_revoked", job_id: null });
    expect(result.failed_gates[0]).toBe("capture_identity_revoked");
    expect(await rows("SELECT id FROM jobs WHERE tenant_id = ?", t.tenantId)).toHaveLength(0);
  });
});

describe("review fixes (#16)", () => {
  it("two passes at once with counters 31 and 30: the identity's counter never moves back (the later write is decided again)", async () => {
    const t = await createTenant();
    const device = await appAttestDevice(t.key);
    const high = await admissionBody(t.key, device, { counter: 31 });
    const low = await admissionBody(t.key, device, { counter: 30 });
    const [a, b] = await Promise.all([admit(t.key, high), admit(t.key, low)]);
    const decisions = [await json(a), await json(b)];
    expect([a.status, b.status]).toEqual([201, 201]);
    const identity = await json(await api(`/v1/capture-identities/${device.capture_identity_id}`, { key: t.key }));
    expect(identity.counter).toBe(31);
    // Whichever order they landed in, a pass never left a lower counter behind; a later 31 is a replay.
    expect(decisions[0].decision).toBe("pass");
    const again = await json(await admit(t.key, await admissionBody(t.key, device, { counter: 31 })));
    expect(again.reason).toBe("counter_replay");
  });

  it("sensor evidence with a number JSON cannot hold exactly (1e400) is refused with 422, not a 500", async () => {
    const t = await createTenant();
    const device = await appAttestDevice(t.key);
    const body = await admissionBody(t.key, device);
    const raw = JSON.stringify({ ...body, sensor_schema_version: "v1", sensor_evidence: { a: 0 } }).replace('"a":0', '"a":1e400');
    const res = await api("/v1/capture-admissions", {
      method: "POST",
      key: t.key,
      rawBody: raw,
      headers: { "content-type": "application/json" },
    });
    expect(res.status, await res.clone().text()).toBe(422);
    expect((await json(res)).code).toBe("svc.capture.sensor_evidence_invalid");
  });

  it("a pass is signed within the key's signing profile: no allowed recipe fits → capture_work_unavailable", async () => {
    const t = await createTenant();
    const device = await appAttestDevice(t.key);
    await testEnv.DB.prepare("UPDATE api_keys SET signing_profile = ? WHERE id = ?")
      .bind(
        JSON.stringify({ version: 1, default_recipe_id: null, allowed_recipe_ids: ["rcp_system_watermark_only"], updated_at: null }),
        t.keyId,
      )
      .run();
    forgetCachedKeys({ keyId: t.keyId }); // a raw write bypasses the api-keys repo, which forgets the cached record
    const result = await json(await admit(t.key, await admissionBody(t.key, device)));
    expect(result).toMatchObject({ decision: "reject", reason: "capture_work_unavailable", job_id: null });
  });

  it("If-None-Match lists of any reasonable length are read (the current tag among several answers 304)", async () => {
    const t = await createTenant();
    const device = await appAttestDevice(t.key);
    const created = await json(await admit(t.key, await admissionBody(t.key, device)));
    const first = await api(`/v1/capture-admissions/${created.capture_admission_id}`, { key: t.key });
    const tags = [...Array.from({ length: 6 }, (_, i) => `"${String(i).repeat(64)}"`), first.headers.get("etag")!].join(", ");
    expect(
      (await api(`/v1/capture-admissions/${created.capture_admission_id}`, { key: t.key, headers: { "if-none-match": tags } })).status,
    ).toBe(304);
  });
});
