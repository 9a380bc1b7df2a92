import type { Database } from "../db/client";
import type { Micros } from "./money";
import { DEFAULT_PLAN_ID, type MediaFamily, type PricedOperation, planById, type QuoteFacts, type QuoteLine, quote } from "./pricing";
import { type MeteringState, meteringState } from "./repo/accounts";
import type { ReservationRow } from "./repo/reservations";

/*
 * Metering (issue #17): what admitting one job costs and whether the tenant's wallet is involved. Called by the jobs
 * area (sign, batch items) and the capture area (admissions) before they write the job; the reservation row goes
 * into their batch. A tenant that has not opted in to the wallet is not metered (activation
 * `requires_explicit_tenant_enrollment`); its jobs still record the plan revision in force.
 */

/** The facts a job is priced from: the pipeline's own inspection of the upload, and what the job does. */
export interface JobPricingFacts {
  modality: string;
  recipeKind: string;
  width: number | null;
  height: number | null;
  duration_seconds: number | null;
  frames_per_second: number | null;
  fingerprintSetChanged: boolean;
}

export type Metering =
  /** Not metered: no wallet, or the wallet is off. */
  | { status: "unmetered"; planRevision: number }
  /** Metered: reserve `amount` with this row (inside the admitting batch). */
  | { status: "metered"; planRevision: number; amount: Micros; pricingVersion: string; lines: QuoteLine[]; reservation: ReservationRow }
  /** Metered, but the work has no price (outside the pricing envelope): not admitted. */
  | { status: "unpriced"; message: string }
  /** Metered, and the wallet cannot cover it now (checked again by the database inside the batch). */
  | { status: "insufficient" | "monthly_limit"; amount: Micros; pricingVersion: string };

/**
 * The pricing facts of a job from the upload's stored inspection (NormalizedInspectionFacts JSON, or null when the
 * upload was not inspected): the same facts the pipeline recorded, never the client's claims.
 */
export function pricingFactsOf(
  inspection: string | null,
  modality: string,
  recipeKind: string,
  fingerprintSetChanged = false,
): JobPricingFacts {
  const facts = inspection
    ? (JSON.parse(inspection) as {
        width?: number | null;
        height?: number | null;
        duration_seconds?: number | null;
        frames_per_second?: number | null;
      })
    : {};
  return {
    modality,
    recipeKind,
    width: facts.width ?? null,
    height: facts.height ?? null,
    duration_seconds: facts.duration_seconds ?? null,
    frames_per_second: facts.frames_per_second ?? null,
    fingerprintSetChanged,
  };
}

const OPERATION_OF: Record<string, PricedOperation> = {
  sign_only: "sign",
  watermark_only: "watermark",
  watermark_then_sign: "watermark_then_sign",
};

/** The quote request a job's facts stand for. */
export function quoteFactsOf(facts: JobPricingFacts): QuoteFacts | null {
  const operation = OPERATION_OF[facts.recipeKind];
  if (!operation) return null;
  const family: MediaFamily = facts.modality === "font" ? "document" : (facts.modality as MediaFamily);
  return {
    media_family: family,
    operation,
    width: facts.width,
    height: facts.height,
    duration_seconds: facts.duration_seconds,
    frames_per_second: facts.frames_per_second,
    fingerprint_set_changed: facts.fingerprintSetChanged,
  };
}

function monthToDate(spendMonth: string, spend: Micros, now: number): Micros {
  return spendMonth === new Date(now).toISOString().slice(0, 7) ? spend : 0;
}

/**
 * What admitting this job means for the tenant's wallet. Invariant: `metered` only for an enabled wallet and a
 * priced job whose amount fits balance − reserved and the monthly limit as read now; the database enforces the
 * same inside the batch (a concurrent admission may have taken the room since).
 */
export async function meterJob(
  db: Database,
  tenantId: string,
  jobId: string,
  facts: JobPricingFacts,
  now: number,
  /** The tenant's metering state when the caller already read it in its own batch (sign admission). */
  known?: MeteringState,
): Promise<Metering> {
  const state = known ?? (await meteringState(db, tenantId));
  const planRevision = state.planRevision ?? planById(DEFAULT_PLAN_ID)!.revision;
  const { wallet } = state;
  if (!wallet?.enabled) return { status: "unmetered", planRevision };
  const request = quoteFactsOf(facts);
  if (!request) return { status: "unpriced", message: `No price for ${facts.recipeKind} jobs.` };
  const priced = quote(request);
  if (priced.status !== "ok") return { status: "unpriced", message: priced.message };
  const available = wallet.balanceMicros - wallet.reservedMicros;
  if (priced.total > available) return { status: "insufficient", amount: priced.total, pricingVersion: priced.pricing_version };
  const limit = wallet.monthlySpendLimitMicros;
  if (limit !== null && monthToDate(wallet.spendMonth, wallet.monthSpendMicros, now) + wallet.reservedMicros + priced.total > limit)
    return { status: "monthly_limit", amount: priced.total, pricingVersion: priced.pricing_version };
  return {
    status: "metered",
    planRevision,
    amount: priced.total,
    pricingVersion: priced.pricing_version,
    lines: priced.lines,
    reservation: {
      jobId,
      tenantId,
      amountMicros: priced.total,
      lines: JSON.stringify(priced.lines),
      pricingVersion: priced.pricing_version,
      state: "held",
      createdAt: now,
      endedAt: null,
    },
  };
}
