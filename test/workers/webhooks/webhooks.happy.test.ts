import { describe, expect, it } from "vitest";
import { api, createTenant, json, testEnv } from "../support/helpers";
import {
  CATALOG,
  createBody,
  createEndpoint,
  createRaw,
  DELIVERY_ID,
  ENDPOINT_ID,
  EVENT_ID,
  eventId,
  getDelivery,
  getEndpoint,
  HOOK_URL,
  ISO,
  insertCustomerEvent,
  listAttempts,
  listDeliveries,
  SECRET,
  sendTest,
  sleep,
  waitForAttempts,
  write,
} from "../support/webhooks.helpers";

const DAY_MS = 86_400_000;

describe("webhook endpoints: create, read, list", () => {
  it("creates an endpoint with the documented defaults and a one-time whsec_ secret of 32 bytes", async () => {
    const { key } = await createTenant();
    const res = await createRaw(key);
    expect(res.status).toBe(201);
    const body = await json(res);
    expect(Object.keys(body).sort()).toEqual(["endpoint", "secret"]);
    expect(body.secret).toMatch(SECRET);
    expect(atob(body.secret.slice("whsec_".length)).length).toBe(32);
    const e = body.endpoint;
    expect(e.endpoint_id).toMatch(ENDPOINT_ID);
    expect(e).toEqual({
      endpoint_id: e.endpoint_id,
      url: HOOK_URL,
      event_catalog_version: CATALOG,
      events: ["asset.signed"],
      max_concurrency: 2,
      rate_limit_per_minute: 60,
      auto_disable_after_failures: 20,
      state: "active",
      disabled_reason: null,
      consecutive_failures: 0,
      secret_overlap: null,
      created_at: expect.stringMatching(ISO),
      updated_at: e.created_at,
      deleted_at: null,
      retained_until: null,
    });
    // GET answers the same view, without the secret.
    expect(await getEndpoint(key, e.endpoint_id)).toEqual(e);
  });

  it("creates with every control at its bounds, both events, and a public IPv6 destination", async () => {
    const { key } = await createTenant();
    const low = await createEndpoint(key, {
      url: "https://hooks2.example.com/a?b=c",
      events: ["asset.watermarked", "asset.signed"],
      max_concurrency: 1,
      rate_limit_per_minute: 1,
      auto_disable_after_failures: 1,
    });
    expect(low.endpoint).toMatchObject({
      url: "https://hooks2.example.com/a?b=c",
      events: ["asset.watermarked", "asset.signed"],
      max_concurrency: 1,
      rate_limit_per_minute: 1,
      auto_disable_after_failures: 1,
    });
    const high = await createEndpoint(key, {
      url: `https://hooks.example.com:8443/${"p".repeat(2048 - "https://hooks.example.com:8443/".length)}`,
      max_concurrency: 20,
      rate_limit_per_minute: 600,
      auto_disable_after_failures: 100,
    });
    expect(high.endpoint.url.length).toBe(2048);
    expect(high.endpoint).toMatchObject({ max_concurrency: 20, rate_limit_per_minute: 600, auto_disable_after_failures: 100 });
    expect(low.id).not.toBe(high.id);
    expect(low.secret).not.toBe(high.secret);
    // A public IPv4 literal passes the policy too.
    await createEndpoint(key, { url: "https://93.184.215.14/hook" });
  });

  it("lists newest first, walks with limit=1 on a pinned snapshot, and shows deleted ones only with include_deleted=true", async () => {
    const { key } = await createTenant();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push((await createEndpoint(key, { url: `${HOOK_URL}/${i}` })).id);
      await sleep(3);
    }
    const [e1, e2, e3] = ids as [string, string, string];

    const all = await json(await api("/v1/webhook-endpoints", { key }));
    expect(all.data.map((e: any) => e.endpoint_id)).toEqual([e3, e2, e1]);
    expect(all.next_cursor).toBeNull();
    expect(all.data.map((e: any) => e.url)).toEqual([`${HOOK_URL}/2`, `${HOOK_URL}/1`, `${HOOK_URL}/0`]);

    // limit=1 walk; an endpoint created mid-walk is not part of the snapshot.
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await api(`/v1/webhook-endpoints?limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, { key });
      expect(res.status).toBe(200);
      const page = await json(res);
      expect(page.data.length).toBe(1);
      seen.push(page.data[0].endpoint_id);
      cursor = page.next_cursor;
      if (pages === 0) {
        expect(typeof cursor).toBe("string");
        await sleep(3);
        await createEndpoint(key, { url: `${HOOK_URL}/late` });
      }
      pages++;
    } while (cursor && pages < 10);
    expect(seen).toEqual([e3, e2, e1]);
    expect(pages).toBe(3);

    const late = (await json(await api("/v1/webhook-endpoints", { key }))).data;
    expect(late.length).toBe(4);
    expect(late[0].url).toBe(`${HOOK_URL}/late`);

    expect((await write(key, `/v1/webhook-endpoints/${e2}`, { method: "DELETE" })).status).toBe(200);
    const visible = await json(await api("/v1/webhook-endpoints", { key }));
    expect(visible.data.map((e: any) => e.endpoint_id)).not.toContain(e2);
    expect(visible.data.length).toBe(3);
    const explicitFalse = await json(await api("/v1/webhook-endpoints?include_deleted=false", { key }));
    expect(explicitFalse.data.map((e: any) => e.endpoint_id)).toEqual(visible.data.map((e: any) => e.endpoint_id));
    const withDeleted = await json(await api("/v1/webhook-endpoints?include_deleted=true", { key }));
    expect(withDeleted.data.length).toBe(4);
    const deleted = withDeleted.data.find((e: any) => e.endpoint_id === e2);
    expect(deleted).toMatchObject({ state: "deleted", deleted_at: expect.stringMatching(ISO), retained_until: expect.stringMatching(ISO) });
    // Order is still newest first with deleted rows in place.
    expect(withDeleted.data.map((e: any) => e.endpoint_id).slice(1)).toEqual([e3, e2, e1]);
  });
});

describe("webhook endpoints: update", () => {
  it("PATCH changes only the named field; events replaces the subscription; a new url is accepted when it passes the policy", async () => {
    const { key } = await createTenant();
    const { endpoint: original, id } = await createEndpoint(key, { events: ["asset.signed"] });
    let before = original;
    const steps: [Record<string, unknown>, Record<string, unknown>][] = [
      [{ events: ["asset.watermarked"] }, { events: ["asset.watermarked"] }],
      [{ events: ["asset.signed", "asset.watermarked"] }, { events: ["asset.signed", "asset.watermarked"] }],
      [{ url: "https://hooks2.example.com/v2" }, { url: "https://hooks2.example.com/v2" }],
      [{ max_concurrency: 20 }, { max_concurrency: 20 }],
      [{ rate_limit_per_minute: 600 }, { rate_limit_per_minute: 600 }],
      [{ auto_disable_after_failures: 1 }, { auto_disable_after_failures: 1 }],
      [
        { url: HOOK_URL, max_concurrency: 1, rate_limit_per_minute: 1, auto_disable_after_failures: 100 },
        { url: HOOK_URL, max_concurrency: 1, rate_limit_per_minute: 1, auto_disable_after_failures: 100 },
      ],
    ];
    for (const [patch, expected] of steps) {
      await sleep(3);
      const res = await write(key, `/v1/webhook-endpoints/${id}`, { method: "PATCH", body: patch });
      const text = await res.text();
      expect(res.status, text).toBe(200);
      const after = JSON.parse(text);
      expect(after).toEqual({ ...before, ...expected, updated_at: expect.stringMatching(ISO) });
      expect(Date.parse(after.updated_at)).toBeGreaterThan(Date.parse(before.updated_at));
      expect(after.created_at).toBe(original.created_at);
      expect(await getEndpoint(key, id)).toEqual(after);
      before = after;
    }
  });

  it("PATCH of a disabled endpoint keeps it disabled", async () => {
    const { key } = await createTenant();
    const { id } = await createEndpoint(key);
    expect((await write(key, `/v1/webhook-endpoints/${id}/disable`)).status).toBe(200);
    const res = await write(key, `/v1/webhook-endpoints/${id}`, { method: "PATCH", body: { max_concurrency: 5 } });
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({ state: "disabled", disabled_reason: "manual", max_concurrency: 5 });
  });
});

describe("webhook endpoints: disable and enable", () => {
  it("disable ends unfinished deliveries as dead (endpoint_disabled); both operations are idempotent", async () => {
    const { key } = await createTenant();
    const { id } = await createEndpoint(key);
    const test = await sendTest(key, id);
    const disabled = await write(key, `/v1/webhook-endpoints/${id}/disable`);
    expect(disabled.status).toBe(200);
    const d = await json(disabled);
    expect(d).toMatchObject({ endpoint_id: id, state: "disabled", disabled_reason: "manual" });

    const delivery = await getDelivery(key, test.delivery_id);
    expect(delivery).toMatchObject({
      delivery_id: test.delivery_id,
      status: "dead",
      terminal_reason: "endpoint_disabled",
      next_attempt_at: null,
      replay_count: 0,
    });
    // Visible through the status filter.
    expect((await listDeliveries(key, id, "?status=dead")).data.map((x: any) => x.delivery_id)).toEqual([test.delivery_id]);
    expect((await listDeliveries(key, id, "?status=pending")).data).toEqual([]);

    const again = await write(key, `/v1/webhook-endpoints/${id}/disable`);
    expect(again.status).toBe(200);
    expect(await json(again)).toMatchObject({ state: "disabled", disabled_reason: "manual" });

    const enabled = await write(key, `/v1/webhook-endpoints/${id}/enable`);
    expect(enabled.status).toBe(200);
    expect(await json(enabled)).toMatchObject({ state: "active", disabled_reason: null, consecutive_failures: 0 });
    const enabledAgain = await write(key, `/v1/webhook-endpoints/${id}/enable`);
    expect(enabledAgain.status).toBe(200);
    expect(await json(enabledAgain)).toMatchObject({ state: "active", disabled_reason: null });
    // Enabling does not revive the fenced delivery.
    expect(await getDelivery(key, test.delivery_id)).toMatchObject({ status: "dead", terminal_reason: "endpoint_disabled" });
  });

  it("auto-disables after auto_disable_after_failures failed attempts; enable resets the failure streak", async () => {
    const { key } = await createTenant();
    const { id } = await createEndpoint(key, { auto_disable_after_failures: 1 });
    const test = await sendTest(key, id);
    const delivery = await waitForAttempts(key, test.delivery_id);
    expect(delivery).toMatchObject({ attempt_count: 1, status: "dead", terminal_reason: "endpoint_auto_disabled", next_attempt_at: null });
    expect(await getEndpoint(key, id)).toMatchObject({
      state: "disabled",
      disabled_reason: "consecutive_failures",
      consecutive_failures: 1,
    });
    const enabled = await json(await write(key, `/v1/webhook-endpoints/${id}/enable`));
    expect(enabled).toMatchObject({ state: "active", disabled_reason: null, consecutive_failures: 0 });
  });
});

describe("webhook endpoints: test event, deliveries, attempts and replay", () => {
  it("a test event is queued (202), listed with event_type webhook.test, attempted, and its failed attempt recorded", async () => {
    const { key } = await createTenant();
    const { id } = await createEndpoint(key);
    const res = await write(key, `/v1/webhook-endpoints/${id}/test`);
    expect(res.status).toBe(202);
    const test = await json(res);
    expect(Object.keys(test).sort()).toEqual(["delivery_id", "event_id"]);
    expect(test.delivery_id).toMatch(DELIVERY_ID);
    expect(test.event_id).toMatch(EVENT_ID);

    const list = await listDeliveries(key, id);
    expect(list.next_cursor).toBeNull();
    expect(list.data.length).toBe(1);
    expect(list.data[0]).toMatchObject({
      delivery_id: test.delivery_id,
      event_id: test.event_id,
      event_type: "webhook.test",
      replay_count: 0,
      terminal_reason: null,
    });
    expect(list.data[0].created_at).toMatch(ISO);

    const delivery = await waitForAttempts(key, test.delivery_id);
    // No network in the test runtime: network_error, retried on the default schedule (5 s, ±10% jitter).
    expect(delivery).toEqual({
      delivery_id: test.delivery_id,
      endpoint_id: id,
      event_id: test.event_id,
      event_type: "webhook.test",
      status: "pending",
      attempt_count: 1,
      replay_count: 0,
      created_at: list.data[0].created_at,
      next_attempt_at: expect.stringMatching(ISO),
      response_code: null,
      response_body_sha256: null,
      terminal_reason: null,
    });
    const attempts = await listAttempts(key, test.delivery_id);
    expect(attempts.next_cursor).toBeNull();
    expect(attempts.data).toEqual([
      {
        attempt_number: 1,
        started_at: expect.stringMatching(ISO),
        duration_ms: expect.any(Number),
        response_code: null,
        response_body_sha256: null,
        outcome: "retry_scheduled",
        error: "network_error",
        retry_after_seconds: null,
        signature_count: 1,
      },
    ]);
    const a = attempts.data[0];
    const finished = Date.parse(a.started_at) + a.duration_ms;
    const delay = Date.parse(delivery.next_attempt_at) - finished;
    expect(delay).toBeGreaterThanOrEqual(4_490);
    expect(delay).toBeLessThanOrEqual(5_510);
    expect(await getEndpoint(key, id)).toMatchObject({ state: "active", consecutive_failures: 1 });
  });

  it("lists an endpoint's deliveries newest first with cursor pagination", async () => {
    const { key } = await createTenant();
    const { id } = await createEndpoint(key);
    const first = await sendTest(key, id);
    await sleep(3);
    const second = await sendTest(key, id);
    const page1 = await listDeliveries(key, id, "?limit=1");
    expect(page1.data.map((d: any) => d.delivery_id)).toEqual([second.delivery_id]);
    expect(typeof page1.next_cursor).toBe("string");
    const page2 = await listDeliveries(key, id, `?limit=1&cursor=${encodeURIComponent(page1.next_cursor)}`);
    expect(page2.data.map((d: any) => d.delivery_id)).toEqual([first.delivery_id]);
    expect(page2.next_cursor).toBeNull();
  });

  it("replays a finished delivery (200 {event_id}, replay_count 1, attempted again) and replays the stored answer for the same Idempotency-Key", async () => {
    const { key } = await createTenant();
    const { id } = await createEndpoint(key);
    const test = await sendTest(key, id);
    await waitForAttempts(key, test.delivery_id);
    // Disable to finish it (dead), enable, then replay.
    expect((await write(key, `/v1/webhook-endpoints/${id}/disable`)).status).toBe(200);
    expect(await getDelivery(key, test.delivery_id)).toMatchObject({ status: "dead", terminal_reason: "endpoint_disabled" });
    expect((await write(key, `/v1/webhook-endpoints/${id}/enable`)).status).toBe(200);

    const idem = crypto.randomUUID();
    const res = await write(key, `/v1/webhook-endpoints/deliveries/${test.delivery_id}/replay`, { headers: { "idempotency-key": idem } });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ event_id: test.event_id });
    const replayed = await getDelivery(key, test.delivery_id);
    expect(replayed).toMatchObject({ replay_count: 1, terminal_reason: null, event_id: test.event_id });
    expect(["pending", "delivering"]).toContain(replayed.status);

    const again = await write(key, `/v1/webhook-endpoints/deliveries/${test.delivery_id}/replay`, { headers: { "idempotency-key": idem } });
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await json(again)).toEqual({ event_id: test.event_id });

    const after = await waitForAttempts(key, test.delivery_id, 2);
    expect(after).toMatchObject({ attempt_count: 2, replay_count: 1, status: "pending" });
    const attempts = await listAttempts(key, test.delivery_id);
    expect(attempts.data.map((a: any) => a.attempt_number)).toEqual([1, 2]);
    // Attempts page oldest first, with limit=1.
    const p1 = await listAttempts(key, test.delivery_id, "?limit=1");
    expect(p1.data.map((a: any) => a.attempt_number)).toEqual([1]);
    expect(typeof p1.next_cursor).toBe("string");
    const p2 = await listAttempts(key, test.delivery_id, `?limit=1&cursor=${encodeURIComponent(p1.next_cursor)}`);
    expect(p2.data.map((a: any) => a.attempt_number)).toEqual([2]);
    expect(p2.next_cursor).toBeNull();
  });

  it("replays a test event: in-progress deliveries are not counted, finished ones start again", async () => {
    const { key } = await createTenant();
    const { id } = await createEndpoint(key);
    const test = await sendTest(key, id);
    const inProgress = await write(key, `/v1/webhook-events/${test.event_id}/replay`);
    expect(inProgress.status).toBe(200);
    expect(await json(inProgress)).toEqual({ event_id: test.event_id, delivery_count: 0 });
    expect((await getDelivery(key, test.delivery_id)).replay_count).toBe(0);

    expect((await write(key, `/v1/webhook-endpoints/${id}/disable`)).status).toBe(200);
    expect((await write(key, `/v1/webhook-endpoints/${id}/enable`)).status).toBe(200);
    const res = await write(key, `/v1/webhook-events/${test.event_id}/replay`, { headers: { "idempotency-key": crypto.randomUUID() } });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ event_id: test.event_id, delivery_count: 1 });
    expect(await getDelivery(key, test.delivery_id)).toMatchObject({ replay_count: 1, terminal_reason: null });
    // Still one delivery per (endpoint, event).
    expect((await listDeliveries(key, id)).data.length).toBe(1);
  });

  it("replays a customer event to every active endpoint subscribed to it now", async () => {
    const { key, tenantId } = await createTenant();
    const signedA = (await createEndpoint(key, { events: ["asset.signed"] })).id;
    const signedB = (await createEndpoint(key, { events: ["asset.watermarked", "asset.signed"] })).id;
    const watermarkedOnly = (await createEndpoint(key, { events: ["asset.watermarked"] })).id;
    const disabled = (await createEndpoint(key, { events: ["asset.signed"] })).id;
    const deleted = (await createEndpoint(key, { events: ["asset.signed"] })).id;
    expect((await write(key, `/v1/webhook-endpoints/${disabled}/disable`)).status).toBe(200);
    expect((await write(key, `/v1/webhook-endpoints/${deleted}`, { method: "DELETE" })).status).toBe(200);
    const evt = eventId();
    await insertCustomerEvent(tenantId, "asset.signed", evt);

    const res = await write(key, `/v1/webhook-events/${evt}/replay`);
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ event_id: evt, delivery_count: 2 });
    for (const endpoint of [signedA, signedB]) {
      const list = await listDeliveries(key, endpoint);
      expect(list.data.length).toBe(1);
      expect(list.data[0]).toMatchObject({ endpoint_id: endpoint, event_id: evt, event_type: "asset.signed", replay_count: 0 });
    }
    for (const endpoint of [watermarkedOnly, disabled, deleted]) expect((await listDeliveries(key, endpoint)).data).toEqual([]);
    // Deliveries still in progress are left alone.
    expect(await json(await write(key, `/v1/webhook-events/${evt}/replay`))).toEqual({ event_id: evt, delivery_count: 0 });
  });
});

describe("webhook endpoints: secret rotation", () => {
  it("rotate-secret issues a new secret and opens an overlap (two signatures); complete closes it (one signature)", async () => {
    const { key } = await createTenant();
    const created = await createEndpoint(key);
    const id = created.id;
    const rotated = await write(key, `/v1/webhook-endpoints/${id}/rotate-secret`, { headers: { "idempotency-key": crypto.randomUUID() } });
    expect(rotated.status).toBe(200);
    const r = await json(rotated);
    expect(Object.keys(r).sort()).toEqual(["endpoint", "secret"]);
    expect(r.secret).toMatch(SECRET);
    expect(r.secret).not.toBe(created.secret);
    expect(r.endpoint).toMatchObject({ endpoint_id: id, state: "active", secret_overlap: { started_at: expect.stringMatching(ISO) } });
    expect(await getEndpoint(key, id)).toEqual(r.endpoint);

    const during = await sendTest(key, id);
    await waitForAttempts(key, during.delivery_id);
    expect((await listAttempts(key, during.delivery_id)).data[0]).toMatchObject({ attempt_number: 1, signature_count: 2 });

    const completed = await write(key, `/v1/webhook-endpoints/${id}/secret-overlap/complete`);
    expect(completed.status).toBe(200);
    const c = await json(completed);
    expect(c).toMatchObject({ endpoint_id: id, state: "active", secret_overlap: null });
    expect(JSON.stringify(c)).not.toContain("whsec_");
    expect((await getEndpoint(key, id)).secret_overlap).toBeNull();

    const after = await sendTest(key, id);
    await waitForAttempts(key, after.delivery_id);
    expect((await listAttempts(key, after.delivery_id)).data[0]).toMatchObject({ attempt_number: 1, signature_count: 1 });

    // A new rotation may start once the previous overlap is complete.
    const second = await write(key, `/v1/webhook-endpoints/${id}/rotate-secret`);
    expect(second.status).toBe(200);
    const s = await json(second);
    expect(s.secret).toMatch(SECRET);
    expect([created.secret, r.secret]).not.toContain(s.secret);
  });
});

describe("webhook endpoints: event catalog", () => {
  it("lists exactly asset.signed, asset.watermarked and job.failed of svc.customer-events.v1, no wildcard, no webhook.test", async () => {
    const { key } = await createTenant();
    const res = await api("/v1/webhook-endpoints/event-catalog", { key });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(Object.keys(body).sort()).toEqual(["catalog_version", "events", "wildcard_supported"]);
    expect(body.catalog_version).toBe(CATALOG);
    expect(body.wildcard_supported).toBe(false);
    expect(body.events.map((e: any) => e.type)).toEqual(["asset.signed", "asset.watermarked", "job.failed"]);
    for (const e of body.events) {
      expect(Object.keys(e).sort()).toEqual(["description", "emitted_when", "type"]);
      expect(e.description.length).toBeGreaterThan(0);
      expect(e.emitted_when.length).toBeGreaterThan(0);
    }
    expect(JSON.stringify(body)).not.toContain("webhook.test");
  });
});

describe("webhook endpoints: delete", () => {
  it("soft-deletes: state deleted, retained 30 days, unfinished deliveries dead (endpoint_deleted), still readable", async () => {
    const { key } = await createTenant();
    const { id, endpoint } = await createEndpoint(key);
    const test = await sendTest(key, id);
    const res = await write(key, `/v1/webhook-endpoints/${id}`, { method: "DELETE" });
    expect(res.status).toBe(200);
    const deleted = await json(res);
    expect(deleted).toMatchObject({
      endpoint_id: id,
      url: endpoint.url,
      events: endpoint.events,
      state: "deleted",
      disabled_reason: null,
      secret_overlap: null,
      created_at: endpoint.created_at,
      deleted_at: expect.stringMatching(ISO),
      retained_until: expect.stringMatching(ISO),
    });
    expect(Date.parse(deleted.retained_until) - Date.parse(deleted.deleted_at)).toBe(30 * DAY_MS);
    expect(Math.abs(Date.parse(deleted.deleted_at) - Date.now())).toBeLessThan(60_000);

    expect(await getEndpoint(key, id)).toEqual(deleted);
    expect(await getDelivery(key, test.delivery_id)).toMatchObject({
      status: "dead",
      terminal_reason: "endpoint_deleted",
      next_attempt_at: null,
    });
    // Its deliveries stay inspectable while the endpoint is retained.
    expect((await listDeliveries(key, id)).data.map((d: any) => d.delivery_id)).toEqual([test.delivery_id]);
    expect((await json(await api("/v1/webhook-endpoints", { key }))).data).toEqual([]);
    expect((await json(await api("/v1/webhook-endpoints?include_deleted=true", { key }))).data).toEqual([deleted]);
  });

  it("after its retention period a deleted endpoint is gone: 404, and not listed even with include_deleted=true", async () => {
    const { key } = await createTenant();
    const { id } = await createEndpoint(key);
    expect((await write(key, `/v1/webhook-endpoints/${id}`, { method: "DELETE" })).status).toBe(200);
    // Stands in for 30 days passing.
    await testEnv.DB.prepare("UPDATE webhook_endpoints SET retain_until = ? WHERE id = ?")
      .bind(Date.now() - 1000, id)
      .run();
    expect((await api(`/v1/webhook-endpoints/${id}`, { key })).status).toBe(404);
    expect((await api(`/v1/webhook-endpoints/${id}/deliveries`, { key })).status).toBe(404);
    expect((await write(key, `/v1/webhook-endpoints/${id}`, { method: "PATCH", body: { max_concurrency: 3 } })).status).toBe(404);
    expect((await json(await api("/v1/webhook-endpoints?include_deleted=true", { key }))).data).toEqual([]);
  });

  it("a deleted endpoint does not count against the endpoint limit and the same url can be registered again", async () => {
    const { key } = await createTenant();
    const first = await createEndpoint(key);
    expect((await write(key, `/v1/webhook-endpoints/${first.id}`, { method: "DELETE" })).status).toBe(200);
    const again = await createEndpoint(key, createBody());
    expect(again.id).not.toBe(first.id);
    expect(again.endpoint.state).toBe("active");
  });
});
