import { fromHex } from "../platform/bytes";
/*
 * Lookups in the soft-binding index (tables `soft_bindings` and `pdq_bands`, written by the publication batch).
 * Global by default: a published asset's provenance is public, so any verifier may recover it; matches name the
 * publication and its manifest, never the owning tenant. `MatchFilter` narrows a lookup to one tenant (a customer
 * searching its own publications, see lookupScope in service.ts) and to publications that can still be resolved.
 */

/** PDQ matches count up to this Hamming distance (ThreatExchange's recommended threshold for 256-bit PDQ). */
export const PDQ_MATCH_DISTANCE = 31;
/** Below this PDQ quality a hash says little about the image (upstream advice): it is neither indexed nor looked up. */
export const PDQ_MIN_QUALITY = 50;
/**
 * A region hash (pdq_regions: a window of a published image, src/media/fingerprint/regions.ts) matches up to this
 * distance. Tighter than PDQ_MATCH_DISTANCE: each publication indexes up to 30 windows, so a query meets 30 times
 * as many hashes, and a copy cropped to a window's frame lands close to it (bench/fingerprint-recall.mjs).
 */
export const PDQ_REGION_MATCH_DISTANCE = 31;
const BANDS = 16;
/**
 * At most this many candidates per band probe: it bounds the work of one lookup on a very large index, or of a
 * crafted query, to 16 × 256 hashes. A random hash shares a band (± one bit) with about 0.4% of the index, so
 * below ~60,000 PDQ-indexed assets no probe reaches the cap; above it, a crowded band may drop a true match from
 * that probe, and the lookup then relies on the other bands it shares with the query (a near copy shares many).
 */
const PROBE_CANDIDATE_LIMIT = 256;

/** At most this many matches are returned by one lookup, whatever the caller asks for. */
export const MAX_MATCHES = 100;

export interface MatchFilter {
  /** Only this tenant's publications; omitted or null: every tenant's. */
  tenantId?: string | null;
  /**
   * Only publications that can be resolved to a manifest: the asset is still `published` (not past its
   * retention) and has a manifest (watermark-only outputs have none). Default false: every indexed publication.
   */
  resolvableOnly?: boolean;
}

export interface IndexedMatch {
  publication_id: string;
  algorithm: string;
  manifest_label: string | null;
  distance: number;
}

/** The 16 band values (16-bit integers) of a 32-byte PDQ hash. */
export function pdqBandValues(bits: Uint8Array): number[] {
  return Array.from({ length: BANDS }, (_, b) => (bits[2 * b]! << 8) | bits[2 * b + 1]!);
}

/**
 * The statements that index a publication's PDQ hash (run inside the publication batch, under its guard): one
 * statement for the 16 band rows, which travel as one JSON array (band = its index), as pdqRegionStatement's do. A
 * statement a band had cost the publication 15 statements more (each prepared, run and guarded on its own).
 */
export function pdqBandStatements(
  d1: D1Database,
  publicationId: string,
  bits: Uint8Array,
  guard: { sql: string; binds: unknown[] },
): D1PreparedStatement[] {
  return [
    d1
      .prepare(`INSERT INTO pdq_bands (publication_id, band, value) SELECT ?, j.key, j.value FROM json_each(?) AS j WHERE ${guard.sql}`)
      .bind(publicationId, JSON.stringify(pdqBandValues(bits)), ...guard.binds),
  ];
}

/**
 * The statement that indexes a publication's region hashes (pdq_regions; run inside the publication batch, under its
 * guard): one statement whatever their number, the rows travel as one JSON array of [region, b0..b15].
 */
export function pdqRegionStatement(
  d1: D1Database,
  publicationId: string,
  regions: readonly { region: number; bits: Uint8Array }[],
  guard: { sql: string; binds: unknown[] },
): D1PreparedStatement {
  const rows = regions.map((r) => [r.region, ...pdqBandValues(r.bits)]);
  const columns = Array.from({ length: BANDS }, (_, b) => `b${b}`).join(", ");
  const values = Array.from({ length: BANDS + 1 }, (_, i) => `json_extract(j.value, '$[${i}]')`).join(", ");
  return d1
    .prepare(`INSERT INTO pdq_regions (publication_id, region, ${columns}) SELECT ?, ${values} FROM json_each(?) AS j WHERE ${guard.sql}`)
    .bind(publicationId, JSON.stringify(rows), ...guard.binds);
}

function popcount8(x: number): number {
  let n = 0;
  for (let v = x; v; v &= v - 1) n++;
  return n;
}

function hamming(a: Uint8Array, b: Uint8Array): number {
  let d = 0;
  for (let i = 0; i < a.length; i++) d += popcount8(a[i]! ^ b[i]!);
  return d;
}

/**
 * The WHERE conditions (and their binds) of a MatchFilter, over `soft_bindings sb JOIN assets a`. `probed`: the
 * PDQ statement, whose rows come from its band probes; there the tenant condition is written `+sb.tenant_id` so
 * SQLite cannot drive the lookup by the tenant index (every PDQ row of the tenant) instead (see PDQ_CANDIDATES_SQL).
 */
function filterSql(filter: MatchFilter, probed = false): { sql: string; binds: unknown[] } {
  let sql = "";
  const binds: unknown[] = [];
  if (filter.tenantId) {
    sql += probed ? " AND +sb.tenant_id = ?" : " AND sb.tenant_id = ?";
    binds.push(filter.tenantId);
  }
  if (filter.resolvableOnly) sql += " AND a.status = 'published' AND a.manifest_label IS NOT NULL";
  return { sql, binds };
}

function boundedLimit(limit: number): number {
  return Math.max(1, Math.min(MAX_MATCHES, Math.floor(limit)));
}

/**
 * Exact lookups (watermark payloads, ISCC codes): the publications registered under the value, earliest first,
 * at most `limit` (≤ MAX_MATCHES).
 */
export async function exactMatches(
  db: D1Database,
  algorithm: string,
  bitsHex: string,
  options: MatchFilter & { limit: number },
): Promise<IndexedMatch[]> {
  const filter = filterSql(options);
  const rows = await db
    .prepare(
      `SELECT sb.publication_id, sb.algorithm, a.manifest_label
         FROM soft_bindings sb JOIN assets a ON a.id = sb.asset_id AND a.publication_id = sb.publication_id
        WHERE sb.algorithm = ? AND sb.bits = ?${filter.sql} ORDER BY sb.created_at ASC, sb.publication_id ASC LIMIT ?`,
    )
    .bind(algorithm, bitsHex, ...filter.binds, boundedLimit(options.limit))
    .all<{ publication_id: string; algorithm: string; manifest_label: string | null }>();
  return rows.results.map((row) => ({ ...row, distance: 0 }));
}

/** An exact lookup (watermark payloads, ISCC codes): the earliest publication registered under the value. */
export async function exactMatch(
  db: D1Database,
  algorithm: string,
  bitsHex: string,
  filter: MatchFilter = {},
): Promise<IndexedMatch | null> {
  return (await exactMatches(db, algorithm, bitsHex, { ...filter, limit: 1 }))[0] ?? null;
}

/**
 * The PDQ rows of soft_bindings that share one of the 16 bands of the query up to one bit (every hash within
 * distance 31 does): 16 probes on pdq_bands_lookup_idx of at most PROBE_CANDIDATE_LIMIT each, each driven by its
 * 17 values (CROSS JOIN: json_each first), their union one IN list, read by the primary key of soft_bindings (a
 * compound SELECT of 4 terms of 4: one of 16 terms is over workerd's limit). The earlier shape, 16 IN terms OR-ed
 * next to `sb.algorithm = 'pdq'`, let SQLite drive the statement by soft_bindings_lookup_idx (algorithm=?) and
 * test every PDQ row of the index against the probes: a read of the whole index per verification (50,000
 * publications, SQLite 3.40: ~350-700 ms against ~7 ms). The text is the same for every query (a statement cache
 * can reuse it); each band's values travel as one bound JSON array (16 parameters, under D1's 100).
 */
function pdqCandidatesSql(gated: boolean): string {
  const probes = Array.from(
    { length: BANDS },
    (_, band) =>
      `SELECT * FROM (SELECT pb.publication_id FROM ${probeSource(gated)} CROSS JOIN pdq_bands AS pb WHERE pb.band = ${band} AND pb.value = j.value LIMIT ${PROBE_CANDIDATE_LIMIT})`,
  );
  const groups = Array.from({ length: 4 }, (_, g) => `SELECT * FROM (${probes.slice(4 * g, 4 * g + 4).join(" UNION ALL ")})`);
  return `sb.algorithm = 'pdq' AND sb.publication_id IN (${groups.join(" UNION ALL ")})`;
}

/**
 * Where a probe's values come from. Gated (indexMatches `pdqUnlessExact`): from the one row of the statement's `gate`
 * (GATE_SQL), which has none when the exact lookup found a row; it drives the probe (CROSS JOIN: first), so a shut
 * gate reads no band row. (A condition in the statement's WHERE did not stop SQLite from building the probes' list.)
 */
function probeSource(gated: boolean): string {
  return gated ? "gate CROSS JOIN json_each(?) AS j" : "json_each(?) AS j";
}

/** The `gate` of a gated PDQ statement: one row when the exact lookup (its algorithm, bits and filter bound) finds none. */
function gateSql(from: string, filterSql: string): string {
  return `WITH gate AS (SELECT 1 WHERE NOT EXISTS (SELECT 1 ${from} WHERE sb.algorithm = ? AND sb.bits = ?${filterSql})) `;
}

const PDQ_CANDIDATES_SQL = [pdqCandidatesSql(false), pdqCandidatesSql(true)] as const;

/**
 * The binds of PDQ_CANDIDATES_SQL (and PDQ_REGION_CANDIDATES_SQL): per band, a JSON array of its value and the value's
 * 16 one-bit neighbours, then (a region lookup) the band's exact value in each of the query's windows. A window is
 * probed by its exact values only: 16 values a window rather than 272 keep the rows a lookup reads (and the per-probe
 * cap) where they were; a window within 15 bits of a published one always shares a band exactly with it, one within
 * 31 nearly always does (bench/fingerprint-recall.mjs counts the lookups as the service makes them).
 */
function pdqProbeBinds(bits: Uint8Array, windows: readonly Uint8Array[] = []): string[] {
  const perBand = pdqBandValues(bits).map((value) => new Set([value, ...Array.from({ length: 16 }, (_, k) => value ^ (1 << k))]));
  for (const window of windows) for (const [band, value] of pdqBandValues(window).entries()) perBand[band]!.add(value);
  return perBand.map((values) => JSON.stringify([...values]));
}

/**
 * At most this many of a query's own windows (PDQ_QUERY_WINDOWS) ride in one region lookup: each adds one probe value
 * per band, and a crafted request must not make a lookup read more than a bounded number of index entries.
 */
export const MAX_QUERY_WINDOWS = 15;

/**
 * The region rows (pdq_regions) that share one of the 16 bands of the query up to one bit, or exactly with one of
 * the query's windows, as PDQ_CANDIDATES_SQL probes pdq_bands (16 probes of at most PROBE_CANDIDATE_LIMIT rows, each
 * on its band's index, driven by its values: see pdqProbeBinds), each row with its whole hash (b0..b15), then the
 * publication's `pdq` binding and asset by primary key: region rows count only while the whole-image binding they
 * were derived from is there. With 15 windows a band probes 32 values, each matching about 30 × publications / 65,536
 * rows: the cap is reached from about 17,000 publications with 30 windows (29,000 with the 18 before #20), where a
 * crowded band may drop a true window from that probe (the other bands it shares still find it).
 */
function pdqRegionCandidatesSql(gated: boolean): string {
  const columns = Array.from({ length: BANDS }, (_, b) => `r.b${b}`).join(", ");
  const probes = Array.from(
    { length: BANDS },
    (_, band) =>
      `SELECT * FROM (SELECT r.publication_id, r.region, ${columns} FROM ${probeSource(gated)} CROSS JOIN pdq_regions AS r WHERE r.b${band} = j.value LIMIT ${PROBE_CANDIDATE_LIMIT})`,
  );
  const groups = Array.from({ length: 4 }, (_, g) => `SELECT * FROM (${probes.slice(4 * g, 4 * g + 4).join(" UNION ALL ")})`);
  return `SELECT DISTINCT c.*, a.manifest_label, sb.created_at
            FROM (${groups.join(" UNION ALL ")}) AS c
            CROSS JOIN soft_bindings AS sb CROSS JOIN assets AS a
           WHERE sb.publication_id = c.publication_id AND sb.algorithm = 'pdq' AND a.id = sb.asset_id AND a.publication_id = sb.publication_id`;
}

const PDQ_REGION_CANDIDATES_SQL = [pdqRegionCandidatesSql(false), pdqRegionCandidatesSql(true)] as const;

/** A publication found by one of its windows (pdq_regions): `region` names the window (PDQ_REGIONS). */
export interface RegionMatch extends IndexedMatch {
  region: number;
}

/** The 32-byte hash of a pdq_regions row's band columns. */
function regionBits(row: Record<string, unknown>): Uint8Array {
  const bits = new Uint8Array(2 * BANDS);
  for (let b = 0; b < BANDS; b++) {
    const v = Number(row[`b${b}`]);
    bits[2 * b] = (v >> 8) & 0xff;
    bits[2 * b + 1] = v & 0xff;
  }
  return bits;
}

/**
 * Chromaprint frames (uint32, one per ~0.124 s of audio) in the index and in lookups. A frame is indexed (and used
 * as a probe) unless it repeats the frame before it or is the fingerprint of digital silence: both occur in
 * unrelated recordings alike. The 32-bit frames travel as 8 hex digits each, big-endian (soft_bindings.bits).
 */
export const CHROMAPRINT_SILENCE = 627964279;
/**
 * A probe value indexed more often than this says little about which recording it is (a common frame, or a loop
 * published many times): it is not used, so no value can take a lookup's work for itself and crowd out the others.
 * Each probe reads at most this many index rows (plus one to count), so a lookup's work is bounded by its probes.
 * The price: a recording published more than this many times is found only through its less common frames.
 */
export const CHROMAPRINT_VALUE_POSTINGS = 256;
/** A (publication, shift) needs this many agreeing probes to be a candidate (one or two agree by chance). */
export const CHROMAPRINT_MIN_VOTES = 3;
/** Publications (at their best shift) one lookup hands back for confirmation (as many as an image lookup). */
export const CHROMAPRINT_CANDIDATES = 10;

export function chromaprintFramesHex(frames: Uint32Array): string {
  let out = "";
  for (const f of frames) out += f.toString(16).padStart(8, "0");
  return out;
}

/** The frames of `chromaprintFramesHex` (null when the text is not whole frames of hex digits). */
export function chromaprintFramesOf(text: string): Uint32Array | null {
  if (text.length % 8 !== 0 || !/^[0-9a-f]*$/.test(text)) return null;
  const frames = new Uint32Array(text.length / 8);
  for (let i = 0; i < frames.length; i++) frames[i] = Number.parseInt(text.slice(8 * i, 8 * i + 8), 16);
  return frames;
}

/** The frames worth indexing or probing, as a JSON array by position (null where a frame is skipped). */
function chromaprintProbeJson(frames: Uint32Array): string {
  const probes: (number | null)[] = [];
  for (let i = 0; i < frames.length; i++) {
    const f = frames[i]!;
    probes.push(f === CHROMAPRINT_SILENCE || (i > 0 && frames[i - 1] === f) ? null : f);
  }
  return JSON.stringify(probes);
}

/** The statement that indexes a publication's Chromaprint frames (run inside the publication batch, under its guard). */
export function chromaprintFrameStatement(
  d1: D1Database,
  publicationId: string,
  frames: Uint32Array,
  guard: { sql: string; binds: unknown[] },
): D1PreparedStatement {
  return d1
    .prepare(
      `INSERT INTO chromaprint_frames (publication_id, position, value) SELECT ?, j.key, j.value FROM json_each(?) AS j WHERE j.value IS NOT NULL AND ${guard.sql}`,
    )
    .bind(publicationId, chromaprintProbeJson(frames), ...guard.binds);
}

/** One Chromaprint lookup of an `indexMatches` call: the frames of the audio being verified. */
export interface ChromaprintQuery {
  frames: Uint32Array;
}

/** A publication sharing frames with a Chromaprint query at one shift, with its indexed frames to confirm it by. */
export interface ChromaprintCandidate {
  publication_id: string;
  manifest_label: string | null;
  /** Position in the publication's frames of the query's first frame, by the shared frames. */
  shift: number;
  /** How many probes agreed on that shift. */
  votes: number;
  frames: Uint32Array;
}

/** The Chromaprint frames a publication recorded (null when it recorded none). */
export async function publicationChromaprint(db: D1Database, publicationId: string): Promise<Uint32Array | null> {
  const row = await db
    .prepare("SELECT bits FROM soft_bindings WHERE publication_id = ? AND algorithm = 'chromaprint'")
    .bind(publicationId)
    .first<{ bits: string }>();
  return row ? chromaprintFramesOf(row.bits) : null;
}

/**
 * Video frames (one sampled frame a second, its 256-bit PDQ hash: 64 hex digits each in the `bits` of a `vpdq` or
 * `tmk-pdqf` soft binding) in the index and in lookups. A frame is indexed (and probes) by its 16 PDQ bands, each as
 * the key `band * 65536 + value`; frames too dark or flat to say anything are left out by the caller.
 */
export const VIDEO_FRAME_HEX = 64;
/** The video fingerprints whose bindings carry frame hashes (vPDQ's; TMK+PDQF's frame features, quantised). */
export const VIDEO_FRAME_ALGORITHMS = ["vpdq", "tmk-pdqf"] as const;
/** A key indexed by more publications than this (a black frame, a title card many videos share) is not a probe. */
export const VIDEO_KEY_POSTINGS = 256;
/** A publication needs hits from this many distinct query frames to be a candidate (one frame agrees by chance). */
export const VIDEO_MIN_VOTES = 2;
/** Publications one lookup hands back for confirmation. */
export const VIDEO_CANDIDATES = 10;

/** The frame hashes of a video binding's bits (null when the text is not whole 32-byte hashes of hex digits). */
export function videoFramesOf(text: string): Uint8Array[] | null {
  if (text.length % VIDEO_FRAME_HEX !== 0 || !/^[0-9a-f]*$/.test(text)) return null;
  const frames: Uint8Array[] = [];
  for (let i = 0; i < text.length; i += VIDEO_FRAME_HEX) frames.push(fromHex(text.slice(i, i + VIDEO_FRAME_HEX)));
  return frames;
}

/** [position, key] of every band of every frame, as JSON (the index rows of a publication, or a lookup's probes). */
function videoProbeJson(frames: readonly Uint8Array[]): string {
  const probes: [number, number][] = [];
  frames.forEach((bits, position) => {
    for (const [band, value] of pdqBandValues(bits).entries()) probes.push([position, band * 65536 + value]);
  });
  return JSON.stringify(probes);
}

/** The statement that indexes a publication's video frames (run inside the publication batch, under its guard). */
export function videoFrameStatement(
  d1: D1Database,
  publicationId: string,
  frames: readonly Uint8Array[],
  guard: { sql: string; binds: unknown[] },
): D1PreparedStatement {
  // One row per (publication, key): a key's rows then count publications, whatever a publication repeats.
  return d1
    .prepare(
      `INSERT OR IGNORE INTO video_frames (publication_id, key)
       SELECT DISTINCT ?, j.value ->> 1 FROM json_each(?) AS j WHERE ${guard.sql}`,
    )
    .bind(publicationId, videoProbeJson(frames), ...guard.binds);
}

/** What a publication's derived index is built from: its fingerprint step's output (jobs/outputs FingerprintOutput). */
export interface IndexedFingerprints {
  fingerprints: readonly { algorithm: string; bits: string; quality: number | null }[];
  pdq_regions?: readonly { region: number; bits: string; quality: number }[];
}

/**
 * Every statement of a publication's derived index, under `guard`: the PDQ bands (hashes of enough quality), the PDQ
 * windows (only beside an indexed whole-image hash), the Chromaprint frames and the video frames. The one rule the
 * publication batch and a rebuild (the restore drill) both follow.
 */
export function derivedIndexStatements(
  d1: D1Database,
  publicationId: string,
  output: IndexedFingerprints,
  guard: { sql: string; binds: unknown[] },
): D1PreparedStatement[] {
  const statements: D1PreparedStatement[] = [];
  const pdq = output.fingerprints.filter((f) => f.algorithm === "pdq" && (f.quality ?? 0) >= PDQ_MIN_QUALITY);
  for (const f of pdq) statements.push(...pdqBandStatements(d1, publicationId, fromHex(f.bits), guard));
  const regions = (output.pdq_regions ?? []).filter((r) => r.quality >= PDQ_MIN_QUALITY && /^[0-9a-f]{64}$/.test(r.bits));
  if (pdq.length > 0 && regions.length > 0)
    statements.push(
      pdqRegionStatement(
        d1,
        publicationId,
        regions.map((r) => ({ region: r.region, bits: fromHex(r.bits) })),
        guard,
      ),
    );
  for (const f of output.fingerprints) {
    const frames = f.algorithm === "chromaprint" ? chromaprintFramesOf(f.bits) : null;
    if (frames && frames.length > 0) statements.push(chromaprintFrameStatement(d1, publicationId, frames, guard));
  }
  const carrier = output.fingerprints.find((f) => (VIDEO_FRAME_ALGORITHMS as readonly string[]).includes(f.algorithm));
  const frames = carrier ? videoFramesOf(carrier.bits) : null;
  if (frames && frames.length > 0) statements.push(videoFrameStatement(d1, publicationId, frames, guard));
  return statements;
}

/** One video lookup of an `indexMatches` call: the sampled frames of the video being verified. */
export interface VideoQuery {
  frames: readonly Uint8Array[];
}

/** A publication whose indexed frames share bands with a video query, with all its frames to confirm it by. */
export interface VideoCandidate {
  publication_id: string;
  manifest_label: string | null;
  /** The binding the frames came from (`vpdq`, else `tmk-pdqf`). */
  algorithm: string;
  /** How many query frames hit one of its frames. */
  votes: number;
  frames: Uint8Array[];
}

/** One exact lookup of an `indexMatches` call: a watermark payload or an ISCC code. */
export interface ExactQuery {
  algorithm: string;
  bitsHex: string;
  limit: number;
}

/** One PDQ lookup of an `indexMatches` call (see nearestPdqMatches). */
export interface PdqQuery {
  bits: Uint8Array;
  limit: number;
  maxDistance?: number;
}

type MatchRow = { publication_id: string; manifest_label: string | null; bits: string; created_at: number };

/**
 * Several lookups in ONE D1 round trip (one batch, one statement per lookup): each exact query answered as
 * exactMatches does, the PDQ query as nearestPdqMatches does (probes, candidates and their full hashes in one
 * statement, exact distances here). Results in the order of the queries; `pdq` is empty when not asked.
 */
export async function indexMatches(
  db: D1Database,
  queries: {
    exact: ExactQuery[];
    pdq?: PdqQuery | null;
    video?: VideoQuery | null;
    /**
     * The query's whole-image hash, and its own windows (`windows`, at most MAX_QUERY_WINDOWS), against the published
     * windows (pdq_regions), within PDQ_REGION_MATCH_DISTANCE.
     */
    pdqRegions?: (PdqQuery & { windows?: readonly Uint8Array[] }) | null;
    chromaprint?: ChromaprintQuery | null;
    /**
     * The index (in `exact`) of a lookup whose hit makes the PDQ lookups moot for the caller (a verification reads
     * PDQ only when its exact ISCC code found nothing): when that lookup finds a row, `pdq` and `pdqRegions` are
     * answered empty, decided in D1 by the same statement's conditions in the same batch (one snapshot), so their
     * candidates are neither read nor sent. Absent: they are always looked up.
     */
    pdqUnlessExact?: number;
    also?: D1PreparedStatement[];
  },
  options: MatchFilter = {},
): Promise<{
  exact: IndexedMatch[][];
  pdq: IndexedMatch[];
  video: VideoCandidate[];
  pdqRegions: RegionMatch[];
  chromaprint: ChromaprintCandidate[];
  also: D1Result[];
}> {
  const filter = filterSql(options);
  const probedFilter = filterSql(options, true);
  const from = "FROM soft_bindings sb JOIN assets a ON a.id = sb.asset_id AND a.publication_id = sb.publication_id";
  const statements = queries.exact.map((q) =>
    db
      .prepare(
        `SELECT sb.publication_id, a.manifest_label ${from} WHERE sb.algorithm = ? AND sb.bits = ?${filter.sql} ORDER BY sb.created_at ASC, sb.publication_id ASC LIMIT ?`,
      )
      .bind(q.algorithm, q.bitsHex, ...filter.binds, boundedLimit(q.limit)),
  );
  // The PDQ statements' condition of being looked up (pdqUnlessExact): the exact lookup's rows do not exist (probeSource).
  const unless = queries.pdqUnlessExact === undefined ? undefined : queries.exact[queries.pdqUnlessExact];
  const gated = unless ? 1 : 0;
  const gate = unless
    ? { sql: gateSql(from, filter.sql), binds: [unless.algorithm, unless.bitsHex, ...filter.binds] }
    : { sql: "", binds: [] };
  const pdq = queries.pdq;
  if (pdq)
    statements.push(
      db
        .prepare(
          `${gate.sql}SELECT sb.publication_id, a.manifest_label, sb.bits, sb.created_at ${from} WHERE ${PDQ_CANDIDATES_SQL[gated]}${probedFilter.sql}`,
        )
        .bind(...gate.binds, ...pdqProbeBinds(pdq.bits), ...probedFilter.binds),
    );
  // Video: the publications whose indexed frames share a band exactly with the query's frames, most query frames hit
  // first (ties: the earliest publication), with their frames (one binding each, vPDQ's first) for the caller's
  // confirmation; keys indexed more than VIDEO_KEY_POSTINGS times are left out (counted with a bounded read each).
  const video = queries.video;
  const videoAt = statements.length;
  if (video)
    statements.push(
      db
        .prepare(
          `WITH probes AS (SELECT DISTINCT j.value ->> 0 AS position, j.value ->> 1 AS key FROM json_each(?) AS j),
                usable AS (SELECT position, key FROM probes
                            WHERE (SELECT COUNT(*) FROM (SELECT 1 FROM video_frames AS v WHERE v.key = probes.key LIMIT ${VIDEO_KEY_POSTINGS + 1})) <= ${VIDEO_KEY_POSTINGS}),
                votes AS (SELECT vf.publication_id, COUNT(DISTINCT u.position) AS votes
                            FROM usable AS u CROSS JOIN video_frames AS vf WHERE vf.key = u.key
                           GROUP BY vf.publication_id HAVING votes >= ${VIDEO_MIN_VOTES})
           SELECT v.publication_id, v.votes, sb.algorithm, sb.bits, a.manifest_label ${from}
             JOIN votes AS v ON v.publication_id = sb.publication_id
            WHERE sb.algorithm IN ('vpdq', 'tmk-pdqf')${probedFilter.sql}
            ORDER BY v.votes DESC, sb.created_at ASC, sb.publication_id ASC, sb.algorithm DESC LIMIT ${2 * VIDEO_CANDIDATES}`,
        )
        .bind(videoProbeJson(video.frames), ...probedFilter.binds),
    );
  const regions = queries.pdqRegions;
  const regionsAt = statements.length;
  if (regions)
    statements.push(
      db
        .prepare(`${gate.sql}${PDQ_REGION_CANDIDATES_SQL[gated]}${probedFilter.sql}`)
        .bind(...gate.binds, ...pdqProbeBinds(regions.bits, regionQueryWindows(regions)), ...probedFilter.binds),
    );
  // Chromaprint: the publications whose indexed frames agree with the query's at one shift, most votes first (ties:
  // the earliest publication), with their frames for the caller's confirmation. Probe values indexed more than
  // CHROMAPRINT_VALUE_POSTINGS times are left out (counted with a bounded read each), so the work is bounded per probe.
  const chromaprint = queries.chromaprint;
  const chromaprintAt = statements.length;
  if (chromaprint)
    statements.push(
      db
        .prepare(
          `WITH probes AS (SELECT j.key AS position, j.value AS value FROM json_each(?) AS j WHERE j.value IS NOT NULL),
                usable AS (SELECT position, value FROM probes
                            WHERE (SELECT COUNT(*) FROM (SELECT 1 FROM chromaprint_frames AS c WHERE c.value = probes.value LIMIT ${CHROMAPRINT_VALUE_POSTINGS + 1})) <= ${CHROMAPRINT_VALUE_POSTINGS}),
                votes AS (SELECT cf.publication_id, cf.position - u.position AS shift, COUNT(*) AS votes
                            FROM usable AS u CROSS JOIN chromaprint_frames AS cf WHERE cf.value = u.value
                           GROUP BY cf.publication_id, shift HAVING votes >= ${CHROMAPRINT_MIN_VOTES})
           SELECT v.publication_id, v.shift, v.votes, sb.bits, a.manifest_label ${from}
             JOIN votes AS v ON v.publication_id = sb.publication_id
            WHERE sb.algorithm = 'chromaprint'${probedFilter.sql}
            ORDER BY v.votes DESC, sb.created_at ASC, sb.publication_id ASC LIMIT ${4 * CHROMAPRINT_CANDIDATES}`,
        )
        .bind(chromaprintProbeJson(chromaprint.frames), ...probedFilter.binds),
    );
  // Other reads of the caller ride in the same batch (one round trip), after the lookups, answered as they come.
  const also = queries.also ?? [];
  const all = [...statements, ...also];
  if (all.length === 0) return { exact: [], pdq: [], pdqRegions: [], video: [], chromaprint: [], also: [] };
  const answered = all.length === 1 ? [await all[0]!.all<MatchRow>()] : await db.batch<MatchRow>(all);
  const results = answered.slice(0, statements.length);
  const alsoResults = answered.slice(statements.length) as D1Result[];
  const candidates: ChromaprintCandidate[] = [];
  if (chromaprint) {
    type CandidateRow = { publication_id: string; shift: number; votes: number; bits: string; manifest_label: string | null };
    const rows = (results[chromaprintAt]?.results ?? []) as unknown as CandidateRow[];
    for (const row of rows) {
      // A publication's best shift only (its rows come most votes first).
      if (candidates.some((c) => c.publication_id === row.publication_id)) continue;
      const frames = chromaprintFramesOf(row.bits);
      if (!frames) continue;
      candidates.push({
        publication_id: row.publication_id,
        manifest_label: row.manifest_label,
        shift: row.shift,
        votes: row.votes,
        frames,
      });
      if (candidates.length === CHROMAPRINT_CANDIDATES) break;
    }
  }
  const videos: VideoCandidate[] = [];
  if (video) {
    type CandidateRow = { publication_id: string; votes: number; algorithm: string; bits: string; manifest_label: string | null };
    for (const row of (results[videoAt]?.results ?? []) as unknown as CandidateRow[]) {
      // One binding per publication (vpdq sorts before tmk-pdqf): both carry the same frames.
      if (videos.some((v) => v.publication_id === row.publication_id)) continue;
      const frames = videoFramesOf(row.bits);
      if (frames)
        videos.push({
          publication_id: row.publication_id,
          manifest_label: row.manifest_label,
          algorithm: row.algorithm,
          votes: row.votes,
          frames,
        });
      if (videos.length === VIDEO_CANDIDATES) break;
    }
  }
  const exact = queries.exact.map((q, i) =>
    (results[i]?.results ?? []).map((row) => ({
      publication_id: row.publication_id,
      algorithm: q.algorithm,
      manifest_label: row.manifest_label,
      distance: 0,
    })),
  );
  const regionMatches = regions ? nearestRegions(regions, (results[regionsAt]?.results ?? []) as unknown as Record<string, unknown>[]) : [];
  if (!pdq) return { exact, pdq: [], pdqRegions: regionMatches, video: videos, chromaprint: candidates, also: alsoResults };
  const maxDistance = Math.min(pdq.maxDistance ?? PDQ_MATCH_DISTANCE, PDQ_MATCH_DISTANCE);
  const found: (IndexedMatch & { created_at: number })[] = [];
  for (const row of results[queries.exact.length]?.results ?? []) {
    const distance = hamming(pdq.bits, fromHex(row.bits));
    if (distance <= maxDistance)
      found.push({
        publication_id: row.publication_id,
        algorithm: "pdq",
        manifest_label: row.manifest_label,
        distance,
        created_at: row.created_at,
      });
  }
  found.sort((a, b) => a.distance - b.distance || a.created_at - b.created_at || (a.publication_id < b.publication_id ? -1 : 1));
  return {
    exact,
    pdq: found.slice(0, boundedLimit(pdq.limit)).map(({ created_at: _, ...match }) => match),
    video: videos,
    pdqRegions: regionMatches,
    chromaprint: candidates,
    also: alsoResults,
  };
}

/** The query windows a region lookup probes with its whole-image hash (the first MAX_QUERY_WINDOWS given). */
function regionQueryWindows(query: { windows?: readonly Uint8Array[] }): readonly Uint8Array[] {
  return (query.windows ?? []).slice(0, MAX_QUERY_WINDOWS);
}

/** The columns of a pdq_regions row's 16 bands. */
const BAND_COLUMNS = Array.from({ length: BANDS }, (_, b) => `b${b}`);

/**
 * A 32-byte hash as 8 words of 32 bits (two bands each, band 2k in the high half), so a distance is 8 XORs and
 * popcounts instead of 32 byte loops.
 */
function hashWords(bits: Uint8Array): Int32Array {
  const words = new Int32Array(BANDS / 2);
  for (let k = 0; k < BANDS / 2; k++)
    words[k] = (bits[4 * k]! << 24) | (bits[4 * k + 1]! << 16) | (bits[4 * k + 2]! << 8) | bits[4 * k + 3]!;
  return words;
}

function popcount32(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  v = (v + (v >>> 4)) & 0x0f0f0f0f;
  return Math.imul(v, 0x01010101) >>> 24;
}

/**
 * The publications with a window within PDQ_REGION_MATCH_DISTANCE of the query's whole-image hash or of one of its
 * windows (each publication by its nearest pair), nearest first (ties: earliest publication, then lowest region), at
 * most `limit`. A row is a candidate when it shares a probed band value; its distance is then the nearest pair's.
 * A row's bands are the low 16 bits of its columns (as regionBits reads them); a query hash of another length than
 * 32 bytes (never made by the service) is compared byte by byte over its own length, as before.
 */
export function nearestRegions(query: PdqQuery & { windows?: readonly Uint8Array[] }, rows: Record<string, unknown>[]): RegionMatch[] {
  const maxDistance = Math.min(query.maxDistance ?? PDQ_REGION_MATCH_DISTANCE, PDQ_REGION_MATCH_DISTANCE);
  const hashes = [query.bits, ...regionQueryWindows(query)];
  const words = hashes.every((h) => h.length === 2 * BANDS) ? hashes.map(hashWords) : null;
  const row32 = new Int32Array(BANDS / 2);
  const best = new Map<string, RegionMatch & { created_at: number }>();
  for (const row of rows) {
    let distance = 256;
    if (words) {
      for (let k = 0; k < BANDS / 2; k++)
        row32[k] = ((Number(row[BAND_COLUMNS[2 * k]!]) & 0xffff) << 16) | (Number(row[BAND_COLUMNS[2 * k + 1]!]) & 0xffff);
      for (const w of words) {
        // Stops once past the nearest so far: the minimum is the same.
        let d = 0;
        for (let k = 0; k < BANDS / 2 && d < distance; k++) d += popcount32(w[k]! ^ row32[k]!);
        if (d < distance) distance = d;
      }
    } else {
      const bits = regionBits(row);
      for (const h of hashes) distance = Math.min(distance, hamming(h, bits));
    }
    if (distance > maxDistance) continue;
    const id = String(row.publication_id);
    const region = Number(row.region);
    const seen = best.get(id);
    if (seen && (seen.distance < distance || (seen.distance === distance && seen.region < region))) continue;
    best.set(id, {
      publication_id: id,
      algorithm: "pdq",
      manifest_label: (row.manifest_label as string | null) ?? null,
      distance,
      region,
      created_at: Number(row.created_at),
    });
  }
  return [...best.values()]
    .sort((a, b) => a.distance - b.distance || a.created_at - b.created_at || (a.publication_id < b.publication_id ? -1 : 1))
    .slice(0, boundedLimit(query.limit))
    .map(({ created_at: _, ...match }) => match);
}

/**
 * The published PDQ hashes within `maxDistance` (default and at most PDQ_MATCH_DISTANCE) of `bits`, nearest
 * first (ties: earliest publication first), at most `limit` (≤ MAX_MATCHES). Multi-index hashing: 16 indexed
 * probes (each band's value and its 16 one-bit neighbours), then exact distances over the candidates only, all
 * in one statement (indexMatches). With 16 bands of 16 bits, every hash within distance 31 shares a band with
 * the query up to one bit, so the probes miss none.
 */
export async function nearestPdqMatches(
  db: D1Database,
  bits: Uint8Array,
  options: MatchFilter & { limit: number; maxDistance?: number },
): Promise<IndexedMatch[]> {
  const { limit, maxDistance, ...filter } = options;
  const pdq: PdqQuery = { bits, limit, ...(maxDistance !== undefined ? { maxDistance } : {}) };
  return (await indexMatches(db, { exact: [], pdq }, filter)).pdq;
}

/** The nearest published PDQ hash within PDQ_MATCH_DISTANCE (see nearestPdqMatches), or null. */
export async function nearestPdq(db: D1Database, bits: Uint8Array, filter: MatchFilter = {}): Promise<IndexedMatch | null> {
  return (await nearestPdqMatches(db, bits, { ...filter, limit: 1 }))[0] ?? null;
}

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
