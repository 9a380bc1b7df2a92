import { describe, expect, it } from "vitest";
import { database } from "../../../src/db/client";
import type { Bindings } from "../../../src/env";
import { claimIdempotencyKey, isClaimNotTaken } from "../../../src/platform/idempotency";
import { claimInBatchStatements } from "../../../src/platform/idempotency/repo";
import { createTenant, json, testEnv } from "../support/helpers";
import { count, keyRow, sign, uploaded } from "./sign-key-claim.helpers";

/*
 * Review of #19's claim in admission's first read (claimInFirstBatch). The old code claimed the key before the route
 * ran; these pin, outcome by outcome, that the key ends exactly as it did then (each was run on f0c14db and on the
 * change with the same answers and the same D1 state): a refusal after the claim is stored and replayed, a retryable
 * refusal or a failure leaves the key free, a failed claim batch writes nothing, and a key is the tenant's own.
 */

/** testEnv whose D1 batch fails (a storage error, before it runs or after it landed) when its SQL matches `pattern`. */
function failingBatchEnv(pattern: RegExp, when: "before" | "after" = "before") {
  const real = testEnv.DB;
  const seen: string[] = [];
  let failed = false;
  const sqlOf = (s: D1PreparedStatement) => String((s as unknown as { statement?: string }).statement ?? "");
  const DB = new Proxy(real, {
    get(target, prop) {
      const value = Reflect.get(target, prop);
      if (prop === "batch")
        return async (statements: D1PreparedStatement[]) => {
          const sql = statements.map(sqlOf).join(";\n");
          seen.push(sql);
          const run = () => Reflect.apply(value, target, [statements]) as Promise<D1Result[]>;
          if (failed || !pattern.test(sql)) return run();
          failed = true;
          if (when === "after") await run();
          throw new Error("D1_ERROR: Network connection lost.");
        };
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return {
    env: { ...testEnv, DB } as Bindings,
    seen,
    get failed() {
      return failed;
    },
  };
}

const jobsOf = (tenantId: string) => count("SELECT count(*) AS n FROM jobs WHERE tenant_id = ?", tenantId);
const assetStatus = async (assetId: string) =>
  (await testEnv.DB.prepare("SELECT status FROM assets WHERE id = ?").bind(assetId).first<{ status: string }>())?.status;

describe("POST /v1/sign: a key claimed in admission's read ends as a key claimed before the route (#19 review)", () => {
  it("a refusal after the claim (published asset, 409) is stored under the key and replayed; nothing written", async () => {
    const { tenant, assetId, body, key, scope } = await uploaded();
    await testEnv.DB.prepare("UPDATE assets SET status = 'published' WHERE id = ?").bind(assetId).run();
    const first = await sign(testEnv, tenant.key, key, body);
    expect(first.status).toBe(409);
    expect((await json(first.clone())).code).toBe("svc.sign.asset_published");
    expect(await keyRow(scope)).toMatchObject({ state: "completed", response_status: 409 });
    const again = await sign(testEnv, tenant.key, key, body);
    expect(again.status).toBe(409);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.text()).toBe(await first.text());
    expect(await jobsOf(tenant.tenantId)).toBe(0);
  });

  it("a retryable refusal after the claim (asset busy) leaves the key free: no record, the retry runs again", async () => {
    const { tenant, assetId, body, key, scope } = await uploaded();
    await testEnv.DB.prepare("UPDATE assets SET status = 'processing' WHERE id = ?").bind(assetId).run();
    const first = await sign(testEnv, tenant.key, key, body);
    expect(first.status).toBe(409);
    expect((await json(first)).code).toBe("svc.sign.asset_busy");
    expect(await keyRow(scope)).toBeNull();
    await testEnv.DB.prepare("UPDATE assets SET status = 'uploaded' WHERE id = ?").bind(assetId).run();
    const again = await sign(testEnv, tenant.key, key, body);
    expect(again.status, await again.clone().text()).toBe(202);
    expect(again.headers.get("idempotent-replayed")).toBeNull();
    expect(await jobsOf(tenant.tenantId)).toBe(1);
  });

  it("a wallet refusal after the claim (402) is stored and replayed; no job, no reservation", async () => {
    const { tenant, body, key, scope } = await uploaded({ wallet: 1 });
    const first = await sign(testEnv, tenant.key, key, body);
    expect(first.status).toBe(402);
    expect(await keyRow(scope)).toMatchObject({ state: "completed", response_status: 402 });
    const again = await sign(testEnv, tenant.key, key, body);
    expect(again.status).toBe(402);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await jobsOf(tenant.tenantId)).toBe(0);
    expect(await count("SELECT count(*) AS n FROM wallet_reservations WHERE tenant_id = ?", tenant.tenantId)).toBe(0);
  });

  it("a key is the tenant's own: another tenant's 404 for the asset under the same key string leaves the owner's key free", async () => {
    const owner = await uploaded();
    const other = await createTenant();
    const foreign = await sign(testEnv, other.key, owner.key, owner.body);
    expect(foreign.status).toBe(404);
    expect(await keyRow({ tenantId: other.tenantId, key: owner.key })).toMatchObject({ state: "completed", response_status: 404 });
    expect(await keyRow(owner.scope)).toBeNull();
    // the owner's own use of that key string and body runs (its scope, its job), and the stranger's replay is its 404
    const mine = await sign(testEnv, owner.tenant.key, owner.key, owner.body);
    expect(mine.status, await mine.clone().text()).toBe(202);
    expect(mine.headers.get("idempotent-replayed")).toBeNull();
    expect(await jobsOf(owner.tenant.tenantId)).toBe(1);
    expect(await jobsOf(other.tenantId)).toBe(0);
    const replay = await sign(testEnv, other.key, owner.key, owner.body);
    expect(replay.status).toBe(404);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
  });

  it("the claim's batch failing (storage error) writes no claim: 503, and the retry runs once", async () => {
    const { tenant, assetId, body, key, scope } = await uploaded();
    const faulty = failingBatchEnv(/INSERT INTO idempotency_records/);
    const first = await sign(faulty.env, tenant.key, key, body);
    expect(faulty.failed).toBe(true);
    expect(first.status).toBe(503);
    expect((await json(first)).retryable).toBe(true);
    expect(await keyRow(scope)).toBeNull();
    expect(await assetStatus(assetId)).toBe("uploaded");
    const again = await sign(testEnv, tenant.key, key, body);
    expect(again.status, await again.clone().text()).toBe(202);
    expect(await jobsOf(tenant.tenantId)).toBe(1);
    expect(await keyRow(scope)).toMatchObject({ state: "completed", response_status: 202 });
  });

  it("a failure after the claim (the job's write batch) releases the key: 503, no record, the retry admits one job", async () => {
    const { tenant, assetId, body, key, scope } = await uploaded();
    const faulty = failingBatchEnv(/insert into "jobs"/i);
    const first = await sign(faulty.env, tenant.key, key, body);
    expect(faulty.failed).toBe(true);
    // the claim rode in the read before the failing batch
    expect(faulty.seen[0]).toMatch(/INSERT INTO idempotency_records/);
    expect(first.status).toBe(503);
    expect(await keyRow(scope)).toBeNull();
    expect(await jobsOf(tenant.tenantId)).toBe(0);
    expect(await assetStatus(assetId)).toBe("uploaded");
    const again = await sign(testEnv, tenant.key, key, body);
    expect(again.status, await again.clone().text()).toBe(202);
    expect(await jobsOf(tenant.tenantId)).toBe(1);
  });

  it("the job's write batch landing but its answer lost: the job (its id the key's) is found and answered, once", async () => {
    const { tenant, body, key, scope } = await uploaded();
    const faulty = failingBatchEnv(/insert into "jobs"/i, "after");
    const first = await sign(faulty.env, tenant.key, key, body);
    expect(faulty.failed).toBe(true);
    expect(first.status, await first.clone().text()).toBe(202);
    const job = await testEnv.DB.prepare("SELECT id FROM jobs WHERE tenant_id = ?").bind(tenant.tenantId).first<{ id: string }>();
    expect((await json(first)).job_id).toBe(job!.id);
    expect(await keyRow(scope)).toMatchObject({ state: "completed", response_status: 202 });
    const again = await sign(testEnv, tenant.key, key, body);
    expect(again.status).toBe(202);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await jobsOf(tenant.tenantId)).toBe(1);
  });

  it("a key another request holds, and the claim after the failed batch failing too: 503, the holder's claim untouched", async () => {
    const { tenant, assetId, body, key, scope, fingerprint } = await uploaded();
    const held = await claimIdempotencyKey(database(testEnv.DB), scope, fingerprint, Date.now());
    expect(held.status).toBe("claimed");
    // the batch with the claim fails (the key is not free), then recover's own claim meets a storage error
    const real = testEnv.DB;
    let batches = 0;
    let refused = 0;
    const failing = (statement: D1PreparedStatement, sql: string): D1PreparedStatement =>
      new Proxy(statement, {
        get(target, prop) {
          const value = Reflect.get(target, prop);
          if (prop === "bind")
            return (...args: unknown[]) => failing((value as (...a: unknown[]) => D1PreparedStatement).apply(target, args), sql);
          if (
            (prop === "first" || prop === "all" || prop === "run" || prop === "raw") &&
            batches > 0 &&
            /insert into "idempotency_records"/i.test(sql)
          )
            return async () => {
              refused++;
              throw new Error("D1_ERROR: Network connection lost.");
            };
          return typeof value === "function" ? value.bind(target) : value;
        },
      });
    const DB = new Proxy(real, {
      get(target, prop) {
        const value = Reflect.get(target, prop);
        if (prop === "batch")
          return (statements: D1PreparedStatement[]) => {
            batches++;
            return Reflect.apply(value, target, [statements]);
          };
        if (prop === "prepare") return (sql: string) => failing(target.prepare(sql), sql);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const res = await sign({ ...testEnv, DB } as Bindings, tenant.key, key, body);
    expect(batches).toBe(1);
    expect(refused).toBeGreaterThan(0);
    expect(res.status, await res.clone().text()).toBe(503);
    expect(await keyRow(scope)).toMatchObject({ state: "in_flight", locked_until: held.status === "claimed" ? held.lease : -1 });
    expect(await jobsOf(tenant.tenantId)).toBe(0);
    expect(await assetStatus(assetId)).toBe("uploaded");
  });

  it("the claim's statements roll back with their batch: a later statement failing leaves no claim; a key not free fails the batch", async () => {
    const { scope, fingerprint } = await uploaded();
    const d1 = testEnv.DB;
    // the claim is taken (its guard passes), then the batch fails after it: one transaction, so no claim remains
    const claim = claimInBatchStatements(d1, scope, fingerprint, Date.now());
    await expect(d1.batch([...claim.statements, d1.prepare("SELECT json_extract('{}', 'a later failure') AS x")])).rejects.toThrow();
    expect(await keyRow(scope)).toBeNull();
    // taken for real, the key is not free for a second claim in a batch: its guard fails that batch, reads and all
    const taken = claimInBatchStatements(d1, scope, fingerprint, Date.now());
    await d1.batch(taken.statements);
    const second = claimInBatchStatements(d1, scope, fingerprint, Date.now() + 1);
    const error = await d1.batch([...second.statements, d1.prepare("SELECT 1 AS one")]).then(
      () => null,
      (e: unknown) => e,
    );
    expect(isClaimNotTaken(error)).toBe(true);
    expect(await keyRow(scope)).toMatchObject({ state: "in_flight", locked_until: taken.lease });
  });
});
