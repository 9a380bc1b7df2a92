import { describe, expect, it } from "vitest";
import type { Bindings } from "../../../src/env";
import { drainAuditOutbox } from "../../../src/governance/audit/service";
import { newId } from "../../../src/platform/ids";
import { count, request, send } from "../campaign/faults-http.helpers";
import { createTenant, testEnv } from "../support/helpers";
import { activeEndpoints, insertCustomerEvent } from "../support/webhooks.helpers";

/*
 * Review of #19's audit entry kept in the write's own batch (platform/audit auditInBatch): the kept row and the
 * request's own append must land the entry once, in whichever order they happen. The kept row is unclaimable for
 * 5 minutes, after which the outbox sweep appends it; a request whose own append is still on its way then (a slow
 * AuditChain object, a slow queue send before it) appends the same entry a second time: the chain's write deletes
 * the kept row "if any" and appends regardless, so nothing tells it the sweep already did.
 */

/** An env whose AUDIT_CHAIN.append calls wait for `release()` before reaching the object: an append still on its way. */
function slowAuditEnv(base: Bindings) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let reached!: () => void;
  const called = new Promise<void>((resolve) => {
    reached = resolve;
  });
  const real = base.AUDIT_CHAIN as unknown as DurableObjectNamespace;
  const namespace = new Proxy(real, {
    get(target, prop) {
      const value = Reflect.get(target, prop);
      if (typeof value !== "function") return value;
      if (prop !== "get") return (...args: unknown[]) => Reflect.apply(value, target, args);
      return (...args: unknown[]) => {
        const stub = Reflect.apply(value, target, args) as DurableObjectStub;
        return new Proxy(stub, {
          get(s, p) {
            const v = Reflect.get(s, p);
            if (typeof v !== "function") return v;
            if (p !== "append") return v.bind(s);
            return async (...a: unknown[]) => {
              reached();
              await gate;
              return await Reflect.apply(v, s, a);
            };
          },
        });
      };
    },
  });
  return { env: { ...base, AUDIT_CHAIN: namespace } as unknown as Bindings, release, called };
}

const ACTION = "POST /v1/webhook-events/{event_id}/replay";

describe("#19 review: an entry kept in the write's batch is appended once, whoever appends it first", () => {
  it("the sweep appends the kept entry (its 5 minutes lapsed), then the request's own append arrives: still one entry", async () => {
    const tenant = await createTenant();
    await activeEndpoints(tenant.tenantId, 2);
    const eventId = newId("webhookEvent");
    await insertCustomerEvent(tenant.tenantId, "asset.signed", eventId);
    const slow = slowAuditEnv(testEnv);
    const answered = send(
      slow.env,
      request(`/v1/webhook-events/${eventId}/replay`, {
        method: "POST",
        key: tenant.key,
        headers: { "idempotency-key": crypto.randomUUID() },
      }),
    );
    // The replay's batch committed (key completed, entry kept) and the request's append is on its way.
    await slow.called;
    expect(await count("audit_outbox", "tenant_id = ?", tenant.tenantId), "the entry kept by the batch").toBe(1);
    // The kept row's 5 minutes lapse before that append lands: the cron sweep appends the kept entry.
    await drainAuditOutbox(testEnv, Date.now() + 6 * 60_000);
    expect(await count("audit_events", "tenant_id = ? AND action = ?", tenant.tenantId, ACTION)).toBe(1);
    // Then the request's own append lands.
    slow.release();
    const answer = await answered;
    expect(answer.status).toBe(200);
    expect(
      await count("audit_events", "tenant_id = ? AND action = ?", tenant.tenantId, ACTION),
      "one replay, one audit entry (not the sweep's and the request's both)",
    ).toBe(1);
    expect(await count("audit_outbox", "tenant_id = ?", tenant.tenantId)).toBe(0);
  });
});
