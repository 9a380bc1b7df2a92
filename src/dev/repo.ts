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
