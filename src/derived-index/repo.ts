import { eq, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { derivedIndexRuns } from "../db/schema";

/*
 * Statements of the derived-index reconciler. The index tables (`soft_bindings`, `pdq_bands`, `pdq_regions`,
 * `chromaprint_frames`) are written by the
 * publication batch (src/jobs/repo/publication.ts); their source of truth is the asset row that carries the
 * publication (`assets.id` = asset_id, `assets.publication_id` = publication_id, same tenant).
 */

export type RunRow = typeof derivedIndexRuns.$inferSelect;

/** The run record of reconciler `name`, or null before its first run. */
export async function findRun(db: Database, name: string): Promise<RunRow | null> {
  const rows = await db.select().from(derivedIndexRuns).where(eq(derivedIndexRuns.name, name)).limit(1);
  return rows[0] ?? null;
}

/** Marks a run as started (creating the record on first use); returns the record as it stood. */
export async function startRun(db: Database, name: string, now: number): Promise<RunRow> {
  await db
    .insert(derivedIndexRuns)
    .values({ name, lastStartedAt: now })
    .onConflictDoUpdate({ target: derivedIndexRuns.name, set: { lastStartedAt: now } });
  return (await findRun(db, name))!;
}

/** What one run did, written when it succeeded. */
export interface RunOutcome {
  bindingsCursor: string;
  bandsCursor: string;
  scanned: number;
  bindingsRemoved: number;
  bandsRemoved: number;
  passCompleted: boolean;
}

export async function finishRun(db: Database, name: string, now: number, outcome: RunOutcome): Promise<void> {
  await db
    .update(derivedIndexRuns)
    .set({
      lastSucceededAt: now,
      bindingsCursor: outcome.bindingsCursor,
      bandsCursor: outcome.bandsCursor,
      lastScanned: outcome.scanned,
      lastBindingsRemoved: outcome.bindingsRemoved,
      lastBandsRemoved: outcome.bandsRemoved,
      totalRemoved: sql`${derivedIndexRuns.totalRemoved} + ${outcome.bindingsRemoved + outcome.bandsRemoved}`,
      passesCompleted: sql`${derivedIndexRuns.passesCompleted} + ${outcome.passCompleted ? 1 : 0}`,
    })
    .where(eq(derivedIndexRuns.name, name));
}

export async function failRun(db: Database, name: string, now: number): Promise<void> {
  await db.update(derivedIndexRuns).set({ lastFailedAt: now }).where(eq(derivedIndexRuns.name, name));
}

/** Cursor over soft_bindings: the last (publication_id, algorithm) scanned, joined by a newline; "" from the start. */
function splitCursor(cursor: string): [string, string] {
  const at = cursor.indexOf("\n");
  return at < 0 ? ["", ""] : [cursor.slice(0, at), cursor.slice(at + 1)];
}

/** One scanned slice of soft_bindings: its orphans and where it ended. */
export interface BindingsSlice {
  scanned: number;
  orphans: { publicationId: string; algorithm: string }[];
  /** The last row scanned as a cursor, or null when the slice reached the end of the table. */
  next: string | null;
}

/**
 * The next `limit` soft_bindings rows after `cursor` (primary-key order, so each slice is an index range), each with
 * whether its asset row still carries the publication. One statement.
 */
export async function scanBindings(d1: D1Database, cursor: string, limit: number): Promise<BindingsSlice> {
  const [publicationId, algorithm] = splitCursor(cursor);
  const rows = await d1
    .prepare(
      `SELECT sb.publication_id, sb.algorithm,
              EXISTS (SELECT 1 FROM assets a WHERE a.id = sb.asset_id AND a.publication_id = sb.publication_id AND a.tenant_id = sb.tenant_id) AS live
         FROM soft_bindings sb
        WHERE (sb.publication_id, sb.algorithm) > (?, ?)
        ORDER BY sb.publication_id, sb.algorithm
        LIMIT ?`,
    )
    .bind(publicationId, algorithm, limit)
    .all<{ publication_id: string; algorithm: string; live: number }>();
  const list = rows.results;
  const last = list[list.length - 1];
  return {
    scanned: list.length,
    orphans: list.filter((r) => r.live !== 1).map((r) => ({ publicationId: r.publication_id, algorithm: r.algorithm })),
    next: list.length < limit || !last ? null : `${last.publication_id}\n${last.algorithm}`,
  };
}

/**
 * One scanned slice of the tables cut from bindings (pdq_bands, pdq_regions, chromaprint_frames, video_frames), by
 * publication: publications whose PDQ bands or regions have no `pdq` soft binding left (`orphans`: both are removed),
 * and those whose Chromaprint or video frames have no binding they could have been cut from.
 */
export interface BandsSlice {
  scanned: number;
  orphans: string[];
  frameOrphans: string[];
  next: string | null;
}

/** The frame tables and the bindings each is cut from (fixed names, written into the SQL). */
const FRAME_TABLES = [
  { table: "chromaprint_frames", algorithms: ["chromaprint"] },
  { table: "video_frames", algorithms: ["vpdq", "tmk-pdqf"] },
] as const;

function sqlList(algorithms: readonly string[]): string {
  return algorithms.map((a) => `'${a}'`).join(", ");
}

export async function scanBands(d1: D1Database, cursor: string, limit: number): Promise<BandsSlice> {
  // Every table's publications in one ordered pass (a merge of index ranges, cut at `limit`), each checked against
  // the bindings it was cut from.
  const strayFrames = FRAME_TABLES.map(
    ({ table, algorithms }) =>
      `(EXISTS (SELECT 1 FROM ${table} f WHERE f.publication_id = p.publication_id)
          AND NOT EXISTS (SELECT 1 FROM soft_bindings sb WHERE sb.publication_id = p.publication_id AND sb.algorithm IN (${sqlList(algorithms)})))`,
  ).join(" OR ");
  const rows = await d1
    .prepare(
      `SELECT p.publication_id,
              (EXISTS (SELECT 1 FROM pdq_bands b WHERE b.publication_id = p.publication_id)
                OR EXISTS (SELECT 1 FROM pdq_regions r WHERE r.publication_id = p.publication_id))
                AND NOT EXISTS (SELECT 1 FROM soft_bindings sb WHERE sb.publication_id = p.publication_id AND sb.algorithm = 'pdq') AS stray_bands,
              ${strayFrames} AS stray_frames
         FROM (SELECT publication_id FROM pdq_bands WHERE publication_id > ?1
               UNION SELECT publication_id FROM pdq_regions WHERE publication_id > ?1
               ${FRAME_TABLES.map(({ table }) => `UNION SELECT publication_id FROM ${table} WHERE publication_id > ?1`).join("\n               ")}
               ORDER BY publication_id LIMIT ?2) p`,
    )
    .bind(cursor, limit)
    .all<{ publication_id: string; stray_bands: number; stray_frames: number }>();
  const list = rows.results;
  const last = list[list.length - 1];
  return {
    scanned: list.length,
    orphans: list.filter((r) => r.stray_bands === 1).map((r) => r.publication_id),
    frameOrphans: list.filter((r) => r.stray_frames === 1).map((r) => r.publication_id),
    next: list.length < limit || !last ? null : last.publication_id,
  };
}

/**
 * Removes orphan soft bindings and then bands, in one batch. Each delete re-checks the orphan condition, so an entry
 * whose asset was (re)published between the scan and the delete is kept. Returns the rows removed of each table.
 */
export async function removeOrphans(
  d1: D1Database,
  bindings: readonly { publicationId: string; algorithm: string }[],
  bandPublications: readonly string[],
  framePublications: readonly string[] = [],
): Promise<{ bindings: number; bands: number }> {
  const statements = [
    ...bindings.map((o) =>
      d1
        .prepare(
          `DELETE FROM soft_bindings WHERE publication_id = ? AND algorithm = ?
             AND NOT EXISTS (SELECT 1 FROM assets a WHERE a.id = soft_bindings.asset_id AND a.publication_id = soft_bindings.publication_id AND a.tenant_id = soft_bindings.tenant_id)`,
        )
        .bind(o.publicationId, o.algorithm),
    ),
    // Bands and regions of publications whose pdq binding is gone: those just removed above and those found orphaned
    // in the scan (region rows are counted with the bands).
    ...[...new Set([...bindings.filter((o) => o.algorithm === "pdq").map((o) => o.publicationId), ...bandPublications])].flatMap((p) =>
      ["pdq_bands", "pdq_regions"].map((table) =>
        d1
          .prepare(
            `DELETE FROM ${table} WHERE publication_id = ?
               AND NOT EXISTS (SELECT 1 FROM soft_bindings sb WHERE sb.publication_id = ${table}.publication_id AND sb.algorithm = 'pdq')`,
          )
          .bind(p),
      ),
    ),
    // Chromaprint and video frames likewise (each table is the index of its bindings); counted with the bands.
    ...FRAME_TABLES.flatMap(({ table, algorithms }) =>
      [
        ...new Set([
          ...bindings.filter((o) => (algorithms as readonly string[]).includes(o.algorithm)).map((o) => o.publicationId),
          ...framePublications,
        ]),
      ].map((p) =>
        d1
          .prepare(
            `DELETE FROM ${table} WHERE publication_id = ?
               AND NOT EXISTS (SELECT 1 FROM soft_bindings sb WHERE sb.publication_id = ${table}.publication_id AND sb.algorithm IN (${sqlList(algorithms)}))`,
          )
          .bind(p),
      ),
    ),
  ];
  if (statements.length === 0) return { bindings: 0, bands: 0 };
  const results = await d1.batch(statements);
  let removedBindings = 0;
  let removedBands = 0;
  results.forEach((r, i) => {
    if (i < bindings.length) removedBindings += r.meta.changes ?? 0;
    else removedBands += r.meta.changes ?? 0;
  });
  return { bindings: removedBindings, bands: removedBands };
}
