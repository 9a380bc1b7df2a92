import { formatOf } from "../../catalog/formats";
import { attributionFor } from "../../creators/disclosure";
import { database } from "../../db/client";
import type { Bindings } from "../../env";
import type { ManifestPlan } from "../../media/types";
import type { AdmittedRequest } from "../admission";
import type { JobRow } from "../repo";
import { StepFailure } from "./common";

/**
 * The manifest plan both sign steps start from (this one and sign-streamed.ts), without soft bindings. Attribution
 * is decided at admission and checked again here: a creator withdrawn while the job waited is not attributed in a
 * new publication.
 */
export async function manifestPlanFor(
  env: Bindings,
  job: JobRow,
  admitted: AdmittedRequest,
  filename: string | null,
  mediaType: string,
): Promise<ManifestPlan> {
  if (admitted.creator && admitted.creator_id) {
    const attribution = await attributionFor(database(env.DB), job.tenantId, admitted.creator_id);
    if (attribution.status !== "active" || attribution.creator_ref !== admitted.creator.creator_ref)
      throw new StepFailure("svc.jobs.creator_inactive", "The creator identity this job attributes is no longer active.");
  }
  return {
    // The customer's filename, else a neutral one: the manifest is public (the resolution API serves it), ids are not.
    title: filename ?? `untitled.${formatOf(mediaType)!.extension}`,
    media_type: mediaType,
    intent: admitted.ai_declaration
      ? { kind: "created", digital_source_type: admitted.ai_declaration.digital_source_type }
      : { kind: "opened" },
    assertions: [],
    creator: admitted.creator ?? null,
    capture: admitted.capture ? { ...admitted.capture } : null,
  };
}
