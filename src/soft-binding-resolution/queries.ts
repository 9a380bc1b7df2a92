/*
 * Where a published manifest store lives. The sign step records the store it wrote (R2 key, ETag, SHA-256) in
 * its `job_steps` output; the publication batch names the job (`assets.published_job_id`) and the active
 * manifest's label (`assets.manifest_label`). For a sidecar publication that blob is also the sidecar object;
 * for an embedded one it is exactly the store embedded in the signed file (and the one the anchor log hashed).
 */

export interface StoredManifest {
  key: string;
  etag: string;
  sha256: string;
  byte_length: number;
}

/**
 * The stored manifest store of the publication whose active manifest is `manifestId`, when that publication is
 * still resolvable (asset `published`: not past its retention). Null when there is none.
 */
export async function publishedManifest(db: D1Database, manifestId: string): Promise<StoredManifest | null> {
  const row = await db
    .prepare(
      `SELECT s.output FROM assets a JOIN job_steps s ON s.job_id = a.published_job_id AND s.tenant_id = a.tenant_id AND s.step = 'sign' AND s.state = 'completed'
        WHERE a.manifest_label = ? AND a.status = 'published' ORDER BY a.published_at ASC LIMIT 1`,
    )
    .bind(manifestId)
    .first<{ output: string | null }>();
  if (!row?.output) return null;
  const manifest = (JSON.parse(row.output) as { manifest?: StoredManifest }).manifest;
  return manifest?.key && manifest.etag && manifest.sha256 ? manifest : null;
}
