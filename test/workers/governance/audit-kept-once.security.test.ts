import { describe, expect, it } from "vitest";
import { durableAuditSink } from "../../../src/governance/audit/service";
import { countOf, draftOf, keep } from "../support/audit-outbox";
import { api, createTenant, testEnv } from "../support/helpers";

/*
 * #19 review: an entry kept in audit_outbox is appended by whoever still finds its kept row (the request's own append
 * or the sweep's, both naming it as `keptAs`), once: the chain appends a draft only while its row is there and drops
 * the row in the same write.
 */

describe("#19 review: a kept entry is appended once, by whichever append still finds its kept row", () => {
  it("two appends naming the same kept row at once (the request's and the sweep's) land one entry and drop the row", async () => {
    const { tenantId, key } = await createTenant();
    const draft = draftOf("TEST kept twice");
    const id = await keep(tenantId, draft);
    await Promise.all([
      durableAuditSink.append(testEnv, tenantId, [{ ...draft, keptAs: id }]),
      durableAuditSink.append(testEnv, tenantId, [{ ...draft, keptAs: id }]),
    ]);
    expect(await countOf("audit_events WHERE tenant_id = ? AND action = ?", tenantId, "TEST kept twice")).toBe(1);
    expect(await countOf("audit_outbox WHERE id = ?", id)).toBe(0);
    const audit = await (await api("/v1/governance/audit?verify=true", { key })).json<{ verification?: { intact?: boolean } }>();
    expect(audit.verification?.intact).toBe(true);
  });

  it("a draft naming a kept row that is gone resolves without appending; the drafts beside it are appended", async () => {
    const { tenantId, key } = await createTenant();
    const gone = draftOf("TEST kept gone", crypto.randomUUID());
    const plain = draftOf("TEST not kept");
    await durableAuditSink.append(testEnv, tenantId, [gone, plain]);
    expect(await countOf("audit_events WHERE tenant_id = ? AND action = ?", tenantId, "TEST kept gone")).toBe(0);
    expect(await countOf("audit_events WHERE tenant_id = ? AND action = ?", tenantId, "TEST not kept")).toBe(1);
    // Nothing at all to append: resolves too.
    await durableAuditSink.append(testEnv, tenantId, [draftOf("TEST kept gone", crypto.randomUUID())]);
    expect(await countOf("audit_events WHERE tenant_id = ? AND action = ?", tenantId, "TEST kept gone")).toBe(0);
    const audit = await (await api("/v1/governance/audit?verify=true", { key })).json<{ verification?: { intact?: boolean } }>();
    expect(audit.verification?.intact).toBe(true);
  });
});
