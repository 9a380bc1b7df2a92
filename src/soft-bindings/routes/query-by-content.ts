import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { PUBLIC_VERIFY_PER_MINUTE } from "../../catalog/limits";
import { imageServices, mediaInspector } from "../../media";
import { ApiError } from "../../platform/errors";
import { errorResponse, json } from "../../platform/openapi";
import { AlgParam, MaxResultsParam, ScopeParam, SoftBindingQueryResultSchema, ValueParam } from "../schemas";
import { matchByContent } from "../service";
import { BY_CONTENT_MAX_BYTES, chargeContentLookup, lookupOptions, matchesOrThrow, RESOLUTION_PREFIX, registry, TAG } from "./shared";

/** The media type families of the C2PA requestBody; the bytes themselves decide what the asset is. */
const FAMILIES = ["image", "audio", "video", "application", "model", "text"] as const;

const binary = (description: string) => ({ schema: z.string().openapi({ type: "string", format: "binary", description }) });

const route = createRoute({
  method: "post",
  path: `${RESOLUTION_PREFIX}/matches/byContent`,
  operationId: "uploadFile",
  tags: [TAG],
  summary: "Finds C2PA Manifest identifiers using a digital asset.",
  description:
    "Send the asset's bytes as the request body (C2PA `uploadFile`; up to 25 MiB, with its media type as Content-Type). The service computes the asset's soft bindings as verification does (our watermark's payload, the ISCC and PDQ fingerprints), looks each up among published assets and answers the matching manifests, one per manifest, strongest first. " +
    "`alg` restricts the lookup to one algorithm; `hintAlg` + `hintValue` add a soft binding the client already knows. The media type is read from the bytes: JPEG, PNG, WebP, TIFF and AVIF images (at most 12 MP) are resolved, anything else answers 415. " +
    `Rate limited like POST /v1/verify: without a key ${PUBLIC_VERIFY_PER_MINUTE} per minute per network address, with one per tenant. Nothing is stored.`,
  request: {
    query: z.object({
      alg: AlgParam.optional(),
      maxResults: MaxResultsParam,
      hintAlg: AlgParam.optional().openapi({
        description: "An additional soft binding algorithm (as `alg`) to aid resolution; requires `hintValue`.",
        example: "svc.watermark.svc-wm-tiledss-1",
      }),
      hintValue: ValueParam.optional().openapi({
        description: "The value (base64, as in byBinding) of the soft binding named by `hintAlg`.",
        example: "nxkC2uq1P4E=",
      }),
      scope: ScopeParam,
    }),
    body: {
      required: true,
      description: "Asset to match to manifests.",
      content: {
        "image/*": binary("Asset of type image: JPEG, PNG, WebP, TIFF and AVIF are resolved."),
        "audio/*": binary("Asset of type audio (not resolved by this service: 415)."),
        "video/*": binary("Asset of type video (not resolved by this service: 415)."),
        "application/*": binary(
          "Asset of type application, such as `application/octet-stream` for an image of unknown type (its bytes decide).",
        ),
        "model/*": binary("Asset of type model (not resolved by this service: 415)."),
        "text/*": binary("Asset of type text (not resolved by this service: 415)."),
      },
    },
  },
  responses: {
    200: json(SoftBindingQueryResultSchema, "Successful operation."),
    400: errorResponse(
      "An empty body, an incomplete hint or a malformed parameter (`svc.resolution.invalid_request`), or an algorithm this service does not resolve (`svc.resolution.algorithm_unsupported`).",
    ),
    401: errorResponse(
      "`scope=tenant` without an API key (`svc.resolution.credential_required`), or an invalid credential (`svc.auth.invalid_key`).",
    ),
    413: errorResponse("The asset is larger than 25 MiB or 12 MP (`svc.request.too_large`)."),
    415: errorResponse(
      "Invalid asset type: not a resolved image type, undecodable, or no/another Content-Type (`svc.resolution.unsupported_asset_type`).",
    ),
    429: errorResponse("Rate limit (`svc.resolution.rate_limited`), with Retry-After."),
  },
});

export function registerQueryByContent(app: Router) {
  app.openapi(route, async (c) => {
    const query = c.req.valid("query");
    if ((query.hintAlg === undefined) !== (query.hintValue === undefined)) {
      const field = query.hintAlg === undefined ? "hintAlg" : "hintValue";
      throw new ApiError("svc.resolution.invalid_request", "`hintAlg` and `hintValue` go together.", {
        fieldDetails: [{ location: "query", field, code: "invalid_value", message: "`hintAlg` and `hintValue` go together." }],
      });
    }
    const options = lookupOptions(c, query);
    const type = (c.req.header("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
    const family = type.split("/")[0] ?? "";
    if (!(FAMILIES as readonly string[]).includes(family) || !/^[a-z]+\/[^\s/]+$/.test(type)) {
      throw new ApiError(
        "svc.resolution.unsupported_asset_type",
        "Send the asset's bytes as the body, with its media type (image/*, ...) as Content-Type.",
      );
    }
    await chargeContentLookup(c);
    const bytes = new Uint8Array(await c.req.arrayBuffer());
    if (bytes.length > BY_CONTENT_MAX_BYTES)
      throw new ApiError("svc.request.too_large", `Assets are limited to ${BY_CONTENT_MAX_BYTES} bytes.`);
    if (bytes.length === 0) throw new ApiError("svc.resolution.invalid_request", "The body is empty: send the asset's bytes.");
    const result = await matchByContent(
      c.env.DB,
      registry(c),
      { inspector: mediaInspector(), image: imageServices },
      {
        bytes,
        ...(query.alg !== undefined ? { alg: query.alg } : {}),
        ...(query.hintAlg !== undefined && query.hintValue !== undefined ? { hint: { alg: query.hintAlg, value: query.hintValue } } : {}),
      },
      options,
    );
    return c.json(matchesOrThrow(result, "query"), 200);
  });
}
