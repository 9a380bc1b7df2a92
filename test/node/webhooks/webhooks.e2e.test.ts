/**
 * Webhook delivery end to end: the real Worker bundle in Miniflare (queues, Durable Objects, D1) delivering
 * real events to a real local HTTP receiver (test/support/webhook-receiver.ts), every request verified with
 * the unmodified `standardwebhooks` library. Retries run on a 1-second schedule (SVC_WEBHOOK_RETRY_SCHEDULE)
 * and loopback http is allowed (SVC_WEBHOOKS_ALLOW_LOOPBACK=1, development only) so the receiver is reachable.
 */

import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GATE_WINDOW_MS, RATE_WINDOW_MS, rateRoom, SEND_MARGIN_MS } from "../../../src/durable-objects/gate-window";
import { prng } from "../../support/prng";
import { fixtureBytes, type SignedService, startSignedService, uploadAsset } from "../../support/svc-client";
import { type Answer, type Received, until, WebhookReceiver } from "../../support/webhook-receiver";

const receiver = new WebhookReceiver();
let svc: SignedService;

beforeAll(async () => {
  await receiver.start();
  svc = await startSignedService({
    bindings: { SVC_WEBHOOKS_ALLOW_LOOPBACK: "1", SVC_WEBHOOK_RETRY_SCHEDULE: Array.from({ length: 24 }, () => "1").join(",") },
  });
}, 120_000);

afterAll(async () => {
  await svc?.dispose();
  await receiver.stop();
});

/**
 * Registers an endpoint for a receiver path and gives the receiver its secret. Endpoints default to
 * asset.watermarked, which no job here emits, so they see only their own test events while the first test's
 * 50 asset.signed events are in flight.
 */
async function endpointFor(path: string, body: Record<string, unknown>, answer?: (r: Received, n: number) => Answer) {
  const route = receiver.route(path, answer);
  const created = await svc.call("POST", "/v1/webhook-endpoints", {
    body: { url: receiver.url(path), event_catalog_version: "svc.customer-events.v1", events: ["asset.watermarked"], ...body },
    idempotencyKey: true,
  });
  expect(created.status, created.text).toBe(201);
  route.secrets.push(created.body.secret);
  return { id: created.body.endpoint.endpoint_id as string, secret: created.body.secret as string, route };
}

async function deliveriesOf(endpointId: string): Promise<any[]> {
  const all: any[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 20; page++) {
    const res: { status: number; text: string; body: any } = await svc.call(
      "GET",
      `/v1/webhook-endpoints/${endpointId}/deliveries?limit=100${cursor ? `&cursor=${cursor}` : ""}`,
    );
    expect(res.status, res.text).toBe(200);
    all.push(...res.body.data);
    cursor = res.body.next_cursor;
    if (!cursor) break;
  }
  return all;
}

async function delivery(id: string) {
  const res = await svc.call("GET", `/v1/webhook-endpoints/deliveries/${id}`);
  expect(res.status, res.text).toBe(200);
  return res.body;
}

/** The largest number of requests that arrived within any 60-second window. */
function maxPerMinute(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while (sorted[i]! - sorted[j]! >= 60_000) j++;
    best = Math.max(best, i - j + 1);
  }
  return best;
}

/**
 * The gate's rate rule driven by a sender that asks as often as it may, each request reaching the receiver
 * `delay(n)` after its grant: the arrival times the receiver would see.
 */
function simulateArrivals(ratePerMinute: number, count: number, delay: (n: number, grantedAt: number) => number): number[] {
  const grants: number[] = [];
  const arrivals: number[] = [];
  let now = 0;
  while (arrivals.length < count) {
    const room = rateRoom(grants, now, ratePerMinute);
    if (!room.room) {
      now += room.retryAfterMs;
      continue;
    }
    grants.push(now);
    arrivals.push(now + delay(arrivals.length, now));
    now += 1;
  }
  return arrivals;
}

describe("#13.16 the webhook rate limit holds at the receiver", () => {
  it("#13.16 any 60 s at the receiver see at most rate_limit_per_minute requests when each arrives within the send margin of its grant", () => {
    expect(GATE_WINDOW_MS).toBe(RATE_WINDOW_MS + SEND_MARGIN_MS);
    const random = prng(131_600);
    for (const rate of [1, 2, 7, 40, 600]) {
      const count = rate * 4 + 3;
      // The failure seen in CI: a window's grants sent late, the next window's sent at once.
      const lateThenPrompt = simulateArrivals(rate, count, (n) => (Math.floor(n / rate) % 2 === 0 ? SEND_MARGIN_MS : 0));
      expect(maxPerMinute(lateThenPrompt), `rate ${rate}, late then prompt`).toBeLessThanOrEqual(rate);
      for (let run = 0; run < 20; run++) {
        const jittered = simulateArrivals(rate, count, () => Math.floor(random() * (SEND_MARGIN_MS + 1)));
        expect(maxPerMinute(jittered), `rate ${rate}, run ${run}`).toBeLessThanOrEqual(rate);
      }
    }
    // Without the margin (a 60-second window) the same sender overruns the limit at the receiver.
    const grants: number[] = [];
    const arrivals: number[] = [];
    for (let now = 0; arrivals.length < 80; now += 1) {
      while (grants.length > 0 && grants[0]! <= now - RATE_WINDOW_MS) grants.shift();
      if (grants.length >= 40) continue;
      grants.push(now);
      arrivals.push(now + (arrivals.length < 40 ? SEND_MARGIN_MS : 0));
    }
    expect(maxPerMinute(arrivals)).toBeGreaterThan(40);
  });
});

describe.concurrent("webhook delivery to a real receiver", () => {
  it("delivers 50 real asset.signed events: exactly once despite a 50%-failing receiver, ≤ max_concurrency in flight, ≤ rate_limit_per_minute", async () => {
    const random = prng(20261122);
    const failures: Answer[] = [{ status: 500 }, { status: 503 }, { status: 408 }, { status: 429 }, { status: 502, drop: true }];
    const flaky = await endpointFor("/flaky", { events: ["asset.signed"], max_concurrency: 5, auto_disable_after_failures: 100 }, () =>
      random() < 0.5 ? failures[Math.floor(random() * failures.length)]! : { status: 204 },
    );
    const slow = await endpointFor("/slow", { events: ["asset.signed"], max_concurrency: 2, rate_limit_per_minute: 600 }, () => ({
      status: 200,
      delayMs: 150,
    }));
    const limited = await endpointFor("/limited", { events: ["asset.signed"], max_concurrency: 20, rate_limit_per_minute: 40 });

    const jpeg = fixtureBytes("sample.jpg");
    const assets = new Set<string>();
    for (let i = 0; i < 50; i++) {
      const { assetId } = await uploadAsset(svc, jpeg, "image/jpeg", `e2e-${i}.jpg`);
      const signed = await svc.call("POST", "/v1/sign", {
        body: { asset_id: assetId, recipe_id: "rcp_system_sign_only" },
        idempotencyKey: true,
      });
      expect(signed.status, signed.text).toBe(202);
      assets.add(assetId);
    }

    await until(
      () => flaky.route.acknowledged.size === 50 && slow.route.acknowledged.size === 50,
      90_000,
      "50 acknowledged events at /flaky and /slow",
    );
    // 40 a minute: the last 10 cannot arrive before the first ones leave the 60-second window.
    await until(() => limited.route.acknowledged.size === 50, 150_000, "50 acknowledged events at /limited");

    for (const { route, id } of [flaky, slow, limited]) {
      // Every request carries a valid Standard Webhooks signature.
      expect(route.received.every((r) => r.verifiedWith[0] === true)).toBe(true);
      // Exactly once from the receiver's side: each event acknowledged once, and never sent again after.
      expect([...route.acknowledged.values()].every((n) => n === 1)).toBe(true);
      const deliveries = await deliveriesOf(id);
      expect(deliveries).toHaveLength(50);
      expect(new Set(deliveries.map((d) => d.event_id))).toEqual(new Set(route.acknowledged.keys()));
      for (const d of deliveries) {
        expect(d).toMatchObject({ status: "delivered", event_type: "asset.signed", terminal_reason: null, next_attempt_at: null });
        expect(d.attempt_count).toBe(route.received.filter((r) => r.webhookId === d.event_id).length);
      }
    }
    // The flaky receiver did fail about half of the time, so retries happened.
    expect(flaky.route.received.length).toBeGreaterThan(70);
    // The event body: thin, versioned, pointing at the published asset.
    const event = JSON.parse(slow.route.received[0]!.body);
    expect(event).toMatchObject({ type: "asset.signed", event_catalog_version: "svc.customer-events.v1", test: false });
    expect(event.id).toBe(slow.route.received[0]!.webhookId);
    expect(assets.has(event.data.asset_id)).toBe(true);
    expect(event.data.links.asset).toBe(`/v1/assets/${event.data.asset_id}`);
    expect(slow.route.received[0]!.headers["idempotency-key"]).toBe(event.id);
    expect(slow.route.received[0]!.headers["svc-webhook-signature"]).toBe(slow.route.received[0]!.headers["webhook-signature"]);
    // Concurrency and rate, measured at the receiver. The gate counts grants over 60 s plus the send margin and
    // a sender starts within SEND_WITHIN_MS of its grant (or takes a fresh one), so the limit holds at the receiver
    // whatever the machine's load does to the time between grant and send.
    expect(slow.route.maxInFlight).toBe(2);
    expect(maxPerMinute(limited.route.received.map((r) => r.arrivedAt))).toBeLessThanOrEqual(40);
    const times = limited.route.received.map((r) => r.arrivedAt).sort((a, b) => a - b);
    expect(times[40]! - times[0]!).toBeGreaterThanOrEqual(RATE_WINDOW_MS);
  }, 240_000);

  it("a 400 ends the delivery after one attempt; replay delivers the same event again", async () => {
    const rejecting = await endpointFor("/reject", {}, (_r, n) => (n === 1 ? { status: 400 } : { status: 200 }));
    const test = await svc.call("POST", `/v1/webhook-endpoints/${rejecting.id}/test`, { idempotencyKey: true });
    expect(test.status, test.text).toBe(202);
    await until(async () => (await delivery(test.body.delivery_id)).status === "failed", 20_000, "the delivery to fail");
    await new Promise((r) => setTimeout(r, 2_500));
    expect(rejecting.route.received).toHaveLength(1);
    expect(await delivery(test.body.delivery_id)).toMatchObject({
      status: "failed",
      attempt_count: 1,
      response_code: 400,
      terminal_reason: "receiver_rejected",
      event_type: "webhook.test",
    });
    expect(JSON.parse(rejecting.route.received[0]!.body)).toMatchObject({ type: "webhook.test", test: true, id: test.body.event_id });

    const key = randomUUID();
    const replay = await svc.call("POST", `/v1/webhook-endpoints/deliveries/${test.body.delivery_id}/replay`, { idempotencyKey: key });
    expect(replay.status, replay.text).toBe(200);
    expect(replay.body).toEqual({ event_id: test.body.event_id });
    await until(async () => (await delivery(test.body.delivery_id)).status === "delivered", 20_000, "the replay to be delivered");
    expect(await delivery(test.body.delivery_id)).toMatchObject({ attempt_count: 2, replay_count: 1, response_code: 200 });
    expect(rejecting.route.received.map((r) => r.webhookId)).toEqual([test.body.event_id, test.body.event_id]);
  }, 60_000);

  it("a 429 with Retry-After: 2 is retried no sooner than 2 seconds later", async () => {
    const throttled = await endpointFor("/throttle", {}, (_r, n) =>
      n === 1 ? { status: 429, headers: { "retry-after": "2" } } : { status: 200 },
    );
    const test = await svc.call("POST", `/v1/webhook-endpoints/${throttled.id}/test`, { idempotencyKey: true });
    expect(test.status, test.text).toBe(202);
    await until(async () => (await delivery(test.body.delivery_id)).status === "delivered", 30_000, "the throttled delivery");
    const [first, second] = throttled.route.received;
    expect(second!.arrivedAt - first!.arrivedAt).toBeGreaterThanOrEqual(2_000);
    const attempts = await svc.call("GET", `/v1/webhook-endpoints/deliveries/${test.body.delivery_id}/attempts`);
    expect(attempts.body.data.map((a: any) => [a.response_code, a.outcome, a.retry_after_seconds])).toEqual([
      [429, "retry_scheduled", 2],
      [200, "acknowledged", null],
    ]);
  }, 60_000);

  it("during a rotation overlap each request verifies with the old and the new secret; after completion only the new", async () => {
    const rotating = await endpointFor("/rotating", {});
    const oldSecret = rotating.secret;
    const rotated = await svc.call("POST", `/v1/webhook-endpoints/${rotating.id}/rotate-secret`, { idempotencyKey: true });
    expect(rotated.status, rotated.text).toBe(200);
    const newSecret: string = rotated.body.secret;
    expect(newSecret).not.toBe(oldSecret);
    rotating.route.secrets.push(newSecret);

    const during = await svc.call("POST", `/v1/webhook-endpoints/${rotating.id}/test`, { idempotencyKey: true });
    await until(() => rotating.route.acknowledged.has(during.body.event_id), 20_000, "the overlap delivery");
    const overlap = rotating.route.received.at(-1)!;
    expect(overlap.verifiedWith).toEqual([true, true]);
    expect(overlap.headers["webhook-signature"]!.split(" ")).toHaveLength(2);

    const completed = await svc.call("POST", `/v1/webhook-endpoints/${rotating.id}/secret-overlap/complete`, { idempotencyKey: true });
    expect(completed.status, completed.text).toBe(200);
    expect(completed.body.secret_overlap).toBeNull();
    const after = await svc.call("POST", `/v1/webhook-endpoints/${rotating.id}/test`, { idempotencyKey: true });
    await until(() => rotating.route.acknowledged.has(after.body.event_id), 20_000, "the post-rotation delivery");
    expect(rotating.route.received.at(-1)!.verifiedWith).toEqual([false, true]);
  }, 60_000);

  it("after auto_disable_after_failures consecutive failures the endpoint is disabled and its unfinished deliveries end visibly", async () => {
    const down = await endpointFor("/down", { auto_disable_after_failures: 3 }, () => ({ status: 503 }));
    const first = await svc.call("POST", `/v1/webhook-endpoints/${down.id}/test`, { idempotencyKey: true });
    expect(first.status, first.text).toBe(202);
    await until(async () => (await svc.call("GET", `/v1/webhook-endpoints/${down.id}`)).body.state === "disabled", 30_000, "auto-disable");
    const endpoint = (await svc.call("GET", `/v1/webhook-endpoints/${down.id}`)).body;
    expect(endpoint).toMatchObject({ state: "disabled", disabled_reason: "consecutive_failures", consecutive_failures: 3 });
    expect(await delivery(first.body.delivery_id)).toMatchObject({
      status: "dead",
      terminal_reason: "endpoint_auto_disabled",
      attempt_count: 3,
      response_code: 503,
    });
    expect(down.route.received).toHaveLength(3);
    // Disabled endpoints take no test events; enabling revalidates and starts a fresh streak.
    expect((await svc.call("POST", `/v1/webhook-endpoints/${down.id}/test`, { idempotencyKey: true })).status).toBe(409);
    const enabled = await svc.call("POST", `/v1/webhook-endpoints/${down.id}/enable`, { idempotencyKey: true });
    expect(enabled.body).toMatchObject({ state: "active", disabled_reason: null, consecutive_failures: 0 });
  }, 60_000);

  it("allowing loopback for local receivers still refuses private, link-local and metadata destinations", async () => {
    for (const url of [
      "http://10.0.0.1/hook",
      "https://10.0.0.1/hook",
      "http://169.254.169.254/latest/meta-data",
      "https://192.168.1.10/",
      "http://[fd00::1]/",
      "http://example.com/hook",
    ]) {
      const res = await svc.call("POST", "/v1/webhook-endpoints", {
        body: { url, event_catalog_version: "svc.customer-events.v1", events: ["asset.signed"] },
        idempotencyKey: true,
      });
      expect(res.status, url).toBe(422);
      expect(res.body.code).toBe("svc.webhooks.destination_refused");
    }
  });
});

describe("events of watermarking jobs", () => {
  it("watermark-then-sign sends asset.signed and asset.watermarked; watermark-only sends asset.watermarked alone", async () => {
    const both = await endpointFor("/both", { events: ["asset.signed", "asset.watermarked"] });
    const image = fixtureBytes("sample-1mp.jpg");
    const first = await uploadAsset(svc, image, "image/jpeg", "wm-sign.jpg");
    const second = await uploadAsset(svc, image, "image/jpeg", "wm-only.jpg");
    for (const [assetId, recipe] of [
      [first.assetId, "rcp_system_watermark_then_sign"],
      [second.assetId, "rcp_system_watermark_only"],
    ] as const) {
      const res = await svc.call("POST", "/v1/sign", { body: { asset_id: assetId, recipe_id: recipe }, idempotencyKey: true });
      expect(res.status, res.text).toBe(202);
    }
    const ofAsset = (assetId: string) => both.route.received.map((r) => JSON.parse(r.body)).filter((e) => e.data.asset_id === assetId);
    await until(() => ofAsset(first.assetId).length === 2 && ofAsset(second.assetId).length === 1, 90_000, "three asset events");
    const [signedEvent, watermarkedEvent] = ["asset.signed", "asset.watermarked"].map((t) =>
      ofAsset(first.assetId).find((e) => e.type === t),
    );
    expect(signedEvent.data).toMatchObject({
      recipe_id: "rcp_system_watermark_then_sign",
      watermark_algorithm: "svc-wm-tiledss-1",
      media_type: "image/jpeg",
    });
    expect(signedEvent.data.manifest_label).toMatch(/^urn:/);
    expect(watermarkedEvent.data.publication_id).toBe(signedEvent.data.publication_id);
    expect(watermarkedEvent.id).not.toBe(signedEvent.id);
    expect(ofAsset(second.assetId)[0]).toMatchObject({
      type: "asset.watermarked",
      data: { manifest_label: null, watermark_algorithm: "svc-wm-tiledss-1" },
    });
    expect(both.route.received.every((r) => r.verifiedWith[0])).toBe(true);
  }, 120_000);
});
