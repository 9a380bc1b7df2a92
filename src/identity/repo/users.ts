import { and, eq, isNull, lt, ne, or, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { idpEvents, idpPendingSubjects, tenants, users } from "../../db/schema";
import { forgetCachedKeys } from "../../platform/auth/key-cache";

/*
 * The only place that touches the users, idp_events and idp_pending_subjects tables (console sessions, #18). Kept beside index.ts (the
 * account reads of GET /v1/me) so neither grows past a screenful.
 */

export type UserRow = typeof users.$inferSelect;
export type IdpEventRow = typeof idpEvents.$inferSelect;
/** The user columns a lifecycle event may move. */
export type UserChange = Partial<Pick<UserRow, "status" | "emailSealed" | "emailDataKeyId" | "emailIndex" | "updatedAt">>;

/** The user of (issuer, subject) with its tenant's status, whatever the user's own status. */
export async function findUserBySubject(db: Database, issuer: string, subject: string) {
  const rows = await db
    .select({ user: users, tenantStatus: tenants.status })
    .from(users)
    .innerJoin(tenants, eq(tenants.id, users.tenantId))
    .where(and(eq(users.issuer, issuer), eq(users.subject, subject)))
    .limit(1);
  return rows[0] ?? null;
}

export async function findUserByEmailIndex(db: Database, emailIndex: string): Promise<UserRow | null> {
  const rows = await db.select().from(users).where(eq(users.emailIndex, emailIndex)).limit(1);
  return rows[0] ?? null;
}

export async function getUser(db: Database, tenantId: string, userId: string): Promise<UserRow | null> {
  const rows = await db
    .select()
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.id, userId)))
    .limit(1);
  return rows[0] ?? null;
}

/**
 * Creates the account and its first user in one batch (one transaction): both or neither. False when a unique index
 * refused the user (the same subject or e-mail provisioned concurrently), and then no account was created either.
 */
export async function insertAccountWithUser(db: Database, tenant: typeof tenants.$inferInsert, user: typeof users.$inferInsert) {
  try {
    await db.batch([db.insert(tenants).values(tenant), db.insert(users).values(user)]);
    return true;
  } catch (err) {
    if (/UNIQUE constraint failed/i.test(String(err))) return false;
    throw err;
  }
}

/** Records a sign-in at most once an hour: true when this call moved `last_signed_in_at` (and so should audit it). */
export async function touchSignIn(db: Database, userId: string, now: number, everyMs: number): Promise<boolean> {
  const moved = await db
    .update(users)
    .set({ lastSignedInAt: now })
    .where(and(eq(users.id, userId), or(isNull(users.lastSignedInAt), lt(users.lastSignedInAt, now - everyMs))))
    .returning({ id: users.id });
  return moved.length > 0;
}

export async function findIdpEvent(db: Database, id: string): Promise<IdpEventRow | null> {
  const rows = await db.select().from(idpEvents).where(eq(idpEvents.id, id)).limit(1);
  return rows[0] ?? null;
}

/**
 * Applies a lifecycle change to a user and records the callback in one batch (one transaction), so the change
 * happens at most once per `idp-id`. `change` null records the callback alone. Invariants: the update only lands on
 * the status the decision was made from (`from`), and never on a deleted user (deleted is final); the callback is
 * recorded only if the update landed (`changes() = 1` in the same transaction). "stale" when the user moved since
 * it was read: nothing was written, the caller re-reads and re-decides. "duplicate" when the event id was already
 * recorded (a concurrent delivery won): nothing changed.
 */
export async function applyIdpEvent(
  db: Database,
  event: typeof idpEvents.$inferInsert,
  change: { userId: string; from: UserRow["status"]; set: UserChange } | null,
): Promise<"applied" | "stale" | "duplicate" | "email_taken"> {
  try {
    if (!change) {
      await db.insert(idpEvents).values(event);
      return "applied";
    }
    const update = db
      .update(users)
      .set(change.set)
      .where(and(eq(users.id, change.userId), eq(users.status, change.from), ne(users.status, "deleted")));
    // All of the table's columns, in its order (drizzle's insert-select lists them all); the row exists only if
    // the update just above changed the user.
    const insert = db.insert(idpEvents).select(sql`
      SELECT ${event.id}, ${event.type}, ${event.tenantId ?? null}, ${event.userId ?? null}, ${event.result},
        ${event.receivedAt}, NULL, NULL
      WHERE changes() = 1`);
    const [, inserted] = await db.batch([update, insert]);
    forgetCachedKeys({ creatorUserId: change.userId }); // the keys this user created follow its status
    return (inserted as D1Result).meta.changes === 1 ? "applied" : "stale";
  } catch (err) {
    // A single query's error is wrapped by drizzle (the driver's message is its cause); a batch's is not.
    const text = `${String(err)} ${String((err as { cause?: unknown })?.cause ?? "")}`;
    if (/UNIQUE constraint failed: idp_events/i.test(text)) return "duplicate";
    if (/UNIQUE constraint failed: users\.email_index/i.test(text)) return "email_taken";
    throw err;
  }
}

/** How long a claim to append an event's audit entry holds before another delivery may take it over (a crash). */
export const IDP_AUDIT_LEASE_MS = 60_000;

/**
 * Claims the right to append the audit entry of a recorded event: true for exactly one caller while the entry is
 * owed and no live claim exists, so concurrent deliveries of one event audit it once.
 */
export async function claimIdpEventAudit(db: Database, id: string, now: number): Promise<boolean> {
  const claimed = await db
    .update(idpEvents)
    .set({ auditClaimedAt: now })
    .where(
      and(
        eq(idpEvents.id, id),
        isNull(idpEvents.auditedAt),
        or(isNull(idpEvents.auditClaimedAt), lt(idpEvents.auditClaimedAt, now - IDP_AUDIT_LEASE_MS)),
      ),
    )
    .returning({ id: idpEvents.id });
  return claimed.length > 0;
}

/** Gives a claim back after a failed append, so the provider's next delivery retries at once. */
export async function releaseIdpEventAudit(db: Database, id: string, claimedAt: number) {
  await db
    .update(idpEvents)
    .set({ auditClaimedAt: null })
    .where(and(eq(idpEvents.id, id), eq(idpEvents.auditClaimedAt, claimedAt)));
}

export async function markIdpEventAudited(db: Database, id: string, now: number) {
  await db.update(idpEvents).set({ auditedAt: now }).where(eq(idpEvents.id, id));
}

export type PendingStatus = (typeof idpPendingSubjects.$inferSelect)["status"];

/** The deactivation or deletion kept for a subject that had no user when it arrived, or null. */
export async function findPendingSubject(db: Database, issuer: string, subject: string): Promise<PendingStatus | null> {
  const rows = await db
    .select({ status: idpPendingSubjects.status })
    .from(idpPendingSubjects)
    .where(and(eq(idpPendingSubjects.issuer, issuer), eq(idpPendingSubjects.subject, subject)))
    .limit(1);
  return rows[0]?.status ?? null;
}

/** Keeps a deactivation or deletion for a subject with no user. A kept deletion stays (deleted is final). */
export async function notePendingSubject(db: Database, issuer: string, subject: string, status: PendingStatus, now: number) {
  await db
    .insert(idpPendingSubjects)
    .values({ issuer, subject, status, receivedAt: now })
    .onConflictDoUpdate({
      target: [idpPendingSubjects.issuer, idpPendingSubjects.subject],
      set: { status: sql`CASE WHEN ${idpPendingSubjects.status} = 'deleted' THEN 'deleted' ELSE excluded.status END`, receivedAt: now },
    });
}

/** A reactivation of a subject with no user: forgets a kept deactivation (never a deletion). */
export async function clearPendingDeactivation(db: Database, issuer: string, subject: string) {
  await db
    .delete(idpPendingSubjects)
    .where(
      and(eq(idpPendingSubjects.issuer, issuer), eq(idpPendingSubjects.subject, subject), eq(idpPendingSubjects.status, "deactivated")),
    );
}

/**
 * Applies a kept status to a user provisioned while it was being kept (the two raced): only from active, a deletion
 * erasing the e-mail as user.deleted does. The user's status afterwards.
 */
export async function applyPendingStatus(db: Database, userId: string, status: PendingStatus, now: number) {
  const set: UserChange =
    status === "deleted"
      ? { status, emailSealed: null, emailDataKeyId: null, emailIndex: null, updatedAt: now }
      : { status, updatedAt: now };
  await db
    .update(users)
    .set(set)
    .where(and(eq(users.id, userId), eq(users.status, "active")));
  forgetCachedKeys({ creatorUserId: userId });
  const rows = await db.select({ status: users.status }).from(users).where(eq(users.id, userId)).limit(1);
  return rows[0]?.status ?? status;
}
