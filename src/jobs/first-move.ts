import type { JobStepRow, StepRecord } from "./repo";

/** An inspect step's record: the source was inspected at upload, so it needs no work (recorded with the next begin). */
export function inspectRecord(source: { id: string; mediaType: string }): StepRecord {
  return { step: "inspect", output: { media_type: source.mediaType, object_id: source.id } };
}

/**
 * A fresh run's first move, as the runner makes it (runner.ts runTakenJob): the leading inspect steps recorded,
 * the first other step begun. Null when the steps are all inspect steps.
 */
export function firstMove(steps: JobStepRow[], source: { id: string; mediaType: string }): { instant: StepRecord[]; next: string } | null {
  const instant: StepRecord[] = [];
  for (const s of steps) {
    if (s.step !== "inspect") return { instant, next: s.step };
    instant.push(inspectRecord(source));
  }
  return null;
}
