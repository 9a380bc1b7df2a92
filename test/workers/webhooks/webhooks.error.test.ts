import { beforeAll, describe, expect, it } from "vitest";
import { api, createTenant, json, type TestTenant, testEnv } from "../support/helpers";
import {
  CATALOG,
  createBody,
  createEndpoint,
  createRaw,
  expectError,
  getDelivery,
  getEndpoint,
  HOOK_URL,
  listDeliveries,
  sendTest,
  UNKNOWN_DELIVERY,
  UNKNOWN_ENDPOINT,
  UNKNOWN_EVENT,
  waitForAttempts,
  write,
} from "../support/webhooks.helpers";

const LONG_URL = `https://hooks.example.com/${"a".repeat(2049 - "https://hooks.example.com/".length)}`;

describe("create: contract bounds (422 svc.request.invalid)", () => {
  let tenant: TestTenant;
  beforeAll(async () => {
    tenant = await createTenant();
  });

  const cases: [string, Record<string, unknown>, string][] = [
    ["url longer than 2048", createBody({ url: LONG_URL }), "url"],
    ["url missing", { event_catalog_version: CATALOG, events: ["asset.signed"] }, "url"],
    ["url empty", createBody({ url: "" }), "url"],
    ["url not a string", createBody({ url: 42 }), "url"],
    ["max_concurrency 0", createBody({ max_concurrency: 0 }), "max_concurrency"],
    ["max_concurrency 21", createBody({ max_concurrency: 21 }), "max_concurrency"],
    ["max_concurrency 1.5", createBody({ max_concurrency: 1.5 }), "max_concurrency"],
    ["max_concurrency as string", createBody({ max_concurrency: "2" }), "max_concurrency"],
    ["rate_limit_per_minute 0", createBody({ rate_limit_per_minute: 0 }), "rate_limit_per_minute"],
    ["rate_limit_per_minute 601", createBody({ rate_limit_per_minute: 601 }), "rate_limit_per_minute"],
    ["auto_disable_after_failures 0", createBody({ auto_disable_after_failures: 0 }), "auto_disable_after_failures"],
    ["auto_disable_after_failures 101", createBody({ auto_disable_after_failures: 101 }), "auto_disable_after_failures"],
    ["event_catalog_version missing", { url: HOOK_URL, events: ["asset.signed"] }, "event_catalog_version"],
    ["event_catalog_version wrong", createBody({ event_catalog_version: "svc.customer-events.v2" }), "event_catalog_version"],
    ["events missing", { url: HOOK_URL, event_catalog_version: CATALOG }, "events"],
    ["events empty", createBody({ events: [] }), "events"],
    ["events not an array", createBody({ events: "asset.signed" }), "events"],
    [
      "more events than the catalog has",
      createBody({ events: ["asset.signed", "asset.watermarked", "job.failed", "asset.signed"] }),
      "events",
    ],
  ];

  it.each(cases)("%s → 422 naming the field", async (_label, body, field) => {
    const error = await expectError(await createRaw(tenant.key, body), 422, "svc.request.invalid");
    expect(error.retryable).toBe(false);
    expect(error.detail).toBe("Request validation failed.");
    expect(error.field_details.length).toBeGreaterThan(0);
    expect(error.field_details[0].location).toBe("body");
    expect(error.field_details.map((d: { field: string }) => d.field)).toContain(field);
  });

  it("an unknown extra field → 422 unrecognized_keys naming it", async () => {
    const error = await expectError(await createRaw(tenant.key, createBody({ secret: "whsec_mine" })), 422, "svc.request.invalid");
    expect(error.field_details[0]).toMatchObject({ location: "body", code: "unrecognized_keys" });
    expect(error.field_details[0].message).toContain("secret");
  });

  it("malformed JSON → 422", async () => {
    const res = await api("/v1/webhook-endpoints", {
      method: "POST",
      key: tenant.key,
      rawBody: '{"url":',
      headers: { "content-type": "application/json" },
    });
    await expectError(res, 422, "svc.request.invalid");
  });

  const subscriptions: [string, unknown[], string | null][] = [
    ["unknown event", ["asset.deleted"], "asset.deleted"],
    ["wildcard asset.*", ["asset.*"], "Wildcards"],
    ["wildcard *", ["*"], "Wildcards"],
    ["webhook.test", ["webhook.test"], "webhook.test"],
    ["webhook.test beside a real event", ["asset.signed", "webhook.test"], "webhook.test"],
    ["duplicate events", ["asset.signed", "asset.signed"], null],
    ["case variant", ["Asset.Signed"], "Asset.Signed"],
  ];

  it.each(subscriptions)("subscription: %s → 422 svc.webhooks.subscription_invalid", async (_label, events, mention) => {
    const error = await expectError(await createRaw(tenant.key, createBody({ events })), 422, "svc.webhooks.subscription_invalid");
    expect(error.retryable).toBe(false);
    expect(error.field_details).toEqual([{ location: "body", field: "events", code: "subscription_invalid", message: error.message }]);
    if (mention) expect(error.message).toContain(mention);
  });

  it("none of the refused creates made an endpoint", async () => {
    expect((await json(await api("/v1/webhook-endpoints?include_deleted=true", { key: tenant.key }))).data).toEqual([]);
  });
});

describe("destination policy (422 svc.webhooks.destination_refused)", () => {
  let tenant: TestTenant;
  beforeAll(async () => {
    tenant = await createTenant();
  });

  const refused = [
    "http://hooks.example.com/x",
    "ftp://hooks.example.com/x",
    "https://user:pw@hooks.example.com/x",
    "https://user@hooks.example.com/x",
    "https://127.0.0.1/",
    "https://127.1.2.3:8443/x",
    "https://2130706433/",
    "https://0x7f.0.0.1/",
    "https://0.0.0.0/",
    "https://10.0.0.1/",
    "https://172.16.0.1/",
    "https://192.168.1.1/",
    "https://100.64.0.1/",
    "https://169.254.169.254/latest/meta-data",
    "https://[::1]/",
    "https://[::ffff:127.0.0.1]/",
    "https://[::ffff:169.254.169.254]/",
    "https://[fd00::1]/",
    "https://[fe80::1]/",
    "https://localhost/",
    "https://LOCALHOST:8443/",
    "https://api.localhost/",
    "https://metadata.google.internal/computeMetadata/v1/",
    "https://intranet/",
    "https://private.example.com/",
    "https://PRIVATE.Example.COM/",
    "https://loopback.example.com/",
    "https://metadata.example.com/",
    "https://v6loop.example.com/",
    "https://mixed.example.com/",
    "not a url",
  ];

  it.each(refused)("create %s → 422", async (url) => {
    const error = await expectError(await createRaw(tenant.key, createBody({ url })), 422, "svc.webhooks.destination_refused");
    expect(error.retryable).toBe(false);
    expect(error.field_details).toHaveLength(1);
    expect(error.field_details[0]).toMatchObject({ location: "body", field: "url", code: "destination_refused" });
    expect(error.field_details[0].message.length).toBeGreaterThan(0);
  });

  it("none of the refused destinations was registered", async () => {
    expect((await json(await api("/v1/webhook-endpoints?include_deleted=true", { key: tenant.key }))).data).toEqual([]);
  });

  it("PATCH to a refused destination → 422 and the endpoint is unchanged", async () => {
    const { id, endpoint } = await createEndpoint(tenant.key);
    for (const url of [
      "http://hooks.example.com/x",
      "https://user:pw@hooks.example.com/",
      "https://127.0.0.1/",
      "https://10.0.0.1/",
      "https://169.254.169.254/latest/meta-data",
      "https://[::1]/",
      "https://localhost/",
      "https://private.example.com/",
      "https://loopback.example.com/",
      "https://metadata.example.com/",
      "https://v6loop.example.com/",
      "https://mixed.example.com/",
    ]) {
      const res = await write(tenant.key, `/v1/webhook-endpoints/${id}`, { method: "PATCH", body: { url, max_concurrency: 7 } });
      const error = await expectError(res, 422, "svc.webhooks.destination_refused");
      expect(error.field_details[0]).toMatchObject({ location: "body", field: "url", code: "destination_refused" });
    }
    expect(await getEndpoint(tenant.key, id)).toEqual(endpoint);
  });

  it("enable checks the destination again: a name re-pointed to a private address is refused and the endpoint stays disabled", async () => {
    const { id } = await createEndpoint(tenant.key);
    expect((await write(tenant.key, `/v1/webhook-endpoints/${id}/disable`)).status).toBe(200);
    // Stands in for DNS re-pointing after registration (the dev host map is static): the stored URL now names a private host.
    await testEnv.DB.prepare("UPDATE webhook_endpoints SET url = ? WHERE id = ?").bind("https://private.example.com/svc", id).run();
    const error = await expectError(await write(tenant.key, `/v1/webhook-endpoints/${id}/enable`), 422, "svc.webhooks.destination_refused");
    expect(error.field_details[0]).toMatchObject({ location: "body", field: "url" });
    expect(await getEndpoint(tenant.key, id)).toMatchObject({ state: "disabled", disabled_reason: "manual" });
  });
});

describe("PATCH: bad input", () => {
  it.each([
    ["empty body", {}, "(root)", "svc.request.invalid"],
    ["unknown field", { foo: 1 }, "(root)", "svc.request.invalid"],
    ["event_catalog_version is not updatable", { event_catalog_version: CATALOG }, "(root)", "svc.request.invalid"],
    ["state is not updatable", { state: "disabled" }, "(root)", "svc.request.invalid"],
    ["events empty", { events: [] }, "events", "svc.request.invalid"],
    ["url too long", { url: LONG_URL }, "url", "svc.request.invalid"],
    ["max_concurrency 21", { max_concurrency: 21 }, "max_concurrency", "svc.request.invalid"],
    ["rate_limit_per_minute 0", { rate_limit_per_minute: 0 }, "rate_limit_per_minute", "svc.request.invalid"],
    ["auto_disable_after_failures 101", { auto_disable_after_failures: 101 }, "auto_disable_after_failures", "svc.request.invalid"],
    ["wildcard event", { events: ["asset.*"] }, "events", "svc.webhooks.subscription_invalid"],
    ["webhook.test", { events: ["webhook.test"] }, "events", "svc.webhooks.subscription_invalid"],
    ["duplicate events", { events: ["asset.watermarked", "asset.watermarked"] }, "events", "svc.webhooks.subscription_invalid"],
  ])("%s → 422 and nothing changes", async (_label, body, field, code) => {
    const { key } = await createTenant();
    const { id, endpoint } = await createEndpoint(key);
    const error = await expectError(await write(key, `/v1/webhook-endpoints/${id}`, { method: "PATCH", body }), 422, code);
    expect(error.field_details.map((d: { field: string }) => d.field)).toContain(field);
    expect(await getEndpoint(key, id)).toEqual(endpoint);
  });
});

describe("one-time secrets and Idempotency-Key", () => {
  it("create replayed with the same key after completion → 409 secret_not_replayable; nothing new is created", async () => {
    const { key } = await createTenant();
    const idem = crypto.randomUUID();
    const first = await createRaw(key, createBody(), { "idempotency-key": idem });
    expect(first.status).toBe(201);
    const created = await json(first);
    const again = await createRaw(key, createBody(), { "idempotency-key": idem });
    const error = await expectError(again, 409, "secret_not_replayable");
    expect(error.retryable).toBe(false);
    expect(JSON.stringify(error)).not.toContain(created.secret);
    // A different body under the same key is a key conflict.
    await expectError(
      await createRaw(key, createBody({ url: `${HOOK_URL}/other` }), { "idempotency-key": idem }),
      409,
      "svc.idempotency.key_reused",
    );
    const list = await json(await api("/v1/webhook-endpoints", { key }));
    expect(list.data.map((e: any) => e.endpoint_id)).toEqual([created.endpoint.endpoint_id]);
    // A fresh key creates a new endpoint.
    expect((await createRaw(key, createBody(), { "idempotency-key": crypto.randomUUID() })).status).toBe(201);
  });

  it("rotate-secret replayed with the same key → 409 secret_not_replayable; the rotation is not repeated", async () => {
    const { key } = await createTenant();
    const { id } = await createEndpoint(key);
    const idem = crypto.randomUUID();
    const first = await write(key, `/v1/webhook-endpoints/${id}/rotate-secret`, { headers: { "idempotency-key": idem } });
    expect(first.status).toBe(200);
    const rotated = await json(first);
    const error = await expectError(
      await write(key, `/v1/webhook-endpoints/${id}/rotate-secret`, { headers: { "idempotency-key": idem } }),
      409,
      "secret_not_replayable",
    );
    expect(JSON.stringify(error)).not.toContain(rotated.secret);
    expect(await getEndpoint(key, id)).toEqual(rotated.endpoint);
  });

  it("an invalid Idempotency-Key → 422 svc.idempotency.key_invalid", async () => {
    const { key } = await createTenant();
    for (const bad of ["has space", "x".repeat(201), "é"]) {
      const res = await createRaw(key, createBody(), { "idempotency-key": bad });
      await expectError(res, 422, "svc.idempotency.key_invalid");
    }
    expect((await json(await api("/v1/webhook-endpoints", { key }))).data).toEqual([]);
  });
});

describe("state conflicts (409)", () => {
  it("every mutation of a deleted endpoint → 409 svc.webhooks.endpoint_deleted, and it stays as it was", async () => {
    const { key } = await createTenant();
    const { id } = await createEndpoint(key);
    const test = await sendTest(key, id);
    const deleted = await json(await write(key, `/v1/webhook-endpoints/${id}`, { method: "DELETE" }));
    const mutations: [string, string, unknown?][] = [
      ["PATCH", `/v1/webhook-endpoints/${id}`, { max_concurrency: 3 }],
      ["PATCH", `/v1/webhook-endpoints/${id}`, { url: "https://hooks2.example.com/new" }],
      ["DELETE", `/v1/webhook-endpoints/${id}`],
      ["POST", `/v1/webhook-endpoints/${id}/disable`],
      ["POST", `/v1/webhook-endpoints/${id}/enable`],
      ["POST", `/v1/webhook-endpoints/${id}/rotate-secret`],
      ["POST", `/v1/webhook-endpoints/${id}/secret-overlap/complete`],
      ["POST", `/v1/webhook-endpoints/${id}/test`],
    ];
    for (const [method, path, body] of mutations) {
      const error = await expectError(await write(key, path, { method, body }), 409, "svc.webhooks.endpoint_deleted");
      expect(error.retryable).toBe(false);
    }
    // Its (fenced) delivery cannot be replayed either.
    await expectError(
      await write(key, `/v1/webhook-endpoints/deliveries/${test.delivery_id}/replay`, {
        headers: { "idempotency-key": crypto.randomUUID() },
      }),
      409,
      "svc.webhooks.endpoint_deleted",
    );
    // Replaying the event reaches no endpoint.
    expect(await json(await write(key, `/v1/webhook-events/${test.event_id}/replay`))).toEqual({
      event_id: test.event_id,
      delivery_count: 0,
    });
    expect(await getEndpoint(key, id)).toEqual(deleted);
    expect((await listDeliveries(key, id)).data.map((d: any) => d.delivery_id)).toEqual([test.delivery_id]);
    expect(await getDelivery(key, test.delivery_id)).toMatchObject({
      status: "dead",
      terminal_reason: "endpoint_deleted",
      replay_count: 0,
    });
  });

  it("secret-overlap/complete without an open overlap → 409 svc.webhooks.no_secret_overlap", async () => {
    const { key } = await createTenant();
    const { id, endpoint } = await createEndpoint(key);
    await expectError(await write(key, `/v1/webhook-endpoints/${id}/secret-overlap/complete`), 409, "svc.webhooks.no_secret_overlap");
    expect(await getEndpoint(key, id)).toEqual(endpoint);
    // And again after a completed overlap.
    expect((await write(key, `/v1/webhook-endpoints/${id}/rotate-secret`)).status).toBe(200);
    expect((await write(key, `/v1/webhook-endpoints/${id}/secret-overlap/complete`)).status).toBe(200);
    await expectError(await write(key, `/v1/webhook-endpoints/${id}/secret-overlap/complete`), 409, "svc.webhooks.no_secret_overlap");
  });

  it("rotate twice without completing → 409 svc.webhooks.rotation_in_progress; the first overlap stays", async () => {
    const { key } = await createTenant();
    const { id } = await createEndpoint(key);
    const first = await json(await write(key, `/v1/webhook-endpoints/${id}/rotate-secret`));
    const error = await expectError(
      await write(key, `/v1/webhook-endpoints/${id}/rotate-secret`),
      409,
      "svc.webhooks.rotation_in_progress",
    );
    expect(JSON.stringify(error)).not.toMatch(/whsec_/);
    expect(await getEndpoint(key, id)).toEqual(first.endpoint);
  });

  it("test on a disabled endpoint → 409 svc.webhooks.endpoint_disabled and no delivery", async () => {
    const { key } = await createTenant();
    const { id } = await createEndpoint(key);
    expect((await write(key, `/v1/webhook-endpoints/${id}/disable`)).status).toBe(200);
    await expectError(await write(key, `/v1/webhook-endpoints/${id}/test`), 409, "svc.webhooks.endpoint_disabled");
    expect((await listDeliveries(key, id)).data).toEqual([]);
  });

  it("refused test requests (409 on a disabled endpoint) do not spend the hourly test allowance", async () => {
    const { key } = await createTenant();
    const { id } = await createEndpoint(key);
    expect((await write(key, `/v1/webhook-endpoints/${id}/disable`)).status).toBe(200);
    for (let i = 0; i < 10; i++)
      await expectError(await write(key, `/v1/webhook-endpoints/${id}/test`), 409, "svc.webhooks.endpoint_disabled");
    expect((await write(key, `/v1/webhook-endpoints/${id}/enable`)).status).toBe(200);
    // Nothing was queued, so the allowance of 10 test events is untouched.
    const res = await write(key, `/v1/webhook-endpoints/${id}/test`);
    expect(res.status, await res.clone().text()).toBe(202);
  });

  it("at most 50 endpoints per tenant → 409 svc.webhooks.endpoint_limit; deleting one frees a slot", async () => {
    const { key } = await createTenant();
    let first = "";
    for (let i = 0; i < 50; i++) {
      const { id } = await createEndpoint(key, { url: `${HOOK_URL}/${i}` });
      if (i === 0) first = id;
    }
    await expectError(await createRaw(key, createBody({ url: `${HOOK_URL}/51` })), 409, "svc.webhooks.endpoint_limit");
    expect((await json(await api("/v1/webhook-endpoints?limit=100", { key }))).data.length).toBe(50);
    expect((await write(key, `/v1/webhook-endpoints/${first}`, { method: "DELETE" })).status).toBe(200);
    expect((await createRaw(key, createBody({ url: `${HOOK_URL}/51` }))).status).toBe(201);
  });
});

describe("test event rate limit", () => {
  it("the 11th test event within an hour → 429 svc.ratelimit.exceeded with Retry-After, and no 11th delivery", async () => {
    const { key } = await createTenant();
    const { id } = await createEndpoint(key);
    for (let i = 0; i < 10; i++) await sendTest(key, id);
    const res = await write(key, `/v1/webhook-endpoints/${id}/test`);
    const error = await expectError(res, 429, "svc.ratelimit.exceeded");
    expect(error.retryable).toBe(true);
    const retryAfter = res.headers.get("retry-after");
    expect(retryAfter).toMatch(/^\d+$/);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(retryAfter)).toBeLessThanOrEqual(3600);
    const deliveries = await listDeliveries(key, id, "?limit=100");
    expect(deliveries.data.length).toBe(10);
    expect(deliveries.data.every((d: any) => d.event_type === "webhook.test")).toBe(true);
    // The allowance is per endpoint: another endpoint of the tenant still accepts test events.
    const other = await createEndpoint(key);
    await sendTest(key, other.id);
  });

  it("a 429 retried with the same Idempotency-Key still carries Retry-After (the refusal is not a stored outcome)", async () => {
    const { key } = await createTenant();
    const { id } = await createEndpoint(key);
    for (let i = 0; i < 10; i++) await sendTest(key, id);
    const idem = crypto.randomUUID();
    const first = await write(key, `/v1/webhook-endpoints/${id}/test`, { headers: { "idempotency-key": idem } });
    await expectError(first, 429, "svc.ratelimit.exceeded");
    expect(first.headers.get("retry-after")).toMatch(/^\d+$/);
    const retry = await write(key, `/v1/webhook-endpoints/${id}/test`, { headers: { "idempotency-key": idem } });
    expect(retry.status).toBe(429);
    expect((await json(retry)).code).toBe("svc.ratelimit.exceeded");
    // SPEC "Errors": every 429 carries Retry-After (whole seconds), and the client is told to retry with the same key.
    expect(retry.headers.get("retry-after")).toMatch(/^\d+$/);
    expect((await listDeliveries(key, id, "?limit=100")).data.length).toBe(10);
  });
});

describe("delivery replay errors", () => {
  it("without Idempotency-Key → 422 svc.idempotency.key_required; with a malformed one → 422 svc.idempotency.key_invalid", async () => {
    const { key } = await createTenant();
    const { id } = await createEndpoint(key);
    const test = await sendTest(key, id);
    expect((await write(key, `/v1/webhook-endpoints/${id}/disable`)).status).toBe(200);
    expect((await write(key, `/v1/webhook-endpoints/${id}/enable`)).status).toBe(200);
    await expectError(await write(key, `/v1/webhook-endpoints/deliveries/${test.delivery_id}/replay`), 422, "svc.idempotency.key_required");
    await expectError(
      await write(key, `/v1/webhook-endpoints/deliveries/${test.delivery_id}/replay`, { headers: { "idempotency-key": "two words" } }),
      422,
      "svc.idempotency.key_invalid",
    );
    expect(await getDelivery(key, test.delivery_id)).toMatchObject({ status: "dead", replay_count: 0 });
  });

  it("a pending delivery → 409 svc.webhooks.delivery_in_progress (retryable); replay_count unchanged", async () => {
    const { key } = await createTenant();
    const { id } = await createEndpoint(key);
    const test = await sendTest(key, id);
    const error = await expectError(
      await write(key, `/v1/webhook-endpoints/deliveries/${test.delivery_id}/replay`, {
        headers: { "idempotency-key": crypto.randomUUID() },
      }),
      409,
      "svc.webhooks.delivery_in_progress",
    );
    expect(error.retryable).toBe(true);
    // Still in progress after its first (failed, retried) attempt.
    await waitForAttempts(key, test.delivery_id);
    await expectError(
      await write(key, `/v1/webhook-endpoints/deliveries/${test.delivery_id}/replay`, {
        headers: { "idempotency-key": crypto.randomUUID() },
      }),
      409,
      "svc.webhooks.delivery_in_progress",
    );
    expect(await getDelivery(key, test.delivery_id)).toMatchObject({ replay_count: 0, status: "pending" });
  });

  it("delivery_in_progress is retryable: the same Idempotency-Key succeeds once the delivery has finished", async () => {
    const { key } = await createTenant();
    const { id } = await createEndpoint(key);
    const test = await sendTest(key, id);
    const idem = crypto.randomUUID();
    await expectError(
      await write(key, `/v1/webhook-endpoints/deliveries/${test.delivery_id}/replay`, { headers: { "idempotency-key": idem } }),
      409,
      "svc.webhooks.delivery_in_progress",
    );
    expect((await write(key, `/v1/webhook-endpoints/${id}/disable`)).status).toBe(200);
    expect((await write(key, `/v1/webhook-endpoints/${id}/enable`)).status).toBe(200);
    const retry = await write(key, `/v1/webhook-endpoints/deliveries/${test.delivery_id}/replay`, { headers: { "idempotency-key": idem } });
    const text = await retry.text();
    expect(retry.status, text).toBe(200);
    expect(JSON.parse(text)).toEqual({ event_id: test.event_id });
    expect((await getDelivery(key, test.delivery_id)).replay_count).toBe(1);
  });

  it("the same Idempotency-Key reused for a different delivery → 409 svc.idempotency.key_reused", async () => {
    const { key } = await createTenant();
    const { id } = await createEndpoint(key);
    const a = await sendTest(key, id);
    const b = await sendTest(key, id);
    expect((await write(key, `/v1/webhook-endpoints/${id}/disable`)).status).toBe(200);
    expect((await write(key, `/v1/webhook-endpoints/${id}/enable`)).status).toBe(200);
    const idem = crypto.randomUUID();
    expect(
      (await write(key, `/v1/webhook-endpoints/deliveries/${a.delivery_id}/replay`, { headers: { "idempotency-key": idem } })).status,
    ).toBe(200);
    await expectError(
      await write(key, `/v1/webhook-endpoints/deliveries/${b.delivery_id}/replay`, { headers: { "idempotency-key": idem } }),
      409,
      "svc.idempotency.key_reused",
    );
    expect(await getDelivery(key, b.delivery_id)).toMatchObject({ status: "dead", replay_count: 0 });
  });

  it("a delivery of a disabled endpoint → 409 svc.webhooks.endpoint_disabled", async () => {
    const { key } = await createTenant();
    const { id } = await createEndpoint(key);
    const test = await sendTest(key, id);
    expect((await write(key, `/v1/webhook-endpoints/${id}/disable`)).status).toBe(200);
    await expectError(
      await write(key, `/v1/webhook-endpoints/deliveries/${test.delivery_id}/replay`, {
        headers: { "idempotency-key": crypto.randomUUID() },
      }),
      409,
      "svc.webhooks.endpoint_disabled",
    );
    expect(await getDelivery(key, test.delivery_id)).toMatchObject({
      status: "dead",
      terminal_reason: "endpoint_disabled",
      replay_count: 0,
    });
  });
});

describe("unknown and malformed ids", () => {
  const idem = () => ({ "idempotency-key": crypto.randomUUID() });

  it("well-formed unknown ids → 404 svc.resource.not_found on every route", async () => {
    const { key } = await createTenant();
    const routes: [string, string, unknown?][] = [
      ["GET", `/v1/webhook-endpoints/${UNKNOWN_ENDPOINT}`],
      ["PATCH", `/v1/webhook-endpoints/${UNKNOWN_ENDPOINT}`, { max_concurrency: 3 }],
      ["DELETE", `/v1/webhook-endpoints/${UNKNOWN_ENDPOINT}`],
      ["POST", `/v1/webhook-endpoints/${UNKNOWN_ENDPOINT}/disable`],
      ["POST", `/v1/webhook-endpoints/${UNKNOWN_ENDPOINT}/enable`],
      ["POST", `/v1/webhook-endpoints/${UNKNOWN_ENDPOINT}/rotate-secret`],
      ["POST", `/v1/webhook-endpoints/${UNKNOWN_ENDPOINT}/secret-overlap/complete`],
      ["POST", `/v1/webhook-endpoints/${UNKNOWN_ENDPOINT}/test`],
      ["GET", `/v1/webhook-endpoints/${UNKNOWN_ENDPOINT}/deliveries`],
      ["GET", `/v1/webhook-endpoints/deliveries/${UNKNOWN_DELIVERY}`],
      ["GET", `/v1/webhook-endpoints/deliveries/${UNKNOWN_DELIVERY}/attempts`],
      ["POST", `/v1/webhook-endpoints/deliveries/${UNKNOWN_DELIVERY}/replay`],
      ["POST", `/v1/webhook-events/${UNKNOWN_EVENT}/replay`],
    ];
    for (const [method, path, body] of routes) {
      const res = await write(key, path, { method, body, headers: idem() });
      const error = await expectError(res, 404, "svc.resource.not_found");
      expect(error.retryable, `${method} ${path}`).toBe(false);
    }
  });

  it("malformed ids → 422 naming the path parameter", async () => {
    const { key } = await createTenant();
    const routes: [string, string, string][] = [
      ["GET", "/v1/webhook-endpoints/whe_short", "endpoint_id"],
      ["GET", `/v1/webhook-endpoints/${UNKNOWN_DELIVERY}`, "endpoint_id"],
      ["GET", "/v1/webhook-endpoints/WHE_AAAAAAAAAAAAAAAA", "endpoint_id"],
      ["GET", "/v1/webhook-endpoints/whe_aaaaaaaaaaaaaaa1", "endpoint_id"],
      ["PATCH", "/v1/webhook-endpoints/whe_short", "endpoint_id"],
      ["DELETE", "/v1/webhook-endpoints/whe_short", "endpoint_id"],
      ["POST", "/v1/webhook-endpoints/whe_short/disable", "endpoint_id"],
      ["POST", "/v1/webhook-endpoints/whe_short/enable", "endpoint_id"],
      ["POST", "/v1/webhook-endpoints/whe_short/rotate-secret", "endpoint_id"],
      ["POST", "/v1/webhook-endpoints/whe_short/secret-overlap/complete", "endpoint_id"],
      ["POST", "/v1/webhook-endpoints/whe_short/test", "endpoint_id"],
      ["GET", `/v1/webhook-endpoints/${UNKNOWN_EVENT}/deliveries`, "endpoint_id"],
      ["GET", `/v1/webhook-endpoints/deliveries/${UNKNOWN_ENDPOINT}`, "delivery_id"],
      ["GET", "/v1/webhook-endpoints/deliveries/whd_x/attempts", "delivery_id"],
      ["POST", `/v1/webhook-endpoints/deliveries/${UNKNOWN_EVENT}/replay`, "delivery_id"],
      ["POST", `/v1/webhook-events/${UNKNOWN_DELIVERY}/replay`, "event_id"],
    ];
    for (const [method, path, field] of routes) {
      const res = await write(key, path, { method, body: method === "PATCH" ? { max_concurrency: 3 } : undefined, headers: idem() });
      const error = await expectError(res, 422, "svc.request.invalid");
      expect(error.field_details[0], `${method} ${path}`).toMatchObject({ location: "path", field });
    }
  });
});

describe("pagination errors", () => {
  it("limit outside 1..100 or not an integer → 422 on every list", async () => {
    const { key } = await createTenant();
    const { id } = await createEndpoint(key);
    const test = await sendTest(key, id);
    for (const base of [
      "/v1/webhook-endpoints",
      `/v1/webhook-endpoints/${id}/deliveries`,
      `/v1/webhook-endpoints/deliveries/${test.delivery_id}/attempts`,
    ]) {
      for (const limit of ["0", "101", "-1", "1.5", "abc", ""]) {
        const error = await expectError(await api(`${base}?limit=${limit}`, { key }), 422, "svc.request.invalid");
        expect(error.field_details[0], `${base}?limit=${limit}`).toMatchObject({ location: "query", field: "limit" });
      }
      expect((await api(`${base}?limit=1`, { key })).status).toBe(200);
      expect((await api(`${base}?limit=100`, { key })).status).toBe(200);
    }
  });

  it("bad filter values → 422", async () => {
    const { key } = await createTenant();
    const { id } = await createEndpoint(key);
    const a = await expectError(await api("/v1/webhook-endpoints?include_deleted=yes", { key }), 422, "svc.request.invalid");
    expect(a.field_details[0]).toMatchObject({ location: "query", field: "include_deleted" });
    const b = await expectError(await api(`/v1/webhook-endpoints/${id}/deliveries?status=lost`, { key }), 422, "svc.request.invalid");
    expect(b.field_details[0]).toMatchObject({ location: "query", field: "status" });
  });

  it("garbage, tampered or foreign cursors → 422 svc.cursor.invalid", async () => {
    const { key } = await createTenant();
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) ids.push((await createEndpoint(key, { url: `${HOOK_URL}/${i}` })).id);
    const page = await json(await api("/v1/webhook-endpoints?limit=1", { key }));
    const cursor: string = page.next_cursor;
    expect(typeof cursor).toBe("string");
    const tampered = cursor.slice(0, 5) + (cursor[5] === "A" ? "B" : "A") + cursor.slice(6);

    const bad = ["garbage", "x".repeat(300), tampered];
    for (const c of bad) {
      const error = await expectError(
        await api(`/v1/webhook-endpoints?limit=1&cursor=${encodeURIComponent(c)}`, { key }),
        422,
        "svc.cursor.invalid",
      );
      expect(error.field_details[0]).toMatchObject({ location: "query", field: "cursor" });
    }
    // Bound to its filters and its collection.
    await expectError(
      await api(`/v1/webhook-endpoints?limit=1&include_deleted=true&cursor=${encodeURIComponent(cursor)}`, { key }),
      422,
      "svc.cursor.invalid",
    );
    await expectError(
      await api(`/v1/webhook-endpoints/${ids[0]}/deliveries?cursor=${encodeURIComponent(cursor)}`, { key }),
      422,
      "svc.cursor.invalid",
    );

    // A deliveries cursor is bound to its endpoint and status filter.
    const t1 = await sendTest(key, ids[0]!);
    await sendTest(key, ids[0]!);
    const dpage = await json(await api(`/v1/webhook-endpoints/${ids[0]}/deliveries?limit=1`, { key }));
    const dcursor: string = dpage.next_cursor;
    expect(typeof dcursor).toBe("string");
    await expectError(
      await api(`/v1/webhook-endpoints/${ids[1]}/deliveries?limit=1&cursor=${encodeURIComponent(dcursor)}`, { key }),
      422,
      "svc.cursor.invalid",
    );
    await expectError(
      await api(`/v1/webhook-endpoints/${ids[0]}/deliveries?limit=1&status=pending&cursor=${encodeURIComponent(dcursor)}`, { key }),
      422,
      "svc.cursor.invalid",
    );
    await expectError(
      await api(`/v1/webhook-endpoints/deliveries/${t1.delivery_id}/attempts?cursor=${encodeURIComponent(dcursor)}`, { key }),
      422,
      "svc.cursor.invalid",
    );
    await expectError(
      await api(`/v1/webhook-endpoints/deliveries/${t1.delivery_id}/attempts?cursor=garbage`, { key }),
      422,
      "svc.cursor.invalid",
    );
    // The cursor still works where it belongs.
    expect((await api(`/v1/webhook-endpoints?limit=1&cursor=${encodeURIComponent(cursor)}`, { key })).status).toBe(200);
  });
});
