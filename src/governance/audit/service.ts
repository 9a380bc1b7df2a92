import { type Database, database } from "../../db/client";
import type { Bindings } from "../../env";
import type { AuditDraft, AuditSink } from "../../platform/audit";
import { log } from "../../platform/logger";
import { type ChainCheck, ChainVerifier } from "./chain";
import { chainPage, claimDeferred, deferEntry, dropDeferred, hasEntryFor, holdsSucceededEntry, keepEntryStatement } from "./repo";

/** The audit sink the app installs: every tenant's entries go through that tenant's AuditChain object. */
export const durableAuditSink: AuditSink = {
  async append(env: Bindings, tenantId: string, drafts: readonly AuditDraft[]) {
    await chainOf(env, tenantId).append(tenantId, drafts);
  },
  async defer(env: Bindings, tenantId: string, draft: AuditDraft & { requestId: string }) {
    const now = Date.now();
    await deferEntry(database(env.DB), tenantId, JSON.stringify({ ...draft, occurredAt: draft.occurredAt ?? now }), now);
  },
  keepStatement: keepEntryStatement,
  async holdsSucceeded(db: Database, tenantId: string, action: string, targetId: string) {
    return holdsSucceededEntry(db, tenantId, action, targetId);
  },
};

/** Kept entries a sweep appends per run; a claim lasts long enough for that many object calls. */
const DRAIN_BATCH = 50;
const DRAIN_LEASE_MS = 5 * 60_000;

/**
 * Appends the entries kept after a failed append (AuditSink.defer), oldest first, each to its tenant's chain with
 * its original time, and drops each once appended. A drain that dies between the two finds the entry in the chain
 * on its next run and only drops the row, so an entry lands once. Answers how many it handed to the chain (one whose
 * request's own append landed it first is counted, though the chain appended nothing for it).
 */
export async function drainAuditOutbox(env: Bindings, now: number): Promise<number> {
  const db = database(env.DB);
  let appended = 0;
  for (const row of await claimDeferred(db, now, DRAIN_LEASE_MS, DRAIN_BATCH)) {
    const draft = JSON.parse(row.draft) as AuditDraft & { requestId: string; occurredAt: number };
    try {
      if (!(await hasEntryFor(db, row.tenantId, draft))) {
        // Naming the row: the chain appends the entry only while the row is still there and drops it in the same
        // write, so the request's own append arriving late (naming it too) finds it gone and appends nothing.
        await chainOf(env, row.tenantId).append(row.tenantId, [{ ...draft, keptAs: row.id }]);
        appended++;
      }
      await dropDeferred(db, row.id);
    } catch (error) {
      // Still kept: a later sweep takes it again once this claim lapses.
      log.warn("a kept audit entry could not be appended yet", { error: String(error) });
    }
  }
  return appended;
}

function chainOf(env: Bindings, tenantId: string) {
  return env.AUDIT_CHAIN.get(env.AUDIT_CHAIN.idFromName(`audit:${tenantId}`));
}

/** How far a verification reads per D1 query. */
export const VERIFY_PAGE = 2000;
/**
 * Pages one request verifies (200,000 entries): keeps a verification within Workers' 1,000 D1 queries per
 * invocation and a bounded CPU time. A longer chain answers a partial result (`complete: false`).
 */
export const MAX_VERIFY_PAGES = 100;

/** The chain's verification, plus whether the stored head agrees with the witness the AuditChain object keeps. */
export type AuditVerification = ChainCheck & {
  /** `matches`: the object's last written head is in the chain as written; `behind`: the chain ends before it (entries removed from the end); `differs`: the entry at that seq has another hash (the tail was rewritten); `unchecked`: the chain broke, or the verification stopped, before reaching it; `none`: no witness yet. */
  witness: "matches" | "behind" | "differs" | "unchecked" | "none";
  /** False when the page cap stopped the verification before the chain's end (an intact prefix was checked). */
  complete: boolean;
  /** The last entry checked (null when none was). */
  checkedThroughSeq: number | null;
};

/**
 * Verifies a tenant's chain from its first entry, streaming pages (never the whole log in memory), and compares
 * the end with the witness. Cost: one query per `pageSize` entries, at most `maxPages` queries, and one hash per
 * entry; a chain longer than that is reported intact so far with `complete: false`, never a failure.
 */
export async function verifyTenantChain(
  env: Bindings,
  tenantId: string,
  { pageSize = VERIFY_PAGE, maxPages = MAX_VERIFY_PAGES }: { pageSize?: number; maxPages?: number } = {},
): Promise<AuditVerification> {
  const db = database(env.DB);
  const verifier = new ChainVerifier();
  const witness = await chainOf(env, tenantId).witness();
  let after = 0;
  let witnessHash: string | null = null;
  let complete = false;
  let checkedThroughSeq: number | null = null;
  for (let pages = 0; pages < maxPages; pages++) {
    const page = await chainPage(db, tenantId, after, pageSize);
    for (const row of page) {
      if (witness && row.seq === witness.seq) witnessHash = row.hash;
      if (!(await verifier.add(row))) break;
      checkedThroughSeq = row.seq;
    }
    const check = verifier.result();
    if (!check.intact || page.length < pageSize) {
      complete = true;
      break;
    }
    after = page[page.length - 1]!.seq;
  }
  const check = verifier.result();
  const witnessState: AuditVerification["witness"] = !witness
    ? "none"
    : witnessHash !== null
      ? witnessHash === witness.hash
        ? "matches"
        : "differs"
      : check.intact && complete
        ? "behind"
        : "unchecked";
  return { ...check, witness: witnessState, complete, checkedThroughSeq };
}
