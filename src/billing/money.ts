/*
 * Money (issue #17): every amount is an integer number of micro-dollars (1 USD = 1,000,000 µUSD) in storage and
 * arithmetic, a decimal string on the wire, never a float. Per-unit rates need sub-cent precision (a megapixel costs
 * a fraction of a cent); wallet credits are whole cents. Integers stay exact up to Number.MAX_SAFE_INTEGER µUSD
 * (about 9 billion dollars); every operation here refuses to leave that range.
 */

/** Integer micro-dollars. */
export type Micros = number;

export const MICROS_PER_USD = 1_000_000;
export const MICROS_PER_CENT = 10_000;

function checked(value: number): Micros {
  if (!Number.isSafeInteger(value)) throw new RangeError("amount outside the exact integer range");
  return value;
}

export function addMicros(...values: Micros[]): Micros {
  return checked(values.reduce((sum, v) => checked(sum + checked(v)), 0));
}

/** `units` × `rate`, where units is a decimal count given as an exact fraction (numerator / denominator), rounded up. */
export function timesUnits(rate: Micros, numerator: number, denominator = 1): Micros {
  if (!Number.isSafeInteger(numerator) || !Number.isSafeInteger(denominator) || denominator <= 0 || numerator < 0)
    throw new RangeError("units must be a non-negative exact fraction");
  // BigInt for the product: rate × numerator can pass 2^53 before the division brings it back.
  const product = BigInt(checked(rate)) * BigInt(numerator);
  const d = BigInt(denominator);
  return checked(Number((product + d - 1n) / d));
}

/**
 * The wire form: a decimal string with at least two decimals and no more than needed (µUSD precision), e.g.
 * 12_340_000 → "12.34", 4_800 → "0.0048", -1_000_000 → "-1.00".
 */
export function usd(value: Micros): string {
  checked(value);
  const negative = value < 0;
  const abs = Math.abs(value);
  const whole = Math.floor(abs / MICROS_PER_USD);
  let fraction = String(abs % MICROS_PER_USD).padStart(6, "0");
  while (fraction.length > 2 && fraction.endsWith("0")) fraction = fraction.slice(0, -1);
  return `${negative ? "-" : ""}${whole}.${fraction}`;
}

/**
 * Parses a decimal USD amount exactly: digits, an optional point and at most `maxDecimals` (≤ 6) decimals, no sign,
 * exponent, spaces or leading zeros ("0.50" ok, "00.5" not). Null for anything else.
 */
export function parseUsd(text: string, maxDecimals = 2): Micros | null {
  if (maxDecimals < 0 || maxDecimals > 6) throw new RangeError("maxDecimals must be 0..6");
  const match = /^(0|[1-9][0-9]{0,9})(?:\.([0-9]+))?$/.exec(text);
  if (!match) return null;
  const decimals = match[2] ?? "";
  if (decimals.length > maxDecimals) return null;
  return Number(match[1]) * MICROS_PER_USD + Number(decimals.padEnd(6, "0"));
}

/** Whole cents only (wallet credits and top-ups). */
export function isWholeCents(value: Micros): boolean {
  return Number.isSafeInteger(value) && value % MICROS_PER_CENT === 0;
}
