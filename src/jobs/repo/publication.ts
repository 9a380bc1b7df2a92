import { anchorEntryStatement } from "../../anchoring/log";
import { settleReservationStatement } from "../../billing/repo/reservations";
import { formatOf } from "../../catalog/formats";
import { assets, jobSteps, jobs, objects } from "../../db/schema";
import { rowOf } from "../../db/statements";
import { C2PA_ENGINE } from "../../media/c2pa/engine-version";
import { newId, randomBase32 } from "../../platform/ids";
import { derivedIndexStatements } from "../../soft-bindings/repo";
import { publicationEventStatements } from "../../webhooks/repo/events";
import type { AdmittedRequest } from "../admission";
import type { PublicationPlan, StoredBlob } from "../outputs";
import type { JobPublicationView, JobRow } from ".";

/*
 * The publication transaction: ten tables written in one D1 batch (D1 runs a batch as one transaction). The first
 * statement moves the job to `completed` with this attempt's publication id, only while it is running, not
 * cancelled and not yet published; every later statement is guarded by `ours` (that move happened), so the asset is
 * published exactly once, or not at all, however often a run is redelivered or raced.
 */

/** A committed-or-not publication attempt: the ids it used, and the webhook events it wrote to the outbox. */
export interface PublicationAttempt {
  publicationId: string;
  /** The outbox events of this attempt; they exist only if the publication committed. */
  eventIds: string[];
  /** Whether this attempt's publication took effect (the job carries its publication id). */
  committed: boolean;
  /** The job's state and cancellation after the batch (null if the job row is gone). */
  job: Pick<JobRow, "state" | "cancelRequestedAt"> | null;
  /**
   * Express jobs only, when this attempt committed: what the express answer shows (repo jobWithPublication's rows),
   * read inside the publication's transaction, so the answer needs no read of its own. Null otherwise.
   */
  view: JobPublicationView | null;
}

/**
 * The step records that ride with the publication instead of a round trip of their own (runner.ts): the step finished
 * just before the publish step (the sign step, or the watermark step of an unsigned recipe) and when the publish step
 * began. The finished step is recorded while this runner holds the job, cancelled or not, as advanceStep records it;
 * the publish step's begin only with the publication itself.
 */
export interface FoldedRecords {
  finished: { step: string; output: unknown; completedAt: number };
  publishStartedAt: number;
}

/** Runs the publication batch. Whether it took effect is `committed` (the batch itself never fails on a lost race). */
export async function publishBatch(
  d1: D1Database,
  job: JobRow,
  source: typeof objects.$inferSelect,
  plan: PublicationPlan,
  folded: FoldedRecords | null = null,
): Promise<PublicationAttempt> {
  const now = Date.now();
  const publicationId = `pub_${randomBase32(16)}`;
  const receiptId = newId("receipt");
  const verificationId = newId("verification");
  const sidecar = plan.sidecarManifest !== null;
  const outputObjectId = plan.output ? newId("object") : source.id;
  const sidecarObjectId = sidecar ? newId("object") : null;
  const extension = formatOf(source.mediaType)!.extension;
  const filename = `${job.assetId}.${extension}`;
  const retentionDays = (JSON.parse(job.admitted) as AdmittedRequest).output_retention_days;
  const retentionUntil = retentionDays === null || retentionDays === undefined ? null : now + retentionDays * 86_400_000;
  const ours = "EXISTS (SELECT 1 FROM jobs WHERE id = ? AND publication_id = ?)";
  const { watermark, fingerprints } = plan.durable;
  const validationPath = plan.check ? (sidecar ? "c2pa.sidecar" : "c2pa.embedded") : "watermark";
  const evidence = {
    variant: sidecar ? "sidecar_signing" : plan.check ? "signing" : "watermarking",
    output: {
      object_id: outputObjectId,
      media_type: source.mediaType,
      sha256: plan.output?.sha256 ?? source.sha256,
      byte_length: plan.output?.byte_length ?? source.byteLength,
    },
    source: { object_id: source.id, sha256: source.sha256, byte_length: source.byteLength },
    sidecar_manifest: plan.sidecarManifest
      ? { object_id: sidecarObjectId, sha256: plan.sidecarManifest.sha256, byte_length: plan.sidecarManifest.byte_length }
      : null,
    manifest: plan.check ? { active_manifest_label: plan.manifestLabel, validation_state: plan.check.validation_state } : null,
    watermark: watermark
      ? {
          algorithm: watermark.algorithm,
          strength: watermark.strength,
          payload: watermark.payload,
          psnr_db: watermark.psnr_db,
          read_back: true,
        }
      : null,
    fingerprints: fingerprints
      ? fingerprints.fingerprints.map((f) => ({ algorithm: f.algorithm, value: f.value, quality: f.quality }))
      : [],
    recipe: { recipe_id: job.recipeId, version: job.recipeVersion },
    publication_id: publicationId,
    verification_id: verificationId,
    published_at: new Date(now).toISOString(),
  };
  const insertObject = (id: string, role: string, blob: StoredBlob, mediaType: string, name: string) =>
    d1
      .prepare(
        `INSERT INTO objects (id, tenant_id, asset_id, role, r2_key, etag, byte_length, sha256, media_type, filename, inspection, created_at)
         SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ? WHERE ${ours}`,
      )
      .bind(
        id,
        job.tenantId,
        job.assetId,
        role,
        blob.key,
        blob.etag,
        blob.byte_length,
        blob.sha256,
        mediaType,
        name,
        now,
        job.id,
        publicationId,
      );
  const bindings = [
    ...(watermark ? [{ kind: "watermark", algorithm: watermark.algorithm, value: watermark.payload, bits: watermark.payload }] : []),
    ...(fingerprints?.fingerprints ?? []).map((f) => ({ kind: "fingerprint", algorithm: f.algorithm, value: f.value, bits: f.bits })),
  ];

  const events = publicationEventStatements(
    d1,
    {
      tenantId: job.tenantId,
      signed: plan.check !== null,
      watermarked: watermark !== null,
      at: now,
      data: {
        asset_id: job.assetId,
        job_id: job.id,
        publication_id: publicationId,
        receipt_id: receiptId,
        media_type: source.mediaType,
        recipe_id: job.recipeId,
        manifest_label: plan.manifestLabel,
        watermark_algorithm: watermark?.algorithm ?? null,
      },
    },
    { sql: ours, binds: [job.id, publicationId] },
  );

  const statements: D1PreparedStatement[] = [
    // The folded record of the step before: bound to this runner's attempt only (as advanceStep's), so it stands
    // when a cancellation stops the publication, and a runner whose lease lapsed records nothing.
    ...(folded
      ? [
          d1
            .prepare(
              `UPDATE job_steps SET state = 'completed', completed_at = ?, output = ?
               WHERE job_id = ? AND step = ? AND EXISTS (SELECT 1 FROM jobs WHERE id = ? AND attempts = ?)`,
            )
            .bind(
              folded.finished.completedAt,
              JSON.stringify(folded.finished.output) ?? null,
              job.id,
              folded.finished.step,
              job.id,
              job.attempts,
            ),
        ]
      : []),
    d1
      .prepare(
        `UPDATE jobs SET state = 'completed', publication_id = ?, receipt_id = ?, verification_id = ?, terminal_at = ?, updated_at = ?, lease_expires_at = NULL
         WHERE id = ? AND state = 'running' AND attempts = ? AND cancel_requested_at IS NULL AND publication_id IS NULL`,
      )
      // `attempts`: only the runner that holds the job (its take's count; a later take means its lease lapsed) publishes.
      .bind(publicationId, receiptId, verificationId, now, now, job.id, job.attempts),
    ...(plan.output
      ? [insertObject(outputObjectId, plan.check ? "signed_output" : "watermarked_output", plan.output, source.mediaType, filename)]
      : []),
    ...(plan.sidecarManifest
      ? [insertObject(sidecarObjectId!, "sidecar_manifest", plan.sidecarManifest, "application/c2pa", `${filename}.c2pa`)]
      : []),
    d1
      .prepare(
        `UPDATE assets SET status = 'published', publication_id = ?, published_object_id = ?, sidecar_object_id = ?, published_job_id = ?,
           published_recipe_id = ?, published_at = ?, manifest_label = ?, retention_until = ?, updated_at = ?
         WHERE id = ? AND publication_id IS NULL AND ${ours}`,
      )
      .bind(
        publicationId,
        outputObjectId,
        sidecarObjectId,
        job.id,
        job.recipeId,
        now,
        plan.manifestLabel,
        retentionUntil,
        now,
        job.assetId,
        job.id,
        publicationId,
      ),
    d1
      .prepare(`INSERT INTO receipts (id, tenant_id, asset_id, job_id, evidence, created_at) SELECT ?, ?, ?, ?, ?, ? WHERE ${ours}`)
      .bind(receiptId, job.tenantId, job.assetId, job.id, JSON.stringify(evidence), now, job.id, publicationId),
    d1
      .prepare(
        `INSERT INTO verifications (id, tenant_id, subject_type, overall, asset_id, job_id, object_id, policy_version, source_byte_length, source_media_type, validation_path, evidence, created_at, validated_at)
         SELECT ?, ?, 'asset', 'valid', ?, ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE ${ours}`,
      )
      .bind(
        verificationId,
        job.tenantId,
        job.assetId,
        job.id,
        outputObjectId,
        job.policyVersion,
        evidence.output.byte_length,
        source.mediaType,
        validationPath,
        JSON.stringify({
          check: plan.check,
          watermark_read_back: watermark ? { algorithm: watermark.algorithm, payload_matches: true } : null,
          checked_at: new Date(now).toISOString(),
          engine: plan.check ? C2PA_ENGINE : null,
        }),
        now,
        now,
        job.id,
        publicationId,
      ),
    // The derived index (PDQ bands and windows, Chromaprint and video frames) for near lookups.
    ...(fingerprints ? derivedIndexStatements(d1, publicationId, fingerprints, { sql: ours, binds: [job.id, publicationId] }) : []),
    ...softBindingStatements(d1, bindings, { publicationId, tenantId: job.tenantId, assetId: job.assetId, jobId: job.id, now }, ours),
    ...(plan.manifestSha256
      ? [
          await anchorEntryStatement(
            d1,
            { publicationId, tenantId: job.tenantId, manifestSha256: plan.manifestSha256, createdAt: now },
            { sql: ours, binds: [job.id, publicationId] },
          ),
        ]
      : []),
    // The customer events of this publication (the webhook outbox), committed with it or not at all.
    ...events.statements,
    // The job's quote becomes its charge (metered tenants; nothing for others).
    settleReservationStatement(d1, job.id, now, { sql: ours, binds: [job.id, publicationId] }),
    // started_at: the publish step's begin when it rode with this batch (folded), else as its own begin recorded it
    d1
      .prepare(
        `UPDATE job_steps SET state = 'completed', started_at = COALESCE(started_at, ?), completed_at = ?, output = ? WHERE job_id = ? AND step = 'publish' AND ${ours}`,
      )
      .bind(folded?.publishStartedAt ?? now, now, JSON.stringify({ publication_id: publicationId }), job.id, job.id, publicationId),
  ];
  // The job as the batch left it, read inside the same transaction: whether this attempt published, or what stopped
  // it (a cancellation that landed first), without another round trip. An express job's answer also shows its steps,
  // asset and published objects: read here too (the rows jobWithPublication reads), so the answer needs no read after.
  const express = job.mode === "express";
  const read = statements.length;
  statements.push(
    express
      ? d1.prepare("SELECT * FROM jobs WHERE tenant_id = ? AND id = ?").bind(job.tenantId, job.id)
      : d1.prepare("SELECT publication_id, state, cancel_requested_at FROM jobs WHERE id = ?").bind(job.id),
    ...(express ? publishedViewStatements(d1, job) : []),
  );
  const results = await d1.batch(statements);
  const after = results[read]!.results[0] as
    | { publication_id: string | null; state: JobRow["state"]; cancel_requested_at: number | null }
    | undefined;
  const committed = after?.publication_id === publicationId;
  return {
    publicationId,
    eventIds: events.eventIds,
    committed,
    job: after ? { state: after.state, cancelRequestedAt: after.cancel_requested_at } : null,
    view: express && committed && after ? publishedView(after as Record<string, unknown>, results.slice(read + 1)) : null,
  };
}

/** A soft binding row's own fields (the rest are the publication's). */
interface BindingRow {
  kind: string;
  algorithm: string;
  value: string;
  bits: string;
}

/**
 * Bindings whose value and bits together stay under this many characters ride in one statement; a larger one (a
 * Chromaprint or video carrier: its frames) keeps a statement of its own, so no bound value grows past the larger
 * binding it carries (D1 bounds a value's size).
 */
const SHARED_BINDING_CHARS = 16_384;

/**
 * The publication's soft-binding rows: the small ones (the watermark payload, PDQ, ISCC, ...) in one statement whose
 * rows travel as one JSON array, in order (a statement each before: two fewer in an express publication), each
 * large one in its own. The same rows under the same guard.
 */
function softBindingStatements(
  d1: D1Database,
  bindings: readonly BindingRow[],
  of: { publicationId: string; tenantId: string; assetId: string; jobId: string; now: number },
  ours: string,
): D1PreparedStatement[] {
  const columns = "publication_id, algorithm, tenant_id, asset_id, job_id, kind, value, bits, created_at";
  const small = bindings.filter((b) => String(b.value).length + String(b.bits).length <= SHARED_BINDING_CHARS);
  const large = bindings.filter((b) => !small.includes(b));
  return [
    ...(small.length > 0
      ? [
          d1
            .prepare(
              `INSERT INTO soft_bindings (${columns})
               SELECT ?, json_extract(j.value, '$[0]'), ?, ?, ?, json_extract(j.value, '$[1]'), json_extract(j.value, '$[2]'),
                 json_extract(j.value, '$[3]'), ? FROM json_each(?) AS j WHERE ${ours}`,
            )
            .bind(
              of.publicationId,
              of.tenantId,
              of.assetId,
              of.jobId,
              of.now,
              JSON.stringify(small.map((b) => [b.algorithm, b.kind, b.value, b.bits])),
              of.jobId,
              of.publicationId,
            ),
        ]
      : []),
    ...large.map((b) =>
      d1
        .prepare(`INSERT INTO soft_bindings (${columns}) SELECT ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE ${ours}`)
        .bind(
          of.publicationId,
          b.algorithm,
          of.tenantId,
          of.assetId,
          of.jobId,
          b.kind,
          b.value,
          b.bits,
          of.now,
          of.jobId,
          of.publicationId,
        ),
    ),
  ];
}

/**
 * After the job's own row: its steps, its asset and the asset's published objects (as jobWithPublication reads them).
 * The objects are found by primary key, each `id =` a scalar subquery: SQLite plans `id IN (… UNION ALL …)` as a
 * walk of the tenant's objects (its tenant index) filtered by the list, a read that grew with every object the
 * tenant ever stored (320 rows on a bench database after 150 signings, instead of 2).
 */
function publishedViewStatements(d1: D1Database, job: JobRow): D1PreparedStatement[] {
  return [
    d1.prepare("SELECT * FROM job_steps WHERE job_id = ? ORDER BY position").bind(job.id),
    d1.prepare("SELECT * FROM assets WHERE tenant_id = ? AND id = ?").bind(job.tenantId, job.assetId),
    d1.prepare(PUBLISHED_OBJECTS_SQL).bind(job.tenantId, job.tenantId, job.assetId, job.tenantId, job.assetId),
  ];
}

/** The published output and sidecar of one asset (binds: tenant, tenant, asset, tenant, asset), by primary key. */
export const PUBLISHED_OBJECTS_SQL = `SELECT * FROM objects WHERE tenant_id = ? AND (
           id = (SELECT published_object_id FROM assets WHERE tenant_id = ? AND id = ?)
           OR id = (SELECT sidecar_object_id FROM assets WHERE tenant_id = ? AND id = ?))`;

function publishedView(jobRow: Record<string, unknown>, [steps, asset, published]: D1Result[]): JobPublicationView {
  const assetRow = asset!.results[0] ? rowOf(assets, asset!.results[0] as Record<string, unknown>) : null;
  const objectById = new Map(published!.results.map((o) => rowOf(objects, o as Record<string, unknown>)).map((o) => [o.id, o]));
  return {
    job: rowOf(jobs, jobRow),
    steps: steps!.results.map((s) => rowOf(jobSteps, s as Record<string, unknown>)),
    asset: assetRow,
    output: assetRow?.publishedObjectId ? (objectById.get(assetRow.publishedObjectId) ?? null) : null,
    sidecar: assetRow?.sidecarObjectId ? (objectById.get(assetRow.sidecarObjectId) ?? null) : null,
  };
}
