import { describe, expect, it } from "vitest";
import { addMicros, parseUsd, usd } from "../../../src/billing/money";
import { PRICING, type PricedOperation, type QuoteLine } from "../../../src/billing/pricing";
import { priceRequest } from "../../../src/billing/service/views";
import { prng } from "../../support/prng";

/** Independent of money.ts: a decimal USD string from the rate table's own text → BigInt µUSD. */
function micros(text: string): bigint {
  const [whole, fraction = ""] = text.split(".");
  return BigInt(whole!) * 1_000_000n + BigInt(fraction.padEnd(6, "0"));
}

/** Independent formatting of BigInt µUSD, the way the wire spells it (2 to 6 decimals). */
function wire(value: bigint): string {
  const sign = value < 0n ? "-" : "";
  const abs = value < 0n ? -value : value;
  let fraction = (abs % 1_000_000n).toString().padStart(6, "0");
  while (fraction.length > 2 && fraction.endsWith("0")) fraction = fraction.slice(0, -1);
  return `${sign}${abs / 1_000_000n}.${fraction}`;
}

const ceilDiv = (n: bigint, d: bigint) => (n + d - 1n) / d;

describe("exact money", () => {
  it("thousands of generated quote lines sum to the µUSD of an independent BigInt computation", () => {
    const random = prng(17);
    const pairs = [...new Set(PRICING.rates.map((r) => `${r.media_family}/${r.operation}`))];
    let expectedTotal = 0n;
    const totals: number[] = [];
    let lineCount = 0;
    for (let i = 0; i < 4000; i++) {
      const [family, operation] = pairs[Math.floor(random() * pairs.length)]!.split("/") as ["image", PricedOperation];
      const width = 1 + Math.floor(random() * 10_000);
      const height = 1 + Math.floor(random() * (100_000_000 / width));
      const millis = 1 + Math.floor(random() * 4 * 3600 * 1000);
      const duration = `${Math.floor(millis / 1000)}.${String(millis % 1000).padStart(3, "0")}`;
      const result = priceRequest({ media_family: family, operation, width, height, duration_seconds: duration, frames_per_second: null });
      if (result.status !== "ok") throw new Error(result.message);
      let expected = 0n;
      for (const rate of PRICING.rates.filter((r) => r.media_family === family && r.operation === operation)) {
        const price = micros(usd(rate.unit_price));
        if (rate.unit === "file") expected += price;
        else if (rate.unit === "megapixel") expected += ceilDiv(price * BigInt(width) * BigInt(height), 1_000_000n);
        else expected += ceilDiv(price * BigInt(millis), 1000n);
      }
      expect(BigInt(result.total)).toBe(expected);
      expect(addMicros(...result.lines.map((l: QuoteLine) => l.amount))).toBe(result.total);
      lineCount += result.lines.length;
      expectedTotal += expected;
      totals.push(result.total);
    }
    expect(lineCount).toBeGreaterThan(6000);
    const total = addMicros(...totals);
    expect(BigInt(total)).toBe(expectedTotal);
    expect(usd(total)).toBe(wire(expectedTotal));
  });

  it("usd() and parseUsd() round-trip every µUSD amount exactly, negative ones included", () => {
    const random = prng(3);
    for (let i = 0; i < 5000; i++) {
      const value = Math.floor(random() * 10_000_000_000_000) * (random() < 0.2 ? -1 : 1);
      expect(usd(value)).toBe(wire(BigInt(value)));
      if (value >= 0) expect(parseUsd(usd(value), 6)).toBe(value);
    }
    expect(usd(0)).toBe("0.00");
    expect(usd(1)).toBe("0.000001");
    expect(usd(-1_000_000)).toBe("-1.00");
  });

  it("refuses amounts outside the exact integer range instead of rounding", () => {
    expect(() => addMicros(Number.MAX_SAFE_INTEGER, 1)).toThrow(RangeError);
    expect(() => usd(0.5)).toThrow(RangeError);
  });
});
