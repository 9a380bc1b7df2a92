import { database } from "../../db/client";
import type { Bindings } from "../../env";
import type { AuditDraft, AuditSink } from "../../platform/audit";
import { type ChainCheck, ChainVerifier } from "./chain";
import { chainPage } from "./repo";

/** The audit sink the app installs: every tenant's entries go through that tenant's AuditChain object. */
export const durableAuditSink: AuditSink = {
  async append(env: Bindings, tenantId: string, drafts: readonly AuditDraft[]) {
    await chainOf(env, tenantId).append(tenantId, drafts);
  },
};

function chainOf(env: Bindings, tenantId: string) {
  return env.AUDIT_CHAIN.get(env.AUDIT_CHAIN.idFromName(`audit:${tenantId}`));
}

/** How far a full verification reads per D1 query. */
const VERIFY_PAGE = 500;

/** The chain's verification, plus whether the stored head agrees with the witness the AuditChain object keeps. */
export type AuditVerification = ChainCheck & {
  /** `matches`: the object's last written head is in the chain as written; `behind`: the chain ends before it (entries removed from the end); `differs`: the entry at that seq has another hash (the tail was rewritten); `unchecked`: the chain broke before reaching it; `none`: no witness yet. */
  witness: "matches" | "behind" | "differs" | "unchecked" | "none";
};

/**
 * Verifies a tenant's whole chain from its first entry, streaming pages (never the whole log in memory), and
 * compares the end with the witness. Cost: one query per 500 entries and one hash per entry.
 */
export async function verifyTenantChain(env: Bindings, tenantId: string): Promise<AuditVerification> {
  const db = database(env.DB);
  const verifier = new ChainVerifier();
  const witness = await chainOf(env, tenantId).witness();
  let after = 0;
  let witnessHash: string | null = null;
  for (;;) {
    const page = await chainPage(db, tenantId, after, VERIFY_PAGE);
    for (const row of page) {
      if (witness && row.seq === witness.seq) witnessHash = row.hash;
      if (!(await verifier.add(row))) break;
    }
    const check = verifier.result();
    if (!check.intact || page.length < VERIFY_PAGE) break;
    after = page[page.length - 1]!.seq;
  }
  const check = verifier.result();
  const witnessState: AuditVerification["witness"] = !witness
    ? "none"
    : witnessHash !== null
      ? witnessHash === witness.hash
        ? "matches"
        : "differs"
      : check.intact
        ? "behind"
        : "unchecked";
  return { ...check, witness: witnessState };
}
