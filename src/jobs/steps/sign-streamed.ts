import type { Bindings } from "../../env";
import { type ManifestStoreSigner, signStreamed } from "../../media/c2pa/stream-sign";
import type { Signer } from "../../media/types";
import { log } from "../../platform/logger";
import type { AdmittedRequest } from "../admission";
import type { SignOutput } from "../outputs";
import type { JobRow, ObjectRow } from "../repo";
import { put, StepFailure } from "./common";
import { manifestPlanFor } from "./manifest-plan";

/**
 * The sign step for large media (above the embedded limit; catalog/limits.ts STREAMED_SIGNING_MAXIMUM_BYTES):
 * the upload is streamed from R2 into a multipart output with the manifest appended (media/c2pa/stream-sign.ts),
 * never held whole. Such media is never watermarked (admission refuses marking it, and fingerprinting a FLAC this
 * large) and its fingerprints, where the recipe records them (a WAV's Chromaprint), are not declared as soft
 * bindings, so the manifest carries none. Bad input ends the job with the same codes as the in-memory path.
 */
export async function signStreamedStep(
  env: Bindings,
  signer: Signer,
  job: JobRow,
  admitted: AdmittedRequest,
  filename: string | null,
  source: ObjectRow,
): Promise<{ output: SignOutput; bytes: null }> {
  if (!isManifestStoreSigner(signer))
    throw new StepFailure("svc.jobs.step_unavailable", "Streaming signing is not installed in this deployment.");
  const plan = await manifestPlanFor(env, job, admitted, filename, source.mediaType);
  const base = `t/${job.tenantId}/jobs/${job.id}/sign`;
  const result = await signStreamed({
    bucket: env.OBJECTS,
    source: { key: source.r2Key, etag: source.etag },
    outputKey: `${base}/output`,
    plan,
    signer,
  });
  switch (result.status) {
    case "signed": {
      const manifest = await put(env.OBJECTS, `${base}/manifest.c2pa`, result.manifest_store, "application/c2pa");
      return {
        output: { output: result.output, manifest, active_manifest_label: result.active_manifest_label, streamed: true },
        bytes: null,
      };
    }
    case "source_unavailable":
      throw new StepFailure("svc.jobs.source_unavailable", "The uploaded bytes could not be read back unchanged.");
    case "unsupported":
      throw new StepFailure("svc.jobs.media_unsupported", `This file cannot be signed by streaming: ${result.message}.`);
    default:
      // malformed (the upload's structural check passed, so rare) or the engine failed: its text stays internal.
      log.warn("streamed signing failed", { job_id: job.id, status: result.status, engine: result.message });
      throw new StepFailure(
        "svc.jobs.sign_failed",
        "The C2PA engine could not sign this file: it is malformed or uses a structure the engine does not support.",
      );
  }
}

function isManifestStoreSigner(signer: Signer): signer is Signer & ManifestStoreSigner {
  return typeof (signer as Partial<ManifestStoreSigner>).signManifestStore === "function";
}
