import { beforeAll, describe, expect, it } from "vitest";
import { api, createTenant, json, testEnv, waitForJob } from "../support/helpers";
import {
  type AndroidDevice,
  type AppAttestDevice,
  admissionBody,
  admit,
  androidDevice,
  appAttestDevice,
  capturedUpload,
  challengeFor,
  type PlayDevice,
  playDevice,
} from "./admission-helpers";
import { callWith, expectError } from "./helpers";

/*
 * Capture admissions (#16): refusals with the error envelope, request validation, and malformed evidence (a decision,
 * never an error).
 */

let key: string;
let tenantId: string;
let device: AppAttestDevice;
/** An upload only rejects use (a reject claims nothing, so it can be named again and again). */
let upload: { objectId: string; sha256: string };

beforeAll(async () => {
  ({ key, tenantId } = await createTenant());
  device = await appAttestDevice(key);
  upload = await capturedUpload(key);
});

const UNKNOWN_IDENTITY = "cid_abcdefghij234567";
const UNKNOWN_OBJECT = "aob_abcdefghij234567";
const UNKNOWN_ADMISSION = "cad_abcdefghij234567";

/** A well-formed body for `device` whose statement does not matter (refused before the evidence is read). */
async function shapedBody(extra: Record<string, unknown> = {}) {
  const challenge = await challengeFor(key, device.capture_identity_id);
  return {
    attestation_kind: "app_attest",
    capture_identity_id: device.capture_identity_id,
    challenge_id: challenge.challenge_id,
    challenge_secret: challenge.challenge_secret,
    installation_id_sha256: device.installation,
    statement: JSON.stringify({ media_sha256: upload.sha256, assertion: "AAAA" }),
    upload_object_id: upload.objectId,
    ...extra,
  };
}

const admissionRows = async (where: string, ...binds: unknown[]) =>
  (
    await testEnv.DB.prepare(`SELECT * FROM capture_admissions WHERE ${where}`)
      .bind(...binds)
      .all()
  ).results;

describe("POST /v1/capture-admissions: 404 for what does not exist", () => {
  it("an unknown capture identity, an unknown upload object; nothing is stored", async () => {
    await expectError(await admit(key, await shapedBody({ capture_identity_id: UNKNOWN_IDENTITY })), 404, "svc.resource.not_found");
    await expectError(await admit(key, await shapedBody({ upload_object_id: UNKNOWN_OBJECT })), 404, "svc.resource.not_found");
    expect(await admissionRows("tenant_id = ?", tenantId)).toHaveLength(0);
  });

  it("GET an unknown admission: 404", async () => {
    await expectError(await api(`/v1/capture-admissions/${UNKNOWN_ADMISSION}`, { key }), 404, "svc.resource.not_found");
  });
});

describe("422 svc.capture.upload_object_invalid", () => {
  it("a signed output's object is not an upload", async () => {
    const t = await createTenant();
    const d = await appAttestDevice(t.key);
    const passed = await json(await admit(t.key, await admissionBody(t.key, d)));
    expect(passed.decision, JSON.stringify(passed)).toBe("pass");
    const job = await waitForJob(t.key, passed.job_id);
    expect(job.state, JSON.stringify(job)).toBe("completed");
    const outputs = (
      await testEnv.DB.prepare("SELECT id FROM objects WHERE tenant_id = ? AND role != 'source'").bind(t.tenantId).all<{ id: string }>()
    ).results;
    expect(outputs.length).toBeGreaterThan(0);
    const body = await admissionBody(t.key, d, { counter: 2, upload: { objectId: outputs[0]!.id, sha256: "0".repeat(64) } });
    await expectError(await admit(t.key, body), 422, "svc.capture.upload_object_invalid");
    // The challenge was not consumed by the refusal.
    const challenge = await testEnv.DB.prepare("SELECT used_at FROM capture_admission_challenges WHERE id = ?")
      .bind(body.challenge_id)
      .first<{ used_at: number | null }>();
    expect(challenge?.used_at).toBeNull();
  });
});

describe("422 svc.capture.sensor_evidence_invalid", () => {
  const nested = (levels: number) => {
    let value: Record<string, unknown> = { leaf: 1 };
    for (let i = 1; i < levels; i++) value = { next: value };
    return value;
  };

  it("evidence without a version, a version without evidence, deeper than 16 levels, over 65,536 characters", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ sensor_evidence: { gyro: [0.1, 0.2] } }, "together"],
      [{ sensor_evidence: { gyro: [0.1, 0.2] }, sensor_schema_version: null }, "together"],
      [{ sensor_schema_version: "sensors.v1" }, "together"],
      [{ sensor_evidence: null, sensor_schema_version: "sensors.v1" }, "together"],
      [{ sensor_evidence: nested(17), sensor_schema_version: "sensors.v1" }, "16 levels"],
      [{ sensor_evidence: { samples: "x".repeat(65_537) }, sensor_schema_version: "sensors.v1" }, "65536 characters"],
    ];
    for (const [extra, says] of cases) {
      const err = await expectError(await admit(key, await shapedBody(extra)), 422, "svc.capture.sensor_evidence_invalid");
      expect(err.message).toContain(says);
    }
    expect(await admissionRows("tenant_id = ?", tenantId)).toHaveLength(0);
  });

  it("with both valid (16 levels deep): 201 and the detail's sensor_schema_version as sent", async () => {
    const t = await createTenant();
    const d = await appAttestDevice(t.key);
    const body = { ...(await admissionBody(t.key, d)), sensor_evidence: nested(16), sensor_schema_version: "sensors.v1+gyro" };
    const res = await admit(t.key, body);
    const result = await json(res);
    expect(res.status, JSON.stringify(result)).toBe(201);
    expect(result.decision).toBe("pass");
    const detail = await json(await api(`/v1/capture-admissions/${result.capture_admission_id}`, { key: t.key }));
    expect(detail.sensor_schema_version).toBe("sensors.v1+gyro");
  });
});

describe("request validation: 422 svc.request.invalid", () => {
  it("bad id patterns, a statement over 349,528 characters, unknown members, a bad secret, an uppercase installation hash", async () => {
    const base = await shapedBody();
    const bad: Record<string, unknown>[] = [
      { capture_identity_id: "crid_abcdefghij234567" },
      { capture_identity_id: "cid_ABCDEFGHIJ234567" },
      { upload_object_id: "ast_abcdefghij234567" },
      { upload_object_id: "aob_abc" },
      { challenge_id: "cid_abcdefghij234567" },
      { attestation_kind: "safetynet" },
      { statement: "x".repeat(349_529) },
      { statement: "" },
      { unexpected: true },
      { challenge_secret: "a".repeat(42) },
      { challenge_secret: "a".repeat(44) },
      { challenge_secret: `${"a".repeat(42)}=` },
      { installation_id_sha256: device.installation.toUpperCase() },
      { installation_id_sha256: "ab" },
      { sensor_evidence: [1, 2, 3], sensor_schema_version: "v1" },
      { sensor_evidence: { a: 1 }, sensor_schema_version: "" },
    ];
    for (const extra of bad) {
      await expectError(await admit(key, { ...base, ...extra }), 422, "svc.request.invalid");
    }
    const { statement: _s, ...missing } = base;
    await expectError(await admit(key, missing), 422, "svc.request.invalid");
    expect(await admissionRows("tenant_id = ?", tenantId)).toHaveLength(0);
    // The same challenge still works: nothing above consumed it.
    const used = await testEnv.DB.prepare("SELECT used_at FROM capture_admission_challenges WHERE id = ?")
      .bind(base.challenge_id)
      .first<{ used_at: number | null }>();
    expect(used?.used_at).toBeNull();
  });

  it("GET with a malformed admission id, list filters that are not enums or datetimes", async () => {
    await expectError(await api("/v1/capture-admissions/cid_abcdefghij234567", { key }), 422, "svc.request.invalid");
    for (const query of [
      "decision=maybe",
      "decision=PASS",
      "capture_identity_id=crid_abcdefghij234567",
      "decided_from=yesterday",
      "decided_through=2026-13-45",
      "decided_from=1732492800000",
      "limit=0",
      "limit=101",
    ]) {
      await expectError(await api(`/v1/capture-admissions?${query}`, { key }), 422, "svc.request.invalid");
    }
  });
});

describe("503 svc.capture.trust_unavailable", () => {
  it("without SVC_CAPTURE_TRUST a new submission is refused, but a stored submission still replays 200", async () => {
    const t = await createTenant();
    const d = await appAttestDevice(t.key);
    const body = await admissionBody(t.key, d);
    const first = await admit(t.key, body);
    expect(first.status).toBe(201);
    const decision = await json(first);

    const env = { SVC_CAPTURE_TRUST: undefined };
    const replay = await callWith(env, "/v1/capture-admissions", t.key, body);
    expect(replay.status, await replay.clone().text()).toBe(200);
    expect(await json(replay)).toEqual(decision);

    const fresh = await admissionBody(t.key, d, { counter: 2 });
    const err = await expectError(await callWith(env, "/v1/capture-admissions", t.key, fresh), 503, "svc.capture.trust_unavailable");
    expect(err.retryable).toBe(true);
    expect(await admissionRows("tenant_id = ?", t.tenantId)).toHaveLength(1);
  });
});

describe("malformed statements are decisions (201 reject evidence_invalid), never errors", () => {
  /** Flips one byte in the middle of standard base64 `text`. */
  function flipBase64(text: string): string {
    const bytes = Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
    bytes[Math.floor(bytes.length / 2)]! ^= 0x01;
    return btoa(String.fromCharCode(...bytes));
  }

  async function expectEvidenceInvalid(k: string, body: Record<string, unknown>, mediaMissing: boolean) {
    const res = await admit(k, body);
    const result = await json(res);
    expect(res.status, JSON.stringify(result)).toBe(201);
    expect(result).toMatchObject({ decision: "reject", reason: "evidence_invalid", job_id: null });
    expect(result.failed_gates[0]).toBe("evidence_invalid");
    if (mediaMissing) expect(result.failed_gates).toContain("media_substitution");
    else expect(result.failed_gates).not.toContain("media_substitution");
    return result;
  }

  it("App Attest: not JSON, a missing or extra member, a non-hex media hash, a flipped assertion byte", async () => {
    const statements: [string, boolean][] = [
      ["not json", true],
      ["[]", true],
      ["null", true],
      [JSON.stringify({ media_sha256: upload.sha256 }), true],
      [JSON.stringify({ assertion: "AAAA" }), true],
      [JSON.stringify({ media_sha256: upload.sha256, assertion: "AAAA", extra: "x" }), true],
      [JSON.stringify({ media_sha256: upload.sha256, assertion: 7 }), true],
      [JSON.stringify({ media_sha256: upload.sha256.toUpperCase(), assertion: "AAAA" }), true],
      [JSON.stringify({ media_sha256: "z".repeat(64), assertion: "AAAA" }), true],
      [JSON.stringify({ media_sha256: upload.sha256, assertion: "not base64!" }), false],
    ];
    for (const [statement, mediaMissing] of statements) {
      const body = { ...(await admissionBody(key, device, { upload })), statement };
      await expectEvidenceInvalid(key, body, mediaMissing);
    }
    const good = await admissionBody(key, device, { upload });
    const parsed = JSON.parse(good.statement);
    const flipped = JSON.stringify({ ...parsed, assertion: flipBase64(parsed.assertion) });
    const rejected = await expectEvidenceInvalid(key, { ...good, statement: flipped }, false);
    const detail = await json(await api(`/v1/capture-admissions/${rejected.capture_admission_id}`, { key }));
    expect(detail.not_evaluated).toContain("counter_replay");
  });

  it("Play Integrity: a flipped token byte; Android: a flipped chain byte, a flipped signature byte", async () => {
    const t = await createTenant();
    const play: PlayDevice = await playDevice(t.key);
    const android: AndroidDevice = await androidDevice(t.key);
    const own = await capturedUpload(t.key);

    const p = await admissionBody(t.key, play, { upload: own });
    const ps = JSON.parse(p.statement);
    const parts = ps.token.split(".");
    const cipher: string = parts[3];
    const at = Math.floor(cipher.length / 2);
    parts[3] = cipher.slice(0, at) + (cipher[at] === "A" ? "B" : "A") + cipher.slice(at + 1);
    await expectEvidenceInvalid(t.key, { ...p, statement: JSON.stringify({ ...ps, token: parts.join(".") }) }, false);
    await expectEvidenceInvalid(t.key, { ...p, statement: JSON.stringify({ ...ps, token: "a.b.c" }) }, false);

    const a = await admissionBody(t.key, android, { upload: own });
    const as = JSON.parse(a.statement);
    const pem: string = as.certificate_chain;
    const firstBlock = pem.match(/-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/)!;
    const der = firstBlock[1]!.replace(/\s+/g, "");
    const flippedChain = pem.replace(firstBlock[1]!, `\n${flipBase64(der)}\n`);
    await expectEvidenceInvalid(t.key, { ...a, statement: JSON.stringify({ ...as, certificate_chain: flippedChain }) }, false);
    const a2 = await admissionBody(t.key, android, { upload: own });
    const as2 = JSON.parse(a2.statement);
    await expectEvidenceInvalid(t.key, { ...a2, statement: JSON.stringify({ ...as2, signature: flipBase64(as2.signature) }) }, false);
    await expectEvidenceInvalid(t.key, { ...a2, statement: JSON.stringify({ ...as2, certificate_chain: "not a pem" }) }, false);
  });
});
