import { asc, desc, eq, isNotNull, isNull, lte } from "drizzle-orm";
import type { Database } from "../db/client";
import { anchorCheckpoints, anchorEntries, deletedPublications } from "../db/schema";
import { rowsOf, statementOf } from "../db/statements";

/*
 * Every D1 statement of the transparency log: entries (`anchor_entries`, appended unsequenced by the publication
 * batch, sequenced when sealed) and signed checkpoints (`anchor_checkpoints`, keyed by tree size).
 */

export type AnchorEntryRow = typeof anchorEntries.$inferSelect;
export type CheckpointRow = typeof anchorCheckpoints.$inferSelect;

/** The guarded append of one entry (the publication batch runs it with its other statements). */
export function insertEntryStatement(
  d1: D1Database,
  entry: { publicationId: string; tenantId: string; manifestSha256: string; leafHash: string; createdAt: number },
  guard: { sql: string; binds: unknown[] },
): D1PreparedStatement {
  return d1
    .prepare(
      `INSERT INTO anchor_entries (publication_id, tenant_id, manifest_sha256, leaf_hash, leaf_index, sealed_tree_size, inclusion_proof, created_at) SELECT ?, ?, ?, ?, NULL, NULL, NULL, ? WHERE ${guard.sql}`,
    )
    .bind(entry.publicationId, entry.tenantId, entry.manifestSha256, entry.leafHash, entry.createdAt, ...guard.binds);
}

/** Unsequenced entries, oldest first (ties by publication id), at most `limit`. */
export function pendingEntries(db: Database, limit: number): Promise<AnchorEntryRow[]> {
  return db
    .select()
    .from(anchorEntries)
    .where(isNull(anchorEntries.leafIndex))
    .orderBy(asc(anchorEntries.createdAt), asc(anchorEntries.publicationId))
    .limit(limit);
}

/** The leaf hashes of sequenced entries, in leaf order; `maxIndex` bounds the leaf index (inclusive). */
export function sealedLeafHashes(db: Database, maxIndex?: number): Promise<{ leafHash: string }[]> {
  return db
    .select({ leafHash: anchorEntries.leafHash })
    .from(anchorEntries)
    .where(maxIndex === undefined ? isNotNull(anchorEntries.leafIndex) : lte(anchorEntries.leafIndex, maxIndex))
    .orderBy(asc(anchorEntries.leafIndex));
}

/**
 * One batch: the new checkpoint row and the sequencing of still-pending entries. A concurrent sealer of the same
 * tree size fails its whole batch on the checkpoint's primary key (the error is the caller's to read).
 */
export async function sealBatch(
  d1: D1Database,
  checkpoint: { treeSize: number; rootHash: string; note: string; sealedAt: number },
  sequenced: { publicationId: string; leafIndex: number; inclusionProof: string }[],
): Promise<void> {
  const statements: D1PreparedStatement[] = [
    d1
      .prepare("INSERT INTO anchor_checkpoints (tree_size, root_hash, note, sealed_at) VALUES (?, ?, ?, ?)")
      .bind(checkpoint.treeSize, checkpoint.rootHash, checkpoint.note, checkpoint.sealedAt),
  ];
  for (const s of sequenced) {
    statements.push(
      d1
        .prepare(
          "UPDATE anchor_entries SET leaf_index = ?, sealed_tree_size = ?, inclusion_proof = ? WHERE publication_id = ? AND leaf_index IS NULL",
        )
        .bind(s.leafIndex, checkpoint.treeSize, s.inclusionProof, s.publicationId),
    );
  }
  await d1.batch(statements);
}

export async function entryOfPublication(db: Database, publicationId: string): Promise<AnchorEntryRow | null> {
  const [entry] = await db.select().from(anchorEntries).where(eq(anchorEntries.publicationId, publicationId)).limit(1);
  return entry ?? null;
}

/** When the publication was deleted by its owner (its log entry stays provable), or null while it was not. */
export async function publicationDeletedAt(db: Database, publicationId: string): Promise<number | null> {
  const [row] = await db
    .select({ at: deletedPublications.deletedAt })
    .from(deletedPublications)
    .where(eq(deletedPublications.publicationId, publicationId))
    .limit(1);
  return row?.at ?? null;
}

/** Entries of this manifest store (by SHA-256 hex), at most `limit`. */
export function entriesOfManifest(db: Database, manifestSha256Hex: string, limit: number): Promise<AnchorEntryRow[]> {
  return entriesOfManifestQuery(db, manifestSha256Hex, limit);
}

/** The same read as one raw statement, for a caller's D1 batch (its rows: entriesOfManifestRows). */
export function entriesOfManifestStatement(db: Database, manifestSha256Hex: string, limit: number): D1PreparedStatement {
  return statementOf(db, entriesOfManifestQuery(db, manifestSha256Hex, limit));
}

/** The rows of entriesOfManifestStatement's result, as entriesOfManifest returns them. */
export function entriesOfManifestRows(result: D1Result | undefined): AnchorEntryRow[] {
  return rowsOf(anchorEntries, result);
}

function entriesOfManifestQuery(db: Database, manifestSha256Hex: string, limit: number) {
  return db.select().from(anchorEntries).where(eq(anchorEntries.manifestSha256, manifestSha256Hex)).limit(limit);
}

export async function checkpointOfSize(db: Database, treeSize: number): Promise<CheckpointRow | null> {
  const [row] = await db.select().from(anchorCheckpoints).where(eq(anchorCheckpoints.treeSize, treeSize)).limit(1);
  return row ?? null;
}

export async function newestCheckpoint(db: Database): Promise<CheckpointRow | null> {
  const [row] = await db.select().from(anchorCheckpoints).orderBy(desc(anchorCheckpoints.treeSize)).limit(1);
  return row ?? null;
}
