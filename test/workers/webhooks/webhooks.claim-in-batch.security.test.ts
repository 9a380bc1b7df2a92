import { describe, expect, it } from "vitest";
import type { Bindings } from "../../../src/env";
import { IDEMPOTENCY_LEASE_MS, IDEMPOTENCY_TTL_MS, requestFingerprint } from "../../../src/platform/idempotency";
import { newId } from "../../../src/platform/ids";
import { count, request, send } from "../campaign/faults-http.helpers";
import { createTenant, testEnv } from "../support/helpers";
import { activeEndpoints, finishedDelivery, insertCustomerEvent } from "../support/webhooks.helpers";

/*
 * #19: an event replay claims its Idempotency-Key in its own write batch (platform/idempotency claimKeyInBatch), one
 * D1 round trip fewer per request. Every idempotency rule must hold as when the key was claimed before running:
 * the change is made only by the request that holds the key (another request's claim, in flight or completed,
 * fails the whole batch: nothing written), a lapsed claim of the same request and an expired key are taken over,
 * a completed key is answered with its stored answer, and another request under the same key is refused.
 */

const OPERATION = "POST /v1/webhook-events/{event_id}/replay";

async function scene(endpoints = 2) {
  const tenant = await createTenant();
  await activeEndpoints(tenant.tenantId, endpoints);
  const eventId = newId("webhookEvent");
  await insertCustomerEvent(tenant.tenantId, "asset.signed", eventId);
  return { ...tenant, eventId, idem: crypto.randomUUID() };
}

const replay = (s: { key: string; eventId: string }, idem: string) =>
  request(`/v1/webhook-events/${s.eventId}/replay`, { method: "POST", key: s.key, headers: { "idempotency-key": idem } });

/** The fingerprint a replay of `eventId` is stored with (method, path, query and an empty body). */
const fingerprintOf = (eventId: string) =>
  requestFingerprint("POST", new URL(`http://x/v1/webhook-events/${eventId}/replay`), new Uint8Array(), testEnv.SVC_KEY_PEPPER!);

async function putKey(
  s: { tenantId: string },
  idem: string,
  row: { requestSha256: string; state: "in_flight" | "completed"; lockedUntil: number; expiresAt: number; body?: string },
) {
  await testEnv.DB.prepare(
    `INSERT INTO idempotency_records (tenant_id, operation, idempotency_key, request_sha256, state, locked_until, response_status, response_content_type, response_body, secret_withheld, created_at, expires_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?)`,
  )
    .bind(
      s.tenantId,
      OPERATION,
      idem,
      row.requestSha256,
      row.state,
      row.lockedUntil,
      row.state === "completed" ? 200 : null,
      row.state === "completed" ? "application/json" : null,
      row.body ?? null,
      Date.now() - 1_000,
      row.expiresAt,
    )
    .run();
}

const keyRow = (s: { tenantId: string }, idem: string) =>
  testEnv.DB.prepare("SELECT state, locked_until, response_body FROM idempotency_records WHERE tenant_id = ? AND idempotency_key = ?")
    .bind(s.tenantId, idem)
    .first<{ state: string; locked_until: number; response_body: string | null }>();

/** Every D1 call the request makes, in order: a batch's statements, or one statement's text. */
function recorded(base: Bindings): { env: Bindings; calls: string[][] } {
  const calls: string[][] = [];
  const real = base.DB;
  const textOf = (s: unknown) => String((s as { statement?: string }).statement ?? "");
  const db = new Proxy(real, {
    get(target, prop) {
      const value = Reflect.get(target, prop);
      if (prop === "batch")
        return (statements: D1PreparedStatement[]) => {
          calls.push(statements.map(textOf));
          return Reflect.apply(value, target, [statements]);
        };
      if (prop === "prepare")
        return (query: string) => {
          const statement = real.prepare(query);
          return new Proxy(statement, {
            get(t, p) {
              const v = Reflect.get(t, p);
              if (p === "bind") return (...args: unknown[]) => wrap(Reflect.apply(v, t, args) as D1PreparedStatement, query);
              return typeof v === "function" ? v.bind(t) : v;
            },
          });
        };
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  function wrap(statement: D1PreparedStatement, query: string): D1PreparedStatement {
    return new Proxy(statement, {
      get(t, p) {
        const v = Reflect.get(t, p);
        if (p === "first" || p === "all" || p === "run" || p === "raw")
          return (...args: unknown[]) => {
            calls.push([query]);
            return Reflect.apply(v, t, args);
          };
        return typeof v === "function" ? v.bind(t) : v;
      },
    });
  }
  return { env: { ...base, DB: db } as Bindings, calls };
}

describe("#19 an event replay's Idempotency-Key claimed in the replay's own batch", () => {
  it("claims, replays and completes the key in one D1 batch (no round trip for the claim before it)", async () => {
    const s = await scene(3);
    const { env, calls } = recorded(testEnv);
    const res = await send(env, replay(s, s.idem));
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ event_id: s.eventId, delivery_count: 3 });
    const touching = calls.filter((c) => c.some((q) => q.includes("idempotency_records")));
    expect(touching, "one D1 call touches the key: the replay's batch").toHaveLength(1);
    expect(touching[0]!.some((q) => q.includes("INSERT INTO webhook_deliveries"))).toBe(true);
    expect(touching[0]!.findIndex((q) => q.includes("INSERT INTO idempotency_records"))).toBeLessThan(
      touching[0]!.findIndex((q) => q.includes("INSERT INTO webhook_deliveries")),
    );
    expect(await keyRow(s, s.idem)).toMatchObject({ state: "completed", response_body: JSON.stringify(res.body) });
    // The same key again: the stored answer, nothing replayed twice.
    const again = await send(testEnv, replay(s, s.idem));
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(res.body);
    expect(await count("webhook_deliveries", "event_id = ? AND replay_count = 0", s.eventId)).toBe(3);
  });

  it("a delivery replay claims, restarts and completes its key in one D1 batch too; a retry with the key is answered, not restarted", async () => {
    const { deliveryId, eventId, idem, ...tenant } = await finishedDelivery();
    const replayOne = () =>
      request(`/v1/webhook-endpoints/deliveries/${deliveryId}/replay`, {
        method: "POST",
        key: tenant.key,
        headers: { "idempotency-key": idem },
      });
    const { env, calls } = recorded(testEnv);
    const res = await send(env, replayOne());
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ event_id: eventId });
    const touching = calls.filter((c) => c.some((q) => q.includes("idempotency_records")));
    expect(touching, "one D1 call touches the key: the restart's batch").toHaveLength(1);
    expect(touching[0]!.some((q) => q.includes("UPDATE webhook_deliveries SET status = 'pending'"))).toBe(true);
    const again = await send(testEnv, replayOne());
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await count("webhook_deliveries", "id = ? AND replay_count = 1", deliveryId)).toBe(1);
  });

  it("another request holding the key in flight: the batch writes nothing, 409 request_in_progress, the holder's claim untouched", async () => {
    const s = await scene();
    const lockedUntil = Date.now() + IDEMPOTENCY_LEASE_MS;
    await putKey(s, s.idem, {
      requestSha256: await fingerprintOf(s.eventId),
      state: "in_flight",
      lockedUntil,
      expiresAt: Date.now() + IDEMPOTENCY_TTL_MS,
    });
    const res = await send(testEnv, replay(s, s.idem));
    expect(res.status, res.text).toBe(409);
    expect(res.body.code).toBe("svc.idempotency.request_in_progress");
    expect(res.headers.get("retry-after")).toBeTruthy();
    expect(await count("webhook_deliveries", "event_id = ?", s.eventId)).toBe(0);
    expect(await count("audit_outbox", "tenant_id = ?", s.tenantId)).toBe(0);
    expect(await keyRow(s, s.idem)).toMatchObject({ state: "in_flight", locked_until: lockedUntil });
  });

  it("a key another request completed: its stored answer, replayed (this request changes nothing)", async () => {
    const s = await scene();
    const stored = JSON.stringify({ event_id: s.eventId, delivery_count: 7 });
    await putKey(s, s.idem, {
      requestSha256: await fingerprintOf(s.eventId),
      state: "completed",
      lockedUntil: Date.now() - 1,
      expiresAt: Date.now() + IDEMPOTENCY_TTL_MS,
      body: stored,
    });
    const res = await send(testEnv, replay(s, s.idem));
    expect(res.status).toBe(200);
    expect(res.text).toBe(stored);
    expect(res.headers.get("idempotent-replayed")).toBe("true");
    expect(res.headers.get("retry-after")).toBeNull();
    expect(await count("webhook_deliveries", "event_id = ?", s.eventId)).toBe(0);
  });

  it("the same key for another request (another event): 409 key_reused, nothing written", async () => {
    const s = await scene();
    const other = newId("webhookEvent");
    await insertCustomerEvent(s.tenantId, "asset.signed", other);
    const first = await send(testEnv, replay({ key: s.key, eventId: other }, s.idem));
    expect(first.status, first.text).toBe(200);
    const res = await send(testEnv, replay(s, s.idem));
    expect(res.status, res.text).toBe(409);
    expect(res.body.code).toBe("svc.idempotency.key_reused");
    expect(await count("webhook_deliveries", "event_id = ?", s.eventId)).toBe(0);
  });

  it("a lapsed claim of the same request is taken over and the replay runs once; an expired key of another request is taken afresh", async () => {
    const s = await scene(2);
    await putKey(s, s.idem, {
      requestSha256: await fingerprintOf(s.eventId),
      state: "in_flight",
      lockedUntil: Date.now() - 1,
      expiresAt: Date.now() + IDEMPOTENCY_TTL_MS,
    });
    const res = await send(testEnv, replay(s, s.idem));
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ event_id: s.eventId, delivery_count: 2 });
    expect(await keyRow(s, s.idem)).toMatchObject({ state: "completed" });

    const expired = crypto.randomUUID();
    await putKey(s, expired, {
      requestSha256: "0".repeat(64),
      state: "completed",
      lockedUntil: Date.now() - IDEMPOTENCY_TTL_MS,
      expiresAt: Date.now() - 1,
      body: "{}",
    });
    // The deliveries are pending now: the replay queues none, and says so.
    const fresh = await send(testEnv, replay(s, expired));
    expect(fresh.status, fresh.text).toBe(200);
    expect(fresh.body).toEqual({ event_id: s.eventId, delivery_count: 0 });
    expect(await keyRow(s, expired)).toMatchObject({ state: "completed", response_body: JSON.stringify(fresh.body) });
  });

  it("an unknown event: 404 stored for the key (claimed in the batch, completed after it)", async () => {
    const s = await scene();
    const missing = newId("webhookEvent");
    const res = await send(testEnv, replay({ key: s.key, eventId: missing }, s.idem));
    expect(res.status).toBe(404);
    expect(await keyRow(s, s.idem)).toMatchObject({ state: "completed" });
    const again = await send(testEnv, replay({ key: s.key, eventId: missing }, s.idem));
    expect(again.status).toBe(404);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
  });

  it("many requests with one key at once (claims in the same millisecond): the event is replayed once", async () => {
    const s = await scene(3);
    // Finished first, so that every replay would restart them: only the holder's may.
    await send(testEnv, replay(s, crypto.randomUUID()));
    await testEnv.DB.prepare("UPDATE webhook_deliveries SET status = 'delivered' WHERE event_id = ?").bind(s.eventId).run();
    const answers = await Promise.all(Array.from({ length: 6 }, () => send(testEnv, replay(s, s.idem))));
    for (const a of answers) expect([200, 409], a.text).toContain(a.status);
    const fresh = answers.filter((a) => a.status === 200 && a.headers.get("idempotent-replayed") !== "true");
    expect(fresh, "exactly one request replayed").toHaveLength(1);
    expect(fresh[0]!.body).toEqual({ event_id: s.eventId, delivery_count: 3 });
    for (const a of answers.filter((x) => x.status === 200)) expect(a.body).toEqual(fresh[0]!.body);
    expect(await count("webhook_deliveries", "event_id = ? AND replay_count = 2", s.eventId)).toBe(0);
    expect(await count("webhook_deliveries", "event_id = ? AND replay_count = 1", s.eventId)).toBe(3);
  });
});
