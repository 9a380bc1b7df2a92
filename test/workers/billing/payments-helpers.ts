import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { vi } from "vitest";
import { DEV_SIMULATION_SECRET } from "../../../src/billing/payments/config";
import { signatureHeader } from "../../../src/billing/payments/signature";
import { database } from "../../../src/db/client";
import { wallets } from "../../../src/db/schema";
import type { Bindings } from "../../../src/env";
import worker from "../../../src/index";
import { randomBase32 } from "../../../src/platform/ids";
import { api, BASE, createTenant, json, testEnv } from "../support/helpers";

export const SIM_SECRET = DEV_SIMULATION_SECRET;
export const STRIPE_BASE = "http://stripe.test";
export const WHSEC = "whsec_test_primary_0123456789";
export const CONSOLE = "https://console.example.com";

/** A sandbox deployment against the local Stripe stand-in. */
export const SANDBOX: Partial<Bindings> = {
  SVC_PAYMENTS_MODE: "sandbox",
  SVC_STRIPE_SECRET_KEY: "sk_test_standin0123456789",
  SVC_STRIPE_API_BASE: STRIPE_BASE,
  SVC_STRIPE_WEBHOOK_SECRETS: `whsec_test_old_secret_abc,${WHSEC}`,
  SVC_STRIPE_PLAN_PRICES: "studio=price_studio_monthly",
  SVC_CONSOLE_ORIGINS: `${CONSOLE}, https://admin.example.com`,
};

/** The Worker's fetch handler with env overrides (as a deployment configured that way would answer). */
export async function apiWith(
  overrides: Partial<Bindings>,
  path: string,
  init: { method?: string; key?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
): Promise<Response> {
  const headers = new Headers(init.headers);
  if (init.key) headers.set("authorization", `Bearer ${init.key}`);
  let body = init.rawBody;
  if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    headers.set("content-type", "application/json");
  }
  const ctx = createExecutionContext();
  const res = await worker.fetch!(
    new Request(`${BASE}${path}`, { method: init.method ?? "GET", headers, body }) as Request<unknown, IncomingRequestCfProperties>,
    { ...testEnv, ...overrides } as never,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return res;
}

/** Opts the tenant in with a balance (what PUT /v1/billing/wallet/settings with expected_version 0 does). */
export async function enableWallet(tenantId: string, balanceMicros = 0, enabled = true): Promise<void> {
  const now = Date.now();
  await database(testEnv.DB)
    .insert(wallets)
    .values({
      tenantId,
      enabled,
      balanceMicros,
      reservedMicros: 0,
      spendMonth: new Date(now).toISOString().slice(0, 7),
      monthSpendMicros: 0,
      monthlySpendLimitMicros: null,
      autoRechargeEnabled: false,
      autoRechargeThresholdMicros: null,
      autoRechargeAmountMicros: null,
      rechargePending: false,
      version: 1,
      createdAt: now,
      updatedAt: now,
    });
}

export async function walletBalance(tenantId: string): Promise<number | null> {
  const row = await database(testEnv.DB).select().from(wallets).where(eq(wallets.tenantId, tenantId)).get();
  return row?.balanceMicros ?? null;
}

/** POSTs a body to /webhooks/payments signed with `secret` at `t` (seconds). */
export async function sendCallback(
  body: string,
  options: { secret?: string; t?: number; header?: string; overrides?: Partial<Bindings> } = {},
): Promise<Response> {
  const header = options.header ?? (await signatureHeader(body, options.secret ?? SIM_SECRET, options.t ?? Math.floor(Date.now() / 1000)));
  return apiWith(options.overrides ?? {}, "/webhooks/payments", {
    method: "POST",
    rawBody: body,
    headers: { "content-type": "application/json", "stripe-signature": header },
  });
}

export type StandInBehaviour = "ok" | "unauthorized" | "network" | "malformed" | "server_error";

/** What the stand-in received: path and form fields (Stripe's API takes form-encoded bodies). */
export interface StandInCall {
  path: string;
  form: URLSearchParams;
  authorization: string | null;
  idempotencyKey: string | null;
}

/**
 * A local HTTP stand-in for the three Stripe endpoints the adapter uses, with bodies shaped like Stripe's published
 * OpenAPI (`customer`, `checkout.session`, `billing_portal.session`) and its error envelope.
 */
export function stripeStandIn(behaviour: () => StandInBehaviour = () => "ok") {
  const calls: StandInCall[] = [];
  /** Charges GET /v1/charges/{id} answers: id → the intent its metadata names. */
  const charges = new Map<string, string>();
  let n = 0;
  const handler = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const form = new URLSearchParams(new TextDecoder().decode(await request.arrayBuffer()));
    calls.push({
      path: url.pathname,
      form,
      authorization: request.headers.get("authorization"),
      idempotencyKey: request.headers.get("idempotency-key"),
    });
    const mode = behaviour();
    if (mode === "network") throw new TypeError("fetch failed: connection refused");
    if (mode === "unauthorized")
      return Response.json(
        { error: { type: "invalid_request_error", message: "Invalid API Key provided: sk_test_****" } },
        { status: 401, headers: { "request-id": "req_standin" } },
      );
    if (mode === "server_error") return Response.json({ error: { type: "api_error", message: "Internal error" } }, { status: 500 });
    if (mode === "malformed") return new Response("<html>not json</html>", { status: 200, headers: { "content-type": "text/html" } });
    n += 1;
    const created = Math.floor(Date.now() / 1000);
    if (url.pathname === "/v1/customers")
      return Response.json({ id: `cus_standin${n}`, object: "customer", created, livemode: false, metadata: metadataOf(form) });
    if (url.pathname === "/v1/checkout/sessions") {
      const id = `cs_test_${randomBase32(24)}`;
      return Response.json({
        id,
        object: "checkout.session",
        url: `https://checkout.stripe.com/c/pay/${id}`,
        expires_at: created + 24 * 3600,
        created,
        mode: form.get("mode"),
        status: "open",
        payment_status: "unpaid",
        client_reference_id: form.get("client_reference_id"),
        customer: form.get("customer"),
        success_url: form.get("success_url"),
        cancel_url: form.get("cancel_url"),
        currency: "usd",
        amount_total: Number(form.get("line_items[0][price_data][unit_amount]") ?? 4900),
        livemode: false,
        metadata: metadataOf(form),
      });
    }
    const charge = /^\/v1\/charges\/([A-Za-z0-9_]+)$/.exec(url.pathname);
    if (charge && request.method === "GET") {
      const intent = charges.get(charge[1]!);
      if (!intent) return Response.json({ error: { type: "invalid_request_error", message: "No such charge" } }, { status: 404 });
      return Response.json({
        id: charge[1],
        object: "charge",
        amount: 2500,
        currency: "usd",
        created,
        livemode: false,
        metadata: { svc_intent_id: intent },
      });
    }
    if (url.pathname === "/v1/billing_portal/sessions")
      return Response.json({
        id: `bps_standin${n}`,
        object: "billing_portal.session",
        url: `https://billing.stripe.com/p/session/test_standin${n}`,
        customer: form.get("customer"),
        return_url: form.get("return_url"),
        created,
        livemode: false,
      });
    return Response.json({ error: { type: "invalid_request_error", message: "Unrecognized request URL" } }, { status: 404 });
  };
  return { calls, charges, handler };
}

function metadataOf(form: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of form) {
    const m = /^metadata\[(.+)\]$/.exec(k);
    if (m) out[m[1]!] = v;
  }
  return out;
}

/** Routes the global fetch to the stand-in for STRIPE_BASE (the Stripe adapter looks fetch up per call). */
export function installStandIn(standIn: ReturnType<typeof stripeStandIn>) {
  const original = globalThis.fetch;
  return vi.spyOn(globalThis, "fetch").mockImplementation((input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    return url.startsWith(STRIPE_BASE) ? standIn.handler(input, init) : original(input, init);
  });
}

/** A Stripe-shaped event body (the exact bytes to sign). */
export function eventBody(type: string, object: Record<string, unknown>, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    id: `evt_test_${randomBase32(20)}`,
    object: "event",
    type,
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    data: { object },
    ...extra,
  });
}

/** The signed event a simulated checkout page carries (what its button posts). */
export function pagePayload(html: string): { body: string; header: string } {
  const m = /const p=(\{.*?\});document/.exec(html);
  if (!m) throw new Error("no payload on the page");
  return JSON.parse(m[1]!);
}

/** A tenant with an enabled, empty wallet and an open top-up checkout intent of `amount` (simulation mode). */
export async function topUpIntent(amount = "25.00") {
  const t = await createTenant();
  await enableWallet(t.tenantId);
  const res = await api("/v1/billing/checkout-intents", {
    method: "POST",
    key: t.key,
    body: { purpose: "wallet_top_up", amount_usd: amount, success_url: "http://svc.test/ok", cancel_url: "http://svc.test/no" },
  });
  return { t, intent: await json(res) };
}
