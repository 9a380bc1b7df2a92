import { DurableObject } from "cloudflare:workers";
import { database } from "../db/client";
import { type ChainedEntry, canonicalDetail, entryHash, GENESIS_HASH } from "../governance/audit/chain";
import { chainHead, hashAt, insertAfter, keptRowsPresent } from "../governance/audit/repo";
import type { AuditDraft } from "../platform/audit";
import { newId } from "../platform/ids";
import { log } from "../platform/logger";

interface Head {
  seq: number;
  hash: string;
}

/** A draft checked and serialized (detail as canonical JSON) before it joins a group, so it cannot fail the group. */
type Prepared = Omit<AuditDraft, "detail"> & { detail: string | null };

interface Waiting {
  tenantId: string;
  drafts: readonly Prepared[];
  resolve: () => void;
  reject: (error: unknown) => void;
}

const OUTCOMES = new Set(["succeeded", "denied", "failed"]);
const nullableString = (v: unknown) => v === null || typeof v === "string";

/** Checks a draft's fields (what the table accepts) and serializes its detail; throws on a bad draft. */
function prepare(d: AuditDraft): Prepared {
  if (typeof d.action !== "string" || d.action.length === 0) throw new TypeError("audit draft: action missing");
  if (!OUTCOMES.has(d.outcome)) throw new TypeError("audit draft: unknown outcome");
  if (typeof d.actorKind !== "string" || d.actorKind.length === 0) throw new TypeError("audit draft: actor kind missing");
  for (const v of [d.actorId, d.credentialId, d.requestId, d.targetType, d.targetId])
    if (!nullableString(v)) throw new TypeError("audit draft: ids must be strings or null");
  if (d.statusCode !== null && !Number.isInteger(d.statusCode)) throw new TypeError("audit draft: status code not an integer");
  if (d.occurredAt !== undefined && !Number.isFinite(d.occurredAt)) throw new TypeError("audit draft: occurred_at not a time");
  if (d.keptAs !== undefined && typeof d.keptAs !== "string") throw new TypeError("audit draft: kept row id not a string");
  return { ...d, detail: canonicalDetail(d.detail) }; // throws on what JSON cannot hold (a cycle, a BigInt)
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
    // Checked before grouping: a bad draft rejects its own caller only, never the callers coalesced with it.
    let prepared: Prepared[];
    try {
      prepared = drafts.map(prepare);
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ tenantId, drafts: prepared, resolve, reject });
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
          if (group.length === 1) {
            log.error("audit append failed", { error: String(error) });
            group[0]!.reject(error);
            continue;
          }
          // Whatever failed the group (all or none of it was written): each caller alone, so one failure stays its own.
          for (const w of group) {
            try {
              await this.write([w]);
              w.resolve();
            } catch (alone) {
              log.error("audit append failed", { error: String(alone) });
              w.reject(alone);
            }
          }
        }
      }
    } finally {
      this.writing = false;
    }
  }

  private async write(group: Waiting[]) {
    const db = database(this.env.DB);
    const tenantId = group[0]!.tenantId;
    // An entry kept in the outbox (its write's batch, or a failed append) is appended by whoever still finds its
    // kept row: the request's own append or the sweep's, each naming it (keptAs). A draft whose row is gone was
    // appended by the other (which dropped the row in its write): it resolves without a second entry.
    const named = [...new Set(group.flatMap((w) => w.drafts.flatMap((d) => (d.keptAs ? [d.keptAs] : []))))];
    // The first try takes every named row as present, without reading them (#19: that read was one of the two D1
    // round trips of every append after a write's batch, where the row was just written): the write's guard
    // fails the whole batch if one is gone, and the next try reads which are left. That try is extra, not taken
    // from the tries a moved head gets.
    let optimistic = named.length > 0;
    const tries = optimistic ? 4 : 3;
    for (let attempt = 0; ; attempt++) {
      if (!this.headKnown) {
        this.head = await this.loadHead(tenantId);
        this.headKnown = true;
      }
      const present = optimistic ? new Set(named) : named.length > 0 ? await keptRowsPresent(db, named) : new Set<string>();
      const taken = new Set<string>();
      const entries: ChainedEntry[] = [];
      let prev = this.head ?? { seq: 0, hash: GENESIS_HASH };
      const now = Date.now();
      for (const w of group) {
        for (const d of w.drafts) {
          if (d.keptAs !== undefined) {
            // Gone, or already named by an earlier draft of this very write: appended once, by that one.
            if (!present.has(d.keptAs) || taken.has(d.keptAs)) continue;
            taken.add(d.keptAs);
          }
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
            detail: d.detail,
            prevHash: prev.hash,
          };
          const entry = { ...unhashed, hash: await entryHash(unhashed) };
          entries.push(entry);
          prev = { seq: entry.seq, hash: entry.hash };
        }
      }
      if (entries.length === 0) return; // every draft was an entry the other append already landed
      // The kept rows of the entries appended go with them, guarded as the head is: a row dropped meanwhile (the
      // other append landed it) fails the write, and the retry re-reads which rows are left.
      const kept = [...taken];
      try {
        await insertAfter(db, tenantId, this.head?.hash ?? GENESIS_HASH, entries, kept);
      } catch (error) {
        // Someone else appended (an operator script writes directly), D1's head is no longer the one this object
        // remembers (a restore or a rollback took the tail away), or a kept row named was dropped meanwhile: re-read
        // the head and the kept rows, and chain after what D1 holds.
        this.headKnown = false;
        optimistic = false;
        if (attempt >= tries - 1) throw error;
        continue;
      }
      this.head = prev;
      try {
        await this.ctx.storage.put("head", prev);
      } catch (error) {
        // The entries are written: their callers must not be told otherwise. The witness lags behind D1 (which
        // loadHead accepts) and catches up with the next write.
        log.error("audit witness not updated; caught up on the next write", { error: String(error) });
      }
      return;
    }
  }
}
