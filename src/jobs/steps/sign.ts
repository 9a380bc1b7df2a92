import { formatOf } from "../../catalog/formats";
import type { Bindings } from "../../env";
import { softBindingAssertions } from "../../media/soft-binding";
import type { ManifestPlan, Signer } from "../../media/types";
import { fromHex } from "../../platform/bytes";
import { log } from "../../platform/logger";
import { isStreamedUpload } from "../../uploads/large-inspection";
import type { AdmittedRequest } from "../admission";
import type { FingerprintOutput, SignOutput, WatermarkOutput } from "../outputs";
import type { JobRow, ObjectRow } from "../repo";
import { put, read, StepFailure } from "./common";
import { manifestPlanFor } from "./manifest-plan";
import { signStreamedStep } from "./sign-streamed";

/**
 * Signs the bytes to publish (the watermarked output, else the upload) with a manifest that carries the soft
 * bindings of the earlier steps, and stores the manifest store (and, on the embedded lane, the signed asset).
 * Answers once the output is signed, while its R2 writes may still be under way: `output` settles when they have
 * landed (with their etags), or rejects (a transient failure) if one failed; the step's record must wait for it. A
 * caller with work that needs only the signed bytes (express mode: the publish step's check) overlaps the writes.
 * `bytes`: the signed output in hand, so the publish step's check need not read it back (null on the sidecar lane
 * and for large media).
 */
export async function signStepWriting(
  env: Bindings,
  signer: Signer,
  job: JobRow,
  admitted: AdmittedRequest,
  filename: string | null,
  source: ObjectRow,
  watermarked: WatermarkOutput | null,
  fingerprinted: FingerprintOutput | null,
  watermarkedBytes: Uint8Array | null = null,
): Promise<{ output: Promise<SignOutput>; bytes: Uint8Array | null }> {
  // Large media (never watermarked: admission refuses marking it) is signed without being held in memory.
  if (!watermarked && isStreamedUpload(source.mediaType, source.byteLength)) {
    const streamed = await signStreamedStep(env, signer, job, admitted, filename, source);
    return { output: Promise.resolve(streamed.output), bytes: streamed.bytes };
  }
  // A watermark recipe signs the watermarked bytes; every other recipe signs the upload itself.
  const bytes = watermarked
    ? (watermarkedBytes ?? (await read(env.OBJECTS, watermarked.output.key, watermarked.output.etag)))
    : await read(env.OBJECTS, source.r2Key, source.etag);
  if (!bytes) throw new StepFailure("svc.jobs.source_unavailable", "The uploaded bytes could not be read back unchanged.");
  const format = formatOf(source.mediaType)!;
  const plan: ManifestPlan = {
    ...(await manifestPlanFor(env, job, admitted, filename, source.mediaType)),
    assertions: softBindingAssertions([
      ...(watermarked ? [{ algorithm: watermarked.algorithm, bits: fromHex(watermarked.payload) }] : []),
      ...(fingerprinted?.fingerprints ?? []).map((f) => ({ algorithm: f.algorithm, bits: fromHex(f.bits) })),
    ]),
  };
  const sidecar = format.lane === "sidecar";
  const result = sidecar ? await signer.signSidecar({ bytes, plan }) : await signer.signEmbedded({ bytes, plan });
  if (result.status === "unsupported_media_type") throw new StepFailure("svc.jobs.media_unsupported", result.message);
  if (result.status === "failed") {
    // The engine's own text is internal (Rust error names); the customer gets a stable explanation.
    log.warn("signing failed", { job_id: job.id, engine: result.message });
    throw new StepFailure(
      "svc.jobs.sign_failed",
      "The C2PA engine could not sign this file: it is malformed or uses a structure the engine does not support.",
    );
  }
  const base = `t/${job.tenantId}/jobs/${job.id}/sign`;
  // Two independent objects: written concurrently (one R2 round trip of wall time, not two).
  const output = Promise.all([
    put(env.OBJECTS, `${base}/manifest.c2pa`, result.manifest_store, "application/c2pa"),
    sidecar ? null : put(env.OBJECTS, `${base}/output`, result.bytes, source.mediaType),
  ]).then(([manifest, output]): SignOutput => ({ output, manifest, active_manifest_label: result.active_manifest_label }));
  output.catch(() => undefined); // a failed write surfaces where `output` is awaited
  return { output, bytes: sidecar ? null : result.bytes };
}
