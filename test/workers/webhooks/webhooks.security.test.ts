import { describe, expect, it } from "vitest";
import { FORBIDDEN_SCOPE_DETAIL, UNAUTHORIZED_DETAIL } from "../../../src/platform/errors";
import { addKey, api, createTenant, json, testEnv } from "../support/helpers";
import {
  createBody,
  createEndpoint,
  createRaw,
  eventId,
  expectError,
  getDelivery,
  getEndpoint,
  insertCustomerEvent,
  keysDeep,
  listDeliveries,
  sendTest,
  UNKNOWN_ENDPOINT,
  waitForAttempts,
  write,
} from "../support/webhooks.helpers";

type Route = { method: string; path: string; body?: unknown; write: boolean };

/** Every webhook operation, addressed at the given ids. */
function routes(ids: { endpoint: string; delivery: string; event: string }): Route[] {
  return [
    { method: "GET", path: "/v1/webhook-endpoints", write: false },
    { method: "GET", path: "/v1/webhook-endpoints/event-catalog", write: false },
    { method: "GET", path: `/v1/webhook-endpoints/${ids.endpoint}`, write: false },
    { method: "GET", path: `/v1/webhook-endpoints/${ids.endpoint}/deliveries`, write: false },
    { method: "GET", path: `/v1/webhook-endpoints/deliveries/${ids.delivery}`, write: false },
    { method: "GET", path: `/v1/webhook-endpoints/deliveries/${ids.delivery}/attempts`, write: false },
    { method: "POST", path: "/v1/webhook-endpoints", body: createBody(), write: true },
    { method: "PATCH", path: `/v1/webhook-endpoints/${ids.endpoint}`, body: { max_concurrency: 9 }, write: true },
    { method: "POST", path: `/v1/webhook-endpoints/${ids.endpoint}/disable`, write: true },
    { method: "POST", path: `/v1/webhook-endpoints/${ids.endpoint}/enable`, write: true },
    { method: "POST", path: `/v1/webhook-endpoints/${ids.endpoint}/rotate-secret`, write: true },
    { method: "POST", path: `/v1/webhook-endpoints/${ids.endpoint}/secret-overlap/complete`, write: true },
    { method: "POST", path: `/v1/webhook-endpoints/${ids.endpoint}/test`, write: true },
    { method: "POST", path: `/v1/webhook-endpoints/deliveries/${ids.delivery}/replay`, write: true },
    { method: "POST", path: `/v1/webhook-events/${ids.event}/replay`, write: true },
    { method: "DELETE", path: `/v1/webhook-endpoints/${ids.endpoint}`, write: true },
  ];
}

const idem = () => ({ "idempotency-key": crypto.randomUUID() });

/** A tenant with an active endpoint and a disabled one whose test delivery is dead (nothing changes on its own). */
async function victim() {
  const tenant = await createTenant();
  const active = await createEndpoint(tenant.key, { events: ["asset.signed"] });
  const other = await createEndpoint(tenant.key, { events: ["asset.watermarked"] });
  const test = await sendTest(tenant.key, other.id);
  expect((await write(tenant.key, `/v1/webhook-endpoints/${other.id}/disable`)).status).toBe(200);
  const delivery = await getDelivery(tenant.key, test.delivery_id);
  expect(delivery).toMatchObject({ status: "dead", terminal_reason: "endpoint_disabled" });
  return { tenant, active, other, test };
}

describe("tenancy", () => {
  it("another tenant's endpoint, delivery and event ids answer 404 on every route, exactly like unknown ids, and change nothing", async () => {
    const a = await victim();
    const beforeActive = await getEndpoint(a.tenant.key, a.active.id);
    const beforeOther = await getEndpoint(a.tenant.key, a.other.id);
    const beforeDelivery = await getDelivery(a.tenant.key, a.test.delivery_id);
    const beforeAttempts = await json(await api(`/v1/webhook-endpoints/deliveries/${a.test.delivery_id}/attempts`, { key: a.tenant.key }));
    const b = await createTenant();

    const unknown = await json(await api(`/v1/webhook-endpoints/${UNKNOWN_ENDPOINT}`, { key: b.key }));
    for (const endpoint of [a.active.id, a.other.id]) {
      for (const route of routes({ endpoint, delivery: a.test.delivery_id, event: a.test.event_id })) {
        if (!route.path.includes(endpoint) && !route.path.includes(a.test.delivery_id) && !route.path.includes(a.test.event_id)) continue;
        const res = await write(b.key, route.path, { method: route.method, body: route.body, headers: idem() });
        const error = await expectError(res, 404, "svc.resource.not_found");
        expect(error.retryable, `${route.method} ${route.path}`).toBe(false);
        expect(error.field_details).toEqual([]);
        // The same shape as a missing resource: nothing tells "exists elsewhere" from "does not exist".
        if (route.path === `/v1/webhook-endpoints/${endpoint}` && route.method === "GET") expect(error.message).toBe(unknown.message);
      }
    }

    expect(await getEndpoint(a.tenant.key, a.active.id)).toEqual(beforeActive);
    expect(await getEndpoint(a.tenant.key, a.other.id)).toEqual(beforeOther);
    expect(await getDelivery(a.tenant.key, a.test.delivery_id)).toEqual(beforeDelivery);
    expect(await json(await api(`/v1/webhook-endpoints/deliveries/${a.test.delivery_id}/attempts`, { key: a.tenant.key }))).toEqual(
      beforeAttempts,
    );
    expect((await listDeliveries(a.tenant.key, a.active.id)).data).toEqual([]);
    expect((await json(await api("/v1/webhook-endpoints?include_deleted=true", { key: a.tenant.key }))).data.length).toBe(2);
    // B sees none of A's endpoints.
    const bList = await json(await api("/v1/webhook-endpoints?include_deleted=true", { key: b.key }));
    expect(bList.data).toEqual([]);
  });

  it("another tenant's test requests (404) do not spend the endpoint's hourly test allowance", async () => {
    const a = await createTenant();
    const b = await createTenant();
    const { id } = await createEndpoint(a.key);
    for (let i = 0; i < 10; i++) await expectError(await write(b.key, `/v1/webhook-endpoints/${id}/test`), 404, "svc.resource.not_found");
    expect((await listDeliveries(a.key, id)).data).toEqual([]);
    const res = await write(a.key, `/v1/webhook-endpoints/${id}/test`);
    expect(res.status).toBe(202);
  });

  it("a cursor from one tenant is refused on another tenant's list", async () => {
    const a = await createTenant();
    const b = await createTenant();
    await createEndpoint(a.key);
    await createEndpoint(a.key);
    await createEndpoint(b.key);
    await createEndpoint(b.key);
    const page = await json(await api("/v1/webhook-endpoints?limit=1", { key: a.key }));
    expect(typeof page.next_cursor).toBe("string");
    await expectError(
      await api(`/v1/webhook-endpoints?limit=1&cursor=${encodeURIComponent(page.next_cursor)}`, { key: b.key }),
      422,
      "svc.cursor.invalid",
    );
  });

  it("Idempotency-Keys are per tenant: another tenant's key value neither replays nor conflicts", async () => {
    const a = await createTenant();
    const b = await createTenant();
    const shared = crypto.randomUUID();
    const first = await createRaw(a.key, createBody(), { "idempotency-key": shared });
    expect(first.status).toBe(201);
    const second = await createRaw(b.key, createBody(), { "idempotency-key": shared });
    expect(second.status).toBe(201);
    const [x, y] = [await json(first), await json(second)];
    expect(x.endpoint.endpoint_id).not.toBe(y.endpoint.endpoint_id);
    expect(x.secret).not.toBe(y.secret);
  });

  it("an event reaches only its own tenant's endpoints; another tenant cannot replay it", async () => {
    const a = await createTenant();
    const b = await createTenant();
    const aEndpoint = await createEndpoint(a.key, { events: ["asset.signed"] });
    const bEndpoint = await createEndpoint(b.key, { events: ["asset.signed"] });
    const evt = eventId();
    await insertCustomerEvent(a.tenantId, "asset.signed", evt);
    await expectError(await write(b.key, `/v1/webhook-events/${evt}/replay`), 404, "svc.resource.not_found");
    expect(await json(await write(a.key, `/v1/webhook-events/${evt}/replay`))).toEqual({ event_id: evt, delivery_count: 1 });
    expect((await listDeliveries(a.key, aEndpoint.id)).data.map((d: any) => d.event_id)).toEqual([evt]);
    expect((await listDeliveries(b.key, bEndpoint.id)).data).toEqual([]);
  });
});

describe("scopes and authentication", () => {
  it("a key with only webhooks:read reads (200) but every write is 403 with only a detail, and nothing changes", async () => {
    const owner = await createTenant();
    const { id } = await createEndpoint(owner.key);
    const test = await sendTest(owner.key, id);
    const before = await getEndpoint(owner.key, id);
    const reader = await addKey(owner.tenantId, { scopes: ["webhooks:read"] });
    for (const route of routes({ endpoint: id, delivery: test.delivery_id, event: test.event_id })) {
      const res = await write(reader.key, route.path, { method: route.method, body: route.body, headers: idem() });
      if (route.write) {
        expect(res.status, `${route.method} ${route.path}`).toBe(403);
        expect(await json(res)).toEqual({ detail: FORBIDDEN_SCOPE_DETAIL });
      } else {
        expect(res.status, `${route.method} ${route.path}`).toBe(200);
      }
    }
    expect(await getEndpoint(owner.key, id)).toEqual(before);
    expect((await json(await api("/v1/webhook-endpoints?include_deleted=true", { key: owner.key }))).data.length).toBe(1);
    expect((await getDelivery(owner.key, test.delivery_id)).replay_count).toBe(0);
  });

  it("a key without webhooks scopes gets 403 on every route", async () => {
    const owner = await createTenant();
    const { id } = await createEndpoint(owner.key);
    const test = await sendTest(owner.key, id);
    const stranger = await addKey(owner.tenantId, { scopes: ["jobs:read", "api_keys:read", "assets:read"] });
    for (const route of routes({ endpoint: id, delivery: test.delivery_id, event: test.event_id })) {
      const res = await write(stranger.key, route.path, { method: route.method, body: route.body, headers: idem() });
      expect(res.status, `${route.method} ${route.path}`).toBe(403);
      expect(await json(res)).toEqual({ detail: FORBIDDEN_SCOPE_DETAIL });
    }
    expect((await getEndpoint(owner.key, id)).state).toBe("active");
  });

  it("no credential, or a bad one, → 401 with one identical body on every route", async () => {
    const owner = await createTenant();
    const { id } = await createEndpoint(owner.key);
    const test = await sendTest(owner.key, id);
    const before = await getEndpoint(owner.key, id);
    const credentials: (Record<string, string> | undefined)[] = [
      undefined,
      { authorization: `Bearer svc_live_${"a".repeat(52)}` },
      { authorization: "Bearer not-a-key" },
      { authorization: `Basic ${btoa("user:pw")}` },
    ];
    for (const route of routes({ endpoint: id, delivery: test.delivery_id, event: test.event_id })) {
      for (const headers of credentials) {
        const res = await write(null, route.path, { method: route.method, body: route.body, headers: { ...headers, ...idem() } });
        expect(res.status, `${route.method} ${route.path}`).toBe(401);
        expect(await json(res)).toEqual({ detail: UNAUTHORIZED_DETAIL });
      }
    }
    expect(await getEndpoint(owner.key, id)).toEqual(before);
  });
});

describe("secrets", () => {
  it("no read or non-issuing write ever shows a secret, before or after rotation and deletion", async () => {
    const { key } = await createTenant();
    const created = await createEndpoint(key);
    const id = created.id;
    const rotated = await json(await write(key, `/v1/webhook-endpoints/${id}/rotate-secret`));
    const secrets = [created.secret, rotated.secret];
    const test = await sendTest(key, id);
    await waitForAttempts(key, test.delivery_id);

    const check = async (label: string, res: Response) => {
      const text = await res.text();
      expect(res.status, `${label}: ${text}`).toBeLessThan(300);
      for (const s of secrets) {
        expect(text, label).not.toContain(s);
        expect(text, label).not.toContain(s.slice("whsec_".length, "whsec_".length + 16));
      }
      expect(text, label).not.toContain("whsec_");
      expect(text, label).not.toMatch(/ciphertext/i);
      const secretKeys = keysDeep(JSON.parse(text)).filter((k) => /secret/i.test(k));
      expect(
        secretKeys.every((k) => k === "secret_overlap"),
        `${label}: ${secretKeys.join(",")}`,
      ).toBe(true);
    };
    const reads = async (phase: string) => {
      await check(`${phase} list`, await api("/v1/webhook-endpoints", { key }));
      await check(`${phase} list include_deleted`, await api("/v1/webhook-endpoints?include_deleted=true", { key }));
      await check(`${phase} get`, await api(`/v1/webhook-endpoints/${id}`, { key }));
      await check(`${phase} catalog`, await api("/v1/webhook-endpoints/event-catalog", { key }));
      await check(`${phase} deliveries`, await api(`/v1/webhook-endpoints/${id}/deliveries`, { key }));
      await check(`${phase} delivery`, await api(`/v1/webhook-endpoints/deliveries/${test.delivery_id}`, { key }));
      await check(`${phase} attempts`, await api(`/v1/webhook-endpoints/deliveries/${test.delivery_id}/attempts`, { key }));
    };
    await reads("overlap");
    await check("patch", await write(key, `/v1/webhook-endpoints/${id}`, { method: "PATCH", body: { max_concurrency: 3 } }));
    await check("complete", await write(key, `/v1/webhook-endpoints/${id}/secret-overlap/complete`));
    await check("disable", await write(key, `/v1/webhook-endpoints/${id}/disable`));
    await check("enable", await write(key, `/v1/webhook-endpoints/${id}/enable`));
    await reads("single");
    await check("delete", await write(key, `/v1/webhook-endpoints/${id}`, { method: "DELETE" }));
    await reads("deleted");
    const deleted = await getEndpoint(key, id);
    expect(deleted).toMatchObject({ state: "deleted", secret_overlap: null });

    // Secrets are sealed at rest, never stored in plain text, and erased on delete.
    const row = await testEnv.DB.prepare("SELECT * FROM webhook_endpoints WHERE id = ?").bind(id).first<Record<string, unknown>>();
    expect(row).not.toBeNull();
    expect(row!.secret_ciphertext).toBe("");
    expect(row!.previous_secret_ciphertext).toBeNull();
  });

  it("secrets are sealed at rest and the issuing responses are not kept for idempotent replay", async () => {
    const { key, tenantId } = await createTenant();
    const idemCreate = crypto.randomUUID();
    const res = await createRaw(key, createBody(), { "idempotency-key": idemCreate });
    expect(res.status).toBe(201);
    const created = await json(res);
    const row = await testEnv.DB.prepare("SELECT * FROM webhook_endpoints WHERE id = ?")
      .bind(created.endpoint.endpoint_id)
      .first<Record<string, unknown>>();
    const dump = JSON.stringify(row);
    expect(dump).not.toContain(created.secret);
    expect(dump).not.toContain(created.secret.slice("whsec_".length));
    expect(String(row!.secret_ciphertext)).toMatch(/^v1\./);

    const idemRotate = crypto.randomUUID();
    const rotated = await json(
      await write(key, `/v1/webhook-endpoints/${created.endpoint.endpoint_id}/rotate-secret`, {
        headers: { "idempotency-key": idemRotate },
      }),
    );
    const records = await testEnv.DB.prepare(
      "SELECT idempotency_key, response_body, secret_withheld FROM idempotency_records WHERE tenant_id = ?",
    )
      .bind(tenantId)
      .all<Record<string, unknown>>();
    const stored = JSON.stringify(records.results);
    expect(records.results.length).toBe(2);
    for (const r of records.results) {
      expect(r.response_body).toBeNull();
      expect(r.secret_withheld).toBe(1);
    }
    expect(stored).not.toContain(created.secret);
    expect(stored).not.toContain(rotated.secret);
    const rowAfter = JSON.stringify(
      await testEnv.DB.prepare("SELECT * FROM webhook_endpoints WHERE id = ?").bind(created.endpoint.endpoint_id).first(),
    );
    expect(rowAfter).not.toContain(rotated.secret);
    expect(rowAfter).not.toContain(created.secret);
  });
});
