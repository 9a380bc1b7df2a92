import { iso } from "../../platform/openapi";
import { addMicros, usd } from "../money";
import { PRICING, type PriceUnit } from "../pricing";
import type { AccountRow, WalletRow } from "../repo/accounts";
import type { UsageRow } from "../repo/wallet";
import { planOf, storedLines } from "./views";

/*
 * GET /v1/usage (issue #17): the period's charges (settled reservations, the same rows GET /v1/billing/charges
 * lists) itemised by media family and operation, so the two always reconcile; plus availability: the credit
 * balance of a metered tenant, or the plan's hard caps for an unmetered one.
 */

const OPERATION_OF_KIND: Record<string, "sign" | "watermark" | "watermark_then_sign"> = {
  sign_only: "sign",
  watermark_only: "watermark",
  watermark_then_sign: "watermark_then_sign",
};

/** Decimal quantity text → integer millionths (quantities carry at most 6 decimals); null when unreadable. */
export function millionths(text: string): bigint | null {
  const match = /^([0-9]{1,15})(?:\.([0-9]{1,6}))?$/.exec(text);
  if (!match) return null;
  return BigInt(match[1]!) * 1_000_000n + BigInt((match[2] ?? "").padEnd(6, "0"));
}

/** Integer millionths → the shortest exact decimal text ("3", "12.5", "0.000001"). */
export function decimalText(value: bigint): string {
  const whole = value / 1_000_000n;
  const fraction = (value % 1_000_000n).toString().padStart(6, "0").replace(/0+$/, "");
  return fraction ? `${whole}.${fraction}` : whole.toString();
}

interface Bucket {
  media_family: string;
  operation: "sign" | "watermark" | "watermark_then_sign";
  jobs: number;
  units: Record<PriceUnit, bigint>;
  amounts: number[];
}

/** Groups the period's charges; the amount of each group is the exact sum of its charges. */
export function itemise(rows: UsageRow[]) {
  const buckets = new Map<string, Bucket>();
  for (const row of rows) {
    const family = row.modality ?? "unknown";
    const operation = OPERATION_OF_KIND[row.kind ?? ""] ?? "sign";
    const key = `${family}\n${operation}`;
    let bucket = buckets.get(key);
    if (!bucket) {
      bucket = { media_family: family, operation, jobs: 0, units: { file: 0n, megapixel: 0n, second: 0n }, amounts: [] };
      buckets.set(key, bucket);
    }
    bucket.jobs += 1;
    bucket.amounts.push(row.amountMicros);
    // Per-unit totals count each unit once per job (a job billed a file line twice is still one file).
    const seen = new Set<PriceUnit>();
    for (const line of storedLines(row.lines)) {
      if (line.unit === "file") {
        if (!seen.has("file")) bucket.units.file += 1_000_000n;
        seen.add("file");
        continue;
      }
      if (seen.has(line.unit)) continue;
      seen.add(line.unit);
      bucket.units[line.unit] += millionths(line.quantity) ?? 0n;
    }
  }
  return [...buckets.values()]
    .sort((a, b) =>
      a.media_family === b.media_family ? a.operation.localeCompare(b.operation) : a.media_family.localeCompare(b.media_family),
    )
    .map((b) => ({
      media_family: b.media_family,
      operation: b.operation,
      jobs: b.jobs,
      units: { file: decimalText(b.units.file), megapixel: decimalText(b.units.megapixel), second: decimalText(b.units.second) },
      amount_usd: usd(addMicros(...b.amounts)),
    }));
}

export function usageView(account: AccountRow, wallet: WalletRow | null, rows: UsageRow[], period: { start: number; end: number }) {
  const plan = planOf(account);
  const metered = wallet?.enabled === true;
  const limit = wallet?.monthlySpendLimitMicros ?? plan.caps.monthly_spend_limit;
  return {
    period_start: iso(period.start),
    period_end: iso(period.end),
    metered,
    items: itemise(rows),
    total_usd: usd(addMicros(...rows.map((r) => r.amountMicros))),
    credit_balance_usd: metered ? usd(wallet.balanceMicros - wallet.reservedMicros) : null,
    caps: metered
      ? null
      : {
          max_upload_bytes: plan.caps.max_upload_bytes,
          jobs_per_minute: plan.caps.jobs_per_minute,
          monthly_spend_limit_usd: limit === null ? null : usd(limit),
        },
    pricing_version: PRICING.pricing_version,
    currency: "USD" as const,
  };
}
