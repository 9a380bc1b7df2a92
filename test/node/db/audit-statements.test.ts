import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as schema from "../../../src/db/schema";
import { GENESIS_HASH } from "../../../src/governance/audit/chain";
import { insertAfter } from "../../../src/governance/audit/repo";
import { recordingDb, reference, sqlOf } from "../../support/recording-d1";

/*
 * #19: the audit chain's append (insertAfter, one D1 batch per write of the chain's object) binds statements built
 * once per shape (src/db/statements.ts). Each must be exactly drizzle's statement for the same values, as written
 * before the shapes: the head guard, the kept-row guard, one insert per entry, and the kept rows' delete.
 */

const { auditEvents, auditOutbox } = schema;

const entry = (seq: number, prevHash: string, detail: string | null) => ({
  tenantId: "ten_1",
  seq,
  id: `aud_${seq}`,
  occurredAt: 1_700_000_000_000 + seq,
  action: "POST /v1/webhook-events/{event_id}/replay",
  outcome: "succeeded" as const,
  actorKind: "api_key",
  actorId: "key_1",
  credentialId: null,
  requestId: `req_${seq}`,
  targetType: "event",
  targetId: "whevt_1",
  statusCode: 200,
  detail,
  prevHash,
  hash: `h${seq}`,
});

const headGuard = (tenantId: string, prevHash: string) =>
  sqlOf(
    reference
      .select({
        ok: sql<number>`CASE WHEN COALESCE((SELECT hash FROM audit_events WHERE tenant_id = ${tenantId} ORDER BY seq DESC LIMIT 1), ${GENESIS_HASH}) = ${prevHash} THEN 1 ELSE json('audit chain head moved') END`,
      })
      .from(sql`(SELECT 1)`),
  );
const keptGuard = (ids: string[]) =>
  sqlOf(
    reference
      .select({
        ok: sql<number>`CASE WHEN (SELECT COUNT(*) FROM audit_outbox WHERE id IN (SELECT value FROM json_each(${JSON.stringify(ids)}))) = ${ids.length} THEN 1 ELSE json('audit kept row gone') END`,
      })
      .from(sql`(SELECT 1)`),
  );
const dropKept = (ids: string[]) =>
  sqlOf(reference.delete(auditOutbox).where(sql`${auditOutbox.id} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`));

describe("the audit chain's append statements are drizzle's, built once per shape (#19)", () => {
  it("head guard, kept-row guard, an insert per entry and the kept rows' delete, for several writes in a row", async () => {
    const { db, statements } = recordingDb();
    const first = [entry(1, GENESIS_HASH, null), entry(2, "h1", '{"error_code":"x"}')];
    await insertAfter(db, "ten_1", GENESIS_HASH, first, ["aob_1", "aob_2", "aob_1"]);
    const second = [entry(3, "h2", null)];
    await insertAfter(db, "ten_1", "h2", second);
    const third = [entry(4, "h3", null)];
    await insertAfter(db, "ten_2", "h3", third, ["aob_9"]);
    expect(statements).toEqual([
      headGuard("ten_1", GENESIS_HASH),
      keptGuard(["aob_1", "aob_2"]),
      ...first.map((e) => sqlOf(reference.insert(auditEvents).values(e))),
      dropKept(["aob_1", "aob_2"]),
      headGuard("ten_1", "h2"),
      ...second.map((e) => sqlOf(reference.insert(auditEvents).values(e))),
      headGuard("ten_2", "h3"),
      keptGuard(["aob_9"]),
      ...third.map((e) => sqlOf(reference.insert(auditEvents).values(e))),
      dropKept(["aob_9"]),
    ]);
  });
});
