import { describe, expect, it } from "vitest";
import { MICROS_PER_USD } from "../../../src/billing/money";
import type { WalletRow } from "../../../src/billing/repo/accounts";
import { needsConsoleSession, settingsFrom } from "../../../src/billing/service/settings";
import { decimalText, itemise, millionths } from "../../../src/billing/service/usage";
import { chargeId, paymentsModeOf, priceRequest, storedLines } from "../../../src/billing/service/views";

const base = { width: null, height: null, duration_seconds: null, frames_per_second: null } as const;

describe("priceRequest", () => {
  it("reads decimal strings exactly and refuses non-decimal spellings", () => {
    const ok = priceRequest({ ...base, media_family: "audio", operation: "sign", duration_seconds: "0.001" });
    expect(ok.status).toBe("ok");
    for (const bad of ["1e2", "+1", "1.", ".5", "01", "1,5", ""])
      expect(priceRequest({ ...base, media_family: "audio", operation: "sign", duration_seconds: bad })).toMatchObject({
        status: "invalid",
        field: "duration_seconds",
      });
    expect(priceRequest({ ...base, media_family: "video", operation: "sign", duration_seconds: 1, frames_per_second: "x" })).toMatchObject({
      field: "frames_per_second",
    });
  });

  it("the same facts always give the same lines", () => {
    const facts = { ...base, media_family: "image" as const, operation: "watermark" as const, width: 3001, height: 1999 };
    expect(priceRequest(facts)).toEqual(priceRequest(facts));
  });
});

const on = { enabled: true, threshold_usd: "20.00", amount_usd: "50.00" };
const wallet = (overrides: Partial<WalletRow> = {}): WalletRow => ({
  tenantId: "ten_x",
  enabled: true,
  balanceMicros: 0,
  reservedMicros: 0,
  spendMonth: "2026-11",
  monthSpendMicros: 0,
  monthlySpendLimitMicros: null,
  autoRechargeEnabled: false,
  autoRechargeThresholdMicros: null,
  autoRechargeAmountMicros: null,
  rechargePending: false,
  version: 1,
  createdAt: 0,
  updatedAt: 0,
  ...overrides,
});

describe("wallet settings rules", () => {
  it("bounds: amount 10.00–10000.00, threshold 0.00–10000.00, whole cents", () => {
    const ask = (auto: typeof on) => settingsFrom({ auto_recharge: auto, enabled: true, expected_version: 1 }, null).status;
    expect(ask(on)).toBe("ok");
    expect(ask({ ...on, amount_usd: "10.00" })).toBe("ok");
    expect(ask({ ...on, amount_usd: "10000.00" })).toBe("ok");
    expect(ask({ ...on, threshold_usd: "0.00" })).toBe("ok");
    expect(ask({ ...on, amount_usd: "9.99" })).toBe("invalid");
    expect(ask({ ...on, amount_usd: "10000.01" })).toBe("invalid");
    expect(ask({ ...on, amount_usd: "12.345" })).toBe("invalid");
  });

  it("the console-session rule: on from off, or a change while on, needs a session; off or unchanged does not", () => {
    const next = (auto: typeof on) => {
      const r = settingsFrom({ auto_recharge: auto, enabled: true, expected_version: 1 }, null);
      if (r.status !== "ok") throw new Error("invalid");
      return r.settings;
    };
    const current = wallet({
      autoRechargeEnabled: true,
      autoRechargeThresholdMicros: 20 * MICROS_PER_USD,
      autoRechargeAmountMicros: 50 * MICROS_PER_USD,
    });
    expect(needsConsoleSession(null, next(on))).toBe(true);
    expect(needsConsoleSession(wallet(), next(on))).toBe(true);
    expect(needsConsoleSession(current, next(on))).toBe(false);
    expect(needsConsoleSession(current, next({ ...on, amount_usd: "50.01" }))).toBe(true);
    expect(needsConsoleSession(current, next({ enabled: false, threshold_usd: null, amount_usd: null } as never))).toBe(false);
  });
});

describe("usage and views helpers", () => {
  it("exact decimal quantities", () => {
    expect(millionths("12.5")).toBe(12_500_000n);
    expect(millionths("0.000001")).toBe(1n);
    expect(millionths("1e3")).toBeNull();
    expect(decimalText(12_500_000n)).toBe("12.5");
    expect(decimalText(3_000_000n)).toBe("3");
    expect(decimalText(0n)).toBe("0");
  });

  it("itemises by family and operation; unknown job records group as unknown", () => {
    const lines = JSON.stringify([{ description: "d", unit: "file", quantity: "1", unit_price: 2000, amount: 2000 }]);
    const items = itemise([
      { jobId: "job_a", amountMicros: 2000, lines, modality: "image", kind: "sign_only" },
      { jobId: "job_b", amountMicros: 2000, lines, modality: null, kind: null },
      { jobId: "job_c", amountMicros: 2000, lines: "not json", modality: "image", kind: "sign_only" },
    ]);
    expect(items).toEqual([
      { media_family: "image", operation: "sign", jobs: 2, units: { file: "1", megapixel: "0", second: "0" }, amount_usd: "0.004" },
      { media_family: "unknown", operation: "sign", jobs: 1, units: { file: "1", megapixel: "0", second: "0" }, amount_usd: "0.002" },
    ]);
  });

  it("stored lines are read defensively; charge ids follow the job id", () => {
    expect(storedLines("{")).toEqual([]);
    expect(storedLines('[{"unit":"file"}]')).toEqual([]);
    expect(chargeId("job_abcdefghij234567")).toBe("chg_abcdefghij234567");
  });

  it("payments mode: the adapter intents would use (simulation by default in development only; a Stripe key of the mode's kind)", () => {
    expect(paymentsModeOf({ SVC_ENVIRONMENT: "development" })).toBe("simulation");
    expect(paymentsModeOf({ SVC_ENVIRONMENT: "production" })).toBeNull();
    expect(paymentsModeOf({ SVC_ENVIRONMENT: "production", SVC_PAYMENTS_MODE: "simulation" })).toBeNull();
    expect(paymentsModeOf({ SVC_ENVIRONMENT: "production", SVC_PAYMENTS_MODE: "provider" })).toBeNull();
    expect(paymentsModeOf({ SVC_ENVIRONMENT: "production", SVC_PAYMENTS_MODE: "provider", SVC_STRIPE_SECRET_KEY: "sk_live_x" })).toBe(
      "provider",
    );
    expect(paymentsModeOf({ SVC_ENVIRONMENT: "production", SVC_PAYMENTS_MODE: "provider", SVC_STRIPE_SECRET_KEY: "sk_test_x" })).toBeNull();
    expect(paymentsModeOf({ SVC_ENVIRONMENT: "development", SVC_PAYMENTS_MODE: "sandbox", SVC_STRIPE_SECRET_KEY: "sk_test_x" })).toBe(
      "sandbox",
    );
    expect(paymentsModeOf({ SVC_ENVIRONMENT: "production", SVC_PAYMENTS_MODE: "live" })).toBeNull();
  });
});
