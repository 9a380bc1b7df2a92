import { and, eq, ne, type SQL } from "drizzle-orm";
import type { Database } from "../db/client";
import { newestFirst, pageWindow } from "../db/keyset";
import { creatorDisclosurePolicies, creatorIdentities, tenants } from "../db/schema";
import type { PageRequest } from "../platform/pagination";

/** A creator_identities row. Invariant: personal fields only sealed; all three sealed fields are null once erased. */
export type CreatorRow = typeof creatorIdentities.$inferSelect;
export type PolicyRow = typeof creatorDisclosurePolicies.$inferSelect;

export async function findCreator(db: Database, tenantId: string, creatorId: string): Promise<CreatorRow | null> {
  return (
    (await db
      .select()
      .from(creatorIdentities)
      .where(and(eq(creatorIdentities.tenantId, tenantId), eq(creatorIdentities.id, creatorId)))
      .get()) ?? null
  );
}

export async function findCreatorByRef(db: Database, creatorRef: string): Promise<CreatorRow | null> {
  return (await db.select().from(creatorIdentities).where(eq(creatorIdentities.creatorRef, creatorRef)).get()) ?? null;
}

export async function findActiveByEmailLookup(db: Database, tenantId: string, emailLookup: string): Promise<CreatorRow | null> {
  return (
    (await db
      .select()
      .from(creatorIdentities)
      .where(
        and(
          eq(creatorIdentities.tenantId, tenantId),
          eq(creatorIdentities.emailLookup, emailLookup),
          eq(creatorIdentities.status, "active"),
        ),
      )
      .get()) ?? null
  );
}

/** Inserts an active identity unless the tenant already has an active one for this e-mail (the partial unique index decides). */
export async function insertCreatorUnlessActive(db: Database, row: typeof creatorIdentities.$inferInsert): Promise<boolean> {
  const inserted = await db.insert(creatorIdentities).values(row).onConflictDoNothing().returning({ id: creatorIdentities.id });
  return inserted.length === 1;
}

export async function listCreators(db: Database, tenantId: string, status: CreatorRow["status"] | undefined, page: PageRequest) {
  const filters: (SQL | undefined)[] = [
    eq(creatorIdentities.tenantId, tenantId),
    pageWindow(creatorIdentities.createdAt, creatorIdentities.id, page),
  ];
  if (status) filters.push(eq(creatorIdentities.status, status));
  return db
    .select()
    .from(creatorIdentities)
    .where(and(...filters))
    .orderBy(...newestFirst(creatorIdentities.createdAt, creatorIdentities.id))
    .limit(page.limit + 1);
}

/** active → withdrawn; null when the identity is not active (or not this tenant's). */
export async function markWithdrawn(db: Database, tenantId: string, creatorId: string, now: number): Promise<CreatorRow | null> {
  const rows = await db
    .update(creatorIdentities)
    .set({ status: "withdrawn", withdrawnAt: now })
    .where(and(eq(creatorIdentities.tenantId, tenantId), eq(creatorIdentities.id, creatorId), eq(creatorIdentities.status, "active")))
    .returning();
  return rows[0] ?? null;
}

/** Deletes the sealed personal data, lookup hash and salt and marks the identity erased; null when not this tenant's or already erased. */
export async function markErased(db: Database, tenantId: string, creatorId: string, now: number): Promise<CreatorRow | null> {
  const rows = await db
    .update(creatorIdentities)
    .set({ status: "erased", erasedAt: now, emailSealed: null, nameSealed: null, saltSealed: null, emailLookup: null })
    .where(and(eq(creatorIdentities.tenantId, tenantId), eq(creatorIdentities.id, creatorId), ne(creatorIdentities.status, "erased")))
    .returning();
  return rows[0] ?? null;
}

export async function findPolicy(db: Database, tenantId: string): Promise<PolicyRow | null> {
  return (await db.select().from(creatorDisclosurePolicies).where(eq(creatorDisclosurePolicies.tenantId, tenantId)).get()) ?? null;
}

export async function upsertPolicy(db: Database, row: PolicyRow): Promise<PolicyRow> {
  const { tenantId: _tenant, ...fields } = row;
  const [stored] = await db
    .insert(creatorDisclosurePolicies)
    .values(row)
    .onConflictDoUpdate({ target: creatorDisclosurePolicies.tenantId, set: fields })
    .returning();
  return stored!;
}

/** The tenant's name: the brand name while the tenant has set no policy. */
export async function tenantName(db: Database, tenantId: string): Promise<string | null> {
  const row = await db.select({ name: tenants.name }).from(tenants).where(eq(tenants.id, tenantId)).get();
  return row?.name ?? null;
}
