import { describe, expect, it } from "vitest";
import { durableAuditSink } from "../../../src/governance/audit/service";
import { installAuditSink } from "../../../src/platform/audit";
import { request, send } from "../campaign/faults-http.helpers";
import { faultyEnv } from "../support/faults";
import { addKey, createTenant, testEnv } from "../support/helpers";

/*
 * Review of the Durable Object fault work (#22) (api_keys.revoked_by, migration 0038). revoked_by records only *that* a DELETE revoked the
 * key ("request"), not *which* caller did, and "was it answered" is read from the audit. A DELETE that was answered
 * 200 but whose audit append failed (the audit chain object errored: audit.ts only logs that for a non-secret
 * write) leaves a key revoked "by request" with no audit entry: the next DELETE of it, by ANY other key of the
 * tenant, is answered 200 as its own revoke and the audit then credits that other key with the revoke.
 */
const revoke = (key: string, target: string) => request(`/v1/api-keys/${target}`, { method: "DELETE", key });

async function revokeActors(tenantId: string, keyId: string) {
  const { results } = await testEnv.DB.prepare(
    "SELECT actor_id FROM audit_events WHERE tenant_id = ? AND target_id = ? AND action = 'DELETE /v1/api-keys/{api_key_id}' AND outcome = 'succeeded'",
  )
    .bind(tenantId, keyId)
    .all<{ actor_id: string }>();
  return results.map((r) => r.actor_id);
}

describe("review: a revoke is credited to the caller that made it, never to a later one", () => {
  it("an answered revoke whose audit append failed is not credited to another key's later DELETE", async () => {
    const { tenantId, key, keyId } = await createTenant();
    const second = await addKey(tenantId);
    const target = await addKey(tenantId);
    // The first DO call of the DELETE is the audit append (the key has no rate limit): it fails.
    const faulty = faultyEnv(testEnv, { at: 1, kinds: ["do"] });
    const first = await send(faulty.env, revoke(key, target.keyId));
    expect(faulty.faulted?.detail).toBe("AUDIT_CHAIN.append");
    // The revoke was made and answered to the first key.
    expect(first.status, first.text).toBe(200);
    expect(await revokeActors(tenantId, target.keyId)).toEqual([]);
    // A different key now DELETEs the same, already revoked key: it did not revoke it.
    const later = await send(testEnv, revoke(second.key, target.keyId));
    const actors = await revokeActors(tenantId, target.keyId);
    expect(actors, `the audit credits ${actors.join()} (first caller ${keyId})`).not.toContain(second.keyId);
    expect(later.status, later.text).toBe(409);
  });

  it("two DELETEs of one key at once, by two keys, with no fault: only the one that revoked it is answered and audited as the revoker", async () => {
    const { tenantId, key, keyId } = await createTenant();
    const second = await addKey(tenantId);
    const target = await addKey(tenantId);
    // The first DELETE's audit append is held until the second DELETE has been answered: the ordinary window
    // between a revoke's write and its audit entry (the entry is appended after the handler answered).
    let appendStarted!: () => void;
    const firstAppending = new Promise<void>((resolve) => {
      appendStarted = resolve;
    });
    let releaseFirst!: () => void;
    const firstReleased = new Promise<void>((resolve) => {
      releaseFirst = resolve;
    });
    let calls = 0;
    installAuditSink({
      ...durableAuditSink,
      async append(env, t, drafts) {
        if (t === tenantId && ++calls === 1) {
          appendStarted();
          await firstReleased;
        }
        await durableAuditSink.append(env, t, drafts);
      },
    });
    try {
      const first = send(testEnv, revoke(key, target.keyId));
      await firstAppending; // the first DELETE revoked the key and is appending its entry
      const later = await send(testEnv, revoke(second.key, target.keyId));
      releaseFirst();
      expect((await first).status).toBe(200);
      const actors = await revokeActors(tenantId, target.keyId);
      expect(actors, `revoked by ${keyId}; a later DELETE by ${second.keyId} answered ${later.status}`).toEqual([keyId]);
      expect(later.status, later.text).toBe(409);
    } finally {
      releaseFirst();
      installAuditSink(durableAuditSink);
    }
  });
});
