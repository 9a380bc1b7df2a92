import { hex } from "../../../src/platform/bytes";
import {
  chromaprintFramesHex,
  derivedIndexStatements,
  type IndexedFingerprints,
  PDQ_MIN_QUALITY,
  type VIDEO_FRAME_ALGORITHMS,
} from "../../../src/soft-bindings/repo";

/*
 * Seeding the soft-binding index for tests: a publication's asset row, its soft_bindings rows and its derived index
 * rows (pdq_bands, pdq_regions, chromaprint_frames, video_frames), written as the publication batch writes them
 * (src/jobs/repo/publication.ts) without a job to publish. The derived rows come from the service's own
 * derivedIndexStatements (src/soft-bindings/repo.ts), the one rule the publication batch and the restore drill
 * follow, so band values, keys and skipped frames are never derived a second time here. Tests that need a state the
 * batch never leaves (index rows without their binding, a binding without its asset) compose the statements below.
 */

/** The publication batch's guard is its job's claim; seeded rows have no job, so theirs always holds (as the restore drill's). */
const ALWAYS = { sql: "1 = 1", binds: [] as unknown[] };

/** The quality given to seeded hashes: above PDQ_MIN_QUALITY, so every quality gate of the index lets them in. */
export const SEEDED_QUALITY = Math.max(100, PDQ_MIN_QUALITY);

/** The asset a publication points to (the columns the publication batch sets on it). */
export interface SeededAsset {
  publicationId: string;
  assetId: string;
  tenantId: string;
  /** assets.kind; default "image". */
  kind?: string;
  /** assets.status; default "published" (a test may name a status the schema's enum does not list). */
  status?: string;
  /** assets.manifest_label; default `urn:c2pa:<publicationId>`; null: a publication without a manifest. */
  manifestLabel?: string | null;
  /** assets.published_at; default null. */
  publishedAt?: number | null;
  /** assets.created_at and updated_at; default 0. */
  assetCreatedAt?: number;
}

/** A publication: its asset, and what its soft_bindings rows share (one batch writes them all at one time). */
export interface SeededPublication extends SeededAsset {
  /** soft_bindings.created_at of every binding (the batch's `now`: lookups order ties by it); default 0. */
  createdAt?: number;
  /** soft_bindings.job_id of every binding (the publishing job); default "job_x". */
  jobId?: string;
}

/** One soft_bindings row's own columns, and (fingerprints) the quality the derived index's gates read. */
export interface SeededBinding {
  algorithm: string;
  kind: "watermark" | "fingerprint";
  value: string;
  bits: string;
  quality: number | null;
}

/** A watermark binding: value and bits are both the payload, as the publication batch writes a detected watermark. */
export function watermarkBinding(algorithm: string, payload: string): SeededBinding {
  return { algorithm, kind: "watermark", value: payload, bits: payload, quality: null };
}

/**
 * A fingerprint binding under `algorithm`: `bits` the hex lookups compare, `value` its canonical text (default: the
 * bits), `quality` the fingerprinter's (null for those without one, such as ISCC; only the PDQ gate reads it).
 */
export function fingerprintBinding(algorithm: string, bits: string, value: string = bits, quality: number | null = null): SeededBinding {
  return { algorithm, kind: "fingerprint", value, bits, quality };
}

/** A `pdq` binding of a 256-bit hash: value and bits its hex (as the PDQ fingerprinter gives them), indexable quality. */
export function pdqBinding(hash: Uint8Array): SeededBinding {
  return fingerprintBinding("pdq", hex(hash), hex(hash), SEEDED_QUALITY);
}

/** A `chromaprint` binding: bits the frames as chromaprintFramesHex writes them; value a stand-in (lookups never read it). */
export function chromaprintBinding(frames: Uint32Array, value = "AQAA"): SeededBinding {
  return fingerprintBinding("chromaprint", chromaprintFramesHex(frames), value);
}

/** A video binding (vPDQ or TMK+PDQF): bits the frame hashes' hex end to end (as videoFramesOf reads them). */
export function videoBinding(
  algorithm: (typeof VIDEO_FRAME_ALGORITHMS)[number],
  frames: readonly Uint8Array[],
  value = "v",
): SeededBinding {
  return fingerprintBinding(algorithm, frames.map((f) => hex(f)).join(""), value);
}

/** Publication and asset ids with one suffix: `n` padded to 14 digits, or (no `n`) 14 random hex digits. */
export function publicationIds(tag: string, n?: number): { publicationId: string; assetId: string } {
  const suffix = n === undefined ? crypto.randomUUID().replace(/-/g, "").slice(0, 14) : String(n).padStart(14, "0");
  return { publicationId: `pub_${tag}${suffix}`, assetId: `ast_${tag}${suffix}` };
}

/**
 * Writes one assets row: the asset the publication points to, in `status`. Keeps: its id and publication id are the
 * pair every lookup joins a soft_bindings row by (a.id = sb.asset_id AND a.publication_id = sb.publication_id).
 */
export function assetStatement(db: D1Database, a: SeededAsset): D1PreparedStatement {
  return db
    .prepare(
      "INSERT INTO assets (id, tenant_id, kind, status, publication_id, manifest_label, published_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(
      a.assetId,
      a.tenantId,
      a.kind ?? "image",
      a.status ?? "published",
      a.publicationId,
      a.manifestLabel === undefined ? `urn:c2pa:${a.publicationId}` : a.manifestLabel,
      a.publishedAt ?? null,
      a.assetCreatedAt ?? 0,
      a.assetCreatedAt ?? 0,
    );
}

/**
 * Writes one soft_bindings row per binding, with the columns of the publication batch (softBindingStatements):
 * publication, algorithm, tenant, asset, job, kind, value, bits, created_at. Keeps: at most one row per
 * (publication, algorithm), the table's key; the publication's tenant and asset on every row.
 */
export function bindingStatements(db: D1Database, p: SeededPublication, bindings: readonly SeededBinding[]): D1PreparedStatement[] {
  const insert = db.prepare(
    "INSERT INTO soft_bindings (publication_id, algorithm, tenant_id, asset_id, job_id, kind, value, bits, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  return bindings.map((b) =>
    insert.bind(p.publicationId, b.algorithm, p.tenantId, p.assetId, p.jobId ?? "job_x", b.kind, b.value, b.bits, p.createdAt ?? 0),
  );
}

/**
 * Writes the derived index rows of a publication's fingerprint bindings by derivedIndexStatements itself: the 16
 * pdq_bands of a `pdq` hash, a pdq_regions row per window (index in `windows` = region; only beside an indexed
 * `pdq` hash, as the batch does), the chromaprint_frames of a `chromaprint` binding (runs and silence left out) and
 * the video_frames keys of the first vPDQ/TMK binding. Watermark bindings index nothing. Writes no soft_bindings row:
 * with bindingStatements, the rows of one publication; alone, the stray rows the reconciler removes.
 */
export function indexStatements(
  db: D1Database,
  publicationId: string,
  bindings: readonly SeededBinding[],
  windows: readonly Uint8Array[] = [],
): D1PreparedStatement[] {
  const output: IndexedFingerprints = {
    fingerprints: bindings
      .filter((b) => b.kind === "fingerprint")
      .map((b) => ({ algorithm: b.algorithm, bits: b.bits, quality: b.quality })),
    pdq_regions: windows.map((bits, region) => ({ region, bits: hex(bits), quality: SEEDED_QUALITY })),
  };
  return derivedIndexStatements(db, publicationId, output, ALWAYS);
}

/** A whole publication as the batch leaves it: its asset row, its soft_bindings rows and their derived index rows. */
export function publicationStatements(
  db: D1Database,
  p: SeededPublication,
  bindings: readonly SeededBinding[],
  windows: readonly Uint8Array[] = [],
): D1PreparedStatement[] {
  return [assetStatement(db, p), ...bindingStatements(db, p, bindings), ...indexStatements(db, p.publicationId, bindings, windows)];
}

/** Writes publicationStatements in one batch (all or nothing) and answers the publication id. */
export async function seedPublication(
  db: D1Database,
  p: SeededPublication,
  bindings: readonly SeededBinding[],
  windows: readonly Uint8Array[] = [],
): Promise<string> {
  await db.batch(publicationStatements(db, p, bindings, windows));
  return p.publicationId;
}
