import { DurableObject } from "cloudflare:workers";
import { database } from "../db/client";
import { type ChainedEntry, canonicalDetail, entryHash, GENESIS_HASH } from "../governance/audit/chain";
import { chainHead, hashAt, insertEntries } from "../governance/audit/repo";
import type { AuditDraft } from "../platform/audit";
import { newId } from "../platform/ids";
import { log } from "../platform/logger";

interface Head {
  seq: number;
  hash: string;
}

interface Waiting {
  tenantId: string;
  drafts: readonly AuditDraft[];
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** At most this many entries go into one D1 batch; more wait for the next. */
const MAX_ENTRIES_PER_WRITE = 100;

/**
 * The one writer of a tenant's audit chain (one object per tenant, named `audit:<tenant id>`).
 * Invariant: entries are numbered and hashed here, one write at a time, each linking to the head the previous
 * write left, so concurrent appends from every Worker instance form one chain without forks or gaps. Appends
 * that arrive while a write is in flight are coalesced into the next write (one D1 batch), so a burst of writes
 * costs a few round trips, not one each. The head is also kept in this object's own storage: a witness outside
 * D1, so a verification can tell a truncated or rewritten tail from an intact one. The witness never moves back:
 * when this object (re)reads D1's head and finds that the head it last wrote is gone or different (someone with
 * database access removed or rewrote the end), it keeps that head as the permanent witness of the break and goes on
 * chaining after what D1 holds, so the break stays detectable however much is appended afterwards.
 */
export class AuditChain extends DurableObject<Env> {
  private head: Head | null = null;
  private headKnown = false;
  private waiting: Waiting[] = [];
  private writing = false;

  append(tenantId: string, drafts: readonly AuditDraft[]): Promise<void> {
    if (drafts.length === 0) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ tenantId, drafts, resolve, reject });
      if (!this.writing) void this.drain();
    });
  }

  /**
   * What verification compares the chain with: the head this object found missing or altered in D1 (kept for
   * good once found), else the head it last wrote; null before its first write.
   */
  async witness(): Promise<Head | null> {
    return (await this.ctx.storage.get<Head>("break")) ?? (await this.ctx.storage.get<Head>("head")) ?? null;
  }

  /** D1's head, after checking that the head this object last wrote is still there as written. */
  private async loadHead(tenantId: string): Promise<Head | null> {
    const db = database(this.env.DB);
    const head = await chainHead(db, tenantId);
    const written = await this.ctx.storage.get<Head>("head");
    // D1 may be ahead of what this object wrote (the operator script appends directly), never behind or different.
    if (written && (await hashAt(db, tenantId, written.seq)) !== written.hash && !(await this.ctx.storage.get<Head>("break"))) {
      log.error("audit chain end removed or rewritten outside the service", { tenant_id: tenantId, witness_seq: written.seq });
      await this.ctx.storage.put("break", written);
    }
    return head;
  }

  private async drain() {
    this.writing = true;
    try {
      while (this.waiting.length > 0) {
        const group: Waiting[] = [];
        let size = 0;
        while (this.waiting.length > 0 && (group.length === 0 || size + this.waiting[0]!.drafts.length <= MAX_ENTRIES_PER_WRITE)) {
          const next = this.waiting.shift()!;
          group.push(next);
          size += next.drafts.length;
        }
        try {
          await this.write(group);
          for (const w of group) w.resolve();
        } catch (error) {
          log.error("audit append failed", { error: String(error) });
          for (const w of group) w.reject(error);
        }
      }
    } finally {
      this.writing = false;
    }
  }

  private async write(group: Waiting[]) {
    const db = database(this.env.DB);
    const tenantId = group[0]!.tenantId;
    for (let attempt = 0; ; attempt++) {
      if (!this.headKnown) {
        this.head = await this.loadHead(tenantId);
        this.headKnown = true;
      }
      const entries: ChainedEntry[] = [];
      let prev = this.head ?? { seq: 0, hash: GENESIS_HASH };
      const now = Date.now();
      for (const w of group) {
        for (const d of w.drafts) {
          const unhashed = {
            tenantId,
            seq: prev.seq + 1,
            id: newId("auditEvent"),
            occurredAt: d.occurredAt ?? now,
            action: d.action,
            outcome: d.outcome,
            actorKind: d.actorKind,
            actorId: d.actorId,
            credentialId: d.credentialId,
            requestId: d.requestId,
            targetType: d.targetType,
            targetId: d.targetId,
            statusCode: d.statusCode,
            detail: canonicalDetail(d.detail),
            prevHash: prev.hash,
          };
          const entry = { ...unhashed, hash: await entryHash(unhashed) };
          entries.push(entry);
          prev = { seq: entry.seq, hash: entry.hash };
        }
      }
      try {
        await insertEntries(db, entries);
      } catch (error) {
        // Someone else appended (an operator script writes directly): re-read the head once and chain after it.
        this.headKnown = false;
        if (attempt >= 2) throw error;
        continue;
      }
      this.head = prev;
      await this.ctx.storage.put("head", prev);
      return;
    }
  }
}
