import { describe, expect, it } from "vitest";
import { deliverBatch } from "../../../src/webhooks/delivery-run";
import { type FaultPlan, faultyEnv } from "../support/faults";
import { createTenant, testEnv } from "../support/helpers";
import { createBody, createEndpoint, pendingDeliveries, sleep } from "../support/webhooks.helpers";
import { appendLandedThenCrashed, BOUND_MS, count, isWrite, request, sweep, table } from "./faults-http.helpers";

/*
 * #22, faults: webhook endpoint creation over HTTP, and the delivery consumer (src/webhooks/delivery-run.ts) with
 * each of its D1/R2/queue calls failing in turn. A failed delivery run is retried (its message is not acknowledged,
 * or its delivery is handed on), never lost, and an attempt is never recorded twice as delivered.
 */

describe("faults over HTTP: webhook endpoints", () => {
  it("POST /v1/webhook-endpoints: one endpoint, with its audit record", async () => {
    const result = await sweep({
      name: "POST /v1/webhook-endpoints",
      setup: async () => ({ ...(await createTenant()), idem: crypto.randomUUID() }),
      request: (s) =>
        request("/v1/webhook-endpoints", { method: "POST", key: s.key, body: createBody(), headers: { "idempotency-key": s.idem } }),
      // 409 secret_not_replayable: the first request completed (its one-time secret is not stored).
      success: [201, 409],
      check: async (s, retried, _faulted, site, mode) => {
        if (retried.status === 409) expect(retried.body.code).toBe("secret_not_replayable");
        // One live endpoint (a secret withheld deletes its endpoint; the retry made the one the caller holds).
        expect(await count("webhook_endpoints", "tenant_id = ? AND state = 'active'", s.tenantId), "one live endpoint").toBe(1);
        expect(
          await count("audit_events", "tenant_id = ? AND action = 'POST /v1/webhook-endpoints' AND outcome = 'succeeded'", s.tenantId),
          "its audit record (one per secret issued: see the API key sweep)",
        ).toBe(appendLandedThenCrashed(site, mode) ? 2 : 1);
      },
    });
    console.log(table("POST /v1/webhook-endpoints", result));
  });
});

/** A receiver that answers 200 and records every POST (the delivery id it carried). */
function receiver() {
  const sent: string[] = [];
  const fetcher: typeof fetch = async (_input, init) => {
    sent.push(new Headers(init?.headers).get("svc-delivery-id") ?? "?");
    return new Response("ok", { status: 200 });
  };
  return { sent, deps: { fetcher, random: () => 0.5 } };
}

async function bounded<T>(p: Promise<T>): Promise<T> {
  return Promise.race([p, sleep(BOUND_MS).then(() => Promise.reject(new Error("hang: the delivery run did not settle")))]);
}

async function delivery(id: string) {
  return testEnv.DB.prepare("SELECT status, attempt_count, lease_until FROM webhook_deliveries WHERE id = ?")
    .bind(id)
    .first<{ status: string; attempt_count: number; lease_until: number | null }>();
}

describe("faults: the webhook delivery consumer", () => {
  it("a delivery run failing at each I/O site is retried, never lost, never recorded twice as delivered", async () => {
    const fresh = async () => {
      const { key, tenantId } = await createTenant();
      const { id: endpointId } = await createEndpoint(key, { max_concurrency: 4, rate_limit_per_minute: 600 });
      const [id] = await pendingDeliveries(tenantId, endpointId, 1);
      return { tenantId, id: id! };
    };
    const first = await fresh();
    const probe = faultyEnv(testEnv);
    const r0 = receiver();
    expect(await bounded(deliverBatch(probe.env, [first.id], r0.deps))).toEqual([null]);
    expect((await delivery(first.id))?.status).toBe("delivered");
    const sites = [...probe.log];
    const rows: string[] = [];
    for (const site of sites) {
      for (const mode of ["error", "crash-after"] as NonNullable<FaultPlan["mode"]>[]) {
        if (mode === "crash-after" && !isWrite(site)) continue;
        const where = `deliver · ${mode} at #${site.n} ${site.op} (${site.detail.slice(0, 80)})`;
        const { tenantId, id } = await fresh();
        const r = receiver();
        const faulty = faultyEnv(testEnv, { at: site.n, mode });
        const [outcome] = await bounded(deliverBatch(faulty.env, [id], r.deps));
        const after = await delivery(id);
        // What the queue does next: a message not acknowledged (an error, or the isolate died) comes back once its
        // claim has lapsed (the test lets it lapse instead of waiting LEASE_MS); an acknowledged one is done.
        const retried = outcome !== null || faulty.crashed;
        if (retried) {
          await testEnv.DB.prepare("UPDATE webhook_deliveries SET lease_until = ? WHERE id = ? AND status = 'delivering'")
            .bind(Date.now() - 1, id)
            .run();
          const again = receiver();
          expect(await bounded(deliverBatch(testEnv, [id], again.deps)), where).toEqual([null]);
          r.sent.push(...again.sent);
        }
        const final = await delivery(id);
        rows.push(
          `  #${site.n} ${site.op.padEnd(12)} ${mode.padEnd(11)} → ${outcome === null ? "acked" : "retried"}${faulty.crashed ? " (crashed)" : ""}, after: ${after?.status}; final ${final?.status}, POSTs ${r.sent.length}  ${site.detail.slice(0, 60)}`,
        );
        await checkDelivered(where, tenantId, id, final, r.sent.length, rows);
      }
    }
    console.log(`deliver: ${sites.length} sites\n${rows.join("\n")}`);
  });
});

async function checkDelivered(
  where: string,
  tenantId: string,
  id: string,
  final: Awaited<ReturnType<typeof delivery>>,
  posts: number,
  rows: string[],
) {
  const context = `${where}\n${rows.join("\n")}`;
  // Never lost: delivered (or, when an acknowledged run handed it on, pending with its own message and due again).
  expect(final?.status, context).toBe("delivered");
  expect(posts, `${context}: at least once`).toBeGreaterThanOrEqual(1);
  const succeeded = await count("webhook_attempts", "delivery_id = ? AND outcome = 'acknowledged'", id);
  expect(succeeded, `${context}: recorded once as delivered`).toBe(1);
  expect(await count("webhook_attempts", "tenant_id = ? AND delivery_id <> ?", tenantId, id)).toBe(0);
}
