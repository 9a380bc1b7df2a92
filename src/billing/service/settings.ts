import type { Database } from "../../db/client";
import { MICROS_PER_USD, type Micros, parseUsd } from "../money";
import { findWallet, type WalletRow } from "../repo/accounts";
import { insertWallet, updateWalletSettings, type WalletSettings } from "../repo/wallet";

/*
 * Wallet settings (PUT /v1/billing/wallet/settings, issue #17): validation, the console-session rule and the
 * optimistic write. Order: field errors (422), then the console-session rule (403) judged against the wallet at the
 * caller's version, then one conditional write (409 when the version moved or the opt-out guard failed).
 */

export const TOP_UP_MIN: Micros = 10 * MICROS_PER_USD;
export const TOP_UP_MAX: Micros = 10_000 * MICROS_PER_USD;
export const MONTHLY_LIMIT_MAX: Micros = 1_000_000 * MICROS_PER_USD;

/** The settings request after schema validation. */
export interface SettingsRequest {
  auto_recharge: { enabled: boolean; threshold_usd: string | null; amount_usd: string | null };
  enabled: boolean;
  expected_version: number;
  /** Absent: unchanged; null: no limit. */
  monthly_spend_limit_usd?: string | null | undefined;
}

/** Who is asking: only a signed-in console session may turn auto-recharge on or change it while on (#18). */
export interface SettingsCaller {
  consoleSession: boolean;
}

export type SettingsOutcome =
  | { status: "ok"; wallet: WalletRow }
  | { status: "invalid"; field: string; message: string }
  | { status: "console_session_required" }
  | { status: "version_conflict"; currentVersion: number }
  | { status: "opt_out_refused" };

function cents(text: string, min: Micros, max: Micros): Micros | null {
  const value = parseUsd(text, 2);
  return value !== null && value >= min && value <= max ? value : null;
}

/** Validates the amounts into the settings to write (auto-recharge amounts are null while it is off). */
export function settingsFrom(
  request: SettingsRequest,
  current: WalletRow | null,
): { status: "ok"; settings: WalletSettings } | { status: "invalid"; field: string; message: string } {
  let limit: Micros | null = current?.monthlySpendLimitMicros ?? null;
  if (request.monthly_spend_limit_usd === null) limit = null;
  else if (request.monthly_spend_limit_usd !== undefined) {
    limit = cents(request.monthly_spend_limit_usd, 0, MONTHLY_LIMIT_MAX);
    if (limit === null)
      return {
        status: "invalid",
        field: "monthly_spend_limit_usd",
        message: "A decimal string of whole cents, 0.00 to 1000000.00, or null.",
      };
  }
  const auto = request.auto_recharge;
  if (!auto.enabled)
    return {
      status: "ok",
      settings: {
        enabled: request.enabled,
        monthlySpendLimitMicros: limit,
        autoRechargeEnabled: false,
        autoRechargeThresholdMicros: null,
        autoRechargeAmountMicros: null,
      },
    };
  const threshold = auto.threshold_usd === null ? null : cents(auto.threshold_usd, 0, TOP_UP_MAX);
  if (threshold === null)
    return {
      status: "invalid",
      field: "auto_recharge.threshold_usd",
      message: "Required while auto-recharge is on: whole cents, 0.00 to 10000.00.",
    };
  const amount = auto.amount_usd === null ? null : cents(auto.amount_usd, TOP_UP_MIN, TOP_UP_MAX);
  if (amount === null)
    return {
      status: "invalid",
      field: "auto_recharge.amount_usd",
      message: "Required while auto-recharge is on: whole cents, 10.00 to 10000.00.",
    };
  return {
    status: "ok",
    settings: {
      enabled: request.enabled,
      monthlySpendLimitMicros: limit,
      autoRechargeEnabled: true,
      autoRechargeThresholdMicros: threshold,
      autoRechargeAmountMicros: amount,
    },
  };
}

/**
 * Whether the change needs a console session: turning auto-recharge on, or changing its threshold or amount while
 * it stays on. Turning it off, or leaving it exactly as it is, does not.
 */
export function needsConsoleSession(current: WalletRow | null, next: WalletSettings): boolean {
  if (!next.autoRechargeEnabled) return false;
  if (!current?.autoRechargeEnabled) return true;
  return (
    current.autoRechargeThresholdMicros !== next.autoRechargeThresholdMicros ||
    current.autoRechargeAmountMicros !== next.autoRechargeAmountMicros
  );
}

/** Applies a settings request for the tenant. Invariant: at most one request per wallet version succeeds. */
export async function changeSettings(
  db: Database,
  tenantId: string,
  caller: SettingsCaller,
  request: SettingsRequest,
  now = Date.now(),
): Promise<SettingsOutcome> {
  const current = await findWallet(db, tenantId);
  const currentVersion = current?.version ?? 0;
  const validated = settingsFrom(request, current);
  if (validated.status === "invalid") return validated;
  const next = validated.settings;
  if (request.expected_version !== currentVersion) return { status: "version_conflict", currentVersion };
  // Judged against the wallet at the caller's version; the conditional write below guarantees it is still that one.
  if (!caller.consoleSession && needsConsoleSession(current, next)) return { status: "console_session_required" };
  if (current === null) {
    if (await insertWallet(db, tenantId, next, now)) return { status: "ok", wallet: (await findWallet(db, tenantId))! };
    return { status: "version_conflict", currentVersion: (await findWallet(db, tenantId))?.version ?? 0 };
  }
  const optingOut = current.enabled && !next.enabled;
  if (optingOut && (current.balanceMicros < 0 || current.reservedMicros > 0)) return { status: "opt_out_refused" };
  const updated = await updateWalletSettings(db, tenantId, request.expected_version, next, now, optingOut);
  if (updated) return { status: "ok", wallet: updated };
  // Nothing written: either another writer moved the version, or work was reserved (or a debit landed) meanwhile.
  const fresh = await findWallet(db, tenantId);
  if (!fresh || fresh.version !== request.expected_version) return { status: "version_conflict", currentVersion: fresh?.version ?? 0 };
  return { status: "opt_out_refused" };
}
