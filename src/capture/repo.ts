import { and, eq, isNull, or, type SQL } from "drizzle-orm";
import type { Database } from "../db/client";
import { keysetPage } from "../db/keyset";
import { captureAdmissionChallenges, captureIdentities, captureIdentityEnrollments } from "../db/schema";
import type { PageRequest } from "../platform/pagination";

/** A capture_identity_enrollments row. Invariant: the secret only as its SHA-256; completed at most once. */
export type EnrollmentRow = typeof captureIdentityEnrollments.$inferSelect;
/** A capture_identities row. Invariant: `state` only moves active → revoked. */
export type IdentityRow = typeof captureIdentities.$inferSelect;
/** A capture_admission_challenges row. Invariant: the secret only as its SHA-256; `used_at` set at most once. */
export type ChallengeRow = typeof captureAdmissionChallenges.$inferSelect;

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

export async function findChallenge(db: Database, tenantId: string, id: string): Promise<ChallengeRow | null> {
  return (
    (await db
      .select()
      .from(captureAdmissionChallenges)
      .where(and(eq(captureAdmissionChallenges.tenantId, tenantId), eq(captureAdmissionChallenges.id, id)))
      .get()) ?? null
  );
}
