import { describe, expect, it } from "vitest";
import {
  ADMISSION_REASONS,
  type AdmissionDecision,
  admissionPolicyVersion,
  decideAdmission,
  GATE_ORDER,
  type GateInput,
  type GateReason,
  REASON_MEANINGS,
} from "../../../src/capture/gates.ts";
import type { AttestedFacts } from "../../../src/media/attestation/types.ts";
import { prng } from "../../support/prng.ts";

/*
 * Issue #16 "Must show": each of the twenty reasons produced by a crafted submission, and `passed`. Every case starts
 * from one passing Android key attestation admission and changes exactly one thing, so each row fails exactly its gate.
 */

const NOW = new Date("2026-11-25T10:00:00.000Z");
const BINDING = new Uint8Array(32).fill(7);
const MEDIA = "ab".repeat(32);
const INSTALL = "cd".repeat(32);
const CID = "cid_aaaaaaaaaaaaaaaa";

/** The gates that only read facts: not evaluated when the evidence gates fail. */
const FACT_GATES: GateReason[] = [
  "app_identity_mismatch",
  "app_downgrade",
  "os_downgrade",
  "security_level",
  "boot_state",
  "counter_replay",
];

function androidFacts(): AttestedFacts {
  return {
    kind: "hardware_key_attestation",
    provider_class: "android_key_attestation",
    app_id: "com.example.camera",
    app_trusted: true,
    key_id: "11".repeat(32),
    public_key_spki: new Uint8Array([1, 2, 3]),
    counter: null,
    challenge: new Uint8Array(BINDING),
    security_level: "strongbox",
    boot: { state: "verified", device_locked: true },
    os_version: 150000,
    os_patch_level: 202510,
    app_version: 12,
    device_integrity: [],
    app_recognition: null,
    environment: null,
    issued_at: null,
    revoked: false,
  };
}

/** A fresh, passing admission (Android key attestation, identity enrolled at the same app, OS and app versions). */
function base(): GateInput {
  return {
    now: NOW,
    identity: {
      capture_identity_id: CID,
      state: "active",
      conflict: false,
      kind: "hardware_key_attestation",
      enrolled: {
        app_id: "com.example.camera",
        key_id: "22".repeat(32),
        installation_id_sha256: INSTALL,
        os_version: 150000,
        os_patch_level: 202510,
        app_version: 12,
        counter: null,
        last_attested_at: "2026-11-25T09:00:00.000Z",
        last_evidence_issued_at: null,
      },
    },
    attestation: { status: "verified", facts: androidFacts(), verifier_version: "svc-android-key/1" },
    challenge: { capture_identity_id: CID, expires_at: "2026-11-25T10:05:00.000Z", used: false, secret_matches: true },
    submission: {
      attestation_kind: "hardware_key_attestation",
      installation_id_sha256: INSTALL,
      expected_binding: new Uint8Array(BINDING),
      upload_sha256: MEDIA,
      statement_media_sha256: MEDIA,
    },
    policy: {
      capture_policy_id: "cpv_aaaaaaaaaaaaaaaa",
      capture_policy_version: "1",
      minimum_security_level: "tee",
      require_verified_boot: true,
      required_device_integrity: ["MEETS_DEVICE_INTEGRITY"],
      allowed_app_recognition: ["PLAY_RECOGNIZED"],
      allowed_environments: ["production"],
      clock_skew_tolerance_ms: 0,
    },
    trust: { version: "trust-2026-11-01", revocation_version: "revocations-2026-11-20" },
    governance: { status: "not_configured" },
    asset: null,
    commercial: { status: "not_configured" },
    capture_work: { conflict: false, available: true },
  };
}

type Mutation = (input: GateInput) => void;

/** Changes the facts when there are any (a mutation after the evidence was replaced is a no-op). */
const onFacts =
  (change: (facts: AttestedFacts) => void): Mutation =>
  (input) => {
    if (input.attestation.status === "verified") change(input.attestation.facts);
  };

function craft(...mutations: Mutation[]): GateInput {
  const input = base();
  for (const mutate of mutations) mutate(input);
  return input;
}

/** One crafted change per reason, each failing exactly that gate. */
const TABLE: [GateReason, Mutation][] = [
  ["capture_identity_revoked", (i) => void (i.identity.state = "revoked")],
  ["capture_identity_conflict", (i) => void (i.identity.conflict = true)],
  [
    "evidence_unavailable",
    (i) => void (i.attestation = { status: "unavailable", detail: "no Google roots", verifier_version: "svc-android-key/1" }),
  ],
  ["evidence_invalid", (i) => void (i.attestation = { status: "invalid", detail: "signature", verifier_version: "svc-android-key/1" })],
  ["app_identity_mismatch", onFacts((f) => void (f.app_trusted = false))],
  ["app_downgrade", onFacts((f) => void (f.app_version = 11))],
  ["os_downgrade", onFacts((f) => void (f.os_patch_level = 202509))],
  ["security_level", onFacts((f) => void (f.security_level = "software"))],
  ["boot_state", onFacts((f) => void (f.boot = { state: "unverified", device_locked: false }))],
  // The identity has a counter (as an App Attest one does) and the evidence shows none: no proof of freshness.
  ["counter_replay", (i) => void (i.identity.enrolled.counter = 3)],
  ["clock_rollback", (i) => void (i.identity.enrolled.last_attested_at = "2026-11-25T11:00:00.000Z")],
  ["reinstall_restore", (i) => void (i.submission.installation_id_sha256 = "ef".repeat(32))],
  ["request_mismatch", (i) => void (i.challenge!.used = true)],
  ["media_substitution", (i) => void (i.submission.upload_sha256 = "ba".repeat(32))],
  ["governance_rejected", (i) => void (i.governance = { status: "rejected", policy_version: "governance-1" })],
  ["asset_closed", (i) => void (i.asset = { closed: true })],
  ["commercial_rejected", (i) => void (i.commercial = { status: "rejected", policy_version: "wallet-1" })],
  ["capture_work_conflict", (i) => void (i.capture_work.conflict = true)],
  ["capture_work_unavailable", (i) => void (i.capture_work.available = false)],
];

/** The invariants every decision keeps, whatever its input. */
function expectConsistent(d: AdmissionDecision): void {
  expect(d.reason).toBe(d.failed_gates[0] ?? "passed");
  expect(d.decision).toBe(d.failed_gates.length === 0 ? "pass" : "reject");
  const positions = d.failed_gates.map((g) => GATE_ORDER.indexOf(g));
  expect(positions).toEqual([...positions].sort((a, b) => a - b));
  expect(new Set(positions).size).toBe(positions.length);
  for (const g of d.not_evaluated) expect(d.failed_gates).not.toContain(g);
  for (const v of Object.values(d.versions)) {
    expect(v.length).toBeGreaterThan(0);
    expect(v.length).toBeLessThanOrEqual(128);
  }
}

describe("capture admission gates: one crafted submission per reason", () => {
  it("the reason list is the contract's twenty values, gates in the same order", () => {
    expect(ADMISSION_REASONS).toHaveLength(20);
    expect(GATE_ORDER).toEqual(ADMISSION_REASONS.slice(1));
    expect(TABLE.map(([r]) => r)).toEqual(GATE_ORDER);
    expect(Object.keys(REASON_MEANINGS).sort()).toEqual([...ADMISSION_REASONS].sort());
  });

  it("passed: nothing changed", () => {
    const d = decideAdmission(base());
    expect(d).toMatchObject({ decision: "pass", reason: "passed", failed_gates: [], not_evaluated: [] });
    expect(d.versions).toEqual({
      admission_policy_version: "svc.capture-admission.v1+commercial:not_configured+governance:not_configured",
      capture_policy_id: "cpv_aaaaaaaaaaaaaaaa",
      capture_policy_version: "1",
      governance_policy_version: "not_configured",
      verifier_version: "svc-android-key/1",
      trust_snapshot_version: "trust-2026-11-01",
      revocation_snapshot_version: "revocations-2026-11-20",
    });
    expectConsistent(d);
  });

  it.each(TABLE)("%s", (reason, mutate) => {
    const d = decideAdmission(craft(mutate));
    expect(d.decision).toBe("reject");
    expect(d.reason).toBe(reason);
    expect(d.failed_gates).toEqual([reason]);
    expect(d.not_evaluated).toEqual(reason === "evidence_invalid" || reason === "evidence_unavailable" ? FACT_GATES : []);
    expectConsistent(d);
  });

  it("review (#16 over HTTP): verified Android facts checked without a revocation list are unavailable, so the fact gates do not run on them", () => {
    const d = decideAdmission(
      craft(
        (i) =>
          void (i.attestation = { status: "verified", facts: { ...androidFacts(), revoked: null, os_version: 1 }, verifier_version: "v" }),
      ),
    );
    expect(d.failed_gates).toEqual(["evidence_unavailable"]);
    expect(d.not_evaluated).toEqual(FACT_GATES);
  });

  it("several failures: all listed in gate order, the first is the reason, fact gates skipped without evidence", () => {
    const d = decideAdmission(
      craft(
        (i) => void (i.capture_work.available = false),
        (i) => void (i.submission.upload_sha256 = null),
        (i) => void (i.attestation = { status: "invalid", detail: "chain", verifier_version: "svc-android-key/1" }),
        (i) => void (i.identity.state = "revoked"),
        (i) => void (i.challenge = null),
      ),
    );
    expect(d.reason).toBe("capture_identity_revoked");
    expect(d.failed_gates).toEqual([
      "capture_identity_revoked",
      "evidence_invalid",
      "request_mismatch",
      "media_substitution",
      "capture_work_unavailable",
    ]);
    expect(d.not_evaluated).toEqual(FACT_GATES);
    expectConsistent(d);
  });

  it("property: random combinations fail exactly the changed gates (fact gates skipped without evidence)", () => {
    const rand = prng(16);
    for (let round = 0; round < 500; round++) {
      const chosen = TABLE.filter(() => rand() < 0.3);
      // Both evidence rows replace the attestation: keep one of them at most.
      const rows = chosen.some(([r]) => r === "evidence_invalid") ? chosen.filter(([r]) => r !== "evidence_unavailable") : chosen;
      const d = decideAdmission(craft(...rows.map(([, m]) => m)));
      const noFacts = rows.some(([r]) => r === "evidence_invalid" || r === "evidence_unavailable");
      const expected = rows.map(([r]) => r).filter((r) => !(noFacts && FACT_GATES.includes(r)));
      expect(d.failed_gates, `round ${round}`).toEqual(expected);
      expect(d.not_evaluated).toEqual(noFacts ? FACT_GATES : []);
      expectConsistent(d);
    }
  });
});

/** Facts of a verified App Attest assertion as the capture area maps them (key and counter of the identity). */
function appAttest(counter: number): Mutation {
  return (i) => {
    i.identity.kind = "app_attest";
    i.submission.attestation_kind = "app_attest";
    Object.assign(i.identity.enrolled, { app_id: "TEAMID1234.com.example.camera", key_id: "a2V5", counter: 5 });
    Object.assign(i.identity.enrolled, { os_version: null, os_patch_level: null, app_version: null });
    i.policy.minimum_security_level = "strongbox";
    i.attestation = {
      status: "verified",
      verifier_version: "svc-app-attest/1",
      facts: {
        ...androidFacts(),
        kind: "app_attest",
        provider_class: "apple_app_attest",
        app_id: "TEAMID1234.com.example.camera",
        key_id: "a2V5",
        counter,
        security_level: null,
        boot: null,
        os_version: null,
        os_patch_level: null,
        app_version: null,
        environment: "production",
        revoked: null,
      },
    };
  };
}

/** Facts of a verified Play Integrity verdict. */
const playIntegrity: Mutation = (i) => {
  i.identity.kind = "play_integrity";
  i.submission.attestation_kind = "play_integrity";
  Object.assign(i.identity.enrolled, {
    key_id: null,
    os_version: null,
    os_patch_level: null,
    last_evidence_issued_at: "2026-11-25T09:00:00.000Z",
  });
  i.policy.minimum_security_level = "software";
  i.attestation = {
    status: "verified",
    verifier_version: "svc-play-integrity/1",
    facts: {
      ...androidFacts(),
      kind: "play_integrity",
      provider_class: "google_play_integrity",
      key_id: null,
      public_key_spki: null,
      security_level: null,
      boot: null,
      os_version: null,
      os_patch_level: null,
      device_integrity: ["MEETS_BASIC_INTEGRITY", "MEETS_DEVICE_INTEGRITY"],
      app_recognition: "PLAY_RECOGNIZED",
      environment: "production",
      issued_at: "2026-11-25T09:59:00.000Z",
      revoked: null,
    },
  };
};

const facts = (change: (f: AttestedFacts) => void) => onFacts(change);
const reasonOf = (...mutations: Mutation[]) => decideAdmission(craft(...mutations)).failed_gates;

describe("capture admission gates: each gate's rules", () => {
  it("App Attest: a strictly larger counter passes; equal or lower is counter_replay; another key is request_mismatch", () => {
    expect(reasonOf(appAttest(6))).toEqual([]);
    expect(reasonOf(appAttest(5))).toEqual(["counter_replay"]);
    expect(reasonOf(appAttest(0))).toEqual(["counter_replay"]);
    expect(
      reasonOf(
        appAttest(6),
        facts((f) => void (f.key_id = "b3RoZXI=")),
      ),
    ).toEqual(["request_mismatch"]);
    // Secure Enclave keys meet a strongbox minimum; App Attest states no boot fact, so verified boot asks nothing more.
    expect(decideAdmission(craft(appAttest(6))).not_evaluated).toEqual([]);
  });

  it("App Attest: a development key is an app identity mismatch unless the policy allows development", () => {
    const dev = facts((f) => void (f.environment = "development"));
    expect(reasonOf(appAttest(6), dev)).toEqual(["app_identity_mismatch"]);
    expect(reasonOf(appAttest(6), dev, (i) => void i.policy.allowed_environments.push("development"))).toEqual([]);
  });

  it("Play Integrity: integrity verdicts stand for boot state and security level; app verdict for app identity", () => {
    expect(reasonOf(playIntegrity)).toEqual([]);
    expect(
      reasonOf(
        playIntegrity,
        facts((f) => void (f.device_integrity = ["MEETS_BASIC_INTEGRITY"])),
      ),
    ).toEqual(["boot_state"]);
    expect(reasonOf(playIntegrity, (i) => void (i.policy.minimum_security_level = "tee"))).toEqual(["security_level"]);
    const strong = facts((f) => void f.device_integrity.push("MEETS_STRONG_INTEGRITY"));
    expect(reasonOf(playIntegrity, strong, (i) => void (i.policy.minimum_security_level = "tee"))).toEqual([]);
    expect(reasonOf(playIntegrity, strong, (i) => void (i.policy.minimum_security_level = "strongbox"))).toEqual(["security_level"]);
    expect(
      reasonOf(
        playIntegrity,
        facts((f) => void (f.app_recognition = "UNRECOGNIZED_VERSION")),
      ),
    ).toEqual(["app_identity_mismatch"]);
    expect(
      reasonOf(
        playIntegrity,
        facts((f) => void (f.app_recognition = null)),
      ),
    ).toEqual(["app_identity_mismatch"]);
  });

  it("clock_rollback: an older verdict than the last accepted one, or a decision clock behind the last beyond tolerance", () => {
    expect(
      reasonOf(
        playIntegrity,
        facts((f) => void (f.issued_at = "2026-11-25T08:59:59.999Z")),
      ),
    ).toEqual(["clock_rollback"]);
    const behind = (i: GateInput) => void (i.identity.enrolled.last_attested_at = "2026-11-25T10:00:30.000Z");
    expect(reasonOf(behind)).toEqual(["clock_rollback"]);
    expect(reasonOf(behind, (i) => void (i.policy.clock_skew_tolerance_ms = 30_000))).toEqual([]);
    expect(reasonOf((i) => void (i.identity.enrolled.last_attested_at = "yesterday"))).toEqual(["clock_rollback"]);
    expect(reasonOf((i) => void (i.now = new Date(Number.NaN)))).toContain("clock_rollback");
    expect(reasonOf((i) => void (i.identity.enrolled.last_attested_at = null))).toEqual([]);
  });

  it("request_mismatch: challenge unknown, another identity's, expired, used, wrong secret; evidence of another kind or binding", () => {
    const cases: Mutation[] = [
      (i) => void (i.challenge = null),
      (i) => void (i.challenge!.capture_identity_id = "cid_bbbbbbbbbbbbbbbb"),
      (i) => void (i.challenge!.expires_at = NOW.toISOString()),
      (i) => void (i.challenge!.expires_at = "soon"),
      (i) => void (i.challenge!.secret_matches = false),
      (i) => void (i.submission.attestation_kind = "play_integrity"),
      facts((f) => void (f.kind = "play_integrity")),
      facts((f) => void (f.challenge = new Uint8Array(32))),
      facts((f) => void (f.challenge = null)),
      (i) => void (i.submission.expected_binding = new Uint8Array(31).fill(7)),
    ];
    for (const [n, mutate] of cases.entries()) expect(reasonOf(mutate), `case ${n}`).toEqual(["request_mismatch"]);
    // Android attests a fresh key per challenge: its key id is not compared with the enrolled one.
    expect(reasonOf(facts((f) => void (f.key_id = "33".repeat(32))))).toEqual([]);
  });

  it("evidence_invalid also covers a chain on the revocation list, whose facts are then not used", () => {
    const d = decideAdmission(craft(facts((f) => void Object.assign(f, { revoked: true, app_trusted: false }))));
    expect(d.failed_gates).toEqual(["evidence_invalid"]);
    expect(d.not_evaluated).toEqual(FACT_GATES);
  });

  it("review: an Android chain checked without a revocation list is evidence_unavailable", () => {
    expect(reasonOf(facts((f) => void Object.assign(f, { revoked: null })))).toEqual(["evidence_unavailable"]);
  });

  it("review: Play Integrity needs a device verdict even when the policy asks no verified boot; an empty required list means MEETS_DEVICE_INTEGRITY", () => {
    const noLabels = facts((f) => void Object.assign(f, { device_integrity: [] }));
    const lax: Mutation = (i) => void Object.assign(i.policy, { require_verified_boot: false, required_device_integrity: [] });
    expect(reasonOf(playIntegrity, lax)).toEqual([]);
    expect(reasonOf(playIntegrity, lax, noLabels)).toContain("boot_state");
    expect(reasonOf(playIntegrity, noLabels)).toContain("boot_state");
  });

  it("review: an App Attest identity without a counter or key id, a non-finite tolerance, a short binding never pass", () => {
    const noCounter: Mutation = (i) => void Object.assign(i.identity.enrolled, { counter: null });
    expect(reasonOf(appAttest(6), noCounter)).toContain("counter_replay");
    const nanCounter: Mutation = (i) => void Object.assign(i.identity.enrolled, { counter: Number.NaN });
    expect(reasonOf(appAttest(6), nanCounter)).toContain("counter_replay");
    const noKey: Mutation = (i) => void Object.assign(i.identity.enrolled, { key_id: null });
    expect(reasonOf(appAttest(6), noKey)).toContain("request_mismatch");
    const nanTolerance: Mutation = (i) => void Object.assign(i.policy, { clock_skew_tolerance_ms: Number.NaN });
    const d = decideAdmission(
      craft(nanTolerance, (i) => void Object.assign(i.identity.enrolled, { last_attested_at: "2026-11-25T09:00:00.000Z" })),
    );
    expect(d.failed_gates).toContain("clock_rollback");
    const shortBinding: Mutation = (i) => {
      i.submission.expected_binding = new Uint8Array(8).fill(7);
      if (i.attestation.status === "verified") i.attestation.facts.challenge = new Uint8Array(8).fill(7);
    };
    expect(reasonOf(shortBinding)).toContain("request_mismatch");
  });

  it("app identity, downgrades and boot: each comparison", () => {
    expect(reasonOf(facts((f) => void (f.app_id = "com.example.other")))).toEqual(["app_identity_mismatch"]);
    expect(reasonOf(facts((f) => void (f.os_version = 140000)))).toEqual(["os_downgrade"]);
    expect(reasonOf(facts((f) => void Object.assign(f, { os_version: 160000, os_patch_level: 202509 })))).toEqual(["os_downgrade"]);
    expect(reasonOf(facts((f) => void Object.assign(f, { os_version: 160000, os_patch_level: 202511, app_version: 13 })))).toEqual([]);
    expect(reasonOf(facts((f) => void (f.boot = { state: "self_signed", device_locked: true })))).toEqual(["boot_state"]);
    expect(reasonOf(facts((f) => void (f.boot = { state: "verified", device_locked: false })))).toEqual(["boot_state"]);
    expect(reasonOf(facts((f) => void (f.boot = null)))).toEqual(["boot_state"]);
    const unlocked = facts((f) => void (f.boot = { state: "unverified", device_locked: false }));
    expect(reasonOf(unlocked, (i) => void (i.policy.require_verified_boot = false))).toEqual([]);
    expect(reasonOf(facts((f) => void (f.security_level = "tee")))).toEqual([]);
  });

  it("media_substitution: the stored hash must equal the bound one, both known and canonical", () => {
    expect(reasonOf((i) => void (i.submission.statement_media_sha256 = null))).toEqual(["media_substitution"]);
    expect(reasonOf((i) => void (i.submission.upload_sha256 = null))).toEqual(["media_substitution"]);
    const upper = (i: GateInput) =>
      void Object.assign(i.submission, { upload_sha256: MEDIA.toUpperCase(), statement_media_sha256: MEDIA.toUpperCase() });
    expect(reasonOf(upper)).toEqual(["media_substitution"]);
  });

  it("versions: configured governance and commercial sources are named; an impossible version string is refused", () => {
    const d = decideAdmission(
      craft(
        (i) => void (i.governance = { status: "allowed", policy_version: "holds-7" }),
        (i) => void (i.commercial = { status: "allowed", policy_version: "wallet-3" }),
        (i) => void (i.trust.revocation_version = null),
      ),
    );
    expect(d.reason).toBe("passed");
    expect(d.versions.admission_policy_version).toBe("svc.capture-admission.v1+commercial:wallet-3+governance:holds-7");
    expect(d.versions.admission_policy_version).toBe(
      admissionPolicyVersion({ status: "allowed", policy_version: "holds-7" }, { status: "allowed", policy_version: "wallet-3" }),
    );
    expect(d.versions.governance_policy_version).toBe("holds-7");
    expect(d.versions.revocation_snapshot_version).toBe("none");
    expect(() => decideAdmission(craft((i) => void (i.policy.capture_policy_version = "v".repeat(129))))).toThrow(RangeError);
  });

  it("pure: the same input gives the same decision and is left unchanged", () => {
    const input = craft(...TABLE.filter((_, n) => n % 3 === 0).map(([, m]) => m));
    const before = structuredClone(input);
    expect(decideAdmission(input)).toEqual(decideAdmission(input));
    expect(input).toEqual(before);
  });
});
