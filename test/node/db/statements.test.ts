import { and, eq, lt, or, sql } from "drizzle-orm";
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import { touchLastUsed } from "../../../src/api-keys/repo";
import { insertRequestLogs } from "../../../src/api-keys/repo/request-logs";
import { meteringStateQueries } from "../../../src/billing/repo/accounts";
import type { Database } from "../../../src/db/client";
import * as schema from "../../../src/db/schema";
import { insertStatement, rowOf } from "../../../src/db/statements";
import { assetForAdmission } from "../../../src/jobs/repo";
import { claimIdempotencyKey, completeIdempotencyKey, releaseIdempotencyKey } from "../../../src/platform/idempotency/repo";
import { recordingDb, reference, sqlOf } from "../../support/recording-d1";

/*
 * #19: the hot per-request statements (the idempotency claim, read, completion and release; the request-log inserts;
 * admission's reads) are built once per shape and bound per call (src/db/statements.ts). Each must be exactly the
 * statement drizzle builds for the same values (SQL text and bound values, in order): the references below are the
 * queries as they were written before the shapes.
 */

const { apiKeys, apiRequestLogs, idempotencyRecords, assets, objects, wallets } = schema;

const scope = { tenantId: "ten_1", operation: "POST /v1/sign", key: "idem-1" };
const scopeWhere = and(
  eq(idempotencyRecords.tenantId, scope.tenantId),
  eq(idempotencyRecords.operation, scope.operation),
  eq(idempotencyRecords.idempotencyKey, scope.key),
);
const heldWhere = (lease: number) => and(scopeWhere, eq(idempotencyRecords.state, "in_flight"), eq(idempotencyRecords.lockedUntil, lease));
const now = 1_700_000_000_000;

describe("hot statements built once per shape (#19)", () => {
  it("the idempotency claim, its read on a conflict, the completion and the release are drizzle's statements", async () => {
    const stored = {
      tenant_id: "ten_1",
      operation: scope.operation,
      idempotency_key: scope.key,
      request_sha256: "other",
      state: "completed",
      locked_until: now,
      response_status: 200,
      response_content_type: null,
      response_body: "{}",
      secret_withheld: 1,
      created_at: now - 5,
      expires_at: now + 1000,
    };
    const { db, statements } = recordingDb((sql) => (sql.startsWith("select") ? [stored] : []));
    expect(await claimIdempotencyKey(db, scope, "sha", now)).toEqual({ status: "conflict", reason: "key_reused" });
    const lease = now + 60_000;
    await completeIdempotencyKey(db, scope, lease, { status: 201, contentType: "application/json", body: "{}", withhold: false });
    await completeIdempotencyKey(db, scope, lease, { status: 201, contentType: null, body: "secret", withhold: true });
    await releaseIdempotencyKey(db, scope, lease);
    const complete = (status: number, contentType: string | null, body: string | null, withheld: boolean) =>
      sqlOf(
        reference
          .update(idempotencyRecords)
          .set({
            state: "completed",
            responseStatus: status,
            responseContentType: contentType,
            responseBody: body,
            secretWithheld: withheld,
          })
          .where(heldWhere(lease)),
      );
    expect(statements).toEqual([
      sqlOf(
        reference
          .insert(idempotencyRecords)
          .values({
            tenantId: scope.tenantId,
            operation: scope.operation,
            idempotencyKey: scope.key,
            requestSha256: "sha",
            state: "in_flight",
            lockedUntil: now + 60_000,
            createdAt: now,
            expiresAt: now + 24 * 60 * 60 * 1000,
          })
          .onConflictDoNothing()
          .returning({ key: idempotencyRecords.idempotencyKey }),
      ),
      sqlOf(reference.select().from(idempotencyRecords).where(scopeWhere).limit(1)),
      complete(201, "application/json", "{}", false),
      // the boolean is encoded by its column (1), the nulls bound as null
      complete(201, null, null, true),
      sqlOf(reference.delete(idempotencyRecords).where(heldWhere(lease))),
    ]);
    expect(statements[3]!.params).toContain(1);
  });

  it("a replayed row is read back as drizzle's select returns it (the boolean decoded)", async () => {
    const stored = {
      tenant_id: "ten_1",
      operation: scope.operation,
      idempotency_key: scope.key,
      request_sha256: "sha",
      state: "completed",
      locked_until: now,
      response_status: 200,
      response_content_type: "application/json",
      response_body: "{}",
      secret_withheld: 0,
      created_at: now - 5,
      expires_at: now + 1000,
    };
    const { db } = recordingDb((sql) => (sql.startsWith("select") ? [stored] : []));
    const claim = await claimIdempotencyKey(db, scope, "sha", now);
    expect(claim).toEqual({ status: "replay", row: rowOf(idempotencyRecords, stored) });
    expect(claim.status === "replay" && claim.row.secretWithheld).toBe(false);
  });

  it("request-log inserts are drizzle's insert of the same rows, 12 rows a statement", async () => {
    const rows = Array.from({ length: 14 }, (_, i) => ({
      requestId: `req_${i}`,
      tenantId: "ten_1",
      apiKeyId: "key_1",
      method: "GET",
      operation: "/v1/me",
      status: 200 + i,
      durationMs: i,
      createdAt: now + i,
    }));
    const { db, statements } = recordingDb();
    await insertRequestLogs(db, rows);
    await insertRequestLogs(db, rows.slice(0, 1));
    const insert = (r: typeof rows) => sqlOf(reference.insert(apiRequestLogs).values(r).onConflictDoNothing());
    expect(statements).toEqual([insert(rows.slice(0, 12)), insert(rows.slice(12)), insert(rows.slice(0, 1))]);
  });

  it("an insert shape encodes each value by its column and binds null as null, as drizzle's insert", () => {
    const { db, statements } = recordingDb();
    const row = {
      tenantId: "ten_1",
      operation: "op",
      idempotencyKey: "k",
      requestSha256: "s",
      state: "in_flight" as const,
      lockedUntil: 1,
      responseBody: null,
      secretWithheld: true,
      createdAt: 2,
      expiresAt: 3,
    };
    insertStatement(db, idempotencyRecords, [row]);
    expect(statements).toEqual([sqlOf(reference.insert(idempotencyRecords).values(row))]);
    expect(statements[0]!.params).toContain(1);
    expect(statements[0]!.params).toContain(null);
  });

  it("admission's reads are drizzle's statements for the same values, and its rows drizzle's rows", async () => {
    const assetRaw = { id: "ast_1", tenant_id: "ten_1", kind: "image", status: "uploaded", source_object_id: "aob_1" };
    const walletRaw = {
      tenant_id: "ten_1",
      enabled: 1,
      balance_micros: 5,
      reserved_micros: 0,
      spend_month: "2026-11",
      month_spend_micros: 0,
      monthly_spend_limit_micros: null,
      auto_recharge_enabled: 0,
      auto_recharge_threshold_micros: null,
      auto_recharge_amount_micros: null,
      recharge_pending: 0,
      version: 1,
      created_at: 1,
      updated_at: 2,
    };
    const { db, statements } = recordingDb((sql) =>
      sql.startsWith('select "id", "media_type", "inspection"')
        ? [{ id: "aob_1", media_type: "image/jpeg", inspection: "{}" }]
        : sql.includes('from "assets"')
          ? [assetRaw]
          : sql.includes('from "billing_accounts"')
            ? [{ plan_revision: 3 }]
            : sql.includes('from "wallets"')
              ? [walletRaw]
              : [],
    );
    const found = await assetForAdmission(db, "ten_1", "ast_1");
    const [account, wallet] = meteringStateQueries(reference as unknown as Database, "ten_1");
    expect(statements).toEqual([
      sqlOf(
        reference
          .select()
          .from(assets)
          .where(and(eq(assets.tenantId, "ten_1"), eq(assets.id, "ast_1")))
          .limit(1),
      ),
      sqlOf(
        reference
          .select({ id: objects.id, media_type: objects.mediaType, inspection: objects.inspection })
          .from(objects)
          .where(
            and(
              eq(objects.tenantId, "ten_1"),
              eq(
                objects.id,
                reference
                  .select({ id: assets.sourceObjectId })
                  .from(assets)
                  .where(and(eq(assets.tenantId, "ten_1"), eq(assets.id, "ast_1"))),
              ),
            ),
          )
          .limit(1),
      ),
      sqlOf(account),
      sqlOf(wallet),
    ]);
    expect(found).toEqual({
      asset: rowOf(assets, assetRaw),
      source: { id: "aob_1", mediaType: "image/jpeg", inspection: "{}" },
      metering: { planRevision: 3, wallet: rowOf(wallets, walletRaw) },
    });
    expect(found?.metering.wallet?.enabled).toBe(true);
  });

  it("an api key's last-used write is drizzle's statement for the same values", async () => {
    const { db, statements } = recordingDb();
    await touchLastUsed(db, "key_1", now);
    expect(statements).toEqual([
      sqlOf(
        reference
          .update(apiKeys)
          .set({ lastUsedAt: now })
          .where(and(eq(apiKeys.id, "key_1"), or(sql`${apiKeys.lastUsedAt} IS NULL`, lt(apiKeys.lastUsedAt, now - 60_000)))),
      ),
    ]);
  });

  it("an insert shape refuses a table with a default function (drizzle would compute it once, when the shape is built)", () => {
    const stamped = sqliteTable("stamped", { id: text("id").primaryKey(), at: integer("at").$defaultFn(() => Date.now()) });
    const { db } = recordingDb();
    expect(() => insertStatement(db, stamped, [{ id: "a" }])).toThrow(/default function/);
  });
});
