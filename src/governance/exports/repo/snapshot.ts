/*
 * Reading a tenant's records for an export, page by page (D1 has no snapshot spanning many queries, so the version
 * is defined by time: rows created at or before `as_of`, audit entries up to the head recorded at request time).
 * Rows are read as stored (column names as in the database), minus the columns that hold secrets or sealed personal
 * data. Each kind pages by (its time column, rowid) so a page is one index range, never a scan of other tenants.
 */

/** Binds of every snapshot statement: ?1 tenant, ?2 as_of (ms), ?3 audit head seq, ?4/?5 keyset, ?6 limit. */
export interface SnapshotScope {
  tenantId: string;
  asOf: number;
  auditHeadSeq: number;
}

/** Where a page ends: the last row's time and rowid. */
export interface SnapshotPosition {
  time: number;
  rowid: number;
}

export const SNAPSHOT_START: SnapshotPosition = { time: -1, rowid: -1 };

/**
 * One kind of record in the archive (`records/<name>/NNNNNN.jsonl`). Invariant: `scope` restricts to the tenant
 * (?1) and `bound` to the snapshot (?2 or ?3); `omit` names every column holding a secret (hash or ciphertext of a
 * credential) or sealed personal data, so those never reach an archive.
 */
interface RecordKind {
  name: string;
  table: string;
  /** Column paged on (a time or sequence); null: rowid only (small tables with no time of creation). */
  time: string | null;
  scope?: string;
  bound?: string;
  omit?: readonly string[];
}

const SEALED_CREATOR = ["data_key_id", "email_lookup", "email_sealed", "name_sealed", "salt_sealed"] as const;

export const RECORD_KINDS: readonly RecordKind[] = [
  // The operator's contact address is personal data like a user's e-mail: the archive carries no e-mail at all.
  { name: "tenant", table: "tenants", time: "created_at", scope: "id = ?1", omit: ["contact_email"] },
  { name: "api_keys", table: "api_keys", time: "created_at", omit: ["secret_hash"] },
  { name: "assets", table: "assets", time: "created_at" },
  { name: "objects", table: "objects", time: "created_at" },
  { name: "uploads", table: "uploads", time: "created_at" },
  { name: "jobs", table: "jobs", time: "created_at" },
  {
    name: "job_steps",
    table: "job_steps",
    time: null,
    scope: "tenant_id = ?1 AND job_id IN (SELECT id FROM jobs WHERE tenant_id = ?1 AND created_at <= ?2)",
    bound: "1 = 1",
  },
  { name: "receipts", table: "receipts", time: "created_at" },
  { name: "publications", table: "anchor_entries", time: "created_at" },
  { name: "soft_bindings", table: "soft_bindings", time: "created_at" },
  { name: "verifications", table: "verifications", time: "created_at" },
  { name: "verification_requests", table: "verification_requests", time: "created_at" },
  { name: "verification_reports", table: "verification_reports", time: "created_at" },
  { name: "verification_shares", table: "verification_shares", time: "created_at", omit: ["token_hash"] },
  {
    name: "webhook_endpoints",
    table: "webhook_endpoints",
    time: "created_at",
    omit: ["secret_ciphertext", "previous_secret_ciphertext"],
  },
  { name: "webhook_events", table: "webhook_events", time: "created_at" },
  { name: "webhook_deliveries", table: "webhook_deliveries", time: "created_at" },
  { name: "webhook_attempts", table: "webhook_attempts", time: "started_at" },
  { name: "creator_disclosure_policy", table: "creator_disclosure_policies", time: null, bound: "1 = 1" },
  { name: "creator_identities", table: "creator_identities", time: "created_at", omit: SEALED_CREATOR },
  { name: "capture_identity_enrollments", table: "capture_identity_enrollments", time: "created_at", omit: ["secret_hash"] },
  { name: "capture_identities", table: "capture_identities", time: "created_at" },
  { name: "capture_admission_challenges", table: "capture_admission_challenges", time: "created_at", omit: ["secret_hash"] },
  { name: "capture_admissions", table: "capture_admissions", time: "created_at" },
  { name: "billing_account", table: "billing_accounts", time: "created_at" },
  { name: "wallet", table: "wallets", time: "created_at" },
  { name: "wallet_reservations", table: "wallet_reservations", time: "created_at" },
  { name: "wallet_transactions", table: "wallet_transactions", time: "created_at" },
  { name: "billing_intents", table: "billing_intents", time: "created_at" },
  { name: "payment_events", table: "payment_events", time: "received_at" },
  { name: "api_request_logs", table: "api_request_logs", time: "created_at" },
  { name: "users", table: "users", time: "created_at", omit: ["email_sealed", "email_data_key_id", "email_index"] },
  { name: "legal_holds", table: "legal_holds", time: "placed_at" },
  { name: "governance_deletions", table: "governance_deletions", time: "created_at" },
  { name: "governance_exports", table: "governance_exports", time: "created_at" },
  // The message is sealed personal data: its length, kind and links are exported, never the text.
  { name: "feedback", table: "feedback", time: "created_at", omit: ["message_sealed", "data_key_id"] },
  { name: "audit", table: "audit_events", time: "seq", bound: "seq <= ?3" },
];

export type SnapshotRow = Record<string, unknown>;

function statementOf(kind: RecordKind): string {
  const scope = kind.scope ?? "tenant_id = ?1";
  const bound = kind.bound ?? `${kind.time} <= ?2`;
  const after = kind.time ? `(${kind.time} > ?4 OR (${kind.time} = ?4 AND rowid > ?5))` : "rowid > ?5";
  const order = kind.time ? `${kind.time}, rowid` : "rowid";
  const time = kind.time ?? "0";
  return `SELECT rowid AS "__rowid", ${time} AS "__time", * FROM "${kind.table}" WHERE ${scope} AND ${bound} AND ${after} ORDER BY ${order} LIMIT ?6`;
}

/** One page of one kind after `position`, with the secret columns removed, and where the next page starts. */
export async function snapshotPage(
  d1: D1Database,
  kind: RecordKind,
  scope: SnapshotScope,
  position: SnapshotPosition,
  limit: number,
): Promise<{ rows: SnapshotRow[]; next: SnapshotPosition | null }> {
  const result = await d1
    .prepare(statementOf(kind))
    .bind(scope.tenantId, scope.asOf, scope.auditHeadSeq, position.time, position.rowid, limit)
    .all<SnapshotRow>();
  const raw = result.results;
  const omit = new Set(kind.omit ?? []);
  const rows = raw.map((row) => {
    const clean: SnapshotRow = {};
    for (const [column, value] of Object.entries(row)) if (!column.startsWith("__") && !omit.has(column)) clean[column] = value;
    return clean;
  });
  const last = raw[raw.length - 1];
  const next = raw.length === limit && last ? { time: Number(last.__time), rowid: Number(last.__rowid) } : null;
  return { rows, next };
}

/** A stored object whose bytes go into the archive, with its asset's status (retention may have deleted the bytes). */
export interface SnapshotObject {
  id: string;
  r2Key: string;
  etag: string;
  byteLength: number;
  sha256: string;
  assetStatus: string | null;
}

/** One page of the tenant's stored objects created at or before as_of, in the order the records list them. */
export async function snapshotObjects(
  d1: D1Database,
  scope: SnapshotScope,
  position: SnapshotPosition,
  limit: number,
): Promise<{ objects: SnapshotObject[]; next: SnapshotPosition | null }> {
  const result = await d1
    .prepare(
      `SELECT o.rowid AS "__rowid", o.created_at AS "__time", o.id, o.r2_key, o.etag, o.byte_length, o.sha256, a.status AS asset_status
       FROM objects o LEFT JOIN assets a ON a.id = o.asset_id AND a.tenant_id = o.tenant_id
       WHERE o.tenant_id = ?1 AND o.created_at <= ?2 AND (o.created_at > ?3 OR (o.created_at = ?3 AND o.rowid > ?4))
       ORDER BY o.created_at, o.rowid LIMIT ?5`,
    )
    .bind(scope.tenantId, scope.asOf, position.time, position.rowid, limit)
    .all<Record<string, string | number | null>>();
  const raw = result.results;
  const objects = raw.map((r) => ({
    id: String(r.id),
    r2Key: String(r.r2_key),
    etag: String(r.etag),
    byteLength: Number(r.byte_length),
    sha256: String(r.sha256),
    assetStatus: r.asset_status === null ? null : String(r.asset_status),
  }));
  const last = raw[raw.length - 1];
  const next = raw.length === limit && last ? { time: Number(last.__time), rowid: Number(last.__rowid) } : null;
  return { objects, next };
}
