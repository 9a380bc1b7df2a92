import { describe, expect, it, vi } from "vitest";
import { PRICING } from "../../../src/billing/pricing";
import { api, createTenant, json } from "../support/helpers";
import { dumpDatabase } from "./wallet-helpers";

const quoteOf = (key: string, body: unknown) => api("/v1/billing/quotes", { method: "POST", key, body });

describe("POST /v1/billing/quotes", () => {
  it("a 12 MP watermark-then-sign: one line per rate, exact string amounts, the estimate constants", async () => {
    const t = await createTenant();
    const res = await quoteOf(t.key, { media_family: "image", operation: "watermark_then_sign", width: 4000, height: 3000 });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({
      lines: [
        { description: "watermark and sign one image", unit: "file", quantity: "1", unit_price_usd: "0.003", amount_usd: "0.003" },
        { description: "watermark, per megapixel", unit: "megapixel", quantity: "12", unit_price_usd: "0.0008", amount_usd: "0.0096" },
      ],
      pricing_version: PRICING.pricing_version,
      total_usd: "0.0126",
      currency: "USD",
      estimate_only: true,
      excludes: ["subscription", "storage", "egress", "tax"],
      final_facts_source: "server_validated_media_inspection",
    });
  });

  it("reads a decimal string duration exactly; numbers and strings give the same quote", async () => {
    const t = await createTenant();
    const fromString = await json(
      await quoteOf(t.key, { media_family: "video", operation: "sign", duration_seconds: "12.345", frames_per_second: "29.97" }),
    );
    const fromNumber = await json(
      await quoteOf(t.key, { media_family: "video", operation: "sign", duration_seconds: 12.345, frames_per_second: 29.97 }),
    );
    expect(fromString).toEqual(fromNumber);
    // 12.345 s × 0.0001 = 0.0012345 → rounded up to the µUSD: 0.001235; plus 0.004 per file.
    expect(fromString.lines[1]).toMatchObject({ unit: "second", quantity: "12.345", amount_usd: "0.001235" });
    expect(fromString.total_usd).toBe("0.005235");
  });

  it("sign of a document needs no dimensions; width and height may be null", async () => {
    const t = await createTenant();
    const body = await json(
      await quoteOf(t.key, { media_family: "document", operation: "sign", width: null, height: null, duration_seconds: null }),
    );
    expect(body.total_usd).toBe("0.002");
  });

  it("writes nothing: no row of any table changes, whatever is quoted (beyond the platform's per-request log)", async () => {
    const t = await createTenant();
    // One call first, so the key's once-a-minute last_used_at write happens before the snapshot.
    await api("/v1/billing/pricing", { key: t.key });
    // Request logs are written after the response (waitUntil), so they are waited for, and counted for this tenant
    // only: a log of an earlier test's request may land at any moment on a loaded machine. The default 1 s of
    // vi.waitFor is too short there.
    const own = (dump: Awaited<ReturnType<typeof dumpDatabase>>) =>
      dump.api_request_logs!.filter((r) => (r as { tenant_id: string }).tenant_id === t.tenantId);
    const before = await vi.waitFor(
      async () => {
        const dump = await dumpDatabase();
        expect(own(dump)).toHaveLength(1);
        return dump;
      },
      { timeout: 60_000, interval: 50 },
    );
    for (const body of [
      { media_family: "image", operation: "sign", width: 100, height: 100 },
      { media_family: "audio", operation: "sign", duration_seconds: "61.5" },
      { media_family: "live", operation: "sign" },
      { media_family: "image", operation: "watermark" },
    ])
      await quoteOf(t.key, body);
    // Every authenticated call appends its api_request_logs row (the key's request log): the only difference.
    const after = await vi.waitFor(
      async () => {
        const dump = await dumpDatabase();
        expect(own(dump)).toHaveLength(5);
        return dump;
      },
      { timeout: 60_000, interval: 50 },
    );
    const { api_request_logs: _afterLogs, ...afterRest } = after;
    const { api_request_logs: _beforeLogs, ...beforeRest } = before;
    expect(afterRest).toEqual(beforeRest);
    expect(before.billing_accounts).toEqual([]);
    expect(before.wallet_reservations).toEqual([]);
  });
});
