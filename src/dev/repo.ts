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
  return versionOf(rows.map((r) => ({ serial_hex: r.serialHex, revoked_at: r.revokedAt, reason: r.reason })));
}

function versionOf(rows: { serial_hex: string; revoked_at: number; reason: number | null }[]): string {
  return rows.map((r) => `${r.serial_hex}@${r.revoked_at}/${r.reason ?? ""}`).join(",");
}

/**
 * revocationsVersion as one statement and the reader of its result, for a caller that sends it in a D1 batch of its
 * own (verification: the batch of its index lookup, one round trip fewer). The same rows, order and spelling.
 */
export function revocationsVersionRead(db: D1Database): { statement: D1PreparedStatement; read: (result: D1Result) => string } {
  return {
    statement: db.prepare("SELECT serial_hex, revoked_at, reason FROM dev_ocsp_revocations ORDER BY serial_hex ASC"),
    read: (result) => versionOf(result.results as { serial_hex: string; revoked_at: number; reason: number | null }[]),
  };
}
