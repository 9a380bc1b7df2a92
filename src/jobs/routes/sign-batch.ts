import { createRoute, z } from "@hono/zod-openapi";
import { signingProfileOf } from "../../api-keys/controls";
import type { Router } from "../../app-types";
import { registryFor } from "../../catalog/installed";
import { chargeKeyRate, refundKeyRate } from "../../platform/auth/middleware";
import { principalOf, publicOrigin } from "../../platform/context";
import { ApiError, ERROR_CODES, ErrorResponseSchema, errorBody } from "../../platform/errors";
import { claimIdempotencyKey, completeIdempotencyKey, releaseIdempotencyKey, requestFingerprint } from "../../platform/idempotency";
import { json } from "../../platform/openapi";
import { admitSign, signJobId } from "../admission";
import { handOver } from "../runner";
import { JobResponseSchema, SignBatchRequestSchema } from "../schemas";
import { jobView } from "../view";

const BatchItemResultSchema = z
  .object({
    index: z.number().int().min(0).openapi({ description: "Position of the item in the request.", example: 0 }),
    status: z
      .number()
      .int()
      .openapi({ description: "What POST /v1/sign would have answered for this item alone: 202, or an error status.", example: 202 }),
    job: JobResponseSchema.nullable().openapi({ description: "The admitted job (also on replay)." }),
    error: ErrorResponseSchema.nullable().openapi({ description: "Why the item was refused." }),
  })
  .openapi("SignBatchItemResult");

const route = createRoute({
  method: "post",
  path: "/v1/sign/batch",
  operationId: "signBatch",
  tags: ["Jobs"],
  summary: "Start up to 100 signing jobs",
  description:
    "Admits each item in order and independently: a refused item reports its own status and error without rolling back the others. Item i uses the idempotency key `<Idempotency-Key>.b<i>` for POST /v1/sign, so replaying the batch returns the same jobs. Items always run asynchronously.",
  request: {
    headers: z.object({
      "idempotency-key": z
        .string()
        .max(196)
        .regex(/^[!-~]+$/)
        .openapi({ description: "Required; at most 196 characters (item keys append `.b<i>`).", example: "batch-2026-11-22-001" }),
    }),
    body: { content: { "application/json": { schema: SignBatchRequestSchema } }, required: true },
  },
  responses: {
    202: json(
      z
        .object({ items: z.array(BatchItemResultSchema).openapi({ description: "One result per item, in request order." }) })
        .openapi("SignBatchResponse"),
      "Per-item results.",
    ),
  },
});

export function registerSignBatch(app: Router) {
  app.openapi(route, async (c) => {
    const principal = principalOf(c);
    const tenantId = principal.tenantId;
    const key = c.req.valid("header")["idempotency-key"];
    const batch = c.req.valid("json").items;
    // One request per item: the middleware charged the first; refused here, nothing is admitted or spent (the
    // middleware gives its unit back on any 4xx). A batch the bucket can never hold is a contract error, not a
    // 429 whose Retry-After would never come true.
    const perMinute = principal.rateLimitPerMinute;
    if (perMinute !== null && batch.length > perMinute) {
      throw new ApiError(
        "svc.sign.batch_exceeds_rate_limit",
        `This key allows ${perMinute} requests per minute and a batch spends one per item: send at most ${perMinute} items per batch (this one has ${batch.length}).`,
        {
          fieldDetails: [{ location: "body", field: "items", code: "too_big", message: `At most ${perMinute} items for this key.` }],
        },
      );
    }
    // Only a key has a per-minute limit (a session's rateLimitPerMinute is null).
    const keyId = principal.kind === "api_key" ? principal.apiKeyId : null;
    if (keyId !== null && perMinute !== null && batch.length > 1) await chargeKeyRate(c.env, keyId, perMinute, batch.length - 1);
    const items: z.infer<typeof BatchItemResultSchema>[] = [];
    try {
      await admitItems(items);
    } finally {
      // Refused items spend nothing, like a refused POST /v1/sign; nor do items never reached (an error midway).
      const unspent = batch.length - items.filter((i) => i.status < 400).length;
      if (keyId !== null && perMinute !== null && unspent > 0) await refundKeyRate(c.env, keyId, perMinute, unspent).catch(() => undefined);
    }
    return c.json({ items }, 202);

    async function admitItems(items: z.infer<typeof BatchItemResultSchema>[]) {
      const profile = signingProfileOf(principal.signingProfile);
      const db = c.var.db;
      const ctx = { requestId: c.get("requestId"), origin: publicOrigin(c) };
      for (const [index, item] of batch.entries()) {
        const { mode: _ignored, ...request } = item;
        const scope = { tenantId, operation: "POST /v1/sign", key: `${key}.b${index}` };
        // The same fingerprint POST /v1/sign computes for this item's JSON, so `<key>.b<i>` works there too.
        const fingerprint = await requestFingerprint(
          "POST",
          new URL("/v1/sign", "http://svc"),
          new TextEncoder().encode(JSON.stringify(item)),
          c.env.SVC_KEY_PEPPER ?? "",
        );
        const claim = await claimIdempotencyKey(db, scope, fingerprint, Date.now());
        if (claim.status === "replay") {
          const body = JSON.parse(claim.row.responseBody ?? "null");
          const ok = (claim.row.responseStatus ?? 500) < 300;
          items.push({ index, status: claim.row.responseStatus ?? 500, job: ok ? body : null, error: ok ? null : body });
          continue;
        }
        if (claim.status === "conflict") {
          const code = claim.reason === "key_reused" ? "svc.idempotency.key_reused" : "svc.idempotency.request_in_progress";
          items.push({ index, status: ERROR_CODES[code].status, job: null, error: errorBody(code, ERROR_CODES[code].summary, ctx) });
          continue;
        }
        try {
          const result = await admitSign(db, registryFor(c.env), tenantId, request, {
            asynchronousOnly: true,
            profile,
            outputRetentionDays: principal.outputRetentionDays,
            // The item's job under `<key>.b<index>`, as POST /v1/sign names it: a retry finds the job a lost attempt made.
            ...(c.env.SVC_KEY_PEPPER ? { jobId: await signJobId(c.env.SVC_KEY_PEPPER, tenantId, scope.key, request) } : {}),
          });
          if (result.status === "admitted") {
            // Handed to the queue before answering (accepted → queued); a failed send leaves it accepted for the sweep.
            const job = jobView(await handOver(c.env, result.job), result.steps);
            await completeIdempotencyKey(db, scope, claim.lease, {
              status: 202,
              contentType: "application/json",
              body: JSON.stringify(job),
              withhold: false,
            });
            items.push({ index, status: 202, job, error: null });
          } else {
            const error =
              result.status === "asset_not_found"
                ? errorBody("svc.resource.not_found", "The asset does not exist for this tenant.", ctx)
                : errorBody(result.code, result.message, ctx, result.field ? { fieldDetails: [result.field] } : {});
            const { status, retryable } = ERROR_CODES[error.code as keyof typeof ERROR_CODES];
            // A retryable refusal (e.g. the asset is busy) is not kept: the retry with the same key runs again, as in POST /v1/sign.
            if (retryable) await releaseIdempotencyKey(db, scope, claim.lease);
            else
              await completeIdempotencyKey(db, scope, claim.lease, {
                status,
                contentType: "application/json",
                body: JSON.stringify(error),
                withhold: false,
              });
            items.push({ index, status, job: null, error });
          }
        } catch (error) {
          await releaseIdempotencyKey(db, scope, claim.lease);
          throw error;
        }
      }
    }
  });
}
