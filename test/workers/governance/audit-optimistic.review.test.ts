import { describe, expect, it } from "vitest";
import { database } from "../../../src/db/client";
import { entryHash } from "../../../src/governance/audit/chain";
import { chainHead, insertAfter } from "../../../src/governance/audit/repo";
import { durableAuditSink } from "../../../src/governance/audit/service";
import { countOf, draftOf, keep } from "../support/audit-outbox";
import { api, createTenant, testEnv } from "../support/helpers";

/*
 * Review of #19 (the first try of an append takes the kept rows it names as present, its write's guard checking
 * them): a coalesced group mixing a kept row that is gone, kept rows still there (one named twice, as the request's
 * and the sweep's appends do), and plain drafts, after the head moved outside the object (the operator's direct
 * append). Every entry lands once, the gone one not at all, the kept rows are dropped, and the chain verifies.
 */

/** An entry chained directly in D1, as the operator script does (the object's remembered head goes stale). */
async function operatorAppend(tenantId: string, action: string) {
  const db = database(testEnv.DB);
  const head = (await chainHead(db, tenantId))!;
  const unhashed = {
    tenantId,
    seq: head.seq + 1,
    id: `aud_op_${crypto.randomUUID().replaceAll("-", "")}`,
    occurredAt: Date.now(),
    action,
    outcome: "succeeded" as const,
    actorKind: "operator",
    actorId: null,
    credentialId: null,
    requestId: null,
    targetType: null,
    targetId: null,
    statusCode: null,
    detail: null,
    prevHash: head.hash,
  };
  await insertAfter(db, tenantId, head.hash, [{ ...unhashed, hash: await entryHash(unhashed) }]);
}

describe("#19 review: the optimistic first try of an append", () => {
  it("a coalesced group with a gone kept row, kept rows (one named twice) and plain drafts, after the head moved: each once, chain intact", async () => {
    const { tenantId, key } = await createTenant();
    await durableAuditSink.append(testEnv, tenantId, [draftOf("TEST warm")]); // the object remembers a head
    await operatorAppend(tenantId, "TEST operator");
    const keptA = draftOf("TEST kept A");
    const keptB = draftOf("TEST kept B");
    const idA = await keep(tenantId, keptA);
    const idB = await keep(tenantId, keptB);
    const calls = [
      durableAuditSink.append(testEnv, tenantId, [draftOf("TEST plain 1")]),
      durableAuditSink.append(testEnv, tenantId, [{ ...keptA, keptAs: idA }]),
      durableAuditSink.append(testEnv, tenantId, [draftOf("TEST kept gone", crypto.randomUUID()), draftOf("TEST plain 2")]),
      durableAuditSink.append(testEnv, tenantId, [{ ...keptA, keptAs: idA }]),
      durableAuditSink.append(testEnv, tenantId, [{ ...keptB, keptAs: idB }, draftOf("TEST plain 3")]),
    ];
    await Promise.all(calls);
    for (const [action, n] of [
      ["TEST plain 1", 1],
      ["TEST plain 2", 1],
      ["TEST plain 3", 1],
      ["TEST kept A", 1],
      ["TEST kept B", 1],
      ["TEST kept gone", 0],
      ["TEST operator", 1],
    ] as const)
      expect(await countOf("audit_events WHERE tenant_id = ? AND action = ?", tenantId, action), action).toBe(n);
    expect(await countOf("audit_outbox WHERE id IN (?, ?)", idA, idB)).toBe(0);
    // seq without gaps or forks: 1..n
    const { n, top } = (await testEnv.DB.prepare("SELECT COUNT(*) AS n, MAX(seq) AS top FROM audit_events WHERE tenant_id = ?")
      .bind(tenantId)
      .first<{ n: number; top: number }>())!;
    expect(top).toBe(n);
    const audit = await (await api("/v1/governance/audit?verify=true", { key })).json<{
      verification?: { intact?: boolean; witness?: string };
    }>();
    expect(audit.verification?.intact).toBe(true);
    expect(audit.verification?.witness).toBe("matches");
    // Next append after all that still chains (the object re-read the head).
    await durableAuditSink.append(testEnv, tenantId, [draftOf("TEST after")]);
    const again = await (await api("/v1/governance/audit?verify=true", { key })).json<{ verification?: { intact?: boolean } }>();
    expect(again.verification?.intact).toBe(true);
  });
});
