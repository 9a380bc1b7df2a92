import { describe, expect, it } from "vitest";
import { database } from "../../../src/db/client";
import { closeAccount } from "../../../src/governance/deletions/repo";
import { request, send } from "../campaign/faults-http.helpers";
import { faultyEnv } from "../support/faults";
import { addKey, createTenant, testEnv } from "../support/helpers";

/*
 * #22 review L4: a DELETE of a key that is already revoked is answered as a revoke only when it is the answer of a
 * lost DELETE (its isolate died after the write): never for a key revoked another way — by an account deletion, a
 * restore, or before the revoker was recorded. Those answer 409 already_revoked and write no audit entry claiming
 * the caller revoked them.
 */
async function revokeAudits(tenantId: string, keyId: string) {
  const row = await testEnv.DB.prepare(
    "SELECT count(*) AS n FROM audit_events WHERE tenant_id = ? AND target_id = ? AND action = 'DELETE /v1/api-keys/{api_key_id}' AND outcome = 'succeeded'",
  )
    .bind(tenantId, keyId)
    .first<{ n: number }>();
  return row!.n;
}

const revoke = (key: string, target: string) => request(`/v1/api-keys/${target}`, { method: "DELETE", key });

describe("a DELETE is credited only with its own lost revoke", () => {
  it("a key revoked by an account deletion is already revoked for the next DELETE (409), and no revoke is audited", async () => {
    const { tenantId, key } = await createTenant();
    const other = await addKey(tenantId);
    // The account deletion's revoke landed; the tenant is still open (its close is the next write of that step).
    await closeAccount(database(testEnv.DB), tenantId, Date.now());
    await testEnv.DB.prepare("UPDATE tenants SET status = 'active' WHERE id = ?").bind(tenantId).run();
    await testEnv.DB.prepare("UPDATE api_keys SET status = 'active', revoked_at = NULL, revoked_by = NULL WHERE id = ?")
      .bind(
        (await testEnv.DB.prepare("SELECT id FROM api_keys WHERE tenant_id = ? AND id <> ?")
          .bind(tenantId, other.keyId)
          .first<{ id: string }>())!.id,
      )
      .run(); // the caller's own key stays usable, so the DELETE reaches the operation
    const answer = await send(testEnv, revoke(key, other.keyId));
    expect(answer.status, answer.text).toBe(409);
    expect(answer.body.code).toBe("svc.api_keys.already_revoked");
    expect(await revokeAudits(tenantId, other.keyId)).toBe(0);
  });

  it("a key revoked before the revoker was recorded (revoked_by null) is already revoked", async () => {
    const { tenantId, key } = await createTenant();
    const other = await addKey(tenantId, { status: "revoked" });
    const answer = await send(testEnv, revoke(key, other.keyId));
    expect(answer.status, answer.text).toBe(409);
    expect(await revokeAudits(tenantId, other.keyId)).toBe(0);
  });

  it("a DELETE whose revoke landed but whose answer was lost is answered and audited on its retry, once", async () => {
    // The isolate dies right after the revoke's write (every later call fails: no answer, no audit). A fresh tenant
    // for the probe and for the faulted run, so no isolate cache hides a call and the sites stay the same.
    const first = await createTenant();
    const probe = faultyEnv(testEnv);
    await send(probe.env, revoke(first.key, (await addKey(first.tenantId)).keyId));
    const site = probe.log.find((s) => /^update "api_keys" set "status"/i.test(s.detail));
    expect(site, "the probe saw the revoke").toBeTruthy();
    const { tenantId, key } = await createTenant();
    const fresh = await addKey(tenantId);
    const faulty = faultyEnv(testEnv, { at: site!.n, mode: "crash-after" });
    const lost = await send(faulty.env, revoke(key, fresh.keyId));
    expect(faulty.faulted?.n).toBe(site!.n);
    expect(lost.status, lost.text).toBe(503);
    const retried = await send(testEnv, revoke(key, fresh.keyId));
    expect(retried.status, retried.text).toBe(200);
    expect(await revokeAudits(tenantId, fresh.keyId)).toBe(1);
    const again = await send(testEnv, revoke(key, fresh.keyId));
    expect(again.status).toBe(409);
    expect(await revokeAudits(tenantId, fresh.keyId)).toBe(1);
  });
});
