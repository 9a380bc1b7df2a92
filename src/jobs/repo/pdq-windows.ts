import { pdqRegionStatement } from "../../soft-bindings/repo";

/*
 * The D1 side of the deferred PDQ windows (steps/pdq-windows.ts): what the follow-up reads about a published job, and
 * the one batch that indexes the windows and records them in the fingerprint step's output.
 */

/** A published job whose fingerprint step may have left its windows for later. */
export interface DeferredWindowsTarget {
  publicationId: string;
  assetId: string;
  /** The fingerprint step's output exactly as stored (the record is replaced only while it is still this text). */
  stepOutput: string;
  /** The published bytes (null when the asset no longer publishes this job's publication: deleted or replaced). */
  object: { key: string; etag: string; mediaType: string } | null;
}

/** The job's publication, its fingerprint step's output and the published object: one round trip. Null: not published. */
export async function findDeferredWindowsTarget(d1: D1Database, tenantId: string, jobId: string): Promise<DeferredWindowsTarget | null> {
  const [job, step, object] = await d1.batch([
    d1.prepare("SELECT asset_id, publication_id FROM jobs WHERE tenant_id = ? AND id = ? AND state = 'completed'").bind(tenantId, jobId),
    d1.prepare("SELECT output FROM job_steps WHERE job_id = ? AND step = 'fingerprint' AND state = 'completed'").bind(jobId),
    d1
      .prepare(
        `SELECT o.r2_key, o.etag, o.media_type FROM jobs j
           JOIN assets a ON a.tenant_id = j.tenant_id AND a.id = j.asset_id AND a.publication_id = j.publication_id
           JOIN objects o ON o.tenant_id = a.tenant_id AND o.id = a.published_object_id
          WHERE j.tenant_id = ? AND j.id = ?`,
      )
      .bind(tenantId, jobId),
  ]);
  const j = job!.results[0] as { asset_id: string; publication_id: string | null } | undefined;
  const s = step!.results[0] as { output: string | null } | undefined;
  const o = object!.results[0] as { r2_key: string; etag: string; media_type: string } | undefined;
  if (!j?.publication_id || !s?.output) return null;
  return {
    publicationId: j.publication_id,
    assetId: j.asset_id,
    stepOutput: s.output,
    object: o ? { key: o.r2_key, etag: o.etag, mediaType: o.media_type } : null,
  };
}

/**
 * Indexes a publication's windows and replaces the fingerprint step's deferred record with `output`, in one batch.
 * Idempotent: the windows go in only while the asset still publishes this publication with its `pdq` binding (a
 * deletion that landed first leaves nothing behind) and none are indexed yet (a second follow-up, a redelivery or a
 * race adds no row); the record is replaced only while it is still `previous`. Returns the rows inserted.
 */
export async function indexDeferredWindowsRows(
  d1: D1Database,
  target: { tenantId: string; jobId: string; publicationId: string; assetId: string; previous: string },
  regions: readonly { region: number; bits: Uint8Array }[],
  output: string,
): Promise<number> {
  const guard = {
    sql: `EXISTS (SELECT 1 FROM assets a WHERE a.tenant_id = ? AND a.id = ? AND a.publication_id = ?)
      AND EXISTS (SELECT 1 FROM soft_bindings sb WHERE sb.publication_id = ? AND sb.algorithm = 'pdq')
      AND NOT EXISTS (SELECT 1 FROM pdq_regions r WHERE r.publication_id = ?)`,
    binds: [target.tenantId, target.assetId, target.publicationId, target.publicationId, target.publicationId],
  };
  const results = await d1.batch([
    ...(regions.length > 0 ? [pdqRegionStatement(d1, target.publicationId, regions, guard)] : []),
    d1
      .prepare("UPDATE job_steps SET output = ? WHERE job_id = ? AND step = 'fingerprint' AND output = ?")
      .bind(output, target.jobId, target.previous),
  ]);
  return regions.length > 0 ? (results[0]!.meta.changes ?? 0) : 0;
}
