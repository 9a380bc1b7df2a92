import { expect } from "vitest";
import { type MediaFamily, type PricedOperation, type QuoteFacts, quote } from "../../../src/billing/pricing";
import { newId } from "../../../src/platform/ids";
import { api, json, signUploaded, testEnv } from "../support/helpers";

/*
 * Billing test seeding (issue #17): wallets opt in through the API; money moves only the way production moves it,
 * through the triggers: a top-up is a wallet_transactions row, a charge is a held reservation settled by UPDATE.
 */

export const NO_AUTO = { enabled: false, threshold_usd: null, amount_usd: null };

export function putSettings(key: string, body: Record<string, unknown>) {
  return api("/v1/billing/wallet/settings", { method: "PUT", key, body });
}

/** Opts the tenant in (expected_version 0) and returns the new wallet. */
export async function optIn(key: string, extra: Record<string, unknown> = {}) {
  const res = await putSettings(key, { auto_recharge: NO_AUTO, expected_version: 0, ...extra });
  expect(res.status).toBe(200);
  return json(res);
}

/** Credits the wallet (what a completed top-up callback writes). */
export async function topUp(tenantId: string, micros: number, createdAt = Date.now()) {
  const id = `wtx_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
  await testEnv.DB.prepare(
    "INSERT INTO wallet_transactions (id, tenant_id, kind, amount_micros, provider_event_id, created_at) VALUES (?, ?, 'top_up', ?, NULL, ?)",
  )
    .bind(id, tenantId, micros, createdAt)
    .run();
  return id;
}

const KIND: Record<PricedOperation, string> = {
  sign: "sign_only",
  watermark: "watermark_only",
  watermark_then_sign: "watermark_then_sign",
};

export interface SeededCharge {
  jobId: string;
  amount: number;
  lines: ReturnType<typeof lines>;
  endedAt: number;
}

function lines(facts: QuoteFacts) {
  const q = quote(facts);
  if (q.status !== "ok") throw new Error(`unpriceable facts: ${q.message}`);
  return q;
}

/** Admits a job (held reservation) for the facts; `settle` then settles it (the charge) at `endedAt`. */
export async function hold(tenantId: string, facts: Partial<QuoteFacts> & { media_family: MediaFamily; operation: PricedOperation }) {
  const full: QuoteFacts = { width: null, height: null, duration_seconds: null, frames_per_second: null, ...facts };
  const q = lines(full);
  const jobId = newId("job");
  const now = Date.now();
  const inspection = JSON.stringify({
    modality: full.media_family,
    width: full.width,
    height: full.height,
    duration_seconds: full.duration_seconds,
  });
  await testEnv.DB.batch([
    testEnv.DB.prepare(
      "INSERT INTO jobs (id, tenant_id, asset_id, recipe_id, recipe_version, policy_version, active_plan_revision, pricing_version, kind, mode, state, admitted, media_inspection, attempts, created_at, updated_at) VALUES (?, ?, 'ast_test', 'rcp_system_sign', 1, 'p1', 1, ?, ?, 'standard', 'accepted', '{}', ?, 0, ?, ?)",
    ).bind(jobId, tenantId, q.pricing_version, KIND[full.operation], inspection, now, now),
    testEnv.DB.prepare(
      "INSERT INTO wallet_reservations (job_id, tenant_id, amount_micros, lines, pricing_version, state, created_at, ended_at) VALUES (?, ?, ?, ?, ?, 'held', ?, NULL)",
    ).bind(jobId, tenantId, q.total, JSON.stringify(q.lines), q.pricing_version, now),
  ]);
  return { jobId, amount: q.total, lines: q };
}

export async function settle(jobId: string, endedAt = Date.now()) {
  await testEnv.DB.prepare("UPDATE wallet_reservations SET state = 'settled', ended_at = ? WHERE job_id = ?").bind(endedAt, jobId).run();
}

/** A settled charge for the facts. */
export async function charge(
  tenantId: string,
  facts: Partial<QuoteFacts> & { media_family: MediaFamily; operation: PricedOperation },
  endedAt = Date.now(),
): Promise<SeededCharge> {
  const held = await hold(tenantId, facts);
  await settle(held.jobId, endedAt);
  return { ...held, endedAt };
}

/** Every row of every table, for "writes nothing" assertions. */
export async function dumpDatabase(): Promise<Record<string, unknown[]>> {
  const tables = await testEnv.DB.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name <> 'd1_migrations' ORDER BY name",
  ).all<{ name: string }>();
  const out: Record<string, unknown[]> = {};
  for (const { name } of tables.results) out[name] = (await testEnv.DB.prepare(`SELECT * FROM "${name}" ORDER BY rowid`).all()).results;
  return out;
}

export async function walletRow(tenantId: string) {
  return testEnv.DB.prepare("SELECT * FROM wallets WHERE tenant_id = ?").bind(tenantId).first<Record<string, number | string | null>>();
}

/** Uploads `bytes`, signs them sign-only and waits for the job to complete; answers the job and its charge. */
export async function signAndCharge(key: string, bytes: Uint8Array, mediaType: string) {
  const { job } = await signUploaded(key, bytes, mediaType, "rcp_system_sign_only", "tone");
  const charges = await json(await api("/v1/billing/charges", { key }));
  const charge = charges.items.find((c: { job_id: string }) => c.job_id === job.job_id);
  return { job, charge };
}
