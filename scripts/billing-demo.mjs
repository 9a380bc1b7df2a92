#!/usr/bin/env node
// The billing flow end to end against a running `npm start` (simulation payments), on a fresh tenant:
// opt in → quote a 12 MP JPEG watermark-then-sign → top up through the simulated checkout and the payments callback
// → sign (the charge equals the quote) → a refund drains the wallet → the next sign answers 402.
// Usage: npm run demo:billing [-- path/to/photo.jpg]   (default: a generated 4000×3000 JPEG)
import { execFileSync } from "node:child_process";
import { createHash, createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "..");
const base = Object.fromEntries(
  readFileSync(join(ROOT, ".svc", "dev.env"), "utf8")
    .trim()
    .split("\n")
    .map((l) => l.split("=")),
);
const created = execFileSync(process.execPath, [join(ROOT, "scripts", "dev-tenant.mjs"), `Billing demo ${Date.now()}`], {
  encoding: "utf8",
});
const env = {
  ...base,
  ...Object.fromEntries(
    created
      .trim()
      .split("\n")
      .filter((l) => l.includes("="))
      .map((l) => l.split("=")),
  ),
};
const photo = process.argv[2]
  ? readFileSync(process.argv[2])
  : await (async () => {
      const m = await import("../bench/lib/images.mjs");
      const img = m.makeImage("photo", 4000, 3000, 7);
      return new Uint8Array(
        await m.jpegEnc.default(
          { data: new Uint8ClampedArray(img.data.buffer), width: 4000, height: 3000, colorSpace: "srgb" },
          { quality: 85 },
        ),
      );
    })();
const BASE = env.SVC_API_BASE_URL,
  KEY = env.SVC_API_KEY;
const h = (extra = {}) => ({ authorization: `Bearer ${KEY}`, "content-type": "application/json", ...extra });
const call = async (method, path, body, extra) => {
  const r = await fetch(BASE + path, { method, headers: h(extra), body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: r.status, json };
};
const idem = () => ({ "idempotency-key": crypto.randomUUID() });
const log = (...a) => console.log(...a);

let w = await call("GET", "/v1/billing/wallet");
const put = await call("PUT", "/v1/billing/wallet/settings", {
  expected_version: w.json.version,
  enabled: true,
  auto_recharge: { enabled: false },
});
log("opt in:", put.status, "version", put.json.version);

async function upload() {
  const bytes = photo;
  const sha = createHash("sha256").update(bytes).digest("hex");
  const c = await call(
    "POST",
    "/v1/uploads",
    { byte_length: bytes.length, declared_media_type: "image/jpeg", mode: "single", sha256: sha, filename: "12mp.jpg" },
    idem(),
  );
  const u = c.json.upload;
  const p = await fetch(u.url, { method: u.method, headers: u.headers, body: bytes });
  if (p.status !== 200) throw new Error(`put ${p.status}`);
  const done = await call("POST", `/v1/uploads/${c.json.upload_id}/complete`, {}, idem());
  if (done.status !== 200) throw new Error(`complete ${done.status}${JSON.stringify(done.json)}`);
  return c.json.asset_id;
}
const recipe = "rcp_system_watermark_then_sign";
const sign = (asset) => call("POST", "/v1/sign", { asset_id: asset, recipe_id: recipe }, idem());

const quote = await call("POST", "/v1/billing/quotes", {
  media_family: "image",
  operation: "watermark_then_sign",
  width: 4000,
  height: 3000,
  duration_seconds: null,
  frames_per_second: null,
});
log("quote 12 MP watermark_then_sign:", quote.status, quote.json.total_usd, quote.json.pricing_version, JSON.stringify(quote.json.lines));

w = await call("GET", "/v1/billing/wallet");
log("wallet before top-up:", w.json.balance_usd, "reserved", w.json.reserved_usd);
const intent = await call(
  "POST",
  "/v1/billing/checkout-intents",
  { purpose: "wallet_top_up", amount_usd: "10.00", success_url: `${BASE}/ok`, cancel_url: `${BASE}/no` },
  idem(),
);
log("intent:", intent.status, intent.json.mode, intent.json.url);
const html = await (await fetch(intent.json.url)).text();
const payload = JSON.parse(/const p=(\{.*?\});document/.exec(html)[1]);
const cb = await fetch(`${BASE}/webhooks/payments`, {
  method: "POST",
  headers: { "content-type": "application/json", "stripe-signature": payload.header },
  body: payload.body,
});
log("callback:", cb.status, await cb.text());
const cb2 = await fetch(`${BASE}/webhooks/payments`, {
  method: "POST",
  headers: { "content-type": "application/json", "stripe-signature": payload.header },
  body: payload.body,
});
log("callback replay:", cb2.status, await cb2.text());
w = await call("GET", "/v1/billing/wallet");
log("wallet after top-up:", w.json.balance_usd);

const asset = await upload();
const s = await sign(asset);
log("sign:", s.status, s.json.job_id, "pricing_version", s.json.pricing_version);
let job;
for (;;) {
  job = await call("GET", `/v1/jobs/${s.json.job_id}`);
  if (["completed", "failed", "rejected", "canceled", "expired"].includes(job.json.state)) break;
  await new Promise((r) => setTimeout(r, 250));
}
log("job:", job.json.state);
const charges = await call("GET", "/v1/billing/charges?limit=1");
log(
  "charge:",
  charges.json.items[0].amount_usd,
  "= quote",
  quote.json.total_usd,
  charges.json.items[0].amount_usd === quote.json.total_usd ? "EQUAL" : "DIFFERENT",
);
w = await call("GET", "/v1/billing/wallet");
log("wallet after sign:", w.json.balance_usd, "reserved", w.json.reserved_usd, "mtd", w.json.month_to_date_spend_usd);

// drain: the top-up is refunded in full (signed like the simulation signs its callbacks)
const secret = process.env.SVC_PAYMENTS_SIMULATION_SECRET ?? "whsec_svc_development_simulation_only";
const charge = { id: `ch_sim_e2e_${Date.now()}`, object: "charge", currency: "usd", metadata: { svc_intent_id: intent.json.id } };
const body = JSON.stringify({
  id: `evt_e2e_${Date.now()}`,
  object: "event",
  type: "charge.refunded",
  created: Math.floor(Date.now() / 1000),
  livemode: false,
  data: { object: { ...charge, amount_refunded: 1000 }, previous_attributes: { amount_refunded: 0 } },
});
const t = Math.floor(Date.now() / 1000);
const sig = createHmac("sha256", secret).update(`${t}.${body}`).digest("hex");
const r = await fetch(`${BASE}/webhooks/payments`, {
  method: "POST",
  headers: { "content-type": "application/json", "stripe-signature": `t=${t},v1=${sig}` },
  body,
});
log("refund:", r.status, await r.text());
w = await call("GET", "/v1/billing/wallet");
log("wallet drained:", w.json.balance_usd);
const asset2 = await upload();
const s2 = await sign(asset2);
log("next sign:", s2.status, s2.json.code, "-", s2.json.message);
