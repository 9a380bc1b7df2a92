import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../app-types";
import { database } from "../../db/client";
import type { Bindings } from "../../env";
import { previewer } from "../../media";
import type { NormalizedInspectionFacts } from "../../media/types";
import { base64url, fromBase64url, hex, utf8 } from "../../platform/bytes";
import { notFound, principalOf, publicOrigin } from "../../platform/context";
import { hmacSha256, timingSafeEqual } from "../../platform/crypto";
import { ApiError } from "../../platform/errors";
import { errorResponse, json, NOT_FOUND, Timestamp } from "../../platform/openapi";
import { servedObjectHeaders } from "../../platform/served-object";
import { AssetIdSchema, Sha256Schema } from "../../uploads/schemas";
import { PREVIEW_MAX_EDGE, previewKey } from "../preview-key";
import { getAsset, objectOf } from "../repo";
import { AssetParams } from "../schemas";

/*
 * Previews: a JPEG of the published image, at most 512 px on its longest edge, rendered once per publication and
 * kept in R2. Each POST mints a new credential-bearing URL; redeeming it needs no API key. The capability is
 * HMAC-signed over (tenant, asset, publication, expiry) and rechecked against the asset at redemption, so a
 * superseded or withdrawn publication stops being served.
 */

export const PREVIEW_TTL_MS = 10 * 60 * 1000;
const MAC_CHARS = 22;

async function mintCapability(secret: string, claims: { tenantId: string; assetId: string; publicationId: string; expiresAt: number }) {
  const payload = base64url(utf8(JSON.stringify([1, claims.tenantId, claims.assetId, claims.publicationId, claims.expiresAt])));
  return payload + base64url((await hmacSha256(secret, `svc.preview.v1\n${payload}`)).slice(0, 16));
}

async function readCapability(secret: string, token: string, now = Date.now()) {
  if (token.length <= MAC_CHARS || token.length > 1024 || !/^[A-Za-z0-9_-]+$/.test(token)) return null;
  const payload = token.slice(0, -MAC_CHARS);
  const mac = fromBase64url(token.slice(-MAC_CHARS));
  if (!mac || !timingSafeEqual(mac, (await hmacSha256(secret, `svc.preview.v1\n${payload}`)).slice(0, 16))) return null;
  try {
    const [v, tenantId, assetId, publicationId, expiresAt] = JSON.parse(new TextDecoder().decode(fromBase64url(payload)!)) as unknown[];
    if (
      v !== 1 ||
      typeof tenantId !== "string" ||
      typeof assetId !== "string" ||
      typeof publicationId !== "string" ||
      typeof expiresAt !== "number"
    )
      return null;
    return expiresAt > now ? { tenantId, assetId, publicationId } : null;
  } catch {
    return null;
  }
}

type Rendered =
  | { status: "ready"; bytes: Uint8Array | null; width: number; height: number; sha256: string; byteLength: number }
  | { status: "unavailable"; message: string };

/** The stored preview of this publication, rendered on first request. */
async function ensurePreview(env: Bindings, tenantId: string, asset: NonNullable<Awaited<ReturnType<typeof getAsset>>>): Promise<Rendered> {
  const key = previewKey(tenantId, asset.publicationId!);
  const existing = await env.OBJECTS.head(key);
  if (existing?.customMetadata) {
    const m = existing.customMetadata;
    return { status: "ready", bytes: null, width: Number(m.width), height: Number(m.height), sha256: m.sha256!, byteLength: existing.size };
  }
  const renderer = await previewer();
  if (!asset.mediaType || !renderer.mediaTypes.includes(asset.mediaType))
    return { status: "unavailable", message: `No preview is rendered for ${asset.mediaType}.` };
  const source = asset.sourceObjectId ? await objectOf(database(env.DB), tenantId, asset.sourceObjectId) : null;
  const facts = source?.inspection ? (JSON.parse(source.inspection) as NormalizedInspectionFacts) : null;
  if (!facts?.width || !facts.height || facts.width * facts.height > renderer.maxSourcePixels) {
    return { status: "unavailable", message: `Previews are rendered for images up to ${renderer.maxSourcePixels / 1e6} MP.` };
  }
  const output = await objectOf(database(env.DB), tenantId, asset.publishedObjectId!);
  const stored = output ? await env.OBJECTS.get(output.r2Key, { onlyIf: { etagMatches: output.etag } }) : null;
  if (!stored || !("body" in stored)) return { status: "unavailable", message: "The published bytes are not available." };
  const result = await renderer.render({
    bytes: new Uint8Array(await (stored as R2ObjectBody).arrayBuffer()),
    mediaType: asset.mediaType,
    maxEdge: PREVIEW_MAX_EDGE,
  });
  if (result.status !== "rendered") return { status: "unavailable", message: result.message };
  const sha256 = hex(await crypto.subtle.digest("SHA-256", result.jpeg));
  await env.OBJECTS.put(key, result.jpeg, {
    httpMetadata: { contentType: "image/jpeg" },
    customMetadata: { width: String(result.width), height: String(result.height), sha256 },
  });
  return { status: "ready", bytes: result.jpeg, width: result.width, height: result.height, sha256, byteLength: result.jpeg.length };
}

const PreviewResponseSchema = z
  .object({
    url: z.string().url().openapi({ description: "Where to GET the JPEG, before `expires_at`; no API key." }),
    method: z.literal("GET").openapi({ description: "HTTP method." }),
    headers: z.record(z.string(), z.string()).openapi({ description: "Send exactly these headers.", example: {} }),
    expires_at: Timestamp("When the URL stops working."),
    byte_length: z.number().int().openapi({ description: "Size of the JPEG.", example: 31022 }),
    sha256: Sha256Schema,
    width: z.number().int().openapi({ description: "Preview width in pixels.", example: 512 }),
    height: z.number().int().openapi({ description: "Preview height in pixels.", example: 320 }),
    media_type: z.literal("image/jpeg").openapi({ description: "Always a JPEG." }),
  })
  .openapi("PreviewResponse");

const createPreview = createRoute({
  method: "post",
  path: "/v1/assets/{asset_id}/preview",
  operationId: "createAssetPreview",
  tags: ["Assets"],
  summary: "Get a preview capability",
  description: `A JPEG preview of the published image (at most ${PREVIEW_MAX_EDGE} px on its longest edge). Every call mints a new credential-bearing URL; responses are not cacheable. Rendered for JPEG and PNG images up to 12 MP.`,
  request: { params: AssetParams },
  responses: {
    200: json(PreviewResponseSchema, "The preview capability."),
    ...NOT_FOUND,
    409: errorResponse("Not published yet (`svc.assets.not_published`), or no preview for this asset (`svc.assets.preview_unavailable`)."),
  },
});

const NOT_AVAILABLE = "The preview is not available.";

const redeemPreview = createRoute({
  method: "get",
  path: "/v1/assets/{asset_id}/preview/{capability}",
  operationId: "getAssetPreview",
  tags: ["Assets"],
  summary: "Redeem a preview capability",
  description:
    "Anonymous: the capability is the credential. Serves the JPEG while the capability is unexpired and the asset still has the publication it was minted for. A malformed, expired, withdrawn, tenant-mismatched or superseded capability answers one identical 404.",
  request: {
    params: z.object({
      asset_id: AssetIdSchema.openapi({ param: { name: "asset_id", in: "path" } }),
      capability: z.string().openapi({
        param: { name: "capability", in: "path" },
        description: "The capability (`^[A-Za-z0-9_-]+$`, at most 1024 chars).",
        example: "WzEsInRlbl9hYmMiXQabcdefghij0123456789AB",
      }),
    }),
  },
  responses: {
    200: {
      description: "The JPEG (inline, with `X-Content-Type-Options: nosniff` and `Content-Security-Policy: sandbox; default-src 'none'`).",
      content: { "image/jpeg": { schema: z.string().openapi({ format: "binary", description: "JPEG bytes." }) } },
    },
    404: errorResponse(`Every unusable capability: \`svc.resource.not_found\`, "${NOT_AVAILABLE}"`),
  },
});

export function registerPreviewRoutes(app: Router) {
  app.openapi(createPreview, async (c) => {
    const tenantId = principalOf(c).tenantId;
    const asset = await getAsset(c.var.db, tenantId, c.req.valid("param").asset_id);
    if (!asset) throw notFound("asset");
    if (!asset.publicationId) throw new ApiError("svc.assets.not_published");
    if (!c.env.SVC_CAPABILITY_SECRET) throw new ApiError("svc.dependency.unavailable", "Preview capabilities are not configured.");
    const preview = await ensurePreview(c.env, tenantId, asset);
    if (preview.status !== "ready") throw new ApiError("svc.assets.preview_unavailable", preview.message);
    const expiresAt = Date.now() + PREVIEW_TTL_MS;
    const token = await mintCapability(c.env.SVC_CAPABILITY_SECRET, {
      tenantId,
      assetId: asset.id,
      publicationId: asset.publicationId,
      expiresAt,
    });
    c.header("Cache-Control", "no-store");
    return c.json(
      {
        url: `${publicOrigin(c)}/v1/assets/${asset.id}/preview/${token}`,
        method: "GET" as const,
        headers: {},
        expires_at: new Date(expiresAt).toISOString(),
        byte_length: preview.byteLength,
        sha256: preview.sha256,
        width: preview.width,
        height: preview.height,
        media_type: "image/jpeg" as const,
      },
      200,
    );
  });

  app.openapi(redeemPreview, async (c) => {
    const { asset_id, capability } = c.req.valid("param");
    const claims = c.env.SVC_CAPABILITY_SECRET ? await readCapability(c.env.SVC_CAPABILITY_SECRET, capability) : null;
    // One answer for every failure, so a capability never reveals why it does not work.
    const gone = () => new ApiError("svc.resource.not_found", NOT_AVAILABLE);
    if (!claims || claims.assetId !== asset_id) throw gone();
    const asset = await getAsset(c.var.db, claims.tenantId, asset_id);
    if (!asset || asset.publicationId !== claims.publicationId || asset.status !== "published") throw gone();
    const stored = await c.env.OBJECTS.get(previewKey(claims.tenantId, claims.publicationId));
    if (!stored) throw gone();
    return c.body(stored.body, 200, {
      ...servedObjectHeaders({ mediaType: "image/jpeg", filename: `${asset_id}-preview.jpg`, disposition: "inline" }),
      "Content-Length": String(stored.size),
      "Cache-Control": "private, no-store",
    });
  });
}
