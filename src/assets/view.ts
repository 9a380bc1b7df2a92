import { formatOf } from "../catalog/formats";
import type { verifications } from "../db/schema";
import { iso } from "../platform/openapi";
import type { AssetRow } from "./repo";

export function assetView(asset: AssetRow) {
  const format = asset.mediaType ? formatOf(asset.mediaType) : undefined;
  return {
    asset_id: asset.id,
    created_at: iso(asset.createdAt),
    kind: asset.kind,
    media_type: asset.mediaType,
    status: asset.status,
    publication:
      asset.publicationId && asset.publishedAt !== null
        ? {
            publication_id: asset.publicationId,
            published_at: iso(asset.publishedAt),
            job_id: asset.publishedJobId!,
            recipe_id: asset.publishedRecipeId!,
            object_id: asset.publishedObjectId!,
            manifest_delivery: format?.lane === "sidecar" ? ("sidecar" as const) : ("embedded" as const),
            active_manifest_label: asset.manifestLabel,
          }
        : null,
  };
}

/** Until the verification issue publishes its status vocabulary, self-checks carry none. */
export function verificationHistoryView(v: typeof verifications.$inferSelect) {
  return {
    verification_id: v.id,
    verification_url: `/v1/verification-history/${v.id}`,
    overall: v.overall,
    subject_type: v.subjectType,
    created_at: iso(v.createdAt),
    validated_at: iso(v.validatedAt),
    job_id: v.jobId,
    policy_version: v.policyVersion,
    source_byte_length: v.sourceByteLength,
    source_media_type: v.sourceMediaType,
    status_vocabulary_version: v.statusVocabularyVersion ?? null,
    validation_path: v.validationPath,
  };
}
