import { describe, expect, it } from "vitest";
import {
  type Exec,
  insertEntrySql,
  operatorEntry,
  parseArgs,
  placeHold,
  releaseHold,
  canonicalDetail as scriptDetail,
  entryHash as scriptHash,
  sql,
  UsageError,
} from "../../../scripts/lib/legal-hold.mjs";
import { type ChainedEntry, ChainVerifier, canonicalDetail, entryHash, GENESIS_HASH } from "../../../src/governance/audit/chain";

/** Two entries the service's writer would append (hashed with the TS code). */
async function serviceChain(tenantId: string): Promise<ChainedEntry[]> {
  const out: ChainedEntry[] = [];
  let prev = { seq: 0, hash: GENESIS_HASH };
  for (const [i, action] of ["POST /v1/api-keys", "POST /v1/sign"].entries()) {
    const unhashed = {
      tenantId,
      seq: prev.seq + 1,
      id: `aud_abcdefghij23456${i}`,
      occurredAt: 1_764_000_000_000 + i,
      action,
      outcome: "succeeded" as const,
      actorKind: "api_key",
      actorId: "key_abcdefghij234567",
      credentialId: "key_abcdefghij234567",
      requestId: `req_${i}`,
      targetType: "api_key",
      targetId: null,
      statusCode: 201,
      detail: canonicalDetail({ b: 1, a: [{ z: 1, y: "é\u2028" }] }),
      prevHash: prev.hash,
    };
    const entry = { ...unhashed, hash: await entryHash(unhashed) };
    out.push(entry);
    prev = entry;
  }
  return out;
}

/**
 * A fake D1 over the three tables the script touches, enough to run its commands: it answers the SELECTs the script
 * sends and applies its INSERT/UPDATE statements, refusing a duplicate (tenant_id, seq) as D1's primary key does.
 */
function fakeD1(tenantId: string, chain: ChainedEntry[], assets: string[] = []) {
  const audit = [...chain];
  const holds: Record<string, unknown>[] = [];
  let interleave: ChainedEntry | null = null;
  const exec: Exec = async (text) => {
    if (text.startsWith("SELECT seq, hash FROM audit_events")) {
      const head = audit[audit.length - 1];
      // Simulates the service appending between the script's read and its write, once.
      if (interleave) {
        audit.push(interleave);
        interleave = null;
      }
      return head ? [{ seq: head.seq, hash: head.hash }] : [];
    }
    if (text.startsWith("SELECT id FROM tenants")) return text.includes(tenantId) ? [{ id: tenantId }] : [];
    if (text.startsWith("SELECT id FROM assets")) return assets.filter((a) => text.includes(a)).map((id) => ({ id }));
    if (text.startsWith("SELECT tenant_id, scope, asset_id, released_at FROM legal_holds"))
      return holds.filter((h) => text.includes(String(h.id)));
    if (text.startsWith("SELECT id FROM audit_events")) return audit.filter((e) => text.includes(`'${e.id}'`)).map((e) => ({ id: e.id }));
    if (text.startsWith("INSERT INTO audit_events")) {
      const [entrySql, then] = text.split("; ");
      const seq = Number(/(?:VALUES \(|SELECT )'[^']*', (\d+),/.exec(entrySql!)![1]);
      if (audit.some((e) => e.seq === seq)) throw new Error("UNIQUE constraint failed: audit_events.tenant_id, audit_events.seq");
      // The conditional form (a release): inserts nothing once the hold is released.
      const onlyIfActive = / WHERE EXISTS \(SELECT 1 FROM legal_holds WHERE id = '([^']+)' AND released_at IS NULL\)$/.exec(entrySql!);
      if (!onlyIfActive || holds.some((h) => h.id === onlyIfActive[1] && h.released_at === null)) audit.push(parsedEntry(entrySql!));
      if (then?.startsWith("INSERT INTO legal_holds")) {
        const values = /VALUES \((.*)\)$/.exec(then)![1]!.split(", ");
        holds.push({ id: values[0]!.slice(1, -1), tenant_id: tenantId, scope: values[2]!.slice(1, -1), asset_id: null, released_at: null });
      }
      if (then?.startsWith("UPDATE legal_holds"))
        for (const h of holds) if (then.includes(String(h.id)) && h.released_at === null) h.released_at = 1;
      return [];
    }
    throw new Error(`unexpected SQL: ${text}`);
  };
  return { exec, audit, holds, appendConcurrently: (e: ChainedEntry) => (interleave = e) };
}

/** The entry an INSERT statement carries, read back from its SQL literals (the script's own quoting). */
function parsedEntry(text: string): ChainedEntry {
  const values = /(?:VALUES \((.*)\)|SELECT (.*) WHERE EXISTS .*)$/
    .exec(text)!
    .slice(1)
    .find((v) => v !== undefined)!;
  const fields: (string | number | null)[] = [];
  const re = /'((?:[^']|'')*)'|(-?\d+)|NULL/g;
  for (let m = re.exec(values); m; m = re.exec(values))
    fields.push(m[1] !== undefined ? m[1].replace(/''/g, "'") : m[2] !== undefined ? Number(m[2]) : null);
  const [
    tenantId,
    seq,
    id,
    occurredAt,
    action,
    outcome,
    actorKind,
    actorId,
    credentialId,
    requestId,
    targetType,
    targetId,
    statusCode,
    detail,
    prevHash,
    hash,
  ] = fields;
  return {
    tenantId,
    seq,
    id,
    occurredAt,
    action,
    outcome,
    actorKind,
    actorId,
    credentialId,
    requestId,
    targetType,
    targetId,
    statusCode,
    detail,
    prevHash,
    hash,
  } as ChainedEntry;
}

async function verifies(entries: ChainedEntry[]) {
  const verifier = new ChainVerifier();
  for (const e of entries) await verifier.add(e);
  return verifier.result();
}

describe("scripts/legal-hold.mjs", () => {
  it("hashes an entry exactly as src/governance/audit/chain.ts does", async () => {
    const [first] = await serviceChain("ten_abcdefghij234567");
    const { hash, ...rest } = first!;
    expect(scriptHash(rest)).toBe(hash);
    const detail = { scope: "asset", asset_id: "ast_abcdefghij234567", nested: { b: [2, 1], a: "ü'\"" } };
    expect(scriptDetail(detail)).toBe(canonicalDetail(detail));
  });

  it("appends after the service's entries and the chain verifies; a concurrent service append is retried after", async () => {
    const tenantId = "ten_abcdefghij234567";
    const chain = await serviceChain(tenantId);
    const d1 = fakeD1(tenantId, chain, ["ast_abcdefghij234567"]);
    const placed = await placeHold(d1.exec, {
      tenant: tenantId,
      asset: "ast_abcdefghij234567",
      reason: "Matter 'A' 2026-117",
      by: "ops.alice",
    });
    expect(placed).toMatchObject({ scope: "asset", auditSeq: 3 });
    expect(d1.audit[2]).toMatchObject({
      action: "legal_hold.placed",
      actorKind: "operator",
      actorId: "ops.alice",
      targetId: placed.holdId,
    });
    expect(await verifies(d1.audit)).toMatchObject({ intact: true, entries: 3 });

    // The service appends seq 4 between the script's head read and its insert: the insert fails, is recomputed.
    const head = d1.audit[d1.audit.length - 1]!;
    const unhashed = { ...head, seq: 4, id: "aud_servicewriterwrit", action: "GET", prevHash: head.hash };
    d1.appendConcurrently({ ...unhashed, hash: await entryHash(unhashed) });
    const released = await releaseHold(d1.exec, { hold: placed.holdId, by: "ops.bob" });
    expect(released.auditSeq).toBe(5);
    expect(d1.holds[0]!.released_at).not.toBeNull();
    expect(await verifies(d1.audit)).toMatchObject({ intact: true, entries: 5 });
  });

  it("starts a chain from the genesis hash, quotes every literal and refuses bad input before writing", async () => {
    const entry = operatorEntry(null, { tenantId: "ten_x", action: "legal_hold.placed", operator: "o'neil", holdId: "lgh_x", detail: {} });
    expect(entry.prevHash).toBe(GENESIS_HASH);
    expect(insertEntrySql(entry)).toContain("'o''neil'");
    expect(sql(null)).toBe("NULL");
    const d1 = fakeD1("ten_abcdefghij234567", []);
    await expect(placeHold(d1.exec, { tenant: "ten_abcdefghij234567", reason: "", by: "x" })).rejects.toBeInstanceOf(UsageError);
    await expect(placeHold(d1.exec, { tenant: "ten_abcdefghij234567'; DROP", reason: "r", by: "x" })).rejects.toBeInstanceOf(UsageError);
    await expect(
      placeHold(d1.exec, { tenant: "ten_abcdefghij234567", asset: "ast_zzzzzzzzzzzzzzzz", reason: "r", by: "x" }),
    ).rejects.toThrow(/no asset/);
    await expect(releaseHold(d1.exec, { hold: "lgh_abcdefghij234567", by: "x" })).rejects.toThrow(/no hold/);
    expect(d1.audit).toEqual([]);
    // wrangler rewrites `BEGIN TRANSACTION;` / `COMMIT;` even inside literals: no `;` (or odd characters) gets through.
    const tenant = "ten_abcdefghij234567";
    await expect(placeHold(d1.exec, { tenant, reason: "Matter 1; COMMIT;", by: "ops.alice" })).rejects.toBeInstanceOf(UsageError);
    await expect(placeHold(d1.exec, { tenant, reason: "Matter 1", by: "ops; COMMIT;" })).rejects.toBeInstanceOf(UsageError);
    await expect(placeHold(d1.exec, { tenant, reason: "Matter 1", by: "ops alice\n" })).rejects.toBeInstanceOf(UsageError);
    await expect(placeHold(d1.exec, { tenant, reason: "Matter\u0000 1", by: "ops.alice" })).rejects.toBeInstanceOf(UsageError);
    expect(parseArgs(["place", "--tenant", "ten_a", "--remote"])).toEqual({ command: "place", options: { tenant: "ten_a", remote: true } });
  });

  it("two concurrent releases of one hold: one releases and is audited, the other appends nothing and is told", async () => {
    const tenantId = "ten_abcdefghij234567";
    const d1 = fakeD1(tenantId, await serviceChain(tenantId));
    const placed = await placeHold(d1.exec, { tenant: tenantId, reason: "Matter 2026-117 (Müller & Co.)", by: "ops.alice" });
    const outcomes = await Promise.allSettled([
      releaseHold(d1.exec, { hold: placed.holdId, by: "ops.bob" }),
      releaseHold(d1.exec, { hold: placed.holdId, by: "ops.carol" }),
    ]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(["fulfilled", "rejected"]);
    const refused = outcomes.find((o) => o.status === "rejected") as PromiseRejectedResult;
    expect(refused.reason).toBeInstanceOf(UsageError);
    expect(String(refused.reason.message)).toMatch(/already released/);
    expect(d1.audit.filter((e) => e.action === "legal_hold.released")).toHaveLength(1);
    expect(await verifies(d1.audit)).toMatchObject({ intact: true, entries: 4 });
  });
});
