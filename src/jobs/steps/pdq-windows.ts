import type { Bindings } from "../../env";
import { PdqFingerprinter } from "../../media/fingerprint";
import type { ImageServices } from "../../media/types";
import { fromHex, hex } from "../../platform/bytes";
import { PDQ_MIN_QUALITY } from "../../soft-bindings/repo";
import type { VerifyPixels } from "../../verifications/verify-pixels";
import type { FingerprintOutput } from "../outputs";
import { findDeferredWindowsTarget, indexDeferredWindowsRows } from "../repo/pdq-windows";
import { read, StepFailure } from "./common";
import { fingerprintInput, pdqRegions, readPublished } from "./fingerprint";

/*
 * #19: an express answer waits for the publication with its primary signals (watermark payload, PDQ, ISCC, manifest),
 * not for PDQ's crop windows (30, regions.ts PDQ_REGIONS), which serve only the recovery of cropped copies. An express run's fingerprint step
 * defers them (`pdq_regions_deferred`); this follow-up computes them from the published bytes, read exactly as
 * publication and verification read them (readPublished), checks that those pixels give the recorded whole-image
 * PDQ, and indexes them. It runs from the jobs queue (runner.ts: the queue's run of a completed express job), off
 * the request and its isolate's answer, from two durable messages, both idempotent:
 * - a message sent right after the publication (in the request's waitUntil): windows indexed within the queue's
 *   batch timeout (wrangler.toml: 1 s) of the answer, plus the follow-up's own work;
 * - the express job's safety-net message, sent alongside the run and delayed EXPRESS_SAFETY_NET_SECONDS: if the
 *   isolate died before the first was sent, the windows are indexed within that bound of admission.
 * A failure (D1, R2) throws, so the queue redelivers. Until the follow-up ran the publication answers every lookup
 * but a cropped copy's through its windows. The derived-index reconciler only removes windows whose `pdq` binding
 * is gone; a publication without windows is never an orphan to it.
 */

/** What one follow-up did. */
export type DeferredWindowsResult =
  /** The windows were computed; `inserted` rows went into the index (0: none had the quality, or already indexed). */
  | { status: "indexed"; inserted: number }
  /** Nothing deferred: a queue run's job (windows made in the step), already done, or no PDQ worth windows. */
  | { status: "not_deferred" }
  /** The asset no longer publishes this job's output (deleted, replaced): nothing to index. */
  | { status: "gone" }
  /** The published pixels do not decode, or do not give the recorded whole-image PDQ: their windows would be wrong. */
  | { status: "not_indexed"; message: string };

/**
 * Computes and indexes the deferred windows of an express job's publication. `published`: the published bytes when
 * the caller holds them (the signed output), else they are read from R2 (checked by etag). Throws only on a
 * transient failure (D1, R2 unreadable): the queue then redelivers the message.
 */
export async function indexDeferredWindows(
  env: Bindings,
  image: ImageServices,
  tenantId: string,
  jobId: string,
  published: Uint8Array | null,
): Promise<DeferredWindowsResult> {
  const target = await findDeferredWindowsTarget(env.DB, tenantId, jobId);
  if (!target) return { status: "not_deferred" };
  const recorded = JSON.parse(target.stepOutput) as FingerprintOutput;
  if (!recorded.pdq_regions_deferred) return { status: "not_deferred" };
  if (!target.object) return { status: "gone" };
  const whole = recorded.fingerprints.find((f) => f.algorithm === "pdq");
  const pdq = image.fingerprinters.get("pdq");
  const output: FingerprintOutput = { fingerprints: recorded.fingerprints };
  const previous = target.stepOutput;
  const keys = { tenantId, jobId, publicationId: target.publicationId, assetId: target.assetId, previous };
  if (!whole || (whole.quality ?? 0) < PDQ_MIN_QUALITY || !(pdq instanceof PdqFingerprinter)) {
    await indexDeferredWindowsRows(env.DB, keys, [], JSON.stringify(output));
    return { status: "not_deferred" };
  }
  const bytes = published ?? (await read(env.OBJECTS, target.object.key, target.object.etag));
  if (!bytes) throw new Error("the published object is not readable yet"); // transient: the queue retries
  let pixels: VerifyPixels;
  try {
    pixels = await readPublished(image, bytes, target.object.mediaType);
  } catch (error) {
    if (error instanceof StepFailure) return { status: "not_indexed", message: error.message };
    throw error;
  }
  const input = fingerprintInput("pdq", pixels);
  // The windows must be cut from the very pixels the whole-image hash was computed from.
  const again = pdq.compute(input);
  if (again.status !== "computed" || hex(again.bits) !== whole.bits)
    return { status: "not_indexed", message: "the published pixels do not give the recorded PDQ hash; windows not indexed" };
  const regions = pdqRegions(pdq, input);
  if (regions) output.pdq_regions = regions;
  const inserted = await indexDeferredWindowsRows(
    env.DB,
    keys,
    (regions ?? []).map((r) => ({ region: r.region, bits: fromHex(r.bits) })),
    JSON.stringify(output),
  );
  return { status: "indexed", inserted };
}
