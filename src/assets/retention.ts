import type { Database } from "../db/client";
import { keysUnder } from "../platform/r2-keys";
import { previewKey } from "./preview-key";
import { assetsPastRetention, jobIdsOfAsset, markRetentionExpired, objectKeysOf } from "./repo";

/**
 * Cron: assets whose retention has passed lose their stored media (uploaded source, signed output, sidecar and
 * preview, and every byte under its jobs' prefixes: a watermarked intermediate or a manifest store is named only by
 * a step record, and is the customer's media too); the asset becomes `retention_expired` and its records (jobs,
 * receipts, verifications) stay.
 * Bytes are deleted before the status changes, so a crash leaves the asset to be swept again, never half-kept.
 * Assets under an active legal hold are skipped until it is released (the hold preserves them).
 */
export async function sweepExpiredRetention(db: Database, bucket: R2Bucket, now = Date.now(), limit = 50): Promise<number> {
  const due = await assetsPastRetention(db, now, limit);
  for (const asset of due) {
    const keys = await objectKeysOf(db, asset.tenantId, asset.id);
    if (asset.publicationId) keys.push(previewKey(asset.tenantId, asset.publicationId));
    for (const jobId of await jobIdsOfAsset(db, asset.tenantId, asset.id)) {
      keys.push(...(await keysUnder(bucket, `t/${asset.tenantId}/jobs/${jobId}/`)));
    }
    for (let i = 0; i < keys.length; i += 1000) await bucket.delete(keys.slice(i, i + 1000));
    await markRetentionExpired(db, asset.id, now);
  }
  return due.length;
}
