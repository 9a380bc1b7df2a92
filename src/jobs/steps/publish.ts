import type { Bindings } from "../../env";
import { verifyStreamed } from "../../media/c2pa/stream-verify";
import type { ManifestReader, ManifestReadResult } from "../../media/types";
import { log } from "../../platform/logger";
import { sendFanout } from "../../webhooks/queue";
import type { DurableCredentials, PublicationPlan, SignOutput, WatermarkOutput } from "../outputs";
import type { JobPublicationView, JobRow, ObjectRow } from "../repo";
import { type FoldedRecords, publishBatch } from "../repo/publication";
import { read } from "./common";

/**
 * What the publish step did. `submitted`: the publication batch ran; it took effect unless the job was cancelled
 * or another run published first (the batch's guard), which the runner reads back from the job.
 * `job`: the job's state and cancellation as the batch left it. `view`: an express job's answer, read by the batch that
 * published it (null otherwise).
 * `output_invalid`: our own signed output failed the reference engine's check, so nothing was published.
 */
export type PublishOutcome =
  | { status: "submitted"; job: Pick<JobRow, "state" | "cancelRequestedAt"> | null; view: JobPublicationView | null }
  | { status: "output_invalid"; message: string };

/**
 * Signed recipes: the output is checked with the reference engine, then published with its manifest.
 * `writing`: the sign step's output, or its writes still landing (signStepWriting, express mode, the signed bytes in hand):
 * the check reads those bytes meanwhile, and nothing is published, nor the folded sign record written, before the
 * writes have landed. `folded` then carries the sign step's record, whose output is that settled SignOutput.
 */
export async function publishSigned(
  env: Bindings,
  reader: ManifestReader,
  job: JobRow,
  source: ObjectRow,
  writing: SignOutput | Promise<SignOutput>,
  signedBytes: Uint8Array | null,
  durable: DurableCredentials,
  background?: Background,
  folded: FoldedRecords | null = null,
): Promise<PublishOutcome> {
  let early: ManifestReadResult | null = null;
  if (writing instanceof Promise && signedBytes) early = await reader.read({ bytes: signedBytes, mediaType: source.mediaType });
  const signed = await writing;
  if (writing instanceof Promise && folded) folded = { ...folded, finished: { ...folded.finished, output: signed } };
  if (signed.streamed && signed.output) return publishStreamed(env, reader, job, source, signed, durable, background, folded);
  const sidecar = signed.output === null;
  let verdict = early;
  if (!verdict) {
    // Check our own output with the reference engine before anything is published.
    const assetBytes = sidecar
      ? await read(env.OBJECTS, source.r2Key, source.etag)
      : (signedBytes ?? (await read(env.OBJECTS, signed.output!.key, signed.output!.etag)));
    const manifestStore = sidecar ? await read(env.OBJECTS, signed.manifest.key, signed.manifest.etag) : undefined;
    if (!assetBytes || manifestStore === null) throw new Error("signed output not readable yet"); // transient
    verdict = await reader.read({ bytes: assetBytes, mediaType: source.mediaType, ...(manifestStore ? { manifestStore } : {}) });
  }
  if (verdict.status !== "read" || verdict.check.validation_state === "Invalid" || verdict.check.failure_codes.length > 0) {
    const why = verdict.status === "read" ? verdict.check.failure_codes.join(", ") || verdict.check.validation_state : verdict.status;
    return { status: "output_invalid", message: `The signed output did not validate: ${why}.` };
  }
  return publish(
    env,
    job,
    source,
    {
      output: signed.output,
      sidecarManifest: sidecar ? signed.manifest : null,
      manifestSha256: signed.manifest.sha256,
      manifestLabel: signed.active_manifest_label,
      check: verdict.check,
      durable,
    },
    background,
    folded,
  );
}

/**
 * A streamed output (large media) is checked by streaming too (media/c2pa/stream-sign.ts verifyStreamed: the
 * engine validates the store alone, our code recomputes the hard binding over the stored bytes), then published.
 */
async function publishStreamed(
  env: Bindings,
  reader: ManifestReader,
  job: JobRow,
  source: ObjectRow,
  signed: SignOutput,
  durable: DurableCredentials,
  background?: Background,
  folded: FoldedRecords | null = null,
): Promise<PublishOutcome> {
  const output = signed.output!;
  const manifestStore = await read(env.OBJECTS, signed.manifest.key, signed.manifest.etag);
  if (!manifestStore) throw new Error("signed manifest not readable yet"); // transient
  const verdict = await verifyStreamed({
    bucket: env.OBJECTS,
    key: output.key,
    etag: output.etag,
    mediaType: source.mediaType,
    manifestStore,
    reader,
  });
  if (verdict.status === "unavailable") throw new Error("signed output not readable yet"); // transient
  if (verdict.status !== "read" || verdict.check.validation_state === "Invalid" || verdict.check.failure_codes.length > 0) {
    const why = verdict.status === "read" ? verdict.check.failure_codes.join(", ") || verdict.check.validation_state : verdict.message;
    return { status: "output_invalid", message: `The signed output did not validate: ${why}.` };
  }
  return publish(
    env,
    job,
    source,
    {
      output,
      sidecarManifest: null,
      manifestSha256: signed.manifest.sha256,
      manifestLabel: signed.active_manifest_label,
      check: verdict.check,
      durable,
    },
    background,
    folded,
  );
}

/** Watermark-only recipes: the watermarked output (its mark already read back) is published without a manifest. */
export async function publishUnsigned(
  env: Bindings,
  job: JobRow,
  source: ObjectRow,
  watermarked: WatermarkOutput,
  durable: DurableCredentials,
  background?: Background,
  folded: FoldedRecords | null = null,
): Promise<PublishOutcome> {
  return publish(
    env,
    job,
    source,
    {
      output: watermarked.output,
      sidecarManifest: null,
      manifestSha256: null,
      manifestLabel: null,
      check: null,
      durable,
    },
    background,
    folded,
  );
}

/** Keeps a promise alive past the run (JobServices.background). */
type Background = (work: Promise<unknown>) => void;

/**
 * The publication transaction (repo/publication.ts), then a nudge of the webhook fan-out for its events. The nudge
 * is off the answer's path where the caller can keep it alive (`background`): the events are committed with the
 * publication, and if the nudge is lost the cron sweep fans them out, as when this Worker dies first.
 */
async function publish(
  env: Bindings,
  job: JobRow,
  source: ObjectRow,
  plan: PublicationPlan,
  background?: Background,
  folded: FoldedRecords | null = null,
): Promise<PublishOutcome> {
  const attempt = await publishBatch(env.DB, job, source, plan, folded);
  if (attempt.committed) {
    const nudge = sendFanout(env, attempt.eventIds).catch((error) =>
      log.warn("webhook fan-out nudge failed; the sweep will fan out", { job_id: job.id, error: String(error) }),
    );
    if (background) background(nudge);
    else await nudge;
  }
  return { status: "submitted", job: attempt.job, view: attempt.view };
}
