import type { NormalizedInspectionFacts } from "../media/types";
import { iso } from "../platform/openapi";
import type { JobRow, JobStepRow } from "./repo";

/** The public JobResponse of a job row and its steps. Invariant: `result` only for completed jobs. */
export function jobView(job: JobRow, steps: JobStepRow[]) {
  const completed = steps.filter((s) => s.state === "completed" || s.state === "skipped").length;
  const total = Math.max(1, steps.length);
  const current = steps.find((s) => s.state === "running")?.step ?? null;
  return {
    job_id: job.id,
    asset_id: job.assetId,
    recipe_id: job.recipeId,
    recipe_version: job.recipeVersion,
    policy_version: job.policyVersion,
    active_plan_revision: job.activePlanRevision,
    pricing_version: job.pricingVersion,
    mode: job.mode,
    state: job.state,
    progress: { completed_steps: completed, total_steps: total, percent: Math.floor((completed * 100) / total), current_step: current },
    steps: steps.map((s) => ({
      step: s.step,
      state: s.state,
      started_at: iso(s.startedAt),
      completed_at: iso(s.completedAt),
      error_code: s.errorCode,
    })),
    media_inspection: job.mediaInspection ? (JSON.parse(job.mediaInspection) as NormalizedInspectionFacts) : null,
    error_code: job.errorCode,
    error_message: job.errorMessage,
    cancel_requested_at: iso(job.cancelRequestedAt),
    terminal_at: iso(job.terminalAt),
    created_at: iso(job.createdAt),
    result:
      job.state === "completed" && job.receiptId && job.publicationId && job.verificationId
        ? { receipt_id: job.receiptId, publication_id: job.publicationId, verification_id: job.verificationId }
        : null,
  };
}
