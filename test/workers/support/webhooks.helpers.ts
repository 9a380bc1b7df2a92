import { expect } from "vitest";
import type { Bindings } from "../../../src/env";
import { newId } from "../../../src/platform/ids";
import type { EngineDeliveryRow } from "../../../src/webhooks/repo/attempts";
import { generateWebhookSecret, sealSecret } from "../../../src/webhooks/signing";
import { api, createTenant, json, testEnv } from "./helpers";

/* Shared by the webhook tests: webhooks.happy / .error / .security (routes) and the batch, set-wise and shared-batch
 * tests (rows inserted directly). */

export const CATALOG = "svc.customer-events.v1";
export const ENDPOINT_ID = /^whe_[a-z2-7]{16}$/;
export const DELIVERY_ID = /^whd_[a-z2-7]{16}$/;
export const EVENT_ID = /^whevt_[a-z2-7]{16}$/;
export const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;
export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/** Well-formed ids that no tenant has. */
export const UNKNOWN_ENDPOINT = "whe_aaaaaaaaaaaaaaaa";
export const UNKNOWN_DELIVERY = "whd_aaaaaaaaaaaaaaaa";
export const UNKNOWN_EVENT = "whevt_aaaaaaaaaaaaaaaa";

export const HOOK_URL = "https://hooks.example.com/svc";

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function createBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { url: HOOK_URL, event_catalog_version: CATALOG, events: ["asset.signed"], ...overrides };
}

export function createRaw(key: string, body: unknown = createBody(), headers?: Record<string, string>): Promise<Response> {
  return api("/v1/webhook-endpoints", { method: "POST", key, body, headers });
}

/** Creates an endpoint and asserts 201; returns the endpoint view and its one-time secret. */
export async function createEndpoint(
  key: string,
  overrides: Record<string, unknown> = {},
): Promise<{ endpoint: any; secret: string; id: string }> {
  const res = await createRaw(key, createBody(overrides));
  const text = await res.text();
  expect(res.status, text).toBe(201);
  const body = JSON.parse(text);
  return { endpoint: body.endpoint, secret: body.secret, id: body.endpoint.endpoint_id };
}

/** POST (or another write method) with an optional JSON body and headers. */
export function write(
  key: string | null,
  path: string,
  options: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Response> {
  return api(path, { method: options.method ?? "POST", key, body: options.body, headers: options.headers });
}

export async function getEndpoint(key: string, id: string): Promise<any> {
  const res = await api(`/v1/webhook-endpoints/${id}`, { key });
  expect(res.status).toBe(200);
  return json(res);
}

export async function getDelivery(key: string, id: string): Promise<any> {
  const res = await api(`/v1/webhook-endpoints/deliveries/${id}`, { key });
  expect(res.status).toBe(200);
  return json(res);
}

export async function listDeliveries(key: string, endpointId: string, query = ""): Promise<any> {
  const res = await api(`/v1/webhook-endpoints/${endpointId}/deliveries${query}`, { key });
  expect(res.status).toBe(200);
  return json(res);
}

export async function listAttempts(key: string, deliveryId: string, query = ""): Promise<any> {
  const res = await api(`/v1/webhook-endpoints/deliveries/${deliveryId}/attempts${query}`, { key });
  expect(res.status).toBe(200);
  return json(res);
}

/** Sends a test event and asserts 202; returns `{delivery_id, event_id}`. */
export async function sendTest(key: string, endpointId: string): Promise<{ delivery_id: string; event_id: string }> {
  const res = await write(key, `/v1/webhook-endpoints/${endpointId}/test`);
  const text = await res.text();
  expect(res.status, text).toBe(202);
  return JSON.parse(text);
}

/**
 * Polls a delivery until `attempt_count >= n` and the attempt is recorded (status no longer `delivering`).
 * Bounded: 100 × 100 ms. The real queue consumer attempts within about a second.
 */
export async function waitForAttempts(key: string, deliveryId: string, n = 1): Promise<any> {
  let last: any;
  for (let i = 0; i < 100; i++) {
    last = await getDelivery(key, deliveryId);
    if (last.attempt_count >= n && last.status !== "delivering") {
      const attempts = await listAttempts(key, deliveryId);
      if (attempts.data.length >= n) return last;
    }
    await sleep(100);
  }
  throw new Error(`delivery ${deliveryId} did not reach ${n} attempt(s): ${JSON.stringify(last)}`);
}

/** Asserts the reason-coded error envelope (SPEC "Errors") and returns the body. */
export async function expectError(res: Response, status: number, code: string): Promise<any> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  const body = JSON.parse(text);
  expect(body.code, text).toBe(code);
  expect(typeof body.message).toBe("string");
  expect(body.message.length).toBeGreaterThan(0);
  expect(body.request_id).toMatch(/^req_[a-z2-7]{16}$/);
  expect(res.headers.get("x-request-id")).toBe(body.request_id);
  expect(typeof body.retryable).toBe("boolean");
  expect(Array.isArray(body.field_details)).toBe(true);
  expect(body.documentation_url).toContain(encodeURIComponent(code));
  return body;
}

/** A customer event written straight to the outbox (what a publishing job does), already fanned out. */
export async function insertCustomerEvent(tenantId: string, type: "asset.signed" | "asset.watermarked", id: string): Promise<void> {
  const now = Date.now();
  const body = JSON.stringify({ id, type, event_catalog_version: CATALOG, timestamp: new Date(now).toISOString(), test: false, data: {} });
  await testEnv.DB.prepare(
    "INSERT INTO webhook_events (id, tenant_id, type, body, test, target_endpoint_id, fanned_out_at, created_at) VALUES (?, ?, ?, ?, 0, NULL, ?, ?)",
  )
    .bind(id, tenantId, type, body, now, now)
    .run();
}

/**
 * One delivery of a fresh, fanned-out event, written straight to D1: `pending` and due now unless told otherwise
 * (`next: null` for none, `lease` for a claim in flight).
 */
export async function insertDelivery(
  tenantId: string,
  endpointId: string,
  d: { status?: string; attempts?: number; attemptBase?: number; next?: number | null; lease?: number | null } = {},
): Promise<string> {
  const eventId = newId("webhookEvent");
  const id = newId("webhookDelivery");
  const now = Date.now();
  await testEnv.DB.batch([
    testEnv.DB.prepare(
      "INSERT INTO webhook_events (id, tenant_id, type, body, test, fanned_out_at, created_at) VALUES (?, ?, 'asset.signed', '{}', 0, ?, ?)",
    ).bind(eventId, tenantId, now, now),
    testEnv.DB.prepare(
      "INSERT INTO webhook_deliveries (id, tenant_id, endpoint_id, event_id, event_type, status, attempt_count, attempt_base, replay_count, next_attempt_at, lease_until, created_at, updated_at) VALUES (?, ?, ?, ?, 'asset.signed', ?, ?, ?, 0, ?, ?, ?, ?)",
    ).bind(
      id,
      tenantId,
      endpointId,
      eventId,
      d.status ?? "pending",
      d.attempts ?? 0,
      d.attemptBase ?? 0,
      d.next === undefined ? now : d.next,
      d.lease ?? null,
      now,
      now,
    ),
  ]);
  return id;
}

/** An event written to the outbox and not fanned out yet (`body` '{}'), as a replay or the fan-out finds it. */
export async function unfannedEvent(tenantId: string, createdAt = Date.now()): Promise<string> {
  const id = newId("webhookEvent");
  await testEnv.DB.prepare(
    "INSERT INTO webhook_events (id, tenant_id, type, body, test, fanned_out_at, created_at) VALUES (?, ?, 'asset.signed', '{}', 0, NULL, ?)",
  )
    .bind(id, tenantId, createdAt)
    .run();
  return id;
}

/** A fresh, well-formed event id. */
export function eventId(): string {
  const alphabet = "abcdefghijklmnopqrstuvwxyz234567";
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `whevt_${[...bytes].map((b) => alphabet[b % 32]).join("")}`;
}

/** Every property name anywhere in a JSON value. */
export function keysDeep(value: unknown, into: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) keysDeep(v, into);
  else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      into.push(k);
      keysDeep(v, into);
    }
  }
  return into;
}

/**
 * `n` deliveries of fresh asset.signed events to one endpoint, each claimed (delivering, leased for a minute) for its
 * attempt number `attemptCount` (as claimRound leaves them), inserted directly.
 */
export async function claimedDeliveries(tenantId: string, endpointId: string, n: number, attemptCount = 1): Promise<string[]> {
  const now = Date.now();
  const ids: string[] = [];
  const statements: D1PreparedStatement[] = [];
  for (let i = 0; i < n; i++) {
    const eventId = newId("webhookEvent");
    const id = newId("webhookDelivery");
    ids.push(id);
    statements.push(
      testEnv.DB.prepare(
        "INSERT INTO webhook_events (id, tenant_id, type, body, test, fanned_out_at, created_at) VALUES (?, ?, 'asset.signed', '{}', 0, ?, ?)",
      ).bind(eventId, tenantId, now, now),
      testEnv.DB.prepare(
        "INSERT INTO webhook_deliveries (id, tenant_id, endpoint_id, event_id, event_type, status, attempt_count, attempt_base, replay_count, lease_until, created_at, updated_at) VALUES (?, ?, ?, ?, 'asset.signed', 'delivering', ?, 0, 0, ?, ?, ?)",
      ).bind(id, tenantId, endpointId, eventId, attemptCount, now + 60_000, now, now),
    );
  }
  for (let i = 0; i < statements.length; i += 50) await testEnv.DB.batch(statements.slice(i, i + 50));
  return ids;
}

/** `n` pending deliveries of fresh asset.signed events (already fanned out) to one endpoint, inserted directly. */
export async function pendingDeliveries(tenantId: string, endpointId: string, n: number): Promise<string[]> {
  const now = Date.now();
  const ids: string[] = [];
  const statements: D1PreparedStatement[] = [];
  for (let i = 0; i < n; i++) {
    const eventId = newId("webhookEvent");
    const deliveryId = newId("webhookDelivery");
    ids.push(deliveryId);
    statements.push(
      testEnv.DB.prepare(
        "INSERT INTO webhook_events (id, tenant_id, type, body, test, fanned_out_at, created_at) VALUES (?, ?, 'asset.signed', ?, 0, ?, ?)",
      ).bind(eventId, tenantId, JSON.stringify({ id: eventId, n: i }), now, now),
      testEnv.DB.prepare(
        "INSERT INTO webhook_deliveries (id, tenant_id, endpoint_id, event_id, event_type, status, attempt_count, attempt_base, replay_count, next_attempt_at, created_at, updated_at) VALUES (?, ?, ?, ?, 'asset.signed', 'pending', 0, 0, 0, ?, ?, ?)",
      ).bind(deliveryId, tenantId, endpointId, eventId, now, now, now),
    );
  }
  await testEnv.DB.batch(statements);
  return ids;
}

/** `n` active endpoints subscribed to asset.signed, inserted directly in one batch (more than the API would allow). */
export async function activeEndpoints(tenantId: string, n: number): Promise<string[]> {
  const now = Date.now();
  const endpoints: string[] = [];
  const statements: D1PreparedStatement[] = [];
  for (let i = 0; i < n; i++) {
    const id = newId("webhookEndpoint");
    endpoints.push(id);
    statements.push(
      testEnv.DB.prepare(
        `INSERT INTO webhook_endpoints (id, tenant_id, url, event_catalog_version, events, max_concurrency, rate_limit_per_minute, auto_disable_after_failures, state, consecutive_failures, secret_ciphertext, created_at, updated_at)
         VALUES (?, ?, 'https://hooks.example.com/svc', 'svc.customer-events.v1', '["asset.signed"]', 5, 60, 20, 'active', 0, ?, ?, ?)`,
      ).bind(id, tenantId, await sealSecret(testEnv.SVC_KEY_PEPPER!, id, generateWebhookSecret()), now, now),
    );
  }
  await testEnv.DB.batch(statements);
  return endpoints;
}

/**
 * testEnv whose D1 tells `hooks` of every round trip: a lone statement's first/run/all/raw, and each batch with the
 * SQL of its statements and the call that sends it (a hook may delay, fail or pass it on).
 */
export function hookedEnv(hooks: {
  roundTrip?: () => void;
  batch?: (sqls: string[], send: () => Promise<D1Result[]>) => Promise<D1Result[]>;
}) {
  const sqlOf = new WeakMap<object, string>();
  const wrap = (s: D1PreparedStatement, sql: string): D1PreparedStatement => {
    const p = new Proxy(s, {
      get(target, key) {
        if (key === "bind") return (...values: unknown[]) => wrap(target.bind(...values), sql);
        if (key === "first" || key === "run" || key === "all" || key === "raw")
          return (...args: unknown[]) => {
            hooks.roundTrip?.();
            return (target[key] as (...a: unknown[]) => unknown).apply(target, args);
          };
        const v = Reflect.get(target, key);
        return typeof v === "function" ? v.bind(target) : v;
      },
    });
    sqlOf.set(p, sql);
    return p;
  };
  const DB = new Proxy(testEnv.DB, {
    get(target, key) {
      if (key === "prepare") return (query: string) => wrap(target.prepare(query), query);
      if (key === "batch")
        return (statements: D1PreparedStatement[]) => {
          hooks.roundTrip?.();
          const send = () => target.batch(statements);
          return hooks.batch
            ? hooks.batch(
                statements.map((st) => sqlOf.get(st) ?? ""),
                send,
              )
            : send();
        };
      const v = Reflect.get(target, key);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
  return { ...testEnv, DB };
}

/** A finished (`delivered`) delivery of a fresh event to a fresh active endpoint of a fresh tenant, and a fresh key. */
export async function finishedDelivery() {
  const tenant = await createTenant();
  const [endpointId] = await activeEndpoints(tenant.tenantId, 1);
  const eventId = newId("webhookEvent");
  await insertCustomerEvent(tenant.tenantId, "asset.signed", eventId);
  const deliveryId = newId("webhookDelivery");
  const now = Date.now();
  await testEnv.DB.prepare(
    `INSERT INTO webhook_deliveries (id, tenant_id, endpoint_id, event_id, event_type, status, attempt_count, attempt_base, replay_count, next_attempt_at, created_at, updated_at)
     VALUES (?, ?, ?, ?, 'asset.signed', 'delivered', 1, 0, 0, NULL, ?, ?)`,
  )
    .bind(deliveryId, tenant.tenantId, endpointId, eventId, now, now)
    .run();
  return { ...tenant, endpointId: endpointId!, eventId, deliveryId, idem: crypto.randomUUID() };
}

/**
 * An env whose D1 runs `before` ahead of a batch whose SQL matches `pattern` (only the first such batch when
 * `once`), then the batch itself: a test's way to make something happen between a request's reads and its write.
 */
export function beforeBatch(
  base: Bindings,
  pattern: RegExp,
  before: (db: D1Database) => Promise<unknown>,
  options: { once?: boolean } = {},
) {
  const real = base.DB;
  let done = false;
  const db = new Proxy(real, {
    get(target, prop) {
      const value = Reflect.get(target, prop);
      if (prop !== "batch") return typeof value === "function" ? value.bind(target) : value;
      return async (statements: D1PreparedStatement[]) => {
        const text = statements.map((s) => String((s as unknown as { statement?: string }).statement ?? "")).join(";");
        if (!(options.once && done) && pattern.test(text)) {
          done = true;
          await before(real);
        }
        return await Reflect.apply(value, target, [statements]);
      };
    },
  });
  return { ...base, DB: db } as unknown as Bindings;
}

/**
 * An env whose D1 batch that completes an idempotency key first lets the request's lease lapse and another attempt
 * take the key over (as claimIdempotencyKey's takeover does 60 s on: a new locked_until on every in-flight claim of
 * the tenant), then runs. `once`: only the first such batch.
 */
export function claimTakenOverBeforeBatch(base: Bindings, tenantId: string, options: { once?: boolean } = {}) {
  return beforeBatch(
    base,
    /UPDATE idempotency_records SET state = 'completed'/,
    (db) =>
      db
        .prepare("UPDATE idempotency_records SET locked_until = locked_until + 60000 WHERE tenant_id = ? AND state = 'in_flight'")
        .bind(tenantId)
        .run(),
    options,
  );
}

/** A delivery row for calling `attempt()` directly (answer-hash tests); ids carry `tag`. */
export function attemptRow(tag: string): EngineDeliveryRow {
  return {
    id: `whdel_${tag}`,
    tenant_id: `ten_${tag}`,
    endpoint_id: `whep_${tag}`,
    event_id: `whevt_${tag}`,
    event_type: "asset.signed",
    status: "pending",
    attempt_count: 1,
    attempt_base: 0,
    next_attempt_at: null,
    lease_until: null,
    endpoint_state: "active",
    max_concurrency: 1,
    rate_limit_per_minute: 60,
  };
}
