import { and, eq, gte, inArray, isNull, lte, ne, or, type SQL, sql } from "drizzle-orm";
import { type ReservationRow, reserveStatement, walletRefusal } from "../billing/repo/reservations";
import type { Database } from "../db/client";
import { keysetPage } from "../db/keyset";
import {
  assets,
  captureAdmissionChallenges,
  captureAdmissions,
  captureIdentities,
  captureIdentityEnrollments,
  objects,
} from "../db/schema";
import { isAssetBusy, type JobRow, type JobStepRow, jobInsertStatements } from "../jobs/repo";
import type { PageRequest } from "../platform/pagination";

/** A capture_identity_enrollments row. Invariant: the secret only as its SHA-256; completed at most once. */
export type EnrollmentRow = typeof captureIdentityEnrollments.$inferSelect;
/** A capture_identities row. Invariant: `state` only moves active → revoked. */
export type IdentityRow = typeof captureIdentities.$inferSelect;
/** A capture_admission_challenges row. Invariant: the secret only as its SHA-256; `used_at` set at most once. */
export type ChallengeRow = typeof captureAdmissionChallenges.$inferSelect;
/** A capture_admissions row. Invariant: written once, never updated (a decision is terminal). */
export type AdmissionRow = typeof captureAdmissions.$inferSelect;
/** A stored object row (the upload an admission names). */
export type UploadObjectRow = typeof objects.$inferSelect;

export async function insertEnrollment(db: Database, row: EnrollmentRow): Promise<void> {
  await db.insert(captureIdentityEnrollments).values(row);
}

export async function findEnrollment(db: Database, tenantId: string, id: string): Promise<EnrollmentRow | null> {
  return (
    (await db
      .select()
      .from(captureIdentityEnrollments)
      .where(and(eq(captureIdentityEnrollments.tenantId, tenantId), eq(captureIdentityEnrollments.id, id)))
      .get()) ?? null
  );
}

export async function findIdentity(db: Database, tenantId: string, id: string): Promise<IdentityRow | null> {
  return (
    (await db
      .select()
      .from(captureIdentities)
      .where(and(eq(captureIdentities.tenantId, tenantId), eq(captureIdentities.id, id)))
      .get()) ?? null
  );
}

/** An active identity of the tenant holding this key (same provider class) or this installation, if any. */
export async function findActiveConflict(
  db: Database,
  tenantId: string,
  providerClass: IdentityRow["providerClass"],
  keyId: string | null,
  installationIdSha256: string,
): Promise<IdentityRow | null> {
  const sameKey = keyId === null ? undefined : and(eq(captureIdentities.providerClass, providerClass), eq(captureIdentities.keyId, keyId));
  return (
    (await db
      .select()
      .from(captureIdentities)
      .where(
        and(
          eq(captureIdentities.tenantId, tenantId),
          eq(captureIdentities.state, "active"),
          or(sameKey, eq(captureIdentities.installationIdSha256, installationIdSha256)),
        ),
      )
      .get()) ?? null
  );
}

/**
 * Stores the identity and marks its enrolment completed, in one transaction. False when a unique index refused it
 * (another completion of the enrolment, or an active identity with the key or installation won a race): nothing
 * was written then.
 */
export async function insertIdentityCompletingEnrollment(
  db: Database,
  row: IdentityRow,
  completion: { statementSha256: string },
): Promise<boolean> {
  try {
    await db.batch([
      db.insert(captureIdentities).values(row),
      db
        .update(captureIdentityEnrollments)
        .set({ completedAt: row.createdAt, statementSha256: completion.statementSha256, captureIdentityId: row.id })
        .where(
          and(
            eq(captureIdentityEnrollments.tenantId, row.tenantId),
            eq(captureIdentityEnrollments.id, row.enrollmentId),
            isNull(captureIdentityEnrollments.completedAt),
          ),
        ),
    ]);
    return true;
  } catch (error) {
    if (String((error as Error)?.message ?? error).includes("UNIQUE constraint failed")) return false;
    throw error;
  }
}

export interface IdentityFilters {
  state?: IdentityRow["state"] | undefined;
  platform?: IdentityRow["platform"] | undefined;
  provider_class?: IdentityRow["providerClass"] | undefined;
}

export function listIdentities(db: Database, tenantId: string, filters: IdentityFilters, page: PageRequest) {
  const where: (SQL | undefined)[] = [eq(captureIdentities.tenantId, tenantId)];
  if (filters.state) where.push(eq(captureIdentities.state, filters.state));
  if (filters.platform) where.push(eq(captureIdentities.platform, filters.platform));
  if (filters.provider_class) where.push(eq(captureIdentities.providerClass, filters.provider_class));
  return keysetPage(db, captureIdentities, and(...where), page);
}

/** active → revoked; null when the identity is not active (or not this tenant's). */
export async function markRevoked(db: Database, tenantId: string, id: string, apiKeyId: string, now: number): Promise<IdentityRow | null> {
  const rows = await db
    .update(captureIdentities)
    .set({ state: "revoked", revokedAt: now, revokedByKeyId: apiKeyId })
    .where(and(eq(captureIdentities.tenantId, tenantId), eq(captureIdentities.id, id), eq(captureIdentities.state, "active")))
    .returning();
  return rows[0] ?? null;
}

export async function insertChallenge(db: Database, row: ChallengeRow): Promise<void> {
  await db.insert(captureAdmissionChallenges).values(row);
}

/**
 * Ends an unanswered enrolment challenge or admission challenge now (its secret was withheld: nobody holds it), so
 * it is expired rather than live for the rest of its ten minutes. A completed or used one is left as it is.
 */
export async function expireUnusedEnrollment(db: Database, tenantId: string, id: string, now: number): Promise<void> {
  await db
    .update(captureIdentityEnrollments)
    .set({ expiresAt: now })
    .where(
      and(
        eq(captureIdentityEnrollments.tenantId, tenantId),
        eq(captureIdentityEnrollments.id, id),
        isNull(captureIdentityEnrollments.completedAt),
      ),
    );
}

export async function expireUnusedChallenge(db: Database, tenantId: string, id: string, now: number): Promise<void> {
  await db
    .update(captureAdmissionChallenges)
    .set({ expiresAt: now })
    .where(
      and(
        eq(captureAdmissionChallenges.tenantId, tenantId),
        eq(captureAdmissionChallenges.id, id),
        isNull(captureAdmissionChallenges.usedAt),
      ),
    );
}

export async function findChallenge(db: Database, tenantId: string, id: string): Promise<ChallengeRow | null> {
  return (
    (await db
      .select()
      .from(captureAdmissionChallenges)
      .where(and(eq(captureAdmissionChallenges.tenantId, tenantId), eq(captureAdmissionChallenges.id, id)))
      .get()) ?? null
  );
}

export async function findAdmission(db: Database, tenantId: string, id: string): Promise<AdmissionRow | null> {
  return (
    (await db
      .select()
      .from(captureAdmissions)
      .where(and(eq(captureAdmissions.tenantId, tenantId), eq(captureAdmissions.id, id)))
      .get()) ?? null
  );
}

export async function findAdmissionBySubmission(db: Database, tenantId: string, submissionSha256: string): Promise<AdmissionRow | null> {
  return (
    (await db
      .select()
      .from(captureAdmissions)
      .where(and(eq(captureAdmissions.tenantId, tenantId), eq(captureAdmissions.submissionSha256, submissionSha256)))
      .get()) ?? null
  );
}

/** The tenant's stored object `id`, any role (the admission checks it is an upload). */
export async function findObject(db: Database, tenantId: string, id: string): Promise<UploadObjectRow | null> {
  return (
    (await db
      .select()
      .from(objects)
      .where(and(eq(objects.tenantId, tenantId), eq(objects.id, id)))
      .get()) ?? null
  );
}

/**
 * Another active identity of the tenant (not `selfId`) holding this installation, or this key of this provider
 * class: evidence presented for one identity that belongs to another.
 */
export async function findOtherHolder(
  db: Database,
  tenantId: string,
  selfId: string,
  installationIdSha256: string,
  key: { providerClass: IdentityRow["providerClass"]; keyId: string } | null,
): Promise<IdentityRow | null> {
  const sameKey = key ? and(eq(captureIdentities.providerClass, key.providerClass), eq(captureIdentities.keyId, key.keyId)) : undefined;
  return (
    (await db
      .select()
      .from(captureIdentities)
      .where(
        and(
          eq(captureIdentities.tenantId, tenantId),
          ne(captureIdentities.id, selfId),
          eq(captureIdentities.state, "active"),
          or(eq(captureIdentities.installationIdSha256, installationIdSha256), sameKey),
        ),
      )
      .get()) ?? null
  );
}

/** What a passing admission moves forward on its identity (null members are left as they are). */
export interface IdentityAdvance {
  counter: number | null;
  os_version: number | null;
  os_patch_level: number | null;
  app_version: number | null;
  last_attested_at: number;
  last_evidence_issued_at: number | null;
  /** Set when the accepted facts changed: the identity's new version. */
  next_version: { identity_version: number; identity_version_id: string } | null;
}

export type AdmissionWrite = "written" | "duplicate_submission" | "challenge_taken" | "identity_moved" | "wallet_refused" | "asset_busy";

/**
 * Writes one decision in one transaction: the admission, the challenge it consumed (if any), on a pass the asset's
 * claim, the identity's advance and the signing job. Nothing is written when it answers other than "written":
 * "duplicate_submission" (the same submission was stored concurrently), "challenge_taken" (another admission consumed
 * the challenge) or "identity_moved" (a concurrent pass moved the identity's facts past what this one read: the
 * database's capture_identity_forward_only trigger refused to move them back) or "wallet_refused" (the job's
 * reservation no longer fits the wallet: a concurrent admission took the room) or "asset_busy" (another job holds
 * the asset: the claim moved nothing and its guard rolled the batch back).
 *
 * The claim rides in the batch, as sign admission's does (jobs/repo insertJob): a pass never claims its asset
 * without storing its job, so no isolate dying between two writes can strand a claim until the jobs sweep (#22).
 */
export async function writeAdmission(
  db: Database,
  admission: AdmissionRow,
  advance: IdentityAdvance | null,
  job: { job: JobRow; steps: JobStepRow[]; reservation: ReservationRow | null } | null,
): Promise<AdmissionWrite> {
  const statements = [
    // On a pass, the asset's claim and its guard first: a busy asset aborts the batch before anything else is tried.
    ...(job ? assetClaimStatements(db, job.job) : []),
    // Then the wallet reservation: its trigger aborts the whole batch when the wallet cannot cover it.
    ...(job?.reservation ? [reserveStatement(db, job.reservation)] : []),
    db.insert(captureAdmissions).values(admission),
    ...(admission.consumedChallengeId
      ? [
          db
            .update(captureAdmissionChallenges)
            .set({ usedAt: admission.createdAt })
            .where(
              and(
                eq(captureAdmissionChallenges.tenantId, admission.tenantId),
                eq(captureAdmissionChallenges.id, admission.consumedChallengeId),
              ),
            ),
        ]
      : []),
    ...(advance ? [identityAdvanceStatement(db, admission, advance)] : []),
    ...(job ? jobInsertStatements(db, job.job, job.steps) : []),
  ];
  try {
    await db.batch(statements as unknown as Parameters<typeof db.batch>[0]);
    return "written";
  } catch (error) {
    const message = String((error as Error)?.message ?? error);
    if (message.includes("svc_capture_identity_moved")) return "identity_moved";
    if (job && isAssetBusy(error)) return "asset_busy";
    if (walletRefusal(error) !== null) return "wallet_refused";
    if (!message.includes("UNIQUE constraint failed")) throw error;
    if (message.includes("submission_sha256")) return "duplicate_submission";
    if (message.includes("consumed_challenge_id")) return "challenge_taken";
    throw error;
  }
}

/**
 * The claim of `job`'s asset (uploaded or failed → processing) and the guard after it: changes() is the rows the
 * claim changed (a batch runs in order on one connection), and json() of a non-JSON text raises, rolling the whole
 * batch back; the same guard as sign admission's, so jobs/repo `isAssetBusy` recognises it.
 */
function assetClaimStatements(db: Database, job: JobRow) {
  return [
    db
      .update(assets)
      .set({ status: "processing", updatedAt: job.createdAt })
      .where(and(eq(assets.tenantId, job.tenantId), eq(assets.id, job.assetId), inArray(assets.status, ["uploaded", "failed"]))),
    db.select({ claimed: sql<number>`CASE WHEN changes() = 1 THEN 1 ELSE json('svc: asset busy') END` }).from(sql`(SELECT 1)`),
  ] as const;
}

function identityAdvanceStatement(db: Database, admission: AdmissionRow, advance: IdentityAdvance) {
  const set: Partial<IdentityRow> = { lastAttestedAt: advance.last_attested_at };
  if (advance.counter !== null) set.counter = advance.counter;
  if (advance.os_version !== null) set.osVersion = advance.os_version;
  if (advance.os_patch_level !== null) set.osPatchLevel = advance.os_patch_level;
  if (advance.app_version !== null) set.appVersion = advance.app_version;
  if (advance.last_evidence_issued_at !== null) set.lastEvidenceIssuedAt = advance.last_evidence_issued_at;
  if (advance.next_version) {
    set.identityVersion = advance.next_version.identity_version;
    set.identityVersionId = advance.next_version.identity_version_id;
  }
  return db
    .update(captureIdentities)
    .set(set)
    .where(and(eq(captureIdentities.tenantId, admission.tenantId), eq(captureIdentities.id, admission.captureIdentityId)));
}

export interface AdmissionFilters {
  decision?: AdmissionRow["decision"] | undefined;
  capture_identity_id?: string | undefined;
  /** Epoch ms, inclusive. */
  decided_from?: number | undefined;
  /** Epoch ms, inclusive. */
  decided_through?: number | undefined;
}

export function listAdmissions(db: Database, tenantId: string, filters: AdmissionFilters, page: PageRequest) {
  const where: (SQL | undefined)[] = [eq(captureAdmissions.tenantId, tenantId)];
  if (filters.decision) where.push(eq(captureAdmissions.decision, filters.decision));
  if (filters.capture_identity_id) where.push(eq(captureAdmissions.captureIdentityId, filters.capture_identity_id));
  if (filters.decided_from !== undefined) where.push(gte(captureAdmissions.createdAt, filters.decided_from));
  if (filters.decided_through !== undefined) where.push(lte(captureAdmissions.createdAt, filters.decided_through));
  return keysetPage(db, captureAdmissions, and(...where), page);
}
