import { and, asc, desc, eq, gt, gte, lt, lte, type SQL } from "drizzle-orm";
import type { Database } from "../../db/client";
import { auditEvents } from "../../db/schema";
import type { ChainedEntry } from "./chain";

export type AuditRow = typeof auditEvents.$inferSelect;

/** The newest entry of a tenant's chain (its head), or null for a tenant with none. */
export async function chainHead(db: Database, tenantId: string): Promise<{ seq: number; hash: string } | null> {
  const rows = await db
    .select({ seq: auditEvents.seq, hash: auditEvents.hash })
    .from(auditEvents)
    .where(eq(auditEvents.tenantId, tenantId))
    .orderBy(desc(auditEvents.seq))
    .limit(1);
  return rows[0] ?? null;
}

/** The hash of the entry at `seq` in a tenant's chain, or null when there is none. */
export async function hashAt(db: Database, tenantId: string, seq: number): Promise<string | null> {
  const rows = await db
    .select({ hash: auditEvents.hash })
    .from(auditEvents)
    .where(and(eq(auditEvents.tenantId, tenantId), eq(auditEvents.seq, seq)))
    .limit(1);
  return rows[0]?.hash ?? null;
}

/**
 * Inserts chained entries in one batch (all or none). The (tenant_id, seq) primary key makes a second writer that
 * computed from a stale head fail instead of forking the chain.
 */
export async function insertEntries(db: Database, entries: readonly ChainedEntry[]): Promise<void> {
  if (entries.length === 0) return;
  const [first, ...rest] = entries.map((e) => db.insert(auditEvents).values(e));
  await db.batch([first!, ...rest]);
}

export interface AuditFilters {
  action?: string | undefined;
  actorId?: string | undefined;
  targetId?: string | undefined;
  outcome?: AuditRow["outcome"] | undefined;
  from?: number | undefined;
  through?: number | undefined;
}

/** Newest first, before `beforeSeq` (exclusive) when given; `limit` rows. */
export async function listEntries(db: Database, tenantId: string, filters: AuditFilters, beforeSeq: number | null, limit: number) {
  const where: SQL[] = [eq(auditEvents.tenantId, tenantId)];
  if (filters.action !== undefined) where.push(eq(auditEvents.action, filters.action));
  if (filters.actorId !== undefined) where.push(eq(auditEvents.actorId, filters.actorId));
  if (filters.targetId !== undefined) where.push(eq(auditEvents.targetId, filters.targetId));
  if (filters.outcome !== undefined) where.push(eq(auditEvents.outcome, filters.outcome));
  if (filters.from !== undefined) where.push(gte(auditEvents.occurredAt, filters.from));
  if (filters.through !== undefined) where.push(lte(auditEvents.occurredAt, filters.through));
  if (beforeSeq !== null) where.push(lt(auditEvents.seq, beforeSeq));
  return db
    .select()
    .from(auditEvents)
    .where(and(...where))
    .orderBy(desc(auditEvents.seq))
    .limit(limit);
}

/** Oldest first from `afterSeq` (exclusive): how a verification or an export streams the whole chain. */
export async function chainPage(db: Database, tenantId: string, afterSeq: number, limit: number): Promise<AuditRow[]> {
  return db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.tenantId, tenantId), gt(auditEvents.seq, afterSeq)))
    .orderBy(asc(auditEvents.seq))
    .limit(limit);
}
