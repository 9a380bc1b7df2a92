import type { SigningProfile } from "../api-keys/controls";
import { getAsset } from "../assets/repo";
import { meterJob, pricingFactsOf } from "../billing/metering";
import { formatOf } from "../catalog/formats";
import { recipeById } from "../catalog/recipes";
import type { CapabilityRegistry } from "../catalog/registry";
import type { Database } from "../db/client";
import { captureGovernance } from "../governance/deletions/state";
import { type CaptureClaim, planSign, type SignPlan } from "../jobs/admission";
import type { AttestationTrust } from "../media/attestation/types";
import { sha256Hex } from "../platform/crypto";
import { newId } from "../platform/ids";
import { type AdmissionPrincipal, type AdmissionSubmission, admissionRow, sensorDigest, submissionDigest } from "./admission-records";

export type { AdmissionPrincipal, AdmissionSubmission };

import { admissionEvidence } from "./evidence";
import { decideAdmission, evidenceStanding } from "./gates";
import type { GateChallenge, GateCommercial, GateInput, GatePolicy } from "./gates-types";
import {
  type AdmissionRow,
  findAdmissionBySubmission,
  findIdentity,
  findObject,
  findOtherHolder,
  type IdentityAdvance,
  type IdentityRow,
  type UploadObjectRow,
  writeAdmission,
} from "./repo";
import { gateChallengeOf } from "./service";

/*
 * Capture admissions (issue #16): one submission → one terminal decision by the gates (gates.ts), stored once.
 * A pass creates the signing job in the same transaction. No HTTP here.
 *
 * Order of work: replay (the same submission answers its stored decision, whatever has changed since) → the named
 * identity and upload must exist (404 otherwise: nothing to decide about) → the evidence is verified → the gates
 * decide → on a pass the job is planned → one batch claims the asset and writes everything. A race on the
 * challenge or the asset is decided again with what the race revealed, never written twice.
 */

/** Recipes a capture may be signed with, in preference order: media unchanged, fingerprints recorded when possible. */
const CAPTURE_RECIPES = ["rcp_system_sign", "rcp_system_sign_only"] as const;

export interface AdmissionContext {
  db: Database;
  registry: CapabilityRegistry;
  /** The trust snapshot and policy, or null when none is configured (admissions then answer trust_unavailable). */
  trust: { trust: AttestationTrust; policy: GatePolicy } | null;
  /** The signing pipeline's queue is bound (jobs can be handed over). */
  queueAvailable: boolean;
}

export type AdmissionOutcome =
  | { status: "created" | "replayed"; row: AdmissionRow }
  | { status: "identity_not_found" }
  | { status: "upload_not_found" }
  | { status: "not_an_upload" }
  | { status: "sensor_evidence_invalid"; message: string }
  | { status: "trust_unavailable" };

/** The recipe a capture of `mediaType` is signed with here (within the key's allowed recipes), or null when none fits. */
function captureRecipeFor(registry: CapabilityRegistry, mediaType: string, profile: SigningProfile): string | null {
  const candidates = [...CAPTURE_RECIPES, formatOf(mediaType)?.sidecar_recipe].filter(
    (id): id is string => !!id && (!profile.allowed_recipe_ids || profile.allowed_recipe_ids.includes(id)),
  );
  for (const id of candidates) {
    const recipe = recipeById(id);
    if (recipe && registry.recipeStatus(recipe).active_media_types.includes(mediaType)) return id;
  }
  return null;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function gateIdentity(row: IdentityRow, conflict: boolean): GateInput["identity"] {
  return {
    capture_identity_id: row.id,
    state: row.state,
    conflict,
    kind: row.attestationKind,
    enrolled: {
      app_id: row.appId,
      key_id: row.keyId,
      installation_id_sha256: row.installationIdSha256,
      os_version: row.osVersion,
      os_patch_level: row.osPatchLevel,
      app_version: row.appVersion,
      counter: row.counter,
      last_attested_at: iso(row.lastAttestedAt),
      last_evidence_issued_at: iso(row.lastEvidenceIssuedAt),
    },
  };
}

/** The commercial gate's input: what metering the capture's job would mean for the tenant's wallet now. */
async function commercialOf(
  db: Database,
  tenantId: string,
  object: UploadObjectRow,
  recipeId: string,
  now: number,
): Promise<GateCommercial> {
  const facts = pricingFactsOf(
    object.inspection,
    formatOf(object.mediaType)?.modality ?? "document",
    recipeById(recipeId)?.kind ?? "sign_only",
  );
  const metering = await meterJob(db, tenantId, "job_pending", facts, now);
  switch (metering.status) {
    case "unmetered":
      return { status: "allowed", policy_version: UNMETERED };
    case "metered":
      return { status: "allowed", policy_version: metering.pricingVersion };
    case "unpriced":
      return { status: "rejected", policy_version: "unpriced" };
    default:
      return { status: "rejected", policy_version: metering.pricingVersion };
  }
}

/** Recorded as the commercial source of a tenant the wallet does not meter. */
const UNMETERED = "unmetered";

const commercialVersion = (c: GateCommercial) => (c.status === "not_configured" ? UNMETERED : c.policy_version);

/** Whether a challenge this decision saw is consumed by it: the identity's own, unused, unexpired, secret right. */
function consumes(challenge: GateChallenge | null, identityId: string, now: number): boolean {
  return (
    challenge !== null &&
    challenge.capture_identity_id === identityId &&
    !challenge.used &&
    challenge.secret_matches &&
    now < Date.parse(challenge.expires_at)
  );
}

/** What a pass moves forward on the identity; a new version when the attested device or app facts changed. */
function advanceOf(identity: IdentityRow, input: GateInput, now: number): IdentityAdvance {
  const facts = input.attestation.status === "verified" ? input.attestation.facts : null;
  const changed =
    facts !== null &&
    ((facts.os_version !== null && facts.os_version !== identity.osVersion) ||
      (facts.os_patch_level !== null && facts.os_patch_level !== identity.osPatchLevel) ||
      (facts.app_version !== null && facts.app_version !== identity.appVersion));
  const issued = facts?.issued_at ? Date.parse(facts.issued_at) : Number.NaN;
  return {
    counter: facts?.counter ?? null,
    os_version: facts?.os_version ?? null,
    os_patch_level: facts?.os_patch_level ?? null,
    app_version: facts?.app_version ?? null,
    last_attested_at: now,
    last_evidence_issued_at: Number.isNaN(issued) ? null : issued,
    next_version: changed ? { identity_version: identity.identityVersion + 1, identity_version_id: newId("identityVersion") } : null,
  };
}

/**
 * Decides and stores one admission. Invariants: the same submission (same members, secret and statement) always
 * answers its first stored decision (`replayed`); a challenge is consumed by at most one admission; a `pass` is
 * stored only together with its signing job, the consumed challenge and the identity's advance, in one
 * transaction; every decision is the gates' (`decideAdmission`) over evidence verified at `now`.
 */
export async function submitAdmission(
  ctx: AdmissionContext,
  principal: AdmissionPrincipal,
  submission: AdmissionSubmission,
  now = Date.now(),
): Promise<AdmissionOutcome> {
  const { db } = ctx;
  const { tenantId } = principal;
  const sensor = await sensorDigest(submission);
  if (sensor.status === "invalid") return { status: "sensor_evidence_invalid", message: sensor.message };
  const digest = await submissionDigest(submission, sensor.sha256);
  const stored = await findAdmissionBySubmission(db, tenantId, digest);
  if (stored) return { status: "replayed", row: stored };

  if (!ctx.trust) return { status: "trust_unavailable" };
  const { trust, policy } = ctx.trust;
  let identity = await findIdentity(db, tenantId, submission.capture_identity_id);
  if (!identity) return { status: "identity_not_found" };
  const object = await findObject(db, tenantId, submission.upload_object_id);
  if (!object) return { status: "upload_not_found" };
  const asset = await getAsset(db, tenantId, object.assetId);
  if (object.role !== "source" || !asset || asset.sourceObjectId !== object.id) return { status: "not_an_upload" };

  const challenge = await gateChallengeOf(db, tenantId, submission.challenge_id, submission.challenge_secret);
  const evidence = await admissionEvidence({
    kind: submission.attestation_kind,
    statement: submission.statement,
    challengeSecret: submission.challenge_secret,
    identity,
    trust,
    now: new Date(now),
  });
  const standing = evidenceStanding(evidence.attestation);
  const freshKey =
    standing.status === "usable" && standing.facts.kind === "hardware_key_attestation" && standing.facts.key_id !== null
      ? { providerClass: standing.facts.provider_class, keyId: standing.facts.key_id }
      : null;
  const conflict = (await findOtherHolder(db, tenantId, identity.id, submission.installation_id_sha256, freshKey)) !== null;
  const recipeId = captureRecipeFor(ctx.registry, object.mediaType, principal.signingProfile);

  const input: GateInput = {
    now: new Date(now),
    identity: gateIdentity(identity, conflict),
    attestation: evidence.attestation,
    challenge,
    submission: {
      attestation_kind: submission.attestation_kind,
      installation_id_sha256: submission.installation_id_sha256,
      expected_binding: evidence.expected_binding,
      upload_sha256: object.sha256,
      statement_media_sha256: evidence.statement_media_sha256,
    },
    policy,
    trust: {
      version: trust.version,
      revocation_version: submission.attestation_kind === "hardware_key_attestation" ? (trust.androidRevocations?.version ?? null) : null,
    },
    governance: await captureGovernance(db, tenantId, asset.id),
    // Published, expired or never-completed assets take no new work; `processing` is work in flight (a conflict).
    asset: { closed: !["uploaded", "failed", "processing"].includes(asset.status) },
    commercial: recipeId === null ? { status: "not_configured" } : await commercialOf(db, tenantId, object, recipeId, now),
    capture_work: { conflict: asset.status === "processing", available: ctx.queueAvailable && recipeId !== null },
  };

  const admissionId = newId("captureAdmission");
  const statementSha256 = await sha256Hex(submission.statement);
  // At most three rounds: a lost race on the asset or on the challenge is decided again with what it revealed.
  for (let round = 0; round < 3; round++) {
    const decision = decideAdmission(input);
    let plan: Extract<SignPlan, { status: "planned" }> | null = null;
    if (decision.decision === "pass") {
      const claim: CaptureClaim = {
        capture_admission_id: admissionId,
        provider_class: identity.providerClass,
        verifier_version: decision.versions.verifier_version,
        trust_snapshot_version: decision.versions.trust_snapshot_version,
        admission_policy_version: decision.versions.admission_policy_version,
        capture_policy_id: decision.versions.capture_policy_id,
        capture_policy_version: decision.versions.capture_policy_version,
        decided_at: new Date(now).toISOString(),
        media_sha256: object.sha256,
        sensor_evidence_sha256: sensor.sha256,
        sensor_schema_version: submission.sensor_schema_version ?? null,
      };
      const planned = await planSign(
        db,
        ctx.registry,
        tenantId,
        { asset_id: asset.id, recipe_id: recipeId! } as Parameters<typeof planSign>[3],
        { asynchronousOnly: true, capture: claim, outputRetentionDays: principal.outputRetentionDays, profile: principal.signingProfile },
        now,
      );
      if (planned.status !== "planned") {
        // The spine refuses this work (busy asset, dimensions it cannot decode, the wallet, ...).
        if (planned.status === "refused" && planned.code === "svc.sign.asset_busy") input.capture_work.conflict = true;
        else if (planned.status === "refused" && planned.code.startsWith("svc.billing."))
          input.commercial = { status: "rejected", policy_version: commercialVersion(input.commercial) };
        else input.capture_work.available = false;
        continue;
      }
      plan = planned;
    }
    const row = admissionRow(admissionId, principal, submission, identity, evidence.attestation.verifier_version, decision, {
      digest,
      sensorSha256: sensor.sha256,
      statementSha256,
      assetId: asset.id,
      consumedChallengeId: consumes(input.challenge, identity.id, now) ? submission.challenge_id : null,
      jobId: plan?.job.id ?? null,
      now,
    });
    const advance = plan ? advanceOf(identity, input, now) : null;
    if (advance?.next_version) row.identityVersionId = advance.next_version.identity_version_id;
    // One transaction with the asset's claim (capture/repo writeAdmission): a failure, or a crash on either side
    // of it, leaves the claim and the decision both written or neither.
    const written = await writeAdmission(
      db,
      row,
      advance,
      plan ? { job: plan.job, steps: plan.steps, reservation: plan.reservation } : null,
    );
    if (written === "written") return { status: "created", row };
    // Whatever the conflict, the same submission stored meanwhile is the answer (an identical submission that won
    // the asset stored its decision in the same transaction as its claim: it is visible now).
    const first = await findAdmissionBySubmission(db, tenantId, digest);
    if (first) return { status: "replayed", row: first };
    if (written === "duplicate_submission") throw new Error("capture admission: duplicate submission not found after a unique conflict");
    if (written === "asset_busy") {
      // Another job holds the asset (it was claimed after this request read it): a conflict, decided again.
      input.capture_work.conflict = true;
      continue;
    }
    if (written === "wallet_refused") {
      input.commercial = { status: "rejected", policy_version: commercialVersion(input.commercial) };
      continue;
    }
    if (written === "identity_moved") {
      // A concurrent pass advanced the identity: decide again against what it now holds (its counter, versions).
      const fresh = await findIdentity(db, tenantId, identity.id);
      if (!fresh) throw new Error("capture admission: identity vanished");
      identity = fresh;
      input.identity = gateIdentity(fresh, conflict);
      continue;
    }
    // challenge_taken: another admission consumed it first; this one is decided with the challenge used.
    input.challenge = challenge === null ? null : { ...challenge, used: true };
  }
  throw new Error("capture admission: no decision could be stored after three rounds");
}
