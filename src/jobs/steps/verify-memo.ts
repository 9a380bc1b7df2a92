import type { Bindings } from "../../env";
import type { ImageServices } from "../../media/types";
import { log } from "../../platform/logger";
import { memoizePublication } from "../../verifications/pixel-memo";
import { findDeferredWindowsTarget } from "../repo/pdq-windows";
import { read } from "./common";

/*
 * #19: a published job's verification pixel memo (verifications/pixel-memo.ts), filled after publication from the
 * published bytes by the express job's follow-up and safety net (runner.ts, the queue's run of a completed express job).
 * Never on an answer's path, never failing a job: without a memo, a verification measures the pixels itself. A queue
 * (async) job's publication has none yet: its run's D1 round trips are budgeted (express-round-trips.happy.test.ts).
 */
export async function memoizeJobPublication(
  env: Bindings,
  image: ImageServices,
  tenantId: string,
  jobId: string,
  published: Uint8Array | null,
): Promise<void> {
  try {
    const target = await findDeferredWindowsTarget(env.DB, tenantId, jobId);
    const object = target?.object;
    if (!target || !object) return;
    const filled = await memoizePublication(
      env,
      image,
      { publicationId: target.publicationId, mediaType: object.mediaType },
      async () => published ?? (await read(env.OBJECTS, object.key, object.etag)),
    );
    // A kernel failed or could not grow while measuring: nothing stored (a memo would answer every later
    // verification); verifications of the file measure its pixels themselves.
    if (filled === "incomplete") log.warn("verify pixel memo not filled: the measurement was incomplete", { job_id: jobId });
  } catch (error) {
    log.warn("verify pixel memo not filled; verifications measure the pixels", { job_id: jobId, error: String(error) });
  }
}
