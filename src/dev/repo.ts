import { asc } from "drizzle-orm";
import type { Database } from "../db/client";
import { devOcspRevocations } from "../db/schema";
import type { DevRevocation } from "./ocsp-responder";

/** The dev responder's revocation list, keyed by serial (the `serialNumberHex` form). */
export async function devRevocations(db: Database): Promise<Map<string, DevRevocation>> {
  const rows = await db.select().from(devOcspRevocations);
  return new Map(rows.map((r) => [r.serialHex, { revokedAt: new Date(r.revokedAt), ...(r.reason !== null ? { reason: r.reason } : {}) }]));
}

/** Records a revocation; a serial revoked before keeps its first time and reason. */
export async function insertRevocation(db: Database, serialHex: string, reason: number | null): Promise<void> {
  await db.insert(devOcspRevocations).values({ serialHex, revokedAt: Date.now(), reason }).onConflictDoNothing();
}

/**
 * The revocation list's version: the list itself, in one canonical spelling (development lists are short), so an
 * answer cached under a version is exactly what the responder answers for that list.
 */
export async function revocationsVersion(db: Database): Promise<string> {
  const rows = await db.select().from(devOcspRevocations).orderBy(asc(devOcspRevocations.serialHex));
  return rows.map((r) => `${r.serialHex}@${r.revokedAt}/${r.reason ?? ""}`).join(",");
}

/** The same read as one raw statement (to ride in another batch, #19), and the same spelling of its result. */
const REVOCATIONS_VERSION_SQL = "SELECT serial_hex, revoked_at, reason FROM dev_ocsp_revocations ORDER BY serial_hex ASC";
/** The statement of that read, for a caller to send in its own batch (its result read by `revocationsVersionOf`). */
export function revocationsVersionStatement(db: D1Database): D1PreparedStatement {
  return db.prepare(REVOCATIONS_VERSION_SQL);
}
export function revocationsVersionOf(result: D1Result): string {
  const rows = result.results as { serial_hex: string; revoked_at: number; reason: number | null }[];
  return rows.map((r) => `${r.serial_hex}@${r.revoked_at}/${r.reason ?? ""}`).join(",");
}
