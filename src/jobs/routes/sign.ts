import { createRoute, z } from "@hono/zod-openapi";
import { signingProfileOf } from "../../api-keys/controls";
import type { Router } from "../../app-types";
import { downloadFor } from "../../assets/downloads";
import { registryFor } from "../../catalog/installed";
import { mediaServices } from "../../media";
import { type AppContext, notFound, principalOf, publicOrigin } from "../../platform/context";
import { ApiError } from "../../platform/errors";
import { claimInFirstBatch, claimKeyInBatch } from "../../platform/idempotency";
import { log } from "../../platform/logger";
import { errorResponse, IdempotencyKeyHeader, json, NOT_FOUND } from "../../platform/openapi";
import { admitSign, signJobId } from "../admission";
import { JOB_LEASE_MS } from "../policy";
import { giveTakeBack, type JobRow, jobWithPublication, type TakeAndLoad } from "../repo";
import { enqueueJob, handOver, runJobForAnswer } from "../runner";
import { ExpressSignResponseSchema, JobResponseSchema, SignRequestSchema, TERMINAL_STATES } from "../schemas";
import { jobView } from "../view";

/** How long an express request waits for its job before answering 202 (the job goes on either way). */
export const EXPRESS_WAIT_MS = 10_000;
/**
 * An express job also gets a queue message, delayed past any express run: if the isolate dies mid-run, the
 * queue finishes the job; if the run finished, the message finds a terminal job and does nothing.
 */
export const EXPRESS_SAFETY_NET_SECONDS = 120;

const route = createRoute({
  method: "post",
  path: "/v1/sign",
  operationId: "sign",
  tags: ["Jobs"],
  summary: "Start a signing job",
  description:
    "Admits a job that applies a recipe to an uploaded asset. Standard mode answers 202 with the job; poll GET /v1/jobs/{job_id} (first after 1 s, doubling to 30 s, with jitter). " +
    `Express mode (\`mode: "express"\` with rcp_system_watermark_then_sign or rcp_system_express_watermark_then_sign on a JPEG, PNG, WebP, TIFF or AVIF image) runs the same watermark, fingerprint and manifest steps in the request and waits up to ${EXPRESS_WAIT_MS / 1000} s: a job that completes in time is answered 200 with \`download\`; otherwise the answer is 202 and the job finishes on its own. ` +
    "Every field rule of the sign request is checked at admission; the admitted algorithms, strength and fingerprint set never change afterwards.",
  request: {
    headers: z.object({ "idempotency-key": IdempotencyKeyHeader }),
    body: { content: { "application/json": { schema: SignRequestSchema } }, required: true },
  },
  responses: {
    200: json(ExpressSignResponseSchema, "Express mode only: the job completed within the wait; `download` fetches the output."),
    202: json(
      JobResponseSchema,
      "The admitted job (standard mode, or an express job still running or not completed at the end of the wait).",
    ),
    ...NOT_FOUND,
    402: errorResponse(
      "Payment required (tenants metered by the prepaid wallet): `svc.billing.insufficient_funds` when the job's quote does not fit the wallet's balance minus the quotes of admitted, unpublished work; `svc.billing.monthly_limit_reached` past the monthly spend limit. Nothing is created.",
    ),
    403: errorResponse(
      "The key's signing profile does not allow this recipe (`svc.sign.recipe_not_allowed`) or this watermark or fingerprint option (`svc.sign.option_not_allowed`).",
    ),
    409: errorResponse(
      "The asset's upload is not completed (`svc.sign.asset_not_uploaded`), another job is working on it (`svc.sign.asset_busy`), or it is already published (`svc.sign.asset_published`: upload the media again to sign it anew).",
    ),
    422: errorResponse(
      "The recipe does not exist (`svc.sign.recipe_unknown`), is not available here (`svc.sign.recipe_unavailable`) or does not take the asset's media type (`svc.sign.media_type_not_supported`); an option does not apply to it (`svc.sign.option_not_applicable`), its algorithm is not offered or not installed (`svc.sign.algorithm_not_offered`, `svc.sign.algorithm_unavailable`), or the image's dimensions are outside what pixel work takes (`svc.sign.image_dimensions_unsupported`); `creator_id` is unknown or inactive (`svc.sign.creator_unknown`, `svc.sign.creator_inactive`); the price list has no price for the work (`svc.billing.not_priced`); or a field error (`svc.request.invalid`, with `field_details`).",
    ),
  },
});

const logEnqueueFailure = (job: JobRow) => (e: unknown) => log.error("enqueue failed", { job_id: job.id, error: String(e) });

export function registerSign(app: Router) {
  // The key is claimed in admission's first read, not in a round trip before the route (#19): nothing is written
  // before that read (signJobId and the media services' load only compute), and a key not free is answered there.
  claimKeyInBatch(`POST ${route.path}`);
  app.openapi(route, async (c) => {
    const principal = principalOf(c);
    // The job's id under the Idempotency-Key (checked by the middleware): a retry after a lost answer finds its job.
    const key = c.req.header("idempotency-key");
    const secret = c.env.SVC_KEY_PEPPER;
    const request = c.req.valid("json");
    // An express request's media services (per isolate: in hand at once but for an isolate's first request), asked
    // for before admission, so the run can follow admission's take without a wait between them (runExpress).
    const services = request.mode === "express" ? servicesInHand(c.env) : null;
    const jobId = key && secret ? await signJobId(secret, principal.tenantId, key, request) : undefined;
    const result = await admitSign(c.var.db, registryFor(c.env), principal.tenantId, request, {
      profile: signingProfileOf(principal.signingProfile),
      outputRetentionDays: principal.outputRetentionDays,
      // an express job is run below, in this request: taken for that run in the batch that writes it
      takeForRun: { leaseMs: JOB_LEASE_MS },
      ...(jobId ? { jobId } : {}),
      claim: claimInFirstBatch(c),
    });
    if (result.status === "asset_not_found") throw notFound("asset");
    if (result.status === "refused") throw new ApiError(result.code, result.message, result.field ? { fieldDetails: [result.field] } : {});
    if (result.existing) {
      // The earlier attempt's job, answered as it is now: a completed express job with its download; one not yet
      // terminal is handed to the queue again (the lost attempt may have died before sending its message; a second
      // message for a job already queued or running finds it taken or terminal and does nothing).
      if (result.job.mode === "express" && result.job.state === "completed") {
        const found = await jobWithPublication(c.var.db, principal.tenantId, result.job.id);
        if (found && found.job.state === "completed") {
          const download =
            found.asset && found.output ? await downloadFor(c.env, publicOrigin(c), found.asset, found.output, found.sidecar) : null;
          return c.json({ ...jobView(found.job, found.steps), download }, 200);
        }
      }
      const job = (TERMINAL_STATES as readonly string[]).includes(result.job.state) ? result.job : await handOver(c.env, result.job);
      return c.json(jobView(job, result.steps), 202);
    }
    if (result.job.mode === "express") {
      const express = await runExpress(c, result.job, result.taken ?? null, services ?? servicesInHand(c.env));
      if (express.status === 200) return c.json(express.body, 200);
      return c.json(express.body, 202);
    }
    // Admitted jobs are `accepted` until their queue message is sent (`queued`); a failed send is retried by the
    // cron sweep, the job row being the truth.
    return c.json(jobView(await handOver(c.env, result.job), result.steps), 202);
  });
}

/**
 * The media services, loading; `ready` turns true once they are loaded (read after an await: whether they were
 * in hand by then). A load that fails is reported where `services` is awaited.
 */
function servicesInHand(env: AppContext["env"]) {
  const loading = { services: mediaServices(env), ready: false };
  loading.services.then(
    () => {
      loading.ready = true;
    },
    () => undefined,
  );
  return loading;
}

/** Runs an admitted express job in this request, waiting at most EXPRESS_WAIT_MS for it. */
async function runExpress(
  c: AppContext,
  admitted: JobRow,
  taken: TakeAndLoad | null,
  loading: { services: ReturnType<typeof mediaServices>; ready: boolean },
) {
  const env = c.env;
  const tenantId = admitted.tenantId;
  // The safety net is sent alongside the run rather than before it: the message is delayed past any express run, so
  // its order against the run does not matter, and the request does not wait a queue round trip before starting.
  const safetyNet = enqueueJob(env, admitted, { delaySeconds: EXPRESS_SAFETY_NET_SECONDS }).catch(logEnqueueFailure(admitted));
  // The run hands what the answer need not wait for (the webhook fan-out nudge) to this request's waitUntil.
  const background = (work: Promise<unknown>) => c.executionCtx.waitUntil(work);
  // Services already in hand when admission's take answered: the run follows the take with no wait between them,
  // so it need not read the job back before its first work (runJobForAnswer `takeInHand`).
  const inHand = loading.ready;
  const run = loading.services
    .then(
      (services) => runJobForAnswer(env, { ...services, background }, tenantId, admitted.id, admitted, taken, inHand),
      async (e) => {
        // The run never started: the take admission made is undone, so a cancellation ends the job at once and the
        // safety net takes it as a fresh job.
        if (taken?.taken) await giveTakeBack(c.var.db, admitted, admitted.attempts + 1, Date.now()).catch(() => undefined);
        throw e;
      },
    )
    .catch((e) => {
      log.warn("express run interrupted; the queue finishes it", { job_id: admitted.id, error: String(e) });
    });
  c.executionCtx.waitUntil(Promise.all([safetyNet, run]));
  let timer: ReturnType<typeof setTimeout> | undefined;
  const published = await Promise.race([run, new Promise<void>((resolve) => (timer = setTimeout(resolve, EXPRESS_WAIT_MS)))]);
  clearTimeout(timer);

  // The job, its steps, the asset and its published objects: read by the publication batch when this run published
  // the job, else one D1 round trip now (still running, failed, cancelled).
  const found = published || (await jobWithPublication(c.var.db, tenantId, admitted.id))!;
  const view = jobView(found.job, found.steps);
  if (found.job.state !== "completed") return { status: 202 as const, body: view };
  const download = found.asset && found.output ? await downloadFor(env, publicOrigin(c), found.asset, found.output, found.sidecar) : null;
  return { status: 200 as const, body: { ...view, download } };
}
