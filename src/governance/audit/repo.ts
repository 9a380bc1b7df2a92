import { and, asc, desc, eq, gt, gte, lt, lte, type SQL, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { auditEvents, auditOutbox } from "../../db/schema";
import { insertStatement, shape } from "../../db/statements";
import { type ChainedEntry, GENESIS_HASH } from "./chain";

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
 * Inserts chained entries in one batch (all or none), only if D1's newest entry for the tenant is still `prevHash`
 * (GENESIS_HASH: none). The (tenant_id, seq) key already refuses a second writer at the same seq; the guard also
 * refuses a head that moved back (a database restored to an earlier point while the chain's object stayed warm),
 * where the next seq is free and the insert would otherwise land after a gap, a break the service itself made.
 */
export async function insertAfter(
  db: Database,
  tenantId: string,
  prevHash: string,
  entries: readonly ChainedEntry[],
  dropKept: readonly string[] = [],
): Promise<void> {
  // `dropKept`: the outbox rows that kept these entries apart, dropped with them; each must still be there (else
  // the sweep or the request already appended its entry and dropped it), guarded in the same way as the head.
  // #19: each statement is built by drizzle once per shape and bound per call (db/statements.ts); building them
  // on every append was most of the chain object's own CPU per write.
  const kept = [...new Set(dropKept)];
  const keptIds = JSON.stringify(kept);
  await db.$client.batch([
    headGuard(db, { tenantId, genesis: GENESIS_HASH, prevHash }),
    ...(kept.length > 0 ? [keptGuard(db, { keptIds, count: kept.length })] : []),
    ...entries.map((e) => insertStatement(db, auditEvents, [{ ...e }])),
    ...(kept.length > 0 ? [dropKeptRows(db, { keptIds })] : []),
  ]);
}

// json() of a non-JSON text raises inside the batch, rolling it back: SQLite has no RAISE outside triggers.
const headGuard = shape<{ tenantId: string; genesis: string; prevHash: string }>((d, p) =>
  d
    .select({
      ok: sql<number>`CASE WHEN COALESCE((SELECT hash FROM audit_events WHERE tenant_id = ${p("tenantId")} ORDER BY seq DESC LIMIT 1), ${p("genesis")}) = ${p("prevHash")} THEN 1 ELSE json('audit chain head moved') END`,
    })
    .from(sql`(SELECT 1)`),
);

const keptGuard = shape<{ keptIds: string; count: number }>((d, p) =>
  d
    .select({
      ok: sql<number>`CASE WHEN (SELECT COUNT(*) FROM audit_outbox WHERE id IN (SELECT value FROM json_each(${p("keptIds")}))) = ${p("count")} THEN 1 ELSE json('audit kept row gone') END`,
    })
    .from(sql`(SELECT 1)`),
);

const dropKeptRows = shape<{ keptIds: string }>((d, p) =>
  d.delete(auditOutbox).where(sql`${auditOutbox.id} IN (SELECT value FROM json_each(${p("keptIds")}))`),
);

/** Which of these outbox rows (kept entries) are still there: the ones whose entry nobody appended yet. */
export async function keptRowsPresent(db: Database, ids: readonly string[]): Promise<Set<string>> {
  const rows = await db
    .select({ id: auditOutbox.id })
    .from(auditOutbox)
    .where(sql`${auditOutbox.id} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`);
  return new Set(rows.map((r) => r.id));
}

/**
 * `deferEntry` as a raw statement for another area's D1 batch (platform/audit auditInBatch), inserting only when
 * `onlyIf` holds and claimable by the sweep only from `claimedUntil`.
 */
export function keepEntryStatement(
  d1: D1Database,
  tenantId: string,
  kept: { id: string; draft: string; now: number; claimedUntil: number },
  onlyIf: { sql: string; binds: readonly unknown[] },
): D1PreparedStatement {
  return d1
    .prepare(`INSERT INTO audit_outbox (id, tenant_id, draft, created_at, claimed_until) SELECT ?, ?, ?, ?, ? WHERE (${onlyIf.sql})`)
    .bind(kept.id, tenantId, kept.draft, kept.now, kept.claimedUntil, ...onlyIf.binds);
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

/** Keeps one entry whose append failed (its draft as JSON, its time already set) for the sweep to append later. */
export async function deferEntry(db: Database, tenantId: string, draft: string, now: number): Promise<void> {
  await db.insert(auditOutbox).values({ id: crypto.randomUUID(), tenantId, draft, createdAt: now });
}

/**
 * Claims up to `limit` kept entries, oldest first, for `leaseMs` (a claim whose lease lapsed is taken over: its
 * sweep died). Each row is claimed by one caller at a time (the claim is a conditional update).
 */
export async function claimDeferred(db: Database, now: number, leaseMs: number, limit: number) {
  const rows = await db
    .select({ id: auditOutbox.id })
    .from(auditOutbox)
    .where(lt(auditOutbox.claimedUntil, now))
    .orderBy(asc(auditOutbox.createdAt))
    .limit(limit);
  if (rows.length === 0) return [];
  const claim = (id: string) =>
    db
      .update(auditOutbox)
      .set({ claimedUntil: now + leaseMs })
      .where(and(eq(auditOutbox.id, id), lt(auditOutbox.claimedUntil, now)))
      .returning({ id: auditOutbox.id, tenantId: auditOutbox.tenantId, draft: auditOutbox.draft });
  const [first, ...rest] = rows.map((r) => claim(r.id));
  const claimed = await db.batch([first!, ...rest]);
  return claimed.flat();
}

/**
 * Whether the tenant's chain already holds the entry of this request and action at its time (a drain that died
 * after appending and before dropping the kept row); the time keeps the lookup on the tenant-time index.
 */
export async function hasEntryFor(
  db: Database,
  tenantId: string,
  entry: { occurredAt: number; requestId: string; action: string },
): Promise<boolean> {
  const rows = await db
    .select({ seq: auditEvents.seq })
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.tenantId, tenantId),
        eq(auditEvents.occurredAt, entry.occurredAt),
        eq(auditEvents.requestId, entry.requestId),
        eq(auditEvents.action, entry.action),
      ),
    )
    .limit(1);
  return rows.length > 0;
}

/**
 * Whether the tenant's audit holds an entry of `action` on `targetId` that succeeded: kept for the sweep to append
 * (its append failed after the answer; the draft is stored as JSON, read with json_extract) or in the chain. One
 * statement, outbox first.
 */
export async function holdsSucceededEntry(db: Database, tenantId: string, action: string, targetId: string): Promise<boolean> {
  const kept = db
    .select({ one: sql`1` })
    .from(auditOutbox)
    .where(
      and(
        eq(auditOutbox.tenantId, tenantId),
        sql`json_extract(${auditOutbox.draft}, '$.targetId') = ${targetId}`,
        sql`json_extract(${auditOutbox.draft}, '$.action') = ${action}`,
        sql`json_extract(${auditOutbox.draft}, '$.outcome') = 'succeeded'`,
      ),
    );
  const chained = db
    .select({ one: sql`1` })
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.tenantId, tenantId),
        eq(auditEvents.targetId, targetId),
        eq(auditEvents.action, action),
        eq(auditEvents.outcome, "succeeded"),
      ),
    );
  const row = await db.get<{ held: number }>(sql`SELECT (EXISTS ${kept} OR EXISTS ${chained}) AS held`);
  return Number(row?.held ?? 0) === 1;
}

export async function dropDeferred(db: Database, id: string): Promise<void> {
  await db.delete(auditOutbox).where(eq(auditOutbox.id, id));
}
