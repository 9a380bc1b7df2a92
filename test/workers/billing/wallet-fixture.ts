import { testEnv } from "../support/helpers";

/**
 * Opts a tenant in to the wallet with `balanceMicros` (µUSD), straight in D1: the metering tests need a funded wallet
 * before any payment flow runs. The triggers of migration 0021 apply from here on.
 */
export async function seedWallet(tenantId: string, balanceMicros: number, options: { monthlyLimitMicros?: number | null } = {}) {
  const now = Date.now();
  await testEnv.DB.prepare(
    `INSERT INTO wallets (tenant_id, enabled, balance_micros, reserved_micros, spend_month, month_spend_micros, monthly_spend_limit_micros,
       auto_recharge_enabled, auto_recharge_threshold_micros, auto_recharge_amount_micros, recharge_pending, version, created_at, updated_at)
     VALUES (?, 1, ?, 0, ?, 0, ?, 0, NULL, NULL, 0, 1, ?, ?)`,
  )
    .bind(tenantId, balanceMicros, new Date(now).toISOString().slice(0, 7), options.monthlyLimitMicros ?? null, now, now)
    .run();
}

export async function walletOf(tenantId: string) {
  return testEnv.DB.prepare("SELECT balance_micros, reserved_micros, month_spend_micros FROM wallets WHERE tenant_id = ?")
    .bind(tenantId)
    .first<{ balance_micros: number; reserved_micros: number; month_spend_micros: number }>();
}
