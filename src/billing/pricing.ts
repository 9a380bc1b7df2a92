import { addMicros, type Micros, parseUsd, timesUnits, usd } from "./money";

/*
 * Plans and pricing (issue #17) are versioned data: a change is a new `pricing_version`, never an edit of a published
 * one (a quote, a reservation and a charge each record the version they were priced under). The quote function is
 * pure; the quote operation, sign admission and capture admission all call it with the same inspection facts the
 * pipeline records.
 */

export const MEDIA_FAMILIES = ["image", "audio", "video", "document", "text", "model", "live"] as const;
export type MediaFamily = (typeof MEDIA_FAMILIES)[number];
export const PRICED_OPERATIONS = ["sign", "watermark", "watermark_then_sign"] as const;
export type PricedOperation = (typeof PRICED_OPERATIONS)[number];
export type PriceUnit = "file" | "megapixel" | "second";

/** One rate: `unit_price` per `unit` for one media family and operation. */
export interface Rate {
  media_family: MediaFamily;
  operation: PricedOperation;
  unit: PriceUnit;
  unit_price: Micros;
  /** What the line describes, for the quote. */
  description: string;
}

/** What a quote may be asked about, per family (the pricing envelope): outside it the answer is 422. */
export interface Envelope {
  max_megapixels: number;
  max_duration_seconds: number;
  max_frames_per_second: number;
}

export interface PricingTable {
  pricing_version: string;
  rates: readonly Rate[];
  /** The line added when a sign request names a fingerprint set other than the recipe's default. */
  fingerprint_set_change: Micros;
  envelope: Envelope;
}

export interface Plan {
  id: string;
  display_name: string;
  /** Revision of the plan's terms; jobs record the one in force at admission (`active_plan_revision`). */
  revision: number;
  /** Monthly subscription price (0 for pay-as-you-go). */
  monthly_price: Micros;
  description: string;
  /** Hard caps, as the account reports them. */
  caps: { max_upload_bytes: number; jobs_per_minute: number; monthly_spend_limit: Micros | null };
}

const m = (text: string): Micros => parseUsd(text, 6)!;

/** The pricing in force. A new version is added beside it, never edited in place. */
export const PRICING: PricingTable = {
  pricing_version: "svc.pricing.2026-11.1",
  rates: [
    { media_family: "image", operation: "sign", unit: "file", unit_price: m("0.002"), description: "sign one image" },
    { media_family: "image", operation: "watermark", unit: "megapixel", unit_price: m("0.0008"), description: "watermark, per megapixel" },
    { media_family: "image", operation: "watermark", unit: "file", unit_price: m("0.001"), description: "watermark one image" },
    {
      media_family: "image",
      operation: "watermark_then_sign",
      unit: "file",
      unit_price: m("0.003"),
      description: "watermark and sign one image",
    },
    {
      media_family: "image",
      operation: "watermark_then_sign",
      unit: "megapixel",
      unit_price: m("0.0008"),
      description: "watermark, per megapixel",
    },
    { media_family: "audio", operation: "sign", unit: "file", unit_price: m("0.002"), description: "sign one audio file" },
    { media_family: "audio", operation: "sign", unit: "second", unit_price: m("0.00002"), description: "sign, per second of audio" },
    { media_family: "video", operation: "sign", unit: "file", unit_price: m("0.004"), description: "sign one video" },
    { media_family: "video", operation: "sign", unit: "second", unit_price: m("0.0001"), description: "sign, per second of video" },
    { media_family: "document", operation: "sign", unit: "file", unit_price: m("0.002"), description: "sign one document" },
    { media_family: "text", operation: "sign", unit: "file", unit_price: m("0.001"), description: "sign one text file" },
    { media_family: "model", operation: "sign", unit: "file", unit_price: m("0.002"), description: "sign one model file" },
  ],
  fingerprint_set_change: m("0.0005"),
  envelope: { max_megapixels: 100, max_duration_seconds: 4 * 3600, max_frames_per_second: 240 },
};

export const PLANS: readonly Plan[] = [
  {
    id: "payg",
    display_name: "Pay as you go",
    revision: 1,
    monthly_price: 0,
    description: "No subscription: work is paid from the prepaid wallet at the published rates.",
    caps: { max_upload_bytes: 2 * 1024 ** 3, jobs_per_minute: 600, monthly_spend_limit: null },
  },
  {
    id: "studio",
    display_name: "Studio",
    revision: 1,
    monthly_price: m("49.00"),
    description: "A monthly subscription for production use; work is still paid from the wallet at the published rates.",
    caps: { max_upload_bytes: 2 * 1024 ** 3, jobs_per_minute: 3000, monthly_spend_limit: null },
  },
];

export const DEFAULT_PLAN_ID = "payg";

export function planById(id: string): Plan | null {
  return PLANS.find((p) => p.id === id) ?? null;
}

/** What a quote is asked about (the contract's quote request, or a job's inspection facts). */
export interface QuoteFacts {
  media_family: MediaFamily;
  operation: PricedOperation;
  width: number | null;
  height: number | null;
  duration_seconds: number | null;
  frames_per_second: number | null;
  /** A sign request naming a fingerprint set other than the recipe's default. */
  fingerprint_set_changed?: boolean;
}

export interface QuoteLine {
  description: string;
  unit: PriceUnit;
  quantity: string;
  unit_price: Micros;
  amount: Micros;
}

export type QuoteResult =
  | { status: "ok"; lines: QuoteLine[]; total: Micros; pricing_version: string }
  | { status: "outside_envelope"; field: string; message: string };

/** A positive finite number with at most 3 decimals, as an exact fraction over 1000; null otherwise. */
function thousandths(value: number): number | null {
  if (!Number.isFinite(value) || value <= 0) return null;
  const scaled = Math.round(value * 1000);
  return Math.abs(scaled - value * 1000) < 1e-6 && Number.isSafeInteger(scaled) ? scaled : null;
}

const quantityText = (numerator: number, denominator: number) => {
  const whole = Math.floor(numerator / denominator);
  const rest = numerator % denominator;
  if (rest === 0) return String(whole);
  return `${whole}.${String(rest)
    .padStart(String(denominator).length - 1, "0")
    .replace(/0+$/, "")}`;
};

/**
 * Prices one piece of work. Invariants: pure; exact (integer µUSD, each line rounded up to the µUSD once); the same
 * facts and table always give the same lines; anything outside the table's envelope or without a rate is
 * `outside_envelope` naming the field, never a guess.
 */
export function quote(facts: QuoteFacts, table: PricingTable = PRICING): QuoteResult {
  const rates = table.rates.filter((r) => r.media_family === facts.media_family && r.operation === facts.operation);
  if (rates.length === 0) {
    return { status: "outside_envelope", field: "operation", message: `No price for ${facts.operation} of ${facts.media_family} media.` };
  }
  const lines: QuoteLine[] = [];
  for (const rate of rates) {
    if (rate.unit === "file") {
      lines.push({ description: rate.description, unit: "file", quantity: "1", unit_price: rate.unit_price, amount: rate.unit_price });
      continue;
    }
    if (rate.unit === "megapixel") {
      const { width, height } = facts;
      if (!Number.isSafeInteger(width) || !Number.isSafeInteger(height) || width! <= 0 || height! <= 0)
        return {
          status: "outside_envelope",
          field: width === null || !Number.isSafeInteger(width) || width <= 0 ? "width" : "height",
          message: "width and height (positive integers) are needed to price images.",
        };
      const pixels = width! * height!;
      if (pixels > table.envelope.max_megapixels * 1_000_000)
        return {
          status: "outside_envelope",
          field: "width",
          message: `Images over ${table.envelope.max_megapixels} megapixels are not priced.`,
        };
      lines.push({
        description: rate.description,
        unit: "megapixel",
        quantity: quantityText(pixels, 1_000_000),
        unit_price: rate.unit_price,
        amount: timesUnits(rate.unit_price, pixels, 1_000_000),
      });
      continue;
    }
    const duration = facts.duration_seconds === null ? null : thousandths(facts.duration_seconds);
    if (duration === null)
      return {
        status: "outside_envelope",
        field: "duration_seconds",
        message: "duration_seconds (positive, at most 3 decimals) is needed to price audio and video.",
      };
    if (duration > table.envelope.max_duration_seconds * 1000)
      return {
        status: "outside_envelope",
        field: "duration_seconds",
        message: `Media longer than ${table.envelope.max_duration_seconds} seconds is not priced.`,
      };
    if (
      facts.frames_per_second !== null &&
      !(facts.frames_per_second > 0 && facts.frames_per_second <= table.envelope.max_frames_per_second)
    )
      return {
        status: "outside_envelope",
        field: "frames_per_second",
        message: `frames_per_second must be above 0 and at most ${table.envelope.max_frames_per_second}.`,
      };
    lines.push({
      description: rate.description,
      unit: "second",
      quantity: quantityText(duration, 1000),
      unit_price: rate.unit_price,
      amount: timesUnits(rate.unit_price, duration, 1000),
    });
  }
  if (facts.fingerprint_set_changed) {
    lines.push({
      description: "changed fingerprint set",
      unit: "file",
      quantity: "1",
      unit_price: table.fingerprint_set_change,
      amount: table.fingerprint_set_change,
    });
  }
  return { status: "ok", lines, total: addMicros(...lines.map((l) => l.amount)), pricing_version: table.pricing_version };
}

/** A quote line on the wire. */
export function lineView(line: QuoteLine) {
  return {
    description: line.description,
    unit: line.unit,
    quantity: line.quantity,
    unit_price_usd: usd(line.unit_price),
    amount_usd: usd(line.amount),
  };
}
