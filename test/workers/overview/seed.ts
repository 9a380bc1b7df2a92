import { newId } from "../../../src/platform/ids";
import { testEnv } from "../support/helpers";

/*
 * Rows written straight to D1 with chosen times and states, so the overview's figures can be checked exactly.
 */

const db = () => testEnv.DB;

export async function seedJob(tenantId: string, state: string, createdAt: number): Promise<string> {
  const id = newId("job");
  await db()
    .prepare(
      `INSERT INTO jobs (id, tenant_id, asset_id, recipe_id, recipe_version, policy_version, active_plan_revision, kind, mode, state, admitted, created_at, updated_at)
       VALUES (?, ?, ?, 'c2pa-sign', 1, 'p1', 1, 'sign_only', 'standard', ?, '{}', ?, ?)`,
    )
    .bind(id, tenantId, newId("asset"), state, createdAt, createdAt)
    .run();
  return id;
}

export async function seedVerification(tenantId: string, overall: string, createdAt: number): Promise<void> {
  await db()
    .prepare(
      `INSERT INTO verifications (id, tenant_id, subject_type, overall, evidence, created_at, validated_at)
       VALUES (?, ?, 'uploaded_object', ?, '{}', ?, ?)`,
    )
    .bind(newId("verification"), tenantId, overall, createdAt, createdAt)
    .run();
}

export async function seedAsset(tenantId: string, kind: string, createdAt: number, status = "uploaded"): Promise<string> {
  const id = newId("asset");
  await db()
    .prepare("INSERT INTO assets (id, tenant_id, kind, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)")
    .bind(id, tenantId, kind, status, createdAt, createdAt)
    .run();
  return id;
}

export async function seedEndpoint(tenantId: string, state: "active" | "disabled", createdAt = Date.now()): Promise<string> {
  const id = newId("webhookEndpoint");
  await db()
    .prepare(
      `INSERT INTO webhook_endpoints (id, tenant_id, url, event_catalog_version, events, max_concurrency, rate_limit_per_minute,
         auto_disable_after_failures, state, secret_ciphertext, created_at, updated_at)
       VALUES (?, ?, 'https://hooks.example.com/x', 'svc.customer-events.v1', '["asset.signed"]', 4, 60, 20, ?, 'sealed', ?, ?)`,
    )
    .bind(id, tenantId, state, createdAt, createdAt)
    .run();
  return id;
}

export async function seedDelivery(tenantId: string, endpointId: string, status: string, createdAt: number): Promise<void> {
  await db()
    .prepare(
      `INSERT INTO webhook_deliveries (id, tenant_id, endpoint_id, event_id, event_type, status, created_at, updated_at)
       VALUES (?, ?, ?, ?, 'asset.signed', ?, ?, ?)`,
    )
    .bind(newId("webhookDelivery"), tenantId, endpointId, newId("webhookEvent"), status, createdAt, createdAt)
    .run();
}
