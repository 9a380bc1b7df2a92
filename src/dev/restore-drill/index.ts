import type { Bindings } from "../../env";
import { RECORD_KINDS } from "../../governance/exports/repo/snapshot";
import { readTar } from "../../governance/exports/tar";
import type { FingerprintOutput } from "../../jobs/outputs";
import { hex } from "../../platform/bytes";
import { sha256Hex } from "../../platform/crypto";
import { isId } from "../../platform/ids";
import { derivedIndexStatements } from "../../soft-bindings/repo";
import { generateWebhookSecret, sealSecret } from "../../webhooks/signing";
import { columnsOf, commitWithoutTriggers, derivedCounts, insertRowStatement, setObjectEtag, tenantExists, wipeTenantRows } from "./repo";

/*
 * The restore drill (#22), development and operator use only: never mounted as a route. It answers "what comes back
 * after a tenant is lost" with the one backup the service makes, the governance export (#13):
 * - `wipeTenant` removes the tenant's rows from every table and its bytes from R2, as a disaster would (the drill's
 *   stand-in for a lost database and bucket; the deletion flow is not used because it keeps what the law requires).
 * - `restoreTenant` reads an export archive, checks every member against the manifest, and puts back what it holds:
 *   each record kind into its table (one D1 transaction), each object's bytes at its key, then rebuilds the derived
 *   index (PDQ bands and regions, Chromaprint and video frames) from the fingerprint step outputs it restored, as the
 *   publication batch wrote it. What an archive does not hold by design (secrets, sealed personal data) is reported
 *   as lost with the reason, never invented.
 */

/** Where the drill found the tenant and what it removed. */
export interface WipeReport {
  rows: Record<string, number>;
  r2Keys: number;
}

/** What a restore put back, rebuilt and could not recover. Invariant: every record kind of the archive is in exactly one of `restored` and `lost`. */
export interface RestoreReport {
  tenantId: string;
  exportId: string;
  restored: Record<string, number>;
  /** Rows of a kind restored with a credential reset (see CREDENTIAL_RESETS). */
  reset: Record<string, string>;
  rebuilt: Record<string, number>;
  lost: Record<string, { rows: number; reason: string }>;
  objects: { restored: number; bytes: number };
}

export type RestoreResult = { ok: true; report: RestoreReport } | { ok: false; reason: string };

/** Tables holding a tenant's derived index, keyed by publication (no tenant column). */
const DERIVED = ["pdq_bands", "pdq_regions", "chromaprint_frames", "video_frames"] as const;

/**
 * What the wipe removes by the tenant's publications: the derived index, and the verification pixel memos (#19,
 * hashes and the watermark payload of its publications' pixels), whose own cleanup is a soft_bindings trigger the
 * wipe lifts. A restore does not put the memos back (an archive does not hold them): verifications of the restored
 * files measure their pixels.
 */
const WIPED_BY_PUBLICATION = [...DERIVED, "verify_pixel_memos"] as const;

/** Removes every row of the tenant (all tables with a tenant_id, its derived index, the tenant row) and its R2 bytes. */
export async function wipeTenant(env: Pick<Bindings, "DB" | "OBJECTS">, tenantId: string): Promise<WipeReport> {
  const rows = await wipeTenantRows(env.DB, tenantId, WIPED_BY_PUBLICATION);
  let r2Keys = 0;
  let cursor: string | undefined;
  do {
    const page = await env.OBJECTS.list({ prefix: `t/${tenantId}/`, limit: 1000, ...(cursor ? { cursor } : {}) });
    if (page.objects.length > 0) await env.OBJECTS.delete(page.objects.map((o) => o.key));
    r2Keys += page.objects.length;
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return { rows, r2Keys };
}

/**
 * Kinds whose secret column is not exported but whose row is worth having back: restored with the credential reset,
 * so nothing can use it until its owner acts (the reason is reported). The tenant row too, without its contact
 * address: every other row needs it, and the address is personal data exports leave out.
 */
const CREDENTIAL_RESETS: Record<string, string> = {
  tenant: "restored without its contact address (personal data, left out of exports): the operator sets it again",
  api_keys: "restored revoked: only a peppered hash of the secret was kept and exports omit it; the operator issues new keys",
  webhook_endpoints:
    "restored disabled with a new secret nobody has seen: the tenant rotates the secret (POST …/rotate-secret) and enables it",
};

/** Why a kind the export strips cannot come back (by the columns it strips). */
function lostReason(missing: string[]): string {
  return `not restorable: ${missing.join(", ")} (a secret, or personal data sealed under the tenant's data key) is left out of exports by design`;
}

const decoder = new TextDecoder();

/** One JSON object (a record line, a step output), or null for anything else. */
function parseRow(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
/** Records the drill restores at most, all kinds together (one D1 transaction holds the whole restore). */
const MAX_ROWS = 20_000;

/**
 * Restores a tenant from a governance export archive into an env whose tenant is absent. Refused (ok: false) when the
 * archive is not a complete, untampered export (a member missing or differing from its manifest entry) or the
 * tenant still exists; nothing is written then.
 */
export async function restoreTenant(env: Pick<Bindings, "DB" | "OBJECTS" | "SVC_KEY_PEPPER">, archive: Uint8Array): Promise<RestoreResult> {
  let members: ReturnType<typeof readTar>;
  try {
    members = readTar(archive);
  } catch {
    return { ok: false, reason: "not a tar archive" };
  }
  const byName = new Map(members.map((m) => [m.name, m.bytes]));
  const manifestBytes = byName.get("manifest.json");
  if (!manifestBytes) return { ok: false, reason: "no manifest.json" };
  let manifest: { format?: unknown; export_id?: unknown; tenant_id?: unknown; files?: unknown };
  try {
    manifest = JSON.parse(decoder.decode(manifestBytes));
  } catch {
    return { ok: false, reason: "manifest.json is not JSON" };
  }
  if (manifest.format !== "svc.governance-export.v1" || typeof manifest.tenant_id !== "string" || !Array.isArray(manifest.files))
    return { ok: false, reason: "not a governance export manifest" };
  const tenantId = manifest.tenant_id;
  // A tenant id of the service's own shape: one with a "/" would make `t/{tenant}/` a prefix inside another
  // tenant's keys (the review restored over another tenant's upload that way).
  if (!isId("tenant", tenantId)) return { ok: false, reason: "the manifest's tenant_id is not a tenant id" };
  for (const file of manifest.files as { path: unknown; size: unknown; sha256: unknown }[]) {
    const bytes = typeof file?.path === "string" ? byName.get(file.path) : undefined;
    if (!bytes || bytes.length !== file.size || (await sha256Hex(bytes)) !== file.sha256)
      return { ok: false, reason: `member ${String(file?.path)} is missing or differs from the manifest` };
  }
  const d1 = env.DB;
  if (await tenantExists(d1, tenantId)) return { ok: false, reason: "the tenant exists" };

  // Records: every page of each known kind, in RECORD_KINDS order (parents before children).
  const report: RestoreReport = {
    tenantId,
    exportId: String(manifest.export_id),
    restored: {},
    reset: {},
    rebuilt: {},
    lost: {},
    objects: { restored: 0, bytes: 0 },
  };
  const statements: D1PreparedStatement[] = [];
  const restoredRows = new Map<string, Record<string, unknown>[]>();
  let total = 0;
  for (const kind of RECORD_KINDS) {
    const pages = members.filter((m) => m.name.startsWith(`records/${kind.name}/`) && m.name.endsWith(".jsonl"));
    const rows: Record<string, unknown>[] = [];
    for (const page of pages)
      for (const line of decoder.decode(page.bytes).split("\n")) {
        if (!line.trim()) continue;
        const row = parseRow(line);
        // Every row must be this tenant's: an archive cannot write into another tenant (or outside its R2 prefix).
        const owner = kind.name === "tenant" ? row?.id : row?.tenant_id;
        if (!row || owner !== tenantId) return { ok: false, reason: `a ${kind.name} record is not a row of tenant ${tenantId}` };
        if (kind.name === "objects" && !String(row.r2_key).startsWith(`t/${tenantId}/`))
          return { ok: false, reason: "an object's key is outside the tenant's prefix" };
        rows.push(row);
      }
    if (rows.length === 0) continue;
    total += rows.length;
    if (total > MAX_ROWS) return { ok: false, reason: `more than ${MAX_ROWS} records: beyond what this drill restores in one transaction` };
    const columns = await columnsOf(d1, kind.table);
    const known = new Set(columns.map((c) => c.name));
    // What the export left out of this kind (secrets, sealed personal data): a row without it is not the row.
    const missing = [...(kind.omit ?? [])];
    const reset = CREDENTIAL_RESETS[kind.name];
    if (missing.length > 0 && !reset) {
      report.lost[kind.name] = { rows: rows.length, reason: lostReason(missing) };
      continue;
    }
    for (const original of rows) {
      const row = { ...original };
      if (kind.name === "api_keys") {
        // A hash of random bytes: no secret maps to it. Revoked, so the row is history, not a credential.
        row.secret_hash = hex(crypto.getRandomValues(new Uint8Array(32)));
        if (row.status !== "revoked") Object.assign(row, { status: "revoked", revoked_at: Date.now() });
        // Never a revoke a later DELETE of the restored key could be answered as (api-keys revokeApiKey).
        row.revoked_by = "restore";
      }
      if (kind.name === "webhook_endpoints") {
        row.secret_ciphertext = await sealSecret(env.SVC_KEY_PEPPER!, String(row.id), generateWebhookSecret());
        row.previous_secret_ciphertext = null;
        if (row.state === "active") Object.assign(row, { state: "disabled", disabled_reason: "manual" });
      }
      // Only the table's own columns, by name from its schema: a hostile archive cannot name others.
      const names = Object.keys(row).filter((name) => known.has(name));
      statements.push(insertRowStatement(d1, kind.table, names, row));
    }
    report.restored[kind.name] = rows.length;
    if (reset) report.reset[kind.name] = reset;
    restoredRows.set(kind.name, rows);
  }

  // The derived index, as the publication batch wrote it: from each published job's fingerprint step output.
  // Only publications this archive's own soft bindings name (rows already checked to be the tenant's): a job row
  // naming another tenant's publication must not add index entries that point lookups at it.
  const own = new Set((restoredRows.get("soft_bindings") ?? []).map((r) => String(r.publication_id)));
  const publicationOf = new Map(
    (restoredRows.get("jobs") ?? [])
      .filter((j) => typeof j.publication_id === "string" && own.has(j.publication_id))
      .map((j) => [String(j.id), j.publication_id as string]),
  );
  const before = statements.length;
  const always = { sql: "1 = 1", binds: [] as unknown[] };
  for (const step of restoredRows.get("job_steps") ?? []) {
    const publicationId = publicationOf.get(String(step.job_id));
    if (step.step !== "fingerprint" || !publicationId || typeof step.output !== "string") continue;
    const output = parseRow(step.output) as FingerprintOutput | null;
    if (!output || !Array.isArray(output.fingerprints)) continue; // nothing to rebuild from: the lookups miss it, as before
    statements.push(...derivedIndexStatements(d1, publicationId, output, always));
  }
  const rebuilding = statements.length - before;

  // One transaction: the tenant comes back whole or not at all. Triggers (append-only, wallet balances applied on
  // insert) are lifted inside it: restored rows are history, not new events.
  try {
    await commitWithoutTriggers(d1, statements);
  } catch (error) {
    // Rolled back whole (a key taken by another row, a value the table refuses): nothing was written.
    return { ok: false, reason: `the database refused the restore: ${String(error).slice(0, 200)}` };
  }
  if (rebuilding > 0) Object.assign(report.rebuilt, await derivedCounts(d1, tenantId, DERIVED));

  // Bytes: each object row's member, at its key (the archive names the member by object id).
  for (const object of restoredRows.get("objects") ?? []) {
    const bytes = byName.get(`objects/${String(object.id)}`);
    if (!bytes) continue; // its bytes had gone before the export (retention): the row says so, nothing to put
    const put = await env.OBJECTS.put(String(object.r2_key), bytes, {
      httpMetadata: typeof object.media_type === "string" ? { contentType: object.media_type } : undefined,
    });
    if (put && put.etag !== object.etag) await setObjectEtag(d1, tenantId, String(object.id), put.etag);
    report.objects.restored++;
    report.objects.bytes += bytes.length;
  }
  return { ok: true, report };
}
