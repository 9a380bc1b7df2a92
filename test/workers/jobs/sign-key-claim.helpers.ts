import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { createApp } from "../../../src/app";
import type { Bindings } from "../../../src/env";
import { utf8 } from "../../../src/platform/bytes";
import { requestFingerprint } from "../../../src/platform/idempotency";
import { seedWallet } from "../billing/wallet-fixture";
import { createTenant, fixture, testEnv, uploadAsset } from "../support/helpers";

/* What the tests of POST /v1/sign's Idempotency-Key claimed in admission's read (sign-key-claim.*) share. */

const app = createApp();
export const SIGN_URL = "http://svc.test/v1/sign";

/** POST /v1/sign on `env` (its D1 may be watched or made to fail), waiting for the request's waitUntil work. */
export async function sign(env: Bindings, apiKey: string, idempotencyKey: string, body: unknown) {
  const ctx = createExecutionContext();
  const res = await app.fetch(
    new Request(SIGN_URL, {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json", "idempotency-key": idempotencyKey },
      body: JSON.stringify(body),
    }),
    env,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return res;
}

/** A fresh tenant (its wallet seeded when asked) with an uploaded 1 MP JPEG, a sign body for it and a fresh key. */
export async function uploaded(options: { wallet?: number } = {}) {
  const tenant = await createTenant();
  if (options.wallet !== undefined) await seedWallet(tenant.tenantId, options.wallet);
  const { assetId } = await uploadAsset(tenant.key, fixture("sample-1mp.jpg"), "image/jpeg", "photo.jpg");
  // standard mode: the key's claim and admission are under test, not the run
  const body = { asset_id: assetId, recipe_id: "rcp_system_express_watermark_then_sign", mode: "standard" };
  const key = crypto.randomUUID();
  const scope = { tenantId: tenant.tenantId, operation: "POST /v1/sign", key };
  const fingerprint = await requestFingerprint("POST", new URL(SIGN_URL), utf8(JSON.stringify(body)), testEnv.SVC_KEY_PEPPER!);
  return { tenant, assetId, body, key, scope, fingerprint };
}

export const count = async (sql: string, ...binds: unknown[]) =>
  (await testEnv.DB.prepare(sql)
    .bind(...binds)
    .first<{ n: number }>())!.n;

/** The key's idempotency row. */
export const keyRow = (scope: { tenantId: string; key: string }) =>
  testEnv.DB.prepare(
    "SELECT state, response_status, locked_until FROM idempotency_records WHERE tenant_id = ? AND operation = 'POST /v1/sign' AND idempotency_key = ?",
  )
    .bind(scope.tenantId, scope.key)
    .first<{ state: string; response_status: number | null; locked_until: number }>();
