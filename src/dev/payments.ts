import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../app-types";
import { usd } from "../billing/money";
import { paymentsConfig } from "../billing/payments/config";
import { signatureHeader } from "../billing/payments/signature";
import { simulatedCompletionBody } from "../billing/payments/simulation";
import { ensureAccount } from "../billing/repo/accounts";
import { findIntent } from "../billing/repo/payments";
import { isDevelopment } from "../env";
import { ApiError } from "../platform/errors";
import { idSchema, randomBase32 } from "../platform/ids";
import { errorResponse } from "../platform/openapi";

/*
 * The simulated checkout page (issue #17, development only). The page carries one event, signed here with the
 * simulation secret at render time, and its button POSTs it to /webhooks/payments exactly as a provider would: the
 * secret never reaches the browser, and the callback path under test is the real one. The signature ages out after
 * 300 seconds (reload the page).
 */

const route = createRoute({
  method: "get",
  path: "/dev/payments/checkout/{intent_id}",
  operationId: "getDevPaymentsCheckout",
  tags: ["Development"],
  summary: "Simulated checkout page",
  description:
    "Development deployments in payments `simulation` mode only: the page a simulated checkout intent's `url` points at. Its button sends a signed `checkout.session.completed` to POST /webhooks/payments. Absent (404) elsewhere.",
  request: { params: z.object({ intent_id: idSchema("billingIntent", "The checkout intent.") }) },
  responses: {
    200: { description: "The page.", content: { "text/html": { schema: z.string() } } },
    404: errorResponse("Not a development deployment in simulation mode, or no open simulated checkout with this id."),
  },
});

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

export function registerDevPayments(app: Router) {
  app.openapi(route, async (c) => {
    const notHere = new ApiError("svc.route.not_found", "No simulated checkout here.");
    if (!isDevelopment(c.env) || paymentsConfig(c.env).mode !== "simulation") throw notHere;
    const intent = await findIntent(c.var.db, c.req.valid("param").intent_id);
    if (intent?.mode !== "simulation" || intent.kind !== "checkout") throw notHere;
    const secret = paymentsConfig(c.env).webhookSecrets[0]!;
    const account = await ensureAccount(c.var.db, intent.tenantId);
    const now = Date.now();
    const body = simulatedCompletionBody(intent, account.providerCustomerId ?? `cus_sim_${randomBase32(14)}`, now);
    const header = await signatureHeader(body, secret, Math.floor(now / 1000));
    const what =
      intent.purpose === "wallet_top_up"
        ? `Top up the wallet by USD ${usd(intent.amountMicros ?? 0)}`
        : `Subscribe to plan ${intent.planId ?? "(none)"}`;
    const state = intent.status === "completed" ? "<p>Already completed.</p>" : "";
    const payload = JSON.stringify({ body, header }).replace(/</g, "\\u003c");
    return c.html(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Simulated checkout</title></head><body>
<h1>Simulated checkout</h1><p>No money moves: development simulation.</p><p>${escapeHtml(what)} (intent ${escapeHtml(intent.id)}).</p>${state}
<button id="pay" type="button">Complete checkout</button><pre id="out"></pre>
<script>const p=${payload};document.getElementById("pay").onclick=async()=>{const r=await fetch("/webhooks/payments",{method:"POST",headers:{"content-type":"application/json","stripe-signature":p.header},body:p.body});document.getElementById("out").textContent=r.status+" "+await r.text();};</script>
</body></html>`,
      200,
    );
  });
}
