import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/*
 * Metadata in D1. Every tenant-owned row carries `tenant_id`, and every query filters on it.
 * Times are integer milliseconds since the epoch (sortable, exact); the API renders them as ISO 8601.
 */

export const tenants = sqliteTable("tenants", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  contactEmail: text("contact_email"),
  status: text("status", { enum: ["active", "deactivated", "deleted"] })
    .notNull()
    .default("active"),
  createdAt: integer("created_at").notNull(),
});

export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id),
    name: text("name").notNull(),
    /** HMAC-SHA256(pepper, secret), lowercase hex. The secret itself is never stored. */
    secretHash: text("secret_hash").notNull(),
    /** First characters of the secret, safe to show so people can tell keys apart. */
    displayPrefix: text("display_prefix").notNull(),
    /** JSON array of scope names. */
    scopes: text("scopes").notNull(),
    status: text("status", { enum: ["active", "revoked"] })
      .notNull()
      .default("active"),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at"),
    revokedAt: integer("revoked_at"),
    /**
     * What revoked the key: the id of the principal whose DELETE /v1/api-keys/{id} did (the acting key's id, or the
     * console user's id), `account_deletion`, `restore` (the restore drill), `secret_withheld` (issued without an
     * Idempotency-Key while the audit log could not record it, so its secret was never shown), or null (a rotation's own moves, or a
     * revoke from before this column). Only the same principal's later DELETE is ever answered as that revoke (a
     * revoke whose answer was lost, #22); to anyone else the key is already revoked (a hostile review).
     */
    revokedBy: text("revoked_by"),
    lastUsedAt: integer("last_used_at"),
    createdByKeyId: text("created_by_key_id"),
    /** The console user (users.id) whose session created this key, or null (created by a key or a script). #18 */
    createdByUserId: text("created_by_user_id"),
    /** JSON `{ version, ip_allowlist, rate_limit_per_minute, updated_at }`; null: unrestricted (version 0). */
    restrictions: text("restrictions"),
    /** JSON `{ version, default_recipe_id, allowed_recipe_ids, updated_at }`; null: no profile. */
    signingProfile: text("signing_profile"),
    /** Rotation: the successor issued for this key, and when this key stops working if not completed earlier. */
    successorKeyId: text("successor_key_id"),
    rotationDeadline: integer("rotation_deadline"),
    predecessorKeyId: text("predecessor_key_id"),
    /**
     * The rotation this key began, as a state machine: null (none) → overlapping → completed | canceled, and an
     * overlapping rotation whose deadline passed is lapsed (derived, never stored). Only a canceled rotation may be
     * followed by a new one; no move leaves completed or lapsed, and none reactivates a retired key.
     */
    rotationState: text("rotation_state", { enum: ["overlapping", "completed", "canceled"] }),
    /** JSON `{ version, output_retention_days, updated_at }`; null: outputs are kept until deleted. */
    retention: text("retention"),
  },
  (t) => [uniqueIndex("api_keys_secret_hash_uq").on(t.secretHash), index("api_keys_tenant_created_idx").on(t.tenantId, t.createdAt, t.id)],
);

/**
 * One row per (tenant, operation, Idempotency-Key). `in_flight` rows are locks with a lease
 * (`locked_until`); `completed` rows hold the response to replay until `expires_at`.
 */
export const idempotencyRecords = sqliteTable(
  "idempotency_records",
  {
    tenantId: text("tenant_id").notNull(),
    operation: text("operation").notNull(),
    idempotencyKey: text("idempotency_key").notNull(),
    requestSha256: text("request_sha256").notNull(),
    state: text("state", { enum: ["in_flight", "completed"] }).notNull(),
    lockedUntil: integer("locked_until").notNull(),
    responseStatus: integer("response_status"),
    responseContentType: text("response_content_type"),
    responseBody: text("response_body"),
    /** True when the response carried a one-time secret: it was not stored and is never replayed. */
    secretWithheld: integer("secret_withheld", { mode: "boolean" }).notNull().default(false),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.operation, t.idempotencyKey] }), index("idempotency_records_expires_idx").on(t.expiresAt)],
);

/**
 * Immutable stored objects (`aob_`). `r2_key` never changes meaning once written: an upload's bytes are
 * written straight to their final key, and the row is pinned (with the R2 etag) only after the bytes matched
 * the declared hash and length. Readers check the etag, so a late overwrite can never be served.
 */
export const objects = sqliteTable(
  "objects",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    assetId: text("asset_id").notNull(),
    role: text("role", { enum: ["source", "signed_output", "watermarked_output", "sidecar_manifest"] }).notNull(),
    r2Key: text("r2_key").notNull(),
    etag: text("etag").notNull(),
    byteLength: integer("byte_length").notNull(),
    sha256: text("sha256").notNull(),
    mediaType: text("media_type").notNull(),
    /** Download filename (asset id plus the container's extension; `.c2pa` appended for sidecars). */
    filename: text("filename"),
    /** NormalizedInspectionFacts as JSON (source objects). */
    inspection: text("inspection"),
    createdAt: integer("created_at").notNull(),
  },
  // by r2_key: the upload sweep checks that no object pins a key before deleting it
  (t) => [index("objects_tenant_asset_idx").on(t.tenantId, t.assetId), index("objects_r2_key_idx").on(t.r2Key)],
);

export const uploads = sqliteTable(
  "uploads",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    assetId: text("asset_id").notNull(),
    /** The `aob_` id the bytes will be pinned as; its R2 key receives the upload. */
    objectId: text("object_id").notNull(),
    r2Key: text("r2_key").notNull(),
    mode: text("mode", { enum: ["single", "multipart"] }).notNull(),
    status: text("status", { enum: ["initiated", "completed", "aborted", "expired", "failed"] }).notNull(),
    /** Why a `failed` upload failed: the reason code its complete answered (a multipart whose parts were spent). */
    errorCode: text("error_code"),
    declaredMediaType: text("declared_media_type").notNull(),
    byteLength: integer("byte_length").notNull(),
    sha256: text("sha256").notNull(),
    filename: text("filename"),
    /** R2 multipart upload id (multipart mode). */
    multipartUploadId: text("multipart_upload_id"),
    /** JSON array of `{ part_number, byte_length }` declared at creation (multipart mode). */
    parts: text("parts"),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
    completedAt: integer("completed_at"),
    /**
     * When the cron sweep deleted whatever an aborted, expired or failed upload's URLs could still write (the key,
     * a live R2 multipart upload) after those URLs had expired; null until then. Marks the upload swept once.
     */
    sweptAt: integer("swept_at"),
  },
  (t) => [
    index("uploads_status_expires_idx").on(t.status, t.expiresAt),
    index("uploads_tenant_idx").on(t.tenantId, t.createdAt),
    index("uploads_sweep_idx").on(t.status, t.sweptAt, t.expiresAt),
  ],
);

export const assets = sqliteTable(
  "assets",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    kind: text("kind").notNull(),
    mediaType: text("media_type"),
    status: text("status", {
      enum: [
        "awaiting_upload",
        "uploaded",
        "processing",
        "published",
        "failed",
        "upload_aborted",
        "upload_expired",
        "upload_failed",
        "retention_expired",
      ],
    }).notNull(),
    filename: text("filename"),
    sourceObjectId: text("source_object_id"),
    /** Set once, by the publication batch. */
    publicationId: text("publication_id"),
    publishedObjectId: text("published_object_id"),
    sidecarObjectId: text("sidecar_object_id"),
    publishedJobId: text("published_job_id"),
    publishedRecipeId: text("published_recipe_id"),
    publishedAt: integer("published_at"),
    manifestLabel: text("manifest_label"),
    /** When the published outputs are deleted (from the admitting key's retention); null: kept. */
    retentionUntil: integer("retention_until"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    index("assets_tenant_created_idx").on(t.tenantId, t.createdAt, t.id),
    index("assets_retention_idx").on(t.retentionUntil),
    index("assets_manifest_label_idx").on(t.manifestLabel),
    // The overview (#18): media kinds counted from the index alone.
    index("assets_tenant_created_kind_idx").on(t.tenantId, t.createdAt, t.kind),
    // The jobs sweep (#22): claims an admission left behind (src/jobs/sweep.ts), found without scanning the assets.
    index("assets_processing_idx").on(t.updatedAt).where(sql`${t.status} = 'processing'`),
    // A verification's related publications read their state by publication (#19): by index, not a scan of every asset.
    index("assets_publication_idx").on(t.publicationId),
  ],
);

export const jobs = sqliteTable(
  "jobs",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    assetId: text("asset_id").notNull(),
    recipeId: text("recipe_id").notNull(),
    recipeVersion: integer("recipe_version").notNull(),
    policyVersion: text("policy_version").notNull(),
    activePlanRevision: integer("active_plan_revision").notNull(),
    /** The pricing version the job's reservation was quoted under; null when the tenant's work is not metered. */
    pricingVersion: text("pricing_version"),
    kind: text("kind", { enum: ["sign_only", "watermark_only", "watermark_then_sign"] }).notNull(),
    mode: text("mode", { enum: ["standard", "express"] }).notNull(),
    state: text("state", {
      enum: ["accepted", "queued", "running", "cancel_requested", "completed", "canceled", "expired", "rejected", "failed"],
    }).notNull(),
    /** The admitted request (algorithms, strength, fingerprints, declaration, creator), frozen at admission. */
    admitted: text("admitted").notNull(),
    /** NormalizedInspectionFacts of the source, copied at admission. */
    mediaInspection: text("media_inspection"),
    errorCode: text("error_code"),
    errorMessage: text("error_message"),
    cancelRequestedAt: integer("cancel_requested_at"),
    cancelReason: text("cancel_reason"),
    terminalAt: integer("terminal_at"),
    receiptId: text("receipt_id"),
    publicationId: text("publication_id"),
    verificationId: text("verification_id"),
    attempts: integer("attempts").notNull().default(0),
    /** While running: when the runner's lease lapses; the cron sweep re-queues (or fails) a job past it. */
    leaseExpiresAt: integer("lease_expires_at"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    index("jobs_tenant_created_idx").on(t.tenantId, t.createdAt, t.id),
    index("jobs_tenant_asset_idx").on(t.tenantId, t.assetId),
    index("jobs_state_updated_idx").on(t.state, t.updatedAt),
    // The overview (#18): a tenant's jobs by creation time and state, counted from the index alone.
    index("jobs_tenant_created_state_idx").on(t.tenantId, t.createdAt, t.state),
  ],
);

/** One row per recipe step of a job; `output` records what a completed step wrote, so redelivery skips it. */
export const jobSteps = sqliteTable(
  "job_steps",
  {
    jobId: text("job_id").notNull(),
    tenantId: text("tenant_id").notNull(),
    step: text("step").notNull(),
    position: integer("position").notNull(),
    state: text("state", { enum: ["pending", "running", "completed", "failed", "skipped"] }).notNull(),
    startedAt: integer("started_at"),
    completedAt: integer("completed_at"),
    output: text("output"),
    errorCode: text("error_code"),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.step] })],
);

export const receipts = sqliteTable(
  "receipts",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    assetId: text("asset_id").notNull(),
    jobId: text("job_id").notNull(),
    /** Evidence variant as JSON (`signing`, `sidecar_signing`, ...). */
    evidence: text("evidence").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("receipts_tenant_created_idx").on(t.tenantId, t.createdAt, t.id), uniqueIndex("receipts_job_uq").on(t.jobId)],
);

/** Verification evidence: for now, each completed job's check of its own output. */
export const verifications = sqliteTable(
  "verifications",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    subjectType: text("subject_type", {
      enum: ["uploaded_object", "stored_object", "public_url", "asset", "manifest", "receipt"],
    }).notNull(),
    overall: text("overall", { enum: ["valid", "invalid", "indeterminate", "recovered"] }).notNull(),
    assetId: text("asset_id"),
    jobId: text("job_id"),
    objectId: text("object_id"),
    policyVersion: text("policy_version"),
    sourceByteLength: integer("source_byte_length"),
    sourceMediaType: text("source_media_type"),
    validationPath: text("validation_path"),
    /** The evidence (validation state and codes) as JSON. */
    evidence: text("evidence").notNull(),
    /** The verdict's status code (verify calls); null for a signing self-check. */
    status: text("status"),
    statusVocabularyVersion: text("status_vocabulary_version"),
    /** The active manifest's label, for GET /v1/verify/{manifest_id}. */
    manifestId: text("manifest_id"),
    createdAt: integer("created_at").notNull(),
    validatedAt: integer("validated_at").notNull(),
  },
  (t) => [
    index("verifications_tenant_created_idx").on(t.tenantId, t.createdAt, t.id),
    index("verifications_tenant_manifest_idx").on(t.tenantId, t.manifestId, t.createdAt),
    // The overview (#18): outcomes counted from the index alone.
    index("verifications_tenant_created_overall_idx").on(t.tenantId, t.createdAt, t.overall),
  ],
);

/**
 * The soft-binding index: every watermark payload and fingerprint of a published asset, one row per
 * (publication, algorithm), written in the publication batch. `bits` is the raw value in hex (what lookups
 * compare); `value` its canonical text (ISCC code, PDQ hex, watermark payload).
 */
export const softBindings = sqliteTable(
  "soft_bindings",
  {
    publicationId: text("publication_id").notNull(),
    algorithm: text("algorithm").notNull(),
    tenantId: text("tenant_id").notNull(),
    assetId: text("asset_id").notNull(),
    jobId: text("job_id").notNull(),
    kind: text("kind", { enum: ["watermark", "fingerprint"] }).notNull(),
    value: text("value").notNull(),
    bits: text("bits").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.publicationId, t.algorithm] }),
    index("soft_bindings_lookup_idx").on(t.algorithm, t.bits),
    index("soft_bindings_tenant_asset_idx").on(t.tenantId, t.assetId),
  ],
);

/**
 * The manifest transparency log (src/anchoring): one entry per published manifest, appended in the publication
 * batch; a sealing run gives pending entries their leaf index, signs a checkpoint over the whole tree and stores
 * each new entry's inclusion proof against it.
 */
export const anchorEntries = sqliteTable(
  "anchor_entries",
  {
    publicationId: text("publication_id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    /** SHA-256 (hex) of the published manifest store bytes. */
    manifestSha256: text("manifest_sha256").notNull(),
    /** RFC 6962 leaf hash (hex) of the versioned leaf encoding. */
    leafHash: text("leaf_hash").notNull(),
    /** Position in the log; null until sealed. */
    leafIndex: integer("leaf_index"),
    /** Size of the checkpoint that first included it, and its inclusion proof (JSON array of hex) against it. */
    sealedTreeSize: integer("sealed_tree_size"),
    inclusionProof: text("inclusion_proof"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("anchor_entries_leaf_idx").on(t.leafIndex),
    index("anchor_entries_manifest_idx").on(t.manifestSha256),
    index("anchor_entries_pending_idx").on(t.leafIndex, t.createdAt),
  ],
);

/** Signed tree heads: one per sealing, append-only; `tree_size` is unique, so two sealers cannot both win. */
export const anchorCheckpoints = sqliteTable("anchor_checkpoints", {
  treeSize: integer("tree_size").primaryKey(),
  rootHash: text("root_hash").notNull(),
  /** The signed checkpoint note (src/anchoring/checkpoint.ts). */
  note: text("note").notNull(),
  sealedAt: integer("sealed_at").notNull(),
});

/** Development only: serials the dev OCSP responder reports revoked (POST /dev/ocsp/revocations). */
export const devOcspRevocations = sqliteTable("dev_ocsp_revocations", {
  serialHex: text("serial_hex").primaryKey(),
  revokedAt: integer("revoked_at").notNull(),
  reason: integer("reason"),
});

/**
 * Stored-object verifications (POST /v1/verifications): the durable status of an asynchronous check run on the
 * jobs queue. The id is also the id of the `verifications` record the completed check writes (its evidence).
 */
export const verificationRequests = sqliteTable(
  "verification_requests",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    objectId: text("object_id").notNull(),
    state: text("state", { enum: ["queued", "running", "completed", "failed"] }).notNull(),
    errorCode: text("error_code"),
    errorMessage: text("error_message"),
    attempts: integer("attempts").notNull().default(0),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    completedAt: integer("completed_at"),
  },
  (t) => [
    index("verification_requests_tenant_idx").on(t.tenantId, t.createdAt),
    index("verification_requests_state_idx").on(t.state, t.updatedAt),
  ],
);

/** Immutable verification reports: the same evidence always renders the same bytes (hashes recorded). */
export const verificationReports = sqliteTable(
  "verification_reports",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    verificationId: text("verification_id").notNull(),
    /** Report format version: a new renderer is a new version, never a silent change. */
    reportVersion: text("report_version").notNull(),
    html: text("html").notNull(),
    json: text("json").notNull(),
    htmlSha256: text("html_sha256").notNull(),
    jsonSha256: text("json_sha256").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("verification_reports_tenant_verification_idx").on(t.tenantId, t.verificationId)],
);

/** Share capabilities of a verification: the token is shown once and stored only as a hash. */
export const verificationShares = sqliteTable(
  "verification_shares",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    verificationId: text("verification_id").notNull(),
    tokenHash: text("token_hash").notNull(),
    label: text("label"),
    expiresAt: integer("expires_at").notNull(),
    closedAt: integer("closed_at"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("verification_shares_token_idx").on(t.tokenHash),
    index("verification_shares_tenant_verification_idx").on(t.tenantId, t.verificationId, t.createdAt),
  ],
);

/**
 * Multi-index hashing of PDQ fingerprints (Norouzi et al.): each 256-bit hash is cut into 16 bands of 16 bits.
 * Two hashes within Hamming distance 31 agree to within one bit in at least one band (pigeonhole: 16 bands
 * with ≥ 2 differing bits each would be ≥ 32), so a lookup probes each band's exact value and its 16 one-bit
 * neighbours through this index, then checks the full distance of the few candidates: no full scan.
 */
export const pdqBands = sqliteTable(
  "pdq_bands",
  {
    publicationId: text("publication_id").notNull(),
    band: integer("band").notNull(),
    value: integer("value").notNull(),
  },
  (t) => [primaryKey({ columns: [t.publicationId, t.band] }), index("pdq_bands_lookup_idx").on(t.band, t.value)],
);

/**
 * PDQ hashes of fixed windows of a published image (src/media/fingerprint/regions.ts: corners and centre at 90 % and
 * 80 % per side, one border cut), so a copy cropped to one of those frames is found. Derived from the publication's
 * `pdq` row of soft_bindings (written with it, removed with it); the manifest's soft binding stays the whole-image
 * hash. One row per window, its 16 bands as columns, each indexed: a lookup probes each band's value and its 16
 * one-bit neighbours (as pdq_bands) and reads the candidate's whole hash from the same row.
 */
export const pdqRegions = sqliteTable(
  "pdq_regions",
  {
    publicationId: text("publication_id").notNull(),
    region: integer("region").notNull(),
    b0: integer("b0").notNull(),
    b1: integer("b1").notNull(),
    b2: integer("b2").notNull(),
    b3: integer("b3").notNull(),
    b4: integer("b4").notNull(),
    b5: integer("b5").notNull(),
    b6: integer("b6").notNull(),
    b7: integer("b7").notNull(),
    b8: integer("b8").notNull(),
    b9: integer("b9").notNull(),
    b10: integer("b10").notNull(),
    b11: integer("b11").notNull(),
    b12: integer("b12").notNull(),
    b13: integer("b13").notNull(),
    b14: integer("b14").notNull(),
    b15: integer("b15").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.publicationId, t.region] }),
    index("pdq_regions_b0_idx").on(t.b0),
    index("pdq_regions_b1_idx").on(t.b1),
    index("pdq_regions_b2_idx").on(t.b2),
    index("pdq_regions_b3_idx").on(t.b3),
    index("pdq_regions_b4_idx").on(t.b4),
    index("pdq_regions_b5_idx").on(t.b5),
    index("pdq_regions_b6_idx").on(t.b6),
    index("pdq_regions_b7_idx").on(t.b7),
    index("pdq_regions_b8_idx").on(t.b8),
    index("pdq_regions_b9_idx").on(t.b9),
    index("pdq_regions_b10_idx").on(t.b10),
    index("pdq_regions_b11_idx").on(t.b11),
    index("pdq_regions_b12_idx").on(t.b12),
    index("pdq_regions_b13_idx").on(t.b13),
    index("pdq_regions_b14_idx").on(t.b14),
    index("pdq_regions_b15_idx").on(t.b15),
  ],
);

/**
 * The verification pixel stage's outputs measured at publication on the exact bytes the service signed (#19,
 * src/verifications/pixel-memo.ts; written and read there through verifications/repo.ts). Keyed by the SHA-256 of the
 * active manifest's claim signature the service wrote; `pixels_sha256` the digest of the file's bytes outside its
 * APP11 segments, `version` pixel-facts.ts PIXEL_FACTS_VERSION, `facts` the outputs (JSON), `measured_at` when (ms).
 * Removed with the publication's soft bindings (a trigger of migration 0040, hand-written after the generated SQL).
 */
export const verifyPixelMemos = sqliteTable(
  "verify_pixel_memos",
  {
    signatureSha256: text("signature_sha256").primaryKey(),
    publicationId: text("publication_id").notNull(),
    mediaType: text("media_type").notNull(),
    pixelsSha256: text("pixels_sha256").notNull(),
    version: integer("version").notNull(),
    facts: text("facts").notNull(),
    measuredAt: integer("measured_at").notNull(),
  },
  (t) => [index("verify_pixel_memos_publication_idx").on(t.publicationId)],
);

/**
 * The frames of published Chromaprint fingerprints, for finding a publication from a short excerpt of its audio
 * (a copy re-encoded, cut or stripped of its manifest). Derived from the `chromaprint` row of soft_bindings, whose
 * `bits` hold every frame (one uint32 per ~0.124 s): a lookup finds publications sharing exact frame values with the
 * query at one consistent shift (votes), then confirms each by the bit error rate of the whole aligned query.
 * Runs of equal frames and digital silence are not indexed (they say nothing about which recording it is).
 */
export const chromaprintFrames = sqliteTable(
  "chromaprint_frames",
  {
    publicationId: text("publication_id").notNull(),
    position: integer("position").notNull(),
    value: integer("value").notNull(),
  },
  (t) => [primaryKey({ columns: [t.publicationId, t.position] }), index("chromaprint_frames_value_idx").on(t.value)],
);

/**
 * The sampled frames of published video fingerprints (five PDQ hashes per second of video; runs of near-equal frames
 * kept once), for finding a publication from an excerpt or a re-encoded copy of its video. Derived from the `bits`
 * of its `vpdq` or `tmk-pdqf` row of soft_bindings (both hold the same frame hashes, vPDQ's, so that a publication
 * with TMK+PDQF alone is found too). Each frame is indexed by its 16 PDQ bands as `band * 65536 + value`
 * (`key`), one row per publication and key (a key's rows count publications, so one publication repeating a frame
 * cannot make a key look common): a frame within Hamming distance 15 of a query frame shares at least one key; a
 * lookup counts the query frames that hit a publication (votes), then confirms by the distances of all its frames.
 */
export const videoFrames = sqliteTable(
  "video_frames",
  {
    publicationId: text("publication_id").notNull(),
    key: integer("key").notNull(),
  },
  (t) => [primaryKey({ columns: [t.publicationId, t.key] }), index("video_frames_key_idx").on(t.key)],
);

/**
 * Traversals released early with DELETE /v1/history/snapshots: every cursor of the traversal answers 422 from then
 * on. Keyed by tenant too, so one tenant's release never touches another's traversal.
 */
export const releasedTraversals = sqliteTable(
  "released_traversals",
  {
    tenantId: text("tenant_id").notNull(),
    traversal: text("traversal").notNull(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.traversal] }), index("released_traversals_expires_idx").on(t.expiresAt)],
);

/** Recent requests of API keys: metadata only (never bodies, headers or secrets), written best effort. */
export const apiRequestLogs = sqliteTable(
  "api_request_logs",
  {
    requestId: text("request_id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    apiKeyId: text("api_key_id").notNull(),
    method: text("method").notNull(),
    /** The operation's path template (`/v1/jobs/{job_id}`), never the concrete path with ids. */
    operation: text("operation").notNull(),
    status: integer("status").notNull(),
    durationMs: integer("duration_ms").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    index("api_request_logs_tenant_created_idx").on(t.tenantId, t.createdAt, t.requestId),
    index("api_request_logs_created_idx").on(t.createdAt),
  ],
);

/**
 * Webhook endpoints (src/webhooks). The signing secrets are stored encrypted (AES-GCM under a key derived from
 * the key pepper, the endpoint id as associated data): the service must sign with them, so they cannot be
 * hashed like API keys. A deleted endpoint keeps its row (secrets wiped) until `retain_until`.
 */
export const webhookEndpoints = sqliteTable(
  "webhook_endpoints",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    url: text("url").notNull(),
    eventCatalogVersion: text("event_catalog_version").notNull(),
    /** JSON array of exact event types. */
    events: text("events").notNull(),
    maxConcurrency: integer("max_concurrency").notNull(),
    rateLimitPerMinute: integer("rate_limit_per_minute").notNull(),
    autoDisableAfterFailures: integer("auto_disable_after_failures").notNull(),
    state: text("state", { enum: ["active", "disabled", "deleted"] }).notNull(),
    disabledReason: text("disabled_reason", { enum: ["manual", "consecutive_failures"] }),
    consecutiveFailures: integer("consecutive_failures").notNull().default(0),
    secretCiphertext: text("secret_ciphertext").notNull(),
    /** The outgoing secret while a rotation overlap is open (both sign); null otherwise. */
    previousSecretCiphertext: text("previous_secret_ciphertext"),
    secretRotatedAt: integer("secret_rotated_at"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    deletedAt: integer("deleted_at"),
    retainUntil: integer("retain_until"),
  },
  (t) => [index("webhook_endpoints_tenant_created_idx").on(t.tenantId, t.createdAt, t.id)],
);

/**
 * The outbox: one row per customer event, written in the same D1 batch as the state change that causes it, so
 * an event exists if and only if its change committed. `body` is the exact JSON sent (and signed) on every
 * attempt and replay. `fanned_out_at` is set once deliveries exist for every subscribed endpoint.
 */
export const webhookEvents = sqliteTable(
  "webhook_events",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    type: text("type").notNull(),
    body: text("body").notNull(),
    test: integer("test", { mode: "boolean" }).notNull().default(false),
    /** Test events go to this endpoint only. */
    targetEndpointId: text("target_endpoint_id"),
    fannedOutAt: integer("fanned_out_at"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    index("webhook_events_fanout_idx").on(t.fannedOutAt, t.createdAt),
    index("webhook_events_tenant_created_idx").on(t.tenantId, t.createdAt),
  ],
);

/** One delivery per (endpoint, event); replays reuse it and count in `replay_count`. */
export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    endpointId: text("endpoint_id").notNull(),
    eventId: text("event_id").notNull(),
    eventType: text("event_type").notNull(),
    status: text("status", { enum: ["pending", "delivering", "delivered", "failed", "dead"] }).notNull(),
    attemptCount: integer("attempt_count").notNull().default(0),
    /** `attempt_count` when the delivery was last replayed: the retry schedule restarts from there. */
    attemptBase: integer("attempt_base").notNull().default(0),
    replayCount: integer("replay_count").notNull().default(0),
    nextAttemptAt: integer("next_attempt_at"),
    /** While `delivering`: when the attempt's claim lapses (its Worker is presumed dead). */
    leaseUntil: integer("lease_until"),
    responseCode: integer("response_code"),
    responseBodySha256: text("response_body_sha256"),
    terminalReason: text("terminal_reason"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("webhook_deliveries_endpoint_event_idx").on(t.endpointId, t.eventId),
    index("webhook_deliveries_endpoint_created_idx").on(t.endpointId, t.createdAt, t.id),
    index("webhook_deliveries_status_next_idx").on(t.status, t.nextAttemptAt),
    index("webhook_deliveries_status_lease_idx").on(t.status, t.leaseUntil),
    index("webhook_deliveries_event_idx").on(t.eventId),
    index("webhook_deliveries_updated_idx").on(t.updatedAt),
    // The overview (#18): a tenant's deliveries by creation time and status, counted from the index alone.
    index("webhook_deliveries_tenant_created_status_idx").on(t.tenantId, t.createdAt, t.status),
  ],
);

/** Every attempt of a delivery, in order: what was sent when, and what came back. */
export const webhookAttempts = sqliteTable(
  "webhook_attempts",
  {
    deliveryId: text("delivery_id").notNull(),
    attemptNumber: integer("attempt_number").notNull(),
    tenantId: text("tenant_id").notNull(),
    startedAt: integer("started_at").notNull(),
    durationMs: integer("duration_ms").notNull(),
    responseCode: integer("response_code"),
    responseBodySha256: text("response_body_sha256"),
    outcome: text("outcome", { enum: ["acknowledged", "retry_scheduled", "ended"] }).notNull(),
    error: text("error"),
    retryAfterSeconds: integer("retry_after_seconds"),
    signatureCount: integer("signature_count").notNull(),
    /** Time spent waiting for the endpoint's Durable Object gate (ms); internal, for the benchmark. */
    gateMs: integer("gate_ms").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.deliveryId, t.attemptNumber] }), index("webhook_attempts_started_idx").on(t.startedAt)],
);

/**
 * Per-tenant data keys of envelope encryption (src/platform/sealing.ts). `wrapped` is the 32-byte data key
 * encrypted (AES-GCM) under the master key `master_key_id` of SVC_DATA_MASTER_KEYS; the plaintext key is never
 * stored. Rotation re-wraps this row only: sealed records name the data key, never the master key.
 */
export const tenantDataKeys = sqliteTable(
  "tenant_data_keys",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    masterKeyId: text("master_key_id").notNull(),
    /** base64url(iv ‖ AES-GCM ciphertext ‖ tag) of the data key; AAD binds tenant, data key id and master key id. */
    wrapped: text("wrapped").notNull(),
    createdAt: integer("created_at").notNull(),
    rewrappedAt: integer("rewrapped_at"),
  },
  (t) => [uniqueIndex("tenant_data_keys_tenant_uq").on(t.tenantId), index("tenant_data_keys_master_idx").on(t.masterKeyId)],
);

/** A tenant's creator disclosure policy (src/creators); no row: the defaults. */
export const creatorDisclosurePolicies = sqliteTable("creator_disclosure_policies", {
  tenantId: text("tenant_id").primaryKey(),
  brandName: text("brand_name").notNull(),
  consoleDisclosure: text("console_disclosure", { enum: ["none", "attributed", "name", "name_and_email"] }).notNull(),
  shareDisclosure: text("share_disclosure", { enum: ["none", "attributed", "name"] }).notNull(),
  noticeVersion: text("notice_version"),
  updatedAt: integer("updated_at").notNull(),
  updatedByKeyId: text("updated_by_key_id").notNull(),
});

/**
 * Enrolled creator identities (src/creators). The e-mail, name and commitment salt are only ever stored sealed
 * (AES-GCM under the tenant data key `data_key_id`, AAD = tenant, id and field); `email_lookup` is an HMAC of the
 * normalised e-mail under a key derived from the data key, so "this subject is already enrolled" never needs the
 * plaintext. At most one active identity per (tenant, e-mail). Erasure wipes the sealed fields and the salt.
 */
export const creatorIdentities = sqliteTable(
  "creator_identities",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    status: text("status", { enum: ["active", "withdrawn", "erased"] }).notNull(),
    assuranceLevel: text("assurance_level", { enum: ["self_asserted", "verified"] }).notNull(),
    dataKeyId: text("data_key_id"),
    emailLookup: text("email_lookup"),
    emailSealed: text("email_sealed"),
    nameSealed: text("name_sealed"),
    saltSealed: text("salt_sealed"),
    displayNamePresent: integer("display_name_present", { mode: "boolean" }).notNull(),
    /** Opaque reference carried in manifests (`cref_` + 26 base32 chars); never changes. */
    creatorRef: text("creator_ref").notNull(),
    /** Lowercase hex SHA-256(salt ‖ canonical identity); never changes. */
    commitment: text("commitment").notNull(),
    /** JSON of the CreatorConsentRequest exactly as given. */
    consent: text("consent").notNull(),
    consentRecordedAt: integer("consent_recorded_at").notNull(),
    consentApiKeyId: text("consent_api_key_id").notNull(),
    createdAt: integer("created_at").notNull(),
    withdrawnAt: integer("withdrawn_at"),
    erasedAt: integer("erased_at"),
  },
  (t) => [
    uniqueIndex("creator_identities_ref_uq").on(t.creatorRef),
    uniqueIndex("creator_identities_active_email_uq").on(t.tenantId, t.emailLookup).where(sql`status = 'active'`),
    index("creator_identities_tenant_created_idx").on(t.tenantId, t.createdAt, t.id),
  ],
);

/**
 * Capture identity enrolments (src/capture): a one-time challenge for a device app instance to attest a key to.
 * Only SHA-256 of the challenge secret is stored. Completed once: `capture_identity_id` and the completing
 * statement's SHA-256 are recorded, so the same completion replays and any other is refused.
 */
export const captureIdentityEnrollments = sqliteTable(
  "capture_identity_enrollments",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    attestationKind: text("attestation_kind", { enum: ["app_attest", "play_integrity", "hardware_key_attestation"] }).notNull(),
    installationIdSha256: text("installation_id_sha256").notNull(),
    /** Lowercase hex SHA-256 of the 43-character challenge secret (its ASCII text). */
    secretHash: text("secret_hash").notNull(),
    expiresAt: integer("expires_at").notNull(),
    createdAt: integer("created_at").notNull(),
    createdByKeyId: text("created_by_key_id").notNull(),
    completedAt: integer("completed_at"),
    statementSha256: text("statement_sha256"),
    captureIdentityId: text("capture_identity_id"),
  },
  (t) => [index("capture_identity_enrollments_tenant_created_idx").on(t.tenantId, t.createdAt, t.id)],
);

/**
 * Capture identities (src/capture): a device app instance whose key a provider attested. The enrolment facts are
 * the identity's first version (`identity_version` 1); admissions move the version forward. At most one active
 * identity per (tenant, provider class, key id) and per (tenant, installation); one identity per enrolment.
 */
export const captureIdentities = sqliteTable(
  "capture_identities",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    state: text("state", { enum: ["active", "revoked"] }).notNull(),
    enrollmentId: text("enrollment_id").notNull(),
    attestationKind: text("attestation_kind", { enum: ["app_attest", "play_integrity", "hardware_key_attestation"] }).notNull(),
    providerClass: text("provider_class", {
      enum: ["apple_app_attest", "google_play_integrity", "android_key_attestation", "other"],
    }).notNull(),
    platform: text("platform", { enum: ["ios", "android"] }).notNull(),
    installationIdSha256: text("installation_id_sha256").notNull(),
    appId: text("app_id"),
    keyId: text("key_id"),
    /** base64 SPKI DER of the attested key (App Attest assertions are checked against it). */
    publicKeySpki: text("public_key_spki"),
    counter: integer("counter"),
    securityLevel: text("security_level", { enum: ["strongbox", "tee", "software"] }),
    bootState: text("boot_state", { enum: ["verified", "self_signed", "unverified", "failed"] }),
    deviceLocked: integer("device_locked", { mode: "boolean" }),
    osVersion: integer("os_version"),
    osPatchLevel: integer("os_patch_level"),
    appVersion: integer("app_version"),
    environment: text("environment", { enum: ["production", "development"] }),
    /** JSON array of Play Integrity device verdict labels. */
    deviceIntegrity: text("device_integrity").notNull(),
    appRecognition: text("app_recognition"),
    trustSnapshotVersion: text("trust_snapshot_version").notNull(),
    revocationSnapshotVersion: text("revocation_snapshot_version"),
    verifierVersion: text("verifier_version").notNull(),
    identityVersion: integer("identity_version").notNull(),
    identityVersionId: text("identity_version_id").notNull(),
    /** The first version's id (what a replayed enrolment completion answers). */
    enrolledVersionId: text("enrolled_version_id").notNull(),
    lastAttestedAt: integer("last_attested_at").notNull(),
    lastEvidenceIssuedAt: integer("last_evidence_issued_at"),
    createdAt: integer("created_at").notNull(),
    revokedAt: integer("revoked_at"),
    revokedByKeyId: text("revoked_by_key_id"),
  },
  (t) => [
    uniqueIndex("capture_identities_enrollment_uq").on(t.enrollmentId),
    uniqueIndex("capture_identities_active_key_uq").on(t.tenantId, t.providerClass, t.keyId).where(sql`state = 'active'`),
    uniqueIndex("capture_identities_active_installation_uq").on(t.tenantId, t.installationIdSha256).where(sql`state = 'active'`),
    index("capture_identities_tenant_created_idx").on(t.tenantId, t.createdAt, t.id),
  ],
);

/** Single-use admission challenges (src/capture). Only SHA-256 of the secret is stored; `used_at` set by the admission that consumes it. */
export const captureAdmissionChallenges = sqliteTable(
  "capture_admission_challenges",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    captureIdentityId: text("capture_identity_id").notNull(),
    /** Lowercase hex SHA-256 of the 43-character challenge secret (its ASCII text). */
    secretHash: text("secret_hash").notNull(),
    expiresAt: integer("expires_at").notNull(),
    createdAt: integer("created_at").notNull(),
    createdByKeyId: text("created_by_key_id").notNull(),
    usedAt: integer("used_at"),
  },
  (t) => [index("capture_admission_challenges_identity_idx").on(t.tenantId, t.captureIdentityId, t.createdAt)],
);

/**
 * Capture admissions (src/capture): one decision each, terminal. `submission_sha256` identifies the submission (a
 * replay answers the stored row); `consumed_challenge_id` is set when the decision consumed its challenge, and is
 * unique, so two admissions can never both use one challenge even when they race.
 */
export const captureAdmissions = sqliteTable(
  "capture_admissions",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    captureIdentityId: text("capture_identity_id").notNull(),
    challengeId: text("challenge_id").notNull(),
    consumedChallengeId: text("consumed_challenge_id"),
    /** Lowercase hex SHA-256 of the canonical submission (see capture/admissions.ts `submissionDigest`). */
    submissionSha256: text("submission_sha256").notNull(),
    attestationKind: text("attestation_kind", { enum: ["app_attest", "play_integrity", "hardware_key_attestation"] }).notNull(),
    providerClass: text("provider_class", {
      enum: ["apple_app_attest", "google_play_integrity", "android_key_attestation", "other"],
    }).notNull(),
    installationIdSha256: text("installation_id_sha256").notNull(),
    uploadObjectId: text("upload_object_id").notNull(),
    assetId: text("asset_id").notNull(),
    statementSha256: text("statement_sha256").notNull(),
    /** SHA-256 of the canonical JSON of `sensor_evidence` (the evidence itself is not stored). */
    sensorEvidenceSha256: text("sensor_evidence_sha256"),
    sensorSchemaVersion: text("sensor_schema_version"),
    decision: text("decision", { enum: ["pass", "reject"] }).notNull(),
    reason: text("reason").notNull(),
    /** JSON array of admission reasons, gate order. */
    failedGates: text("failed_gates").notNull(),
    /** JSON array of the gates not evaluated (their inputs did not exist). */
    notEvaluated: text("not_evaluated").notNull(),
    jobId: text("job_id"),
    identityVersionId: text("identity_version_id").notNull(),
    admissionPolicyVersion: text("admission_policy_version").notNull(),
    capturePolicyId: text("capture_policy_id").notNull(),
    capturePolicyVersion: text("capture_policy_version").notNull(),
    governancePolicyVersion: text("governance_policy_version").notNull(),
    verifierVersion: text("verifier_version").notNull(),
    trustSnapshotVersion: text("trust_snapshot_version").notNull(),
    revocationSnapshotVersion: text("revocation_snapshot_version").notNull(),
    evidenceSchemaVersion: text("evidence_schema_version").notNull(),
    createdByKeyId: text("created_by_key_id").notNull(),
    /** The decision time (`decided_at`). */
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("capture_admissions_submission_uq").on(t.tenantId, t.submissionSha256),
    uniqueIndex("capture_admissions_consumed_challenge_uq").on(t.consumedChallengeId),
    index("capture_admissions_tenant_created_idx").on(t.tenantId, t.createdAt, t.id),
    index("capture_admissions_identity_idx").on(t.tenantId, t.captureIdentityId, t.createdAt),
  ],
);

/** A tenant's billing account (src/billing): its plan and period. Created on first use with the default plan. */
export const billingAccounts = sqliteTable("billing_accounts", {
  tenantId: text("tenant_id").primaryKey(),
  planId: text("plan_id").notNull(),
  planRevision: integer("plan_revision").notNull(),
  status: text("status", { enum: ["active", "past_due", "canceled"] }).notNull(),
  cancelAtPeriodEnd: integer("cancel_at_period_end", { mode: "boolean" }).notNull(),
  currentPeriodStart: integer("current_period_start").notNull(),
  currentPeriodEnd: integer("current_period_end").notNull(),
  /** The payment provider's customer id, once provisioned. */
  providerCustomerId: text("provider_customer_id"),
  createdAt: integer("created_at").notNull(),
  updatedAt: integer("updated_at").notNull(),
});

/**
 * A tenant's prepaid wallet (src/billing): amounts in integer micro-dollars. Exists only once the tenant opted in
 * (`expected_version` 0); work of a tenant with an enabled wallet is admitted only while its quote fits
 * balance − reserved (and the monthly limit): triggers on wallet_reservations enforce it inside the admitting batch.
 */
export const wallets = sqliteTable("wallets", {
  tenantId: text("tenant_id").primaryKey(),
  enabled: integer("enabled", { mode: "boolean" }).notNull(),
  balanceMicros: integer("balance_micros").notNull(),
  reservedMicros: integer("reserved_micros").notNull(),
  /** Month (`YYYY-MM`, UTC) that month_spend_micros counts. */
  spendMonth: text("spend_month").notNull(),
  monthSpendMicros: integer("month_spend_micros").notNull(),
  monthlySpendLimitMicros: integer("monthly_spend_limit_micros"),
  autoRechargeEnabled: integer("auto_recharge_enabled", { mode: "boolean" }).notNull(),
  autoRechargeThresholdMicros: integer("auto_recharge_threshold_micros"),
  autoRechargeAmountMicros: integer("auto_recharge_amount_micros"),
  rechargePending: integer("recharge_pending", { mode: "boolean" }).notNull(),
  version: integer("version").notNull(),
  createdAt: integer("created_at").notNull(),
  updatedAt: integer("updated_at").notNull(),
});

/**
 * One quote held for one admitted job: `held` → `settled` (publication: the charge) or `released` (failure,
 * cancellation, expiry). Triggers move the wallet's reserved, balance and month spend with each transition, so the
 * wallet always equals its reservations and transactions. Settled rows are the tenant's charges.
 */
export const walletReservations = sqliteTable(
  "wallet_reservations",
  {
    jobId: text("job_id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    amountMicros: integer("amount_micros").notNull(),
    /** JSON array of quote lines (description, unit, quantity, unit_price, amount in µUSD). */
    lines: text("lines").notNull(),
    pricingVersion: text("pricing_version").notNull(),
    state: text("state", { enum: ["held", "settled", "released"] }).notNull(),
    createdAt: integer("created_at").notNull(),
    /** When it was settled or released. */
    endedAt: integer("ended_at"),
  },
  (t) => [index("wallet_reservations_tenant_state_idx").on(t.tenantId, t.state, t.endedAt, t.jobId)],
);

/** Money in and out of a wallet other than charges: top-ups, refunds, disputes, adjustments (append-only). */
export const walletTransactions = sqliteTable(
  "wallet_transactions",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    kind: text("kind", { enum: ["top_up", "refund", "dispute", "adjustment"] }).notNull(),
    /** Signed µUSD: credits positive, debits negative. */
    amountMicros: integer("amount_micros").notNull(),
    /** The provider event that caused it (dedupe key for callbacks), or null. */
    providerEventId: text("provider_event_id"),
    /** The checkout intent a top-up completes: unique among top-ups, so an intent is credited at most once. */
    intentId: text("intent_id"),
    /** The provider charge a refund or dispute is against: refunds debit only the increase over earlier ones. */
    providerChargeId: text("provider_charge_id"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    index("wallet_transactions_tenant_created_idx").on(t.tenantId, t.createdAt, t.id),
    uniqueIndex("wallet_transactions_event_uq").on(t.providerEventId),
    uniqueIndex("wallet_transactions_top_up_intent_uq").on(t.intentId).where(sql`kind = 'top_up'`),
    index("wallet_transactions_charge_idx").on(t.providerChargeId),
  ],
);

/** Checkout and portal intents (src/billing): what the tenant asked the provider for. */
export const billingIntents = sqliteTable(
  "billing_intents",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    kind: text("kind", { enum: ["checkout", "portal"] }).notNull(),
    purpose: text("purpose", { enum: ["subscription", "wallet_top_up", "portal"] }).notNull(),
    planId: text("plan_id"),
    amountMicros: integer("amount_micros"),
    mode: text("mode", { enum: ["simulation", "sandbox", "provider"] }).notNull(),
    url: text("url"),
    providerSessionId: text("provider_session_id"),
    status: text("status", { enum: ["open", "completed", "expired"] }).notNull(),
    expiresAt: integer("expires_at").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    index("billing_intents_tenant_created_idx").on(t.tenantId, t.createdAt),
    uniqueIndex("billing_intents_session_uq").on(t.providerSessionId),
  ],
);

/** Payments callbacks received (POST /webhooks/payments), deduplicated by the provider's event id. */
export const paymentEvents = sqliteTable("payment_events", {
  eventId: text("event_id").primaryKey(),
  type: text("type").notNull(),
  tenantId: text("tenant_id"),
  state: text("state", { enum: ["applied", "ignored"] }).notNull(),
  receivedAt: integer("received_at").notNull(),
});

/**
 * The tenant's audit log (issue #18): append-only and hash-chained. `seq` counts 1, 2, 3… per tenant with no gap;
 * `hash` = SHA-256 over the entry's canonical form including `prev_hash` (the previous entry's hash, or 64 zeros for
 * the first), so a removed, reordered or altered entry breaks every hash after it. Written only through the
 * AuditChain Durable Object (one writer per tenant); triggers refuse UPDATE and DELETE. Kept after an account
 * deletion: the audit is what the law asks to keep.
 */
export const auditEvents = sqliteTable(
  "audit_events",
  {
    tenantId: text("tenant_id").notNull(),
    seq: integer("seq").notNull(),
    id: text("id").notNull(),
    occurredAt: integer("occurred_at").notNull(),
    action: text("action").notNull(),
    outcome: text("outcome", { enum: ["succeeded", "denied", "failed"] }).notNull(),
    actorKind: text("actor_kind").notNull(),
    actorId: text("actor_id"),
    credentialId: text("credential_id"),
    requestId: text("request_id"),
    targetType: text("target_type"),
    targetId: text("target_id"),
    statusCode: integer("status_code"),
    detail: text("detail"),
    prevHash: text("prev_hash").notNull(),
    hash: text("hash").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.seq] }),
    uniqueIndex("audit_events_id_uq").on(t.id),
    index("audit_events_tenant_time_idx").on(t.tenantId, t.occurredAt),
    index("audit_events_tenant_target_idx").on(t.tenantId, t.targetId),
  ],
);

/**
 * Audit entries whose append to the tenant's chain failed after their write had happened (the AuditChain object
 * unreachable): kept here, in D1, until the sweep appends them (governance/audit/service drainAuditOutbox). A row
 * holds one entry's draft with its original time; `claimed_until` is a sweep's lease on it.
 */
export const auditOutbox = sqliteTable(
  "audit_outbox",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    draft: text("draft").notNull(),
    createdAt: integer("created_at").notNull(),
    claimedUntil: integer("claimed_until").notNull().default(0),
  },
  (t) => [index("audit_outbox_created_idx").on(t.createdAt)],
);

/**
 * Governance exports (issue #18, src/governance/exports): one archive of a tenant's records and stored objects as of
 * `as_of`, sealed by a queue job into one R2 object (`r2_key`). queued → running → completed | failed; completed →
 * expired when the sweep deletes the archive after `expires_at`. At most one queued or running export per tenant
 * (the partial unique index), so two POSTs can never both start one. `lease_until` bounds a running attempt: past
 * it the sweep puts the export back on the queue (a restart from scratch; `attempts` caps them).
 */
export const governanceExports = sqliteTable(
  "governance_exports",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    state: text("state", { enum: ["queued", "running", "completed", "failed", "expired"] }).notNull(),
    requestedByKind: text("requested_by_kind").notNull(),
    requestedById: text("requested_by_id"),
    /** The snapshot time: rows created after it are not in the archive. */
    asOf: integer("as_of").notNull(),
    /** The audit chain's head when requested (null: empty log); entries after it are not in the archive. */
    auditHeadSeq: integer("audit_head_seq"),
    auditHeadHash: text("audit_head_hash"),
    r2Key: text("r2_key").notNull(),
    /** The R2 multipart upload of the running attempt (aborted when an attempt is restarted or fails). */
    multipartUploadId: text("multipart_upload_id"),
    /** The attempt's second multipart upload: the manifest, streamed to `<r2_key>.manifest` before joining the archive. */
    manifestUploadId: text("manifest_upload_id"),
    /** JSON `{ <record kind>: rows }` plus `objects` and `objects_omitted`, once completed. */
    counts: text("counts"),
    fileCount: integer("file_count"),
    byteLength: integer("byte_length"),
    archiveSha256: text("archive_sha256"),
    manifestSha256: text("manifest_sha256"),
    /** The signed note over the manifest's SHA-256 (same key and format as the transparency log's checkpoints). */
    signature: text("signature"),
    errorCode: text("error_code"),
    attempts: integer("attempts").notNull().default(0),
    leaseUntil: integer("lease_until"),
    createdAt: integer("created_at").notNull(),
    startedAt: integer("started_at"),
    completedAt: integer("completed_at"),
    /** When the archive is deleted (completed exports). */
    expiresAt: integer("expires_at"),
    updatedAt: integer("updated_at").notNull(),
    /**
     * Whether the export's end (export.completed / export.failed) is in the audit log. Set only after the append
     * succeeded, so an end whose append failed is appended again (redelivery or sweep): at least once, never lost.
     */
    audited: integer("audited", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [
    index("governance_exports_tenant_created_idx").on(t.tenantId, t.createdAt, t.id),
    index("governance_exports_unaudited_idx").on(t.completedAt).where(sql`audited = 0`),
    index("governance_exports_state_updated_idx").on(t.state, t.updatedAt),
    uniqueIndex("governance_exports_active_uq").on(t.tenantId).where(sql`state IN ('queued', 'running')`),
  ],
);

/*
 * Governance: legal holds and deletions (issue #18, part 3). Neither is ever removed by a deletion: they are the
 * record of what was kept and what was removed, and why.
 */

/**
 * Legal holds, placed and released only by the operator (scripts/legal-hold.mjs), never through the API.
 * Invariant: a hold is active while `released_at` is null; scope `account` covers every asset of the tenant
 * (`asset_id` null), scope `asset` exactly one (`asset_id` set). `reason` and the operator names are operator
 * text, never personal data of the tenant's subjects. Rows are never deleted; release only sets the two columns.
 */
export const legalHolds = sqliteTable(
  "legal_holds",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    scope: text("scope", { enum: ["account", "asset"] }).notNull(),
    assetId: text("asset_id"),
    reason: text("reason").notNull(),
    placedBy: text("placed_by").notNull(),
    placedAt: integer("placed_at").notNull(),
    releasedBy: text("released_by"),
    releasedAt: integer("released_at"),
  },
  (t) => [
    index("legal_holds_tenant_placed_idx").on(t.tenantId, t.placedAt, t.id),
    index("legal_holds_tenant_asset_idx").on(t.tenantId, t.assetId, t.releasedAt),
  ],
);

/**
 * Console users (#18): people who sign in with the configured identity provider. One row per (issuer, subject),
 * provisioned just in time by the first valid session carrying a verified e-mail, together with a new account. The
 * e-mail is personal data: stored only sealed under the tenant's data key (`email_sealed`, record = the user id,
 * field "email"), with `email_index` a keyed blind index (HMAC under the key pepper, global across tenants) that
 * makes one e-mail belong to at most one user. A deleted user keeps its row (so the subject cannot sign in again
 * and provision anew) with the e-mail and its index erased.
 */
export const users = sqliteTable(
  "users",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id),
    issuer: text("issuer").notNull(),
    subject: text("subject").notNull(),
    emailSealed: text("email_sealed"),
    emailDataKeyId: text("email_data_key_id"),
    emailIndex: text("email_index"),
    status: text("status", { enum: ["active", "deactivated", "deleted"] })
      .notNull()
      .default("active"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    /** Epoch ms of the last sign-in recorded in the audit (at most one a user an hour), or null. */
    lastSignedInAt: integer("last_signed_in_at"),
  },
  (t) => [
    uniqueIndex("users_issuer_subject_uq").on(t.issuer, t.subject),
    uniqueIndex("users_email_index_uq").on(t.emailIndex),
    index("users_tenant_idx").on(t.tenantId),
  ],
);

/**
 * Deletion requests (POST /v1/governance/deletions) and their progress, carried out on the jobs queue.
 * Invariant: `state` moves queued → running → completed | failed, or queued | running → refused (a legal hold
 * covers the target); a terminal row's outcome never changes again (only `audited_at` / `audit_claimed_at`). At most one queued or running deletion per target
 * (the partial unique index), so a repeated request joins the one in progress. `removed` is a JSON object of
 * counts per kind, only ever increased, written in the same D1 batch as the rows it counts.
 */
export const governanceDeletions = sqliteTable(
  "governance_deletions",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    scope: text("scope", { enum: ["account", "asset"] }).notNull(),
    assetId: text("asset_id"),
    /** `account` or the asset id: what the uniqueness of an active deletion is about. */
    target: text("target").notNull(),
    state: text("state", { enum: ["queued", "running", "completed", "refused", "failed"] }).notNull(),
    /** Why it was refused or failed (a registry code); null otherwise. */
    reasonCode: text("reason_code"),
    /**
     * The hold that refused it, when refused; on a completed account deletion, a hold placed after the account was
     * closed (past the point of no return: the deletion finished, and the record names the hold that came too late).
     */
    legalHoldId: text("legal_hold_id"),
    /** JSON `{ kind: count }` of what was removed so far. */
    removed: text("removed").notNull(),
    /** Account scope: the phase reached (`assets`, `tenant`), so a redelivered message resumes there. */
    phase: text("phase"),
    requestedBy: text("requested_by"),
    attempts: integer("attempts").notNull().default(0),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    completedAt: integer("completed_at"),
    /**
     * When the terminal outcome's audit entry (`deletion.completed` / `refused` / `failed`) was appended; null on a
     * terminal row means it is still owed (a replay or the sweep appends it, once). Null while open.
     */
    auditedAt: integer("audited_at"),
    /** While an audit append is in flight: when it was claimed (a claim older than the lease may be taken over). */
    auditClaimedAt: integer("audit_claimed_at"),
  },
  (t) => [
    index("governance_deletions_tenant_created_idx").on(t.tenantId, t.createdAt, t.id),
    uniqueIndex("governance_deletions_active_target_uq").on(t.tenantId, t.target).where(sql`state IN ('queued', 'running')`),
  ],
);

/**
 * Identity-provider callbacks received (POST /webhooks/idp), deduplicated by their `idp-id`. Written in the same
 * batch as the user change it applied, so an event is applied at most once; `audited_at` null means its audit entry
 * is still owed (a replay appends it).
 */
export const idpEvents = sqliteTable("idp_events", {
  id: text("id").primaryKey(),
  type: text("type").notNull(),
  tenantId: text("tenant_id"),
  userId: text("user_id"),
  result: text("result").notNull(),
  receivedAt: integer("received_at").notNull(),
  auditedAt: integer("audited_at"),
  /** Epoch ms a delivery claimed appending the audit entry (migration 0031); a claim older than the lease lapses. */
  auditClaimedAt: integer("audit_claimed_at"),
});

/**
 * A deactivation or deletion the identity provider sent for a subject with no user yet (migration 0031), so it is
 * not lost: just-in-time provisioning refuses such a subject. Invariant: at most one row per (issuer, subject);
 * "deleted" is final, "deactivated" is removed by a later reactivation.
 */
export const idpPendingSubjects = sqliteTable(
  "idp_pending_subjects",
  {
    issuer: text("issuer").notNull(),
    subject: text("subject").notNull(),
    status: text("status", { enum: ["deactivated", "deleted"] }).notNull(),
    receivedAt: integer("received_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.issuer, t.subject] })],
);

/**
 * Publications removed by a deletion. Their transparency-log entries stay (the log is append-only and the tree
 * needs every leaf), so a lookup that lands on one answers "deleted" instead of a dangling id.
 */
export const deletedPublications = sqliteTable("deleted_publications", {
  publicationId: text("publication_id").primaryKey(),
  tenantId: text("tenant_id").notNull(),
  deletionId: text("deletion_id").notNull(),
  deletedAt: integer("deleted_at").notNull(),
});

/*
 * Issue #18 part 4: feedback, the derived-index reconciler's run record, and the overview's read indexes.
 */

/**
 * Feedback sent with POST /v1/feedback. The message may carry personal data (a name, an e-mail, a description of a
 * person in a disputed image), so it is only ever stored sealed under the tenant data key (AAD = tenant, id and
 * field "message"); `message_length` is kept in clear for bounds and triage without opening it. Related ids are
 * the tenant's own resource ids as given (validated by pattern, not by existence: feedback about a deleted asset
 * is still feedback).
 */
export const feedback = sqliteTable(
  "feedback",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    kind: text("kind", { enum: ["bug", "idea", "question", "verification_dispute", "other"] }).notNull(),
    dataKeyId: text("data_key_id").notNull(),
    messageSealed: text("message_sealed").notNull(),
    messageLength: integer("message_length").notNull(),
    relatedAssetId: text("related_asset_id"),
    relatedJobId: text("related_job_id"),
    relatedVerificationId: text("related_verification_id"),
    /** Who sent it (`api_key`, or a console user): the audit log names the same actor. */
    actorKind: text("actor_kind").notNull(),
    actorId: text("actor_id"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("feedback_tenant_created_idx").on(t.tenantId, t.createdAt, t.id)],
);

/**
 * The derived-index reconciler (src/derived-index): one row per reconciler (today only `soft_bindings`). Each cron
 * run scans a bounded slice of the index from its cursors, removes entries whose publication no longer has its asset
 * row, and records when it started and succeeded; `/readyz/governance` reads `last_succeeded_at`.
 */
export const derivedIndexRuns = sqliteTable("derived_index_runs", {
  name: text("name").primaryKey(),
  lastStartedAt: integer("last_started_at"),
  lastSucceededAt: integer("last_succeeded_at"),
  lastFailedAt: integer("last_failed_at"),
  /** Where the next run resumes: the last (publication_id, algorithm) of soft_bindings scanned, "" from the start. */
  bindingsCursor: text("bindings_cursor").notNull().default(""),
  /** The last publication_id of pdq_bands scanned, "" from the start. */
  bandsCursor: text("bands_cursor").notNull().default(""),
  lastScanned: integer("last_scanned").notNull().default(0),
  lastBindingsRemoved: integer("last_bindings_removed").notNull().default(0),
  lastBandsRemoved: integer("last_bands_removed").notNull().default(0),
  totalRemoved: integer("total_removed").notNull().default(0),
  /** Full passes over both indexes completed (each cursor wrapped to the start). */
  passesCompleted: integer("passes_completed").notNull().default(0),
});

/**
 * The overview's daily pre-aggregate (src/overview/aggregate.ts): per tenant, figure and UTC day of creation, the
 * count of rows per counted value (job state, verification outcome, asset kind, delivery status) as of `computed_at`.
 * Written by the cron sweep only for days that ended at least two days ago; the overview counts later days from the
 * rows themselves.
 */
export const overviewDaily = sqliteTable(
  "overview_daily",
  {
    tenantId: text("tenant_id").notNull(),
    figure: text("figure", { enum: ["jobs", "verifications", "assets", "webhook_deliveries"] }).notNull(),
    /** UTC midnight of the day counted, ms since the epoch. */
    dayStart: integer("day_start").notNull(),
    key: text("key").notNull(),
    n: integer("n").notNull(),
    computedAt: integer("computed_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.figure, t.dayStart, t.key] })],
);

/**
 * How far each tenant's daily pre-aggregate reaches. Invariant: every UTC day before `through_day` (of every figure)
 * has its overview_daily rows (none for a day without rows); `oldest_computed_at` is the earliest computation among them.
 */
export const overviewAggregates = sqliteTable("overview_aggregates", {
  tenantId: text("tenant_id").primaryKey(),
  throughDay: integer("through_day").notNull(),
  oldestComputedAt: integer("oldest_computed_at").notNull(),
  updatedAt: integer("updated_at").notNull(),
});
