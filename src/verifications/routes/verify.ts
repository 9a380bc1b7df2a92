import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { getAsset, objectOf } from "../../assets/repo";
import { formatOf } from "../../catalog/formats";
import { MANIFEST_STORE_MAXIMUM_BYTES, PUBLIC_VERIFY_PER_MINUTE } from "../../catalog/limits";
import { audioServices, imageServices } from "../../media";
import { type AppContext, notFound } from "../../platform/context";
import { ApiError } from "../../platform/errors";
import { newId } from "../../platform/ids";
import { errorResponse, json } from "../../platform/openapi";
import { chargeCaller } from "../../platform/rate-limit";
import { insertVerification } from "../repo";
import { VerificationResultSchema, VerifyFormRequestSchema, VerifyJsonRequestSchema } from "../schemas";
import { ensureC2paEngineLazily, revocationCheck } from "../verify-engines";
import { type VerificationOutcome, type VerifySubject, verifySubject } from "../verify-service";
import { storedTooLarge, storedVerifyMaximumBytes, verifyStoredObject } from "../verify-streamed";
import { manifestUriSubject, readBounded, recordedOutcome, resultBody, sniffedType } from "../verify-subject";

const verifyRoute = createRoute({
  method: "post",
  path: "/v1/verify",
  operationId: "verify",
  tags: ["Verification"],
  summary: "Verify a file, an asset or a manifest",
  description:
    "Checks every signal (manifest and signature with the reference C2PA engine, signer and TSA trust, OCSP, our watermark, fingerprint lookup, anchor log) and answers one status of a closed vocabulary with a confidence and explanations. " +
    "Send multipart/form-data with the file in the field `file` (and optionally its sidecar `.c2pa` in `manifest`), or JSON with `asset_id` (your own published asset) or `manifest_uri`. " +
    `Without a credential this is the public variant: ${PUBLIC_VERIFY_PER_MINUTE} requests per minute per network address, nothing stored, no personal data of the requester logged. With an API key (verify:write) the limit is per tenant and the result is stored as a verification record.`,
  request: {
    body: {
      required: false,
      content: { "multipart/form-data": { schema: VerifyFormRequestSchema }, "application/json": { schema: VerifyJsonRequestSchema } },
    },
  },
  responses: {
    200: json(VerificationResultSchema, "The verification result."),
    400: errorResponse("Nothing to verify (`svc.verify.no_input`)."),
    404: errorResponse("`asset_id` names no asset of yours, or it is not published (`svc.resource.not_found`)."),
    413: errorResponse(
      "The file is larger than 25 MiB, the asset named by `asset_id` is larger than `limits.verify.stored_object_maximum_bytes` (its media type's `limits.verify.streamed_object_maximum_bytes` for a type verified by streaming), or the file has a manifest that the C2PA engine must read and is larger than `limits.verify.engine_read_maximum_bytes` (`svc.request.too_large`).",
    ),
    415: errorResponse(
      "The file is not a reviewed format (`svc.verify.unsupported_file_type`), or the body is neither JSON nor multipart (`svc.request.unsupported_media_type`).",
    ),
    422: errorResponse("`manifest_uri` refused by the outbound guard (`svc.verify.manifest_uri_refused`)."),
    429: errorResponse("Rate limit (`svc.ratelimit.exceeded`), with Retry-After."),
    502: errorResponse("`manifest_uri` could not be fetched (`svc.verify.manifest_uri_unavailable`)."),
  },
});

/** SPEC "Limits": the public variant allows 10 requests per minute per IP. */
/** The rate-limit bucket of a caller: the tenant, or a keyed hash of the network address (never the address). */
function chargeVerify(c: AppContext) {
  return chargeCaller(c, {
    family: "verify",
    publicPerMinute: PUBLIC_VERIFY_PER_MINUTE,
    code: "svc.ratelimit.exceeded",
    noun: "verifications",
    policy: "verify",
  });
}

/** The subject from the request body; every refusal is an error envelope. */
async function subjectOf(c: AppContext): Promise<
  (
    | { subject: VerifySubject }
    | { stored: { object: Awaited<ReturnType<typeof objectOf>> & {}; manifestStore: Uint8Array | undefined } }
  ) & {
    subjectType: "uploaded_object" | "asset" | "manifest";
    assetId: string | null;
    objectId: string | null;
  }
> {
  const type = c.req.header("content-type") ?? "";
  if (/^multipart\/form-data/i.test(type)) {
    const form = c.req.valid("form" as never) as { file?: File; manifest?: File };
    if (!form.file) throw new ApiError("svc.verify.no_input", "Send the file in the multipart field `file`.");
    const bytes = await readBounded(form.file);
    const mediaType = sniffedType(bytes, form.file.type);
    if (!mediaType)
      throw new ApiError("svc.verify.unsupported_file_type", "The file is not one of the reviewed formats (see GET /v1/capabilities).");
    const manifestStore = form.manifest ? await readBounded(form.manifest, MANIFEST_STORE_MAXIMUM_BYTES) : undefined;
    return {
      subject: { bytes, mediaType, ...(manifestStore ? { manifestStore } : {}) },
      subjectType: "uploaded_object",
      assetId: null,
      objectId: null,
    };
  }
  if (/^application\/json/i.test(type)) {
    const body = c.req.valid("json" as never) as { asset_id?: string; manifest_uri?: string };
    if (body.asset_id) return assetSubject(c, body.asset_id);
    if (body.manifest_uri) return manifestUriSubject(c.env, body.manifest_uri);
    throw new ApiError("svc.verify.no_input", "Send `asset_id` or `manifest_uri`, or a multipart `file`.");
  }
  if (!type && (c.req.header("content-length") ?? "0") === "0")
    throw new ApiError("svc.verify.no_input", "Send a multipart `file`, or JSON with `asset_id` or `manifest_uri`.");
  throw new ApiError("svc.request.unsupported_media_type", "Send multipart/form-data or application/json.");
}

/** A published asset: its output object (verified whole or by streaming, verify-streamed.ts) and sidecar store. */
async function assetSubject(c: AppContext, assetId: string) {
  const principal = c.get("principal");
  if (principal.kind === "anonymous")
    throw new ApiError(
      "svc.auth.invalid_key",
      "Verifying an asset by id needs an API key with verify:write; the public variant takes a file.",
    );
  const db = c.var.db;
  const asset = await getAsset(db, principal.tenantId, assetId);
  if (!asset?.publishedObjectId) throw notFound("asset");
  const output = await objectOf(db, principal.tenantId, asset.publishedObjectId);
  if (!output) throw notFound("asset");
  if (output.byteLength > storedVerifyMaximumBytes(output.mediaType)) throw storedTooLarge(output);
  let manifestStore: Uint8Array | undefined;
  if (asset.sidecarObjectId) {
    const sidecar = await objectOf(db, principal.tenantId, asset.sidecarObjectId);
    const got = sidecar ? await c.env.OBJECTS.get(sidecar.r2Key) : null;
    if (got) manifestStore = new Uint8Array(await got.arrayBuffer());
  }
  return { stored: { object: output, manifestStore }, subjectType: "asset" as const, assetId: asset.id, objectId: output.id };
}

export function register(app: Router) {
  app.openapi(verifyRoute, async (c) => {
    await chargeVerify(c);
    const input = await subjectOf(c);
    const { subjectType, assetId, objectId } = input;
    const mediaType = "stored" in input ? input.stored.object.mediaType : input.subject.mediaType;
    if (!formatOf(mediaType) && mediaType !== "application/c2pa") throw new ApiError("svc.verify.unsupported_file_type");
    const services = {
      ensureEngine: await ensureC2paEngineLazily(),
      image: await imageServices().catch(() => null),
      audio: audioServices,
      revocation: revocationCheck(c.env),
    };
    let outcome: VerificationOutcome;
    let byteLength: number;
    let sidecar: boolean;
    if ("stored" in input) {
      const verified = await verifyStoredObject(c.env, services, input.stored.object, input.stored.manifestStore);
      if (verified.status === "unavailable") throw notFound("asset");
      ({ outcome, byteLength } = verified);
      sidecar = verified.manifestStore !== undefined;
    } else {
      outcome = await verifySubject(c.env, services, input.subject);
      byteLength = input.subject.bytes.length;
      sidecar = input.subject.manifestStore !== undefined;
    }
    const body = resultBody(outcome);
    const principal = c.get("principal");
    if (principal.kind === "anonymous") return c.json({ ...body, verification_id: null }, 200);
    const now = Date.now();
    const verificationId = newId("verification");
    await insertVerification(c.var.db, {
      id: verificationId,
      tenantId: principal.tenantId,
      subjectType,
      assetId,
      jobId: null,
      objectId,
      policyVersion: null,
      sourceByteLength: byteLength,
      sourceMediaType: mediaType,
      ...recordedOutcome(outcome, body, sidecar),
      createdAt: now,
      validatedAt: now,
    });
    return c.json({ ...body, verification_id: verificationId }, 200);
  });
}
