import { database } from "../db/client";
import type { Bindings } from "../env";
import type { AudioServices, ImageServices, ManifestReader, Signer } from "../media/types";
import { log } from "../platform/logger";
import type { VerifyPixels } from "../verifications/verify-pixels";
import type { AdmittedRequest } from "./admission";
import { finishJob } from "./finish";
import { inspectRecord } from "./first-move";
import { REJECTING_CODES } from "./job-errors";
import type { DurableCredentials, FingerprintOutput, SignOutput, WatermarkOutput } from "./outputs";
import { attemptsExhaustedMessage, JOB_LEASE_MS, JOB_START_DEADLINE_MS, MAX_JOB_ATTEMPTS, startDeadlineMessage } from "./policy";
import {
  type AssetRow,
  advanceStep,
  finishCanceled,
  getJob,
  type JobPublicationView,
  type JobRow,
  type JobStepRow,
  markQueued,
  type ObjectRow,
  releaseLease,
  type StepRecord,
  type TakeAndLoad,
  takeJobAndLoad,
} from "./repo";
import type { FoldedRecords } from "./repo/publication";
import { TERMINAL_STATES } from "./schemas";
import { imageServices, readAhead, StepFailure } from "./steps/common";
import { decodePublished, fingerprintStep } from "./steps/fingerprint";
import { audioFingerprintStep, audioServicesOf, isAudio } from "./steps/fingerprint-audio";
import { isVideo, videoFingerprintStep } from "./steps/fingerprint-video";
import { indexDeferredWindows } from "./steps/pdq-windows";
import { type PublishOutcome, publishSigned, publishUnsigned } from "./steps/publish";
import { signStepWriting } from "./steps/sign";
import { memoizeJobPublication } from "./steps/verify-memo";
import { watermarkStep } from "./steps/watermark";
import { audioWatermarkStep } from "./steps/watermark-audio";

/*
 * The job runner, driven by the jobs queue (at-least-once delivery). Each step (steps/) records its completion and
 * output in job_steps and writes its objects under keys derived from (job, step), so a redelivered message
 * resumes after the last finished step. Publication is one D1 batch (repo/publication.ts) that only takes effect if
 * the job is still running and not cancelled: the asset is published exactly once, or not at all.
 */

/** The media engines a run uses; the queue consumer and express mode build them once per isolate. */
export interface JobServices {
  signer: Signer;
  reader: ManifestReader;
  /** Null where the image pipeline is not installed (then recipes that need it are unavailable). */
  image: ImageServices | null;
  /** The audio pipeline, loaded on first use (image jobs never load it); absent where it is not installed. */
  audio?: () => Promise<AudioServices>;
  /**
   * Keeps work alive after the run returns (the request's waitUntil), for what the caller need not wait for: the
   * webhook fan-out nudge, whose events are already committed (the cron sweep sends a nudge that is lost). Absent
   * (the queue consumer): such work is awaited in the run.
   */
  background?: (work: Promise<unknown>) => void;
}

export const JOB_MESSAGE = "job.run";

export async function enqueueJob(env: Bindings, job: { id: string; tenantId: string }, options: { delaySeconds?: number } = {}) {
  await env.JOBS_QUEUE.send({ type: JOB_MESSAGE, job_id: job.id, tenant_id: job.tenantId }, options);
}

/**
 * Hands an admitted job to the queue: `accepted` becomes `queued` once its message is sent. A failed send
 * leaves it `accepted` and the cron sweep sends it. Returns the job as it now is (a fast consumer may already run it).
 */
export async function handOver(env: Bindings, job: JobRow): Promise<JobRow> {
  try {
    await enqueueJob(env, job);
  } catch (error) {
    log.error("enqueue failed; the sweep sends it", { job_id: job.id, error: String(error) });
    return job;
  }
  const db = database(env.DB);
  const now = Date.now();
  if (await markQueued(db, job.id, now)) return { ...job, state: "queued", updatedAt: now };
  return (await getJob(db, job.tenantId, job.id)) ?? job;
}

/** A run that ended without publishing: it has no answer to give (express mode reads the job instead). */
const ended = async (work: Promise<void>): Promise<undefined> => {
  await work;
  return undefined;
};

const logWindows = (jobId: string) => (e: unknown) =>
  log.warn("deferred pdq windows: follow-up not sent; the safety net indexes them", { job_id: jobId, error: String(e) });

const isTerminal = (state: JobRow["state"]) => (TERMINAL_STATES as readonly string[]).includes(state);

/**
 * Runs (or resumes) one job. Returns when the job is terminal or a transient error was thrown for a retry.
 * `admitted`: the row this request just wrote (express mode), saving the read. It only ever spares the first read:
 * the take is conditional on the state and attempts it shows, and if the take fails, the job is read and judged again.
 */
export async function runJob(env: Bindings, services: JobServices, tenantId: string, jobId: string, admitted?: JobRow): Promise<void> {
  await runJobForAnswer(env, services, tenantId, jobId, admitted);
}

/**
 * runJob for express mode: also resolves to the answer's rows when this run published the job (read by the
 * publication batch, so the answer needs no read of its own); to nothing otherwise (the caller reads the job).
 */
export async function runJobForAnswer(
  env: Bindings,
  services: JobServices,
  tenantId: string,
  jobId: string,
  admitted?: JobRow,
  /** The take admission made with the job's insert (SignOptions.takeForRun), for `admitted`: this run's take. */
  admissionTake?: TakeAndLoad | null,
  /**
   * The run follows admission's take with nothing awaited in between (the request had its media services in hand
   * before the take's batch answered): the job as that batch left it is as current as a read would be, so the run
   * starts without reading it back (see runTakenJob). False whenever anything was loaded or awaited after the take.
   */
  takeInHand = false,
): Promise<JobPublicationView | undefined> {
  const db = database(env.DB);
  const job = admitted?.id === jobId && admitted.tenantId === tenantId ? admitted : await getJob(db, tenantId, jobId);
  if (!job) return;
  // A completed express job's safety net indexes the PDQ windows its run deferred, if the run's follow-up was lost.
  if (job.state === "completed" && job.mode === "express" && services.image)
    return ended(
      indexDeferredWindows(env, services.image, tenantId, jobId, null).then(() =>
        memoizeJobPublication(env, services.image!, tenantId, jobId, null),
      ),
    );
  if (isTerminal(job.state)) return;
  if (job.cancelRequestedAt !== null) return ended(finishCanceled(db, job));
  // A job whose runs keep dying (a crash, the CPU or memory limit) is never retried forever.
  if (job.attempts >= MAX_JOB_ATTEMPTS)
    return ended(finishJob(env, job, null, "failed", "svc.jobs.attempts_exhausted", attemptsExhaustedMessage(job.attempts)));
  if (job.attempts === 0 && Date.now() - job.createdAt > JOB_START_DEADLINE_MS)
    return ended(finishJob(env, job, null, "expired", "svc.jobs.expired", startDeadlineMessage()));

  // Take the job: only one runner holds a live lease. A duplicate message (a redelivery, the sweep, express mode's
  // safety net) for a job another runner holds is dropped without spending an attempt; if that runner dies, the
  // sweep re-queues the job when its lease lapses. The take also reads the steps, asset and source (one round trip).
  const take = admissionTake && job === admitted ? admissionTake : await takeJobAndLoad(db, job, Date.now(), JOB_LEASE_MS);
  // The row in hand went stale (a cancellation, another runner): decide again from the stored row.
  if (!take.taken) return job === admitted ? runJobForAnswer(env, services, tenantId, jobId) : undefined;
  try {
    return await runTakenJob(env, services, job, take.steps, take.found, take.begun, takeInHand && take === admissionTake);
  } catch (error) {
    // A transient failure is retried by the queue: give the lease back so the retry may take the job at once.
    await releaseLease(db, job.id, job.attempts + 1, Date.now()).catch(() => undefined);
    throw error;
  }
}

/** The fingerprints of `pixels`, or null where the step would fail (it then runs unfolded and records its failure). */
function tryFingerprint(services: JobServices, admitted: AdmittedRequest, pixels: VerifyPixels): FingerprintOutput | null {
  try {
    // a run with an answer waiting (express: `background`) leaves PDQ's crop windows to its follow-up (pdq-windows.ts)
    return fingerprintStep(imageServices(services), admitted, pixels, { windows: services.background ? "deferred" : "now" });
  } catch {
    return null;
  }
}

/** The body of a run, once this runner holds the job's lease. */
async function runTakenJob(
  env: Bindings,
  services: JobServices,
  taken: JobRow,
  steps: JobStepRow[],
  found: { asset: AssetRow; source: ObjectRow } | null,
  /** The step the take's batch already began (admission's take of an express job: first-move.ts). */
  begun?: string,
  /** runJobForAnswer's `takeInHand`: no wait since that take, so no read back before the begun step's work. */
  takeInHand = false,
): Promise<JobPublicationView | undefined> {
  const db = database(env.DB);
  const tenantId = taken.tenantId;
  // This run's attempt (the take counted it): every record and the publication are bound to it, so a runner whose
  // lease lapsed and was taken over by another records nothing and publishes nothing.
  const attempt = taken.attempts + 1;
  let job = taken;
  const admitted = JSON.parse(job.admitted) as AdmittedRequest;
  if (!found)
    return ended(finishJob(env, job, null, "failed", "svc.jobs.source_unavailable", "The asset's source object is missing.", attempt));
  const { asset, source } = found;
  // The upload's bytes, read while the first step's begin is recorded (two independent round trips in flight at
  // once, not one after the other); the watermark step takes them. Unused if the job is cancelled first. Held
  // behind readAhead, never in this frame: the bytes (up to the upload ceiling) must not live on through the sign step.
  const upload = steps.some((s) => s.step === "watermark" && s.state !== "completed")
    ? readAhead(env.OBJECTS, source.r2Key, source.etag)
    : null;
  // A finished step is recorded in the same D1 batch that starts the next one (advanceStep): one round trip per
  // step. Nothing runs between a step's end and the next begin, so the record is as early as it was before.
  let finished: StepRecord | null = null;
  // Steps whose record needs no work (inspect: the source was inspected at upload), recorded with the next begin.
  let instant: StepRecord[] = [];

  let signed: SignOutput | null = null;
  let signedBytes: Uint8Array | null = null;
  // Express: the sign step's R2 writes, left landing while the publish step checks the signed bytes in hand
  // (signStepWriting). Settled before any record of the sign step is written (`finished` holds it only as a placeholder).
  let signing: Promise<SignOutput> | null = null;
  let watermarked: WatermarkOutput | null = null;
  // The watermarked bytes this run encoded and stored: the sign step signs them without reading them back.
  let watermarkedBytes: Uint8Array | null = null;
  let fingerprinted: FingerprintOutput | null = null;
  // The published pixels as verification reads them, when this run already decoded them (the watermark step's read-back).
  let pixels: VerifyPixels | null = null;
  for (const step of steps) {
    if (step.state === "completed") {
      if (step.step === "sign") signed = JSON.parse(step.output!) as SignOutput;
      if (step.step === "watermark") watermarked = JSON.parse(step.output!) as WatermarkOutput;
      if (step.step === "fingerprint") fingerprinted = JSON.parse(step.output!) as FingerprintOutput;
      continue;
    }
    if (step.step === "inspect") {
      instant.push(inspectRecord(source));
      continue;
    }
    // Fingerprints of pixels this run already holds (the watermark step's read-back) are pure CPU with no side
    // effect: worked out now and recorded with the next begin, one D1 round trip fewer. The batch records them only
    // while the job is held and not cancelled, as their own begin would have checked. A failure is not folded: the
    // step then runs as any other, with its own begin, and fails there.
    if (step.step === "fingerprint" && pixels) {
      const startedAt = Date.now();
      const folded = tryFingerprint(services, admitted, pixels);
      if (folded) {
        fingerprinted = folded;
        pixels = null;
        instant.push({ step: step.step, output: folded, startedAt, completedAt: Date.now() });
        continue;
      }
    }
    // Express mode: the publish step's begin and the record of the step before it ride with the publication batch
    // instead of a round trip of their own (repo/publication.ts FoldedRecords): the publish step's check (the
    // reference reader) has no side effect, and the batch publishes only while this runner holds the job and no
    // cancellation was requested, as this begin would have checked. The price: a run that dies during that check
    // signs again when resumed; the queue's runs (standard mode) keep the finer record, so a resumed one never does.
    // Only a plain record folds (instant ones keep their own batch).
    let folded: FoldedRecords | null = null;
    const folds = step.step === "publish" && job.mode === "express" && finished !== null && instant.length === 0;
    if (signing && !folds) {
      signed = await signing;
      signing = null;
      if (finished?.step === "sign") finished = { step: finished.step, output: signed };
    }
    if (step.step === begun && !finished && instant.length === 0 && takeInHand) {
      // Begun by the batch that took the job (first-move.ts), and nothing was awaited since that batch answered: a
      // read now would show what it showed (a cancellation landing from here on is one landing during this step,
      // which the next batch sees: the step's work is then recorded and the job ends canceled, nothing published).
      begun = undefined;
    } else if (step.step === begun && !finished && instant.length === 0) {
      // Begun by the batch that took the job, with the records before it (first-move.ts): nothing to record. But the
      // request loaded its media services between that take and this run, so a cancellation may have landed, or the
      // take lapsed and another runner took the job: read it (while the upload's read is in flight) before any work.
      begun = undefined;
      const now = await getJob(db, tenantId, taken.id);
      if (!now || now.attempts !== attempt) return; // another runner took the job: it is theirs now
      if (now.cancelRequestedAt !== null) return ended(finishCanceled(db, now));
      job = now;
    } else if (folds && finished) {
      const now = Date.now();
      folded = {
        finished: { step: finished.step, output: finished.output, completedAt: finished.completedAt ?? now },
        publishStartedAt: now,
      };
    } else {
      job = (await advanceStep(db, tenantId, taken.id, { finished, instant, next: step.step }, attempt, JOB_LEASE_MS))!;
      if (job.attempts !== attempt) return; // another runner took the job (this lease lapsed): it is theirs now
      if (job.cancelRequestedAt !== null) return ended(finishCanceled(db, job));
    }
    finished = null;
    instant = [];
    try {
      switch (step.step) {
        case "watermark": {
          if (isAudio(source.mediaType)) {
            const result = await audioWatermarkStep(env, await audioServicesOf(services), job, admitted, source, upload);
            watermarked = result.output;
            watermarkedBytes = result.bytes;
            finished = { step: step.step, output: watermarked, completedAt: Date.now() };
            break;
          }
          const result = await watermarkStep(env, imageServices(services), job, admitted, source, upload);
          watermarked = result.output;
          watermarkedBytes = result.bytes;
          pixels = result.pixels;
          // its own end: the record rides with the sign step's begin, after the fingerprints folded in between
          finished = { step: step.step, output: watermarked, completedAt: Date.now() };
          break;
        }
        case "fingerprint": {
          if (isVideo(source.mediaType)) {
            fingerprinted = await videoFingerprintStep(env, admitted, source);
            finished = { step: step.step, output: fingerprinted };
            break;
          }
          if (isAudio(source.mediaType)) {
            fingerprinted = await audioFingerprintStep(env, await audioServicesOf(services), admitted, source, watermarked);
            finished = { step: step.step, output: fingerprinted };
            break;
          }
          pixels ??= await decodePublished(env, imageServices(services), source, watermarked);
          fingerprinted = fingerprintStep(imageServices(services), admitted, pixels);
          pixels = null;
          finished = { step: step.step, output: fingerprinted };
          break;
        }
        case "sign": {
          pixels = null; // nothing after this needs the pixels: free them before the engine's copy
          const result = await signStepWriting(
            env,
            services.signer,
            job,
            admitted,
            asset.filename,
            source,
            watermarked,
            fingerprinted,
            watermarkedBytes,
          );
          watermarkedBytes = null;
          signedBytes = result.bytes;
          if (job.mode === "express" && result.bytes) {
            // The writes land while the publication's check reads the bytes in hand; settled before any record.
            signing = result.output;
            finished = { step: step.step, output: null };
          } else {
            signed = await result.output;
            finished = { step: step.step, output: signed };
          }
          break;
        }
        case "publish": {
          const durable: DurableCredentials = { watermark: watermarked, fingerprints: fingerprinted };
          let outcome: PublishOutcome;
          const writing = signing ?? signed;
          if (writing)
            outcome = await publishSigned(env, services.reader, job, source, writing, signedBytes, durable, services.background, folded);
          else if (watermarked) outcome = await publishUnsigned(env, job, source, watermarked, durable, services.background, folded);
          else throw new StepFailure("svc.jobs.step_unavailable", "Nothing to publish: the recipe neither signs nor watermarks.");
          if (outcome.status === "output_invalid") {
            // The folded records were not written (no batch ran): written now, so the records read as before the fold
            // (the step before completed, publish begun and then failed), and a cancellation that landed first wins.
            if (folded) {
              const name = folded.finished.step;
              const output = signing ? await signing : folded.finished.output;
              job = (await advanceStep(
                db,
                tenantId,
                taken.id,
                { finished: { step: name, output }, next: "publish" },
                attempt,
                JOB_LEASE_MS,
              ))!;
              if (job.attempts !== attempt) return;
              if (job.cancelRequestedAt !== null) return ended(finishCanceled(db, job));
            }
            return await ended(finishJob(env, job, { step: "publish" }, "failed", "svc.jobs.output_invalid", outcome.message, attempt));
          }
          // The batch did not take effect when a cancellation landed first: finish the cancellation.
          const after = outcome.job;
          if (after && after.state !== "completed" && !isTerminal(after.state) && after.cancelRequestedAt !== null)
            await finishCanceled(db, { ...job, ...after });
          // The deferred PDQ windows: a queue message now (after the answer), the safety net if it is lost (pdq-windows.ts).
          if (fingerprinted?.pdq_regions_deferred && services.background && outcome.view)
            services.background(enqueueJob(env, job).catch(logWindows(taken.id)));
          // A queue run finishing an express job whose run died after deferring them (no answer waits): indexed
          // here, since no follow-up message will come (a throw retries the message: the completed job's run
          // above indexes them then).
          else if (fingerprinted?.pdq_regions_deferred && !services.background && services.image)
            await indexDeferredWindows(env, services.image, tenantId, taken.id, writing ? signedBytes : null);
          // Published: nothing changes the job after its publication, so the batch's read is the answer's.
          return outcome.view ?? undefined;
        }
        default:
          throw new StepFailure("svc.jobs.step_unavailable", `The ${step.step} step is not installed in this deployment.`);
      }
    } catch (error) {
      if (error instanceof StepFailure)
        return ended(
          finishJob(env, job, step, REJECTING_CODES.has(error.code) ? "rejected" : "failed", error.code, error.message, attempt),
        );
      throw error; // transient: the queue retries the message and the job resumes here
    }
  }
  // A recipe whose last step is not the publication: its last record has no next step to ride with.
  if (signing && finished?.step === "sign") finished = { step: finished.step, output: await signing };
  if (finished || instant.length > 0) {
    job = (await advanceStep(db, tenantId, taken.id, { finished, instant, next: null }, attempt, JOB_LEASE_MS))!;
    if (job.attempts !== attempt) return;
    if (job.cancelRequestedAt !== null) return ended(finishCanceled(db, job));
  }
}
