import { vi } from "vitest";
import type { Bindings } from "../../../src/env";
import { imageServices } from "../../../src/media";
import type { RgbaImage } from "../../../src/media/types";
import { newId } from "../../../src/platform/ids";
import { api, json, testEnv } from "../support/helpers";
import { signedCopy, texturedRgba } from "../support/verify-helpers";

/** Places a hold the way the operator script does (a row in legal_holds); returns its id. */
export async function placeHold(tenantId: string, assetId: string | null = null): Promise<string> {
  const id = newId("legalHold");
  await testEnv.DB.prepare(
    "INSERT INTO legal_holds (id, tenant_id, scope, asset_id, reason, placed_by, placed_at) VALUES (?, ?, ?, ?, 'Matter 2026-117', 'ops.alice', ?)",
  )
    .bind(id, tenantId, assetId ? "asset" : "account", assetId, Date.now())
    .run();
  return id;
}

export async function releaseHold(id: string) {
  await testEnv.DB.prepare("UPDATE legal_holds SET released_at = ?, released_by = 'ops.bob' WHERE id = ?").bind(Date.now(), id).run();
}

/** Polls a deletion through the API until it is terminal. */
export function waitForDeletion(key: string, deletionId: string, timeoutMs = 60_000): Promise<any> {
  return vi.waitFor(
    async () => {
      const d = await json(await api(`/v1/governance/deletions/${deletionId}`, { key }));
      if (!["completed", "refused", "failed"].includes(d.state)) throw new Error(`deletion ${deletionId} still ${d.state}`);
      return d;
    },
    { timeout: timeoutMs, interval: 50 },
  );
}

/** Polls a deletion's row directly (an account deletion ends with its keys revoked, so the API cannot be asked). */
export function waitForDeletionRow(deletionId: string, timeoutMs = 60_000): Promise<{ state: string; removed: string }> {
  return vi.waitFor(
    async () => {
      const row = await testEnv.DB.prepare("SELECT state, removed FROM governance_deletions WHERE id = ?")
        .bind(deletionId)
        .first<{ state: string; removed: string }>();
      if (!row || !["completed", "refused", "failed"].includes(row.state)) throw new Error(`deletion ${deletionId} still ${row?.state}`);
      return row;
    },
    { timeout: timeoutMs, interval: 50 },
  );
}

/** A textured image (so its PDQ fingerprint is indexed), signed with fingerprints, and a stripped half-size JPEG copy. */
export async function fingerprintedAsset(key: string) {
  const { codec } = await imageServices();
  const w = 480;
  const h = 360;
  const data = texturedRgba(w, h);
  const source = await codec.encode({ width: w, height: h, data } satisfies RgbaImage, "image/png", new Uint8Array());
  if (source.status !== "encoded") throw new Error("encode");
  const signed = await signedCopy(key, source.bytes, "image/png", "rcp_system_sign");
  const decoded = await codec.decode(signed.bytes, "image/png");
  if (decoded.status !== "decoded") throw new Error("decode");
  const half = new Uint8Array((w / 2) * (h / 2) * 4);
  for (let y = 0; y < h / 2; y++)
    for (let x = 0; x < w / 2; x++)
      for (let c = 0; c < 4; c++) {
        const at = (yy: number, xx: number) => decoded.image.data[(yy * w + xx) * 4 + c]!;
        half[(y * (w / 2) + x) * 4 + c] = (at(2 * y, 2 * x) + at(2 * y + 1, 2 * x) + at(2 * y, 2 * x + 1) + at(2 * y + 1, 2 * x + 1)) >> 2;
      }
  const copy = await codec.encode({ width: w / 2, height: h / 2, data: half }, "image/jpeg", new Uint8Array());
  if (copy.status !== "encoded") throw new Error("encode copy");
  return { ...signed, stripped: copy.bytes };
}

/** Rows of `table` for the tenant (and asset, when the table has one and it is given). */
export async function countRows(table: string, tenantId: string, assetId?: string): Promise<number> {
  const where = assetId ? "tenant_id = ? AND asset_id = ?" : "tenant_id = ?";
  const row = await testEnv.DB.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE ${where}`)
    .bind(...(assetId ? [tenantId, assetId] : [tenantId]))
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/** The test env with a queue that sends nothing (a test drives `runDeletion` itself); `sent` records the messages. */
export function quietEnv(overrides: Record<string, unknown> = {}) {
  const sent: unknown[] = [];
  const env = { ...testEnv, JOBS_QUEUE: { send: async (m: unknown) => void sent.push(m) }, ...overrides } as unknown as Bindings;
  return { env, sent };
}

/** The test bucket with `method` wrapped: `before` runs ahead of each call (it may throw, or place a hold). */
export function bucketWith(method: "list" | "delete", before: (args: unknown[]) => Promise<void>): R2Bucket {
  return new Proxy(testEnv.OBJECTS, {
    get(target, prop) {
      if (prop === method)
        return async (...args: unknown[]) => {
          await before(args);
          return (target[method] as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        };
      const value = (target as unknown as Record<PropertyKey, unknown>)[prop];
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** A deletion's row as stored (the columns the tests look at). */
export function deletionRow(id: string) {
  return testEnv.DB.prepare("SELECT state, legal_hold_id, reason_code, audited_at, updated_at FROM governance_deletions WHERE id = ?")
    .bind(id)
    .first<{ state: string; legal_hold_id: string | null; reason_code: string | null; audited_at: number | null; updated_at: number }>();
}

/** How many entries of `action` the tenant's audit chain holds. */
export async function auditCount(tenantId: string, action: string): Promise<number> {
  const row = await testEnv.DB.prepare("SELECT COUNT(*) AS n FROM audit_events WHERE tenant_id = ? AND action = ?")
    .bind(tenantId, action)
    .first<{ n: number }>();
  return row?.n ?? 0;
}
