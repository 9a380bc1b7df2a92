import { sha256Hex } from "../../platform/crypto";

/** The hash the first entry of every tenant's chain links to. */
export const GENESIS_HASH = "0".repeat(64);
/** Names the hashed form below; a new form gets a new name and the verifier keeps reading the old one. */
export const AUDIT_HASH_VERSION = "svc.audit-entry.v1";

/** One stored entry, as the chain hashes it (column values, times in epoch ms, `detail` as stored JSON text). */
export interface ChainedEntry {
  tenantId: string;
  seq: number;
  id: string;
  occurredAt: number;
  action: string;
  outcome: "succeeded" | "denied" | "failed";
  actorKind: string;
  actorId: string | null;
  credentialId: string | null;
  requestId: string | null;
  targetType: string | null;
  targetId: string | null;
  statusCode: number | null;
  detail: string | null;
  prevHash: string;
  hash: string;
}

/**
 * SHA-256 (hex) over a JSON array of every field but `hash`, in a fixed order: JSON.stringify of an array of
 * strings, numbers and nulls is one exact text, so the hash is reproducible by anyone holding the row.
 */
export function entryHash(entry: Omit<ChainedEntry, "hash">): Promise<string> {
  return sha256Hex(
    JSON.stringify([
      AUDIT_HASH_VERSION,
      entry.tenantId,
      entry.seq,
      entry.id,
      entry.occurredAt,
      entry.action,
      entry.outcome,
      entry.actorKind,
      entry.actorId,
      entry.credentialId,
      entry.requestId,
      entry.targetType,
      entry.targetId,
      entry.statusCode,
      entry.detail,
      entry.prevHash,
    ]),
  );
}

/** Canonical JSON of a detail object (keys sorted at every level), so equal details store and hash equally. */
export function canonicalDetail(detail: Record<string, unknown> | null): string | null {
  if (detail === null) return null;
  const sort = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(sort);
    if (value && typeof value === "object") {
      return Object.fromEntries(
        Object.keys(value as Record<string, unknown>)
          .sort()
          .map((k) => [k, sort((value as Record<string, unknown>)[k])]),
      );
    }
    return value;
  };
  return JSON.stringify(sort(detail));
}

/** Where a verification stopped: the chain holds, or the first entry (by seq) that does not link or hash. */
export type ChainCheck =
  | { intact: true; entries: number; lastSeq: number; lastHash: string }
  | { intact: false; entries: number; brokenAtSeq: number; reason: "sequence_gap" | "link_mismatch" | "hash_mismatch" };

/**
 * Walks entries in seq order (pages of a tenant's chain, streamed) and checks each: its seq follows the previous
 * one, its prev_hash is the previous hash, and its own hash recomputes. A removed entry shows as a gap or a broken
 * link; an altered one as a hash mismatch; a rewritten tail (every hash recomputed) cannot be told from the log
 * alone, which is why the list answers carry the head hash for callers to keep (see the route's description).
 */
export class ChainVerifier {
  private expectedSeq = 1;
  private prevHash = GENESIS_HASH;
  private count = 0;
  private broken: Extract<ChainCheck, { intact: false }> | null = null;

  async add(entry: ChainedEntry): Promise<boolean> {
    if (this.broken) return false;
    this.count += 1;
    const fail = (reason: "sequence_gap" | "link_mismatch" | "hash_mismatch") => {
      this.broken = { intact: false, entries: this.count, brokenAtSeq: entry.seq, reason };
      return false;
    };
    if (entry.seq !== this.expectedSeq) return fail("sequence_gap");
    if (entry.prevHash !== this.prevHash) return fail("link_mismatch");
    const { hash, ...rest } = entry;
    if ((await entryHash(rest)) !== hash) return fail("hash_mismatch");
    this.expectedSeq = entry.seq + 1;
    this.prevHash = hash;
    return true;
  }

  result(): ChainCheck {
    return this.broken ?? { intact: true, entries: this.count, lastSeq: this.expectedSeq - 1, lastHash: this.prevHash };
  }
}
