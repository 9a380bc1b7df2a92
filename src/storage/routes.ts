import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../app-types";
import { formatOf } from "../catalog/formats";
import { database } from "../db/client";
import { createRouter } from "../platform/context";
import { ApiError } from "../platform/errors";
import { idSchema } from "../platform/ids";
import { errorResponse } from "../platform/openapi";
import { servedAnswerHeaders, servedObjectHeaders } from "../platform/served-object";
import { getUploadById, type UploadRow } from "../uploads/repo";
import { uploadIsOpen } from "../uploads/service";
import { objectById } from "./repo";
import { CapabilityQuery } from "./schemas";
import { type SignedUrlClaims, verifySignedUrl, workerServesObjects } from "./signed-urls";

/*
 * The Worker-served storage locations behind presigned URLs (used when R2's S3 credentials are not
 * configured: locally, in tests). They answer like object storage (an ETag header, bodies are raw bytes) and
 * refuse anything but the exact request the capability was issued for. Downloads are development only:
 * production serves objects from R2's presigned origin, never the API origin. Every answer carries nosniff and
 * the sandbox CSP, and a download is always an attachment (platform/served-object.ts).
 */

const StorageErrors = {
  400: errorResponse("The request body broke off before its end (`svc.storage.body_incomplete`): nothing was stored."),
  403: errorResponse("Signature invalid (`svc.storage.capability_invalid`) or expired (`svc.storage.capability_expired`)."),
  409: errorResponse("The upload no longer accepts bytes (`svc.storage.upload_closed`)."),
};

async function authorize(secret: string | undefined, claims: SignedUrlClaims, signature: string) {
  if (!secret) throw new ApiError("svc.dependency.unavailable", "Storage capabilities are not configured.");
  const check = await verifySignedUrl(secret, claims, signature);
  if (check.status === "invalid") throw new ApiError("svc.storage.capability_invalid");
  if (check.status === "expired") throw new ApiError("svc.storage.capability_expired");
}

/** What became of an upload's request body as it was copied into storage. */
interface CountedBody {
  stream: ReadableStream;
  /** The body was not `length` bytes long: the client's fault (422). */
  wrongLength: () => boolean;
  /** Reading the body failed before its end: the client stopped sending (closed the connection, its stream failed). */
  broken: () => boolean;
}

/**
 * The request body as a stream of exactly `length` bytes (R2 needs a known length), and why a failed write failed:
 * a body that was not that long (`wrongLength`, 422) or that stopped mid-way (`broken`, 400) is the client's doing;
 * anything else is storage's (503, retry). Decided from what the copy saw, never from timing: a chunk is counted
 * before it is written (the fixed-length stream refuses one past `length`), the body's end is seen before that
 * stream's close fails, and a read that rejects is the body breaking (#22 L1: an aborted upload answered 503).
 */
function exactBody(request: Request, length: number): CountedBody {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) !== length) {
    throw new ApiError("svc.storage.length_mismatch", `This URL takes exactly ${length} bytes; the request declares ${declared}.`);
  }
  if (!request.body) throw new ApiError("svc.storage.length_mismatch", `This URL takes exactly ${length} bytes; the request has none.`);
  let seen = 0;
  let ended = false;
  let broken = false;
  const fixed = new FixedLengthStream(length);
  const reader = request.body.getReader();
  const writer = fixed.writable.getWriter();
  const copy = async () => {
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (error) {
        broken = true;
        await writer.abort(error);
        return;
      }
      if (chunk.done) {
        ended = true;
        await writer.close();
        return;
      }
      seen += chunk.value.byteLength;
      await writer.write(chunk.value);
    }
  };
  // A write refused (too long, or storage gave up on the stream) ends the copy: the body is not read further.
  void copy().catch((error) => {
    void reader.cancel(error).catch(() => undefined);
    void writer.abort(error).catch(() => undefined);
  });
  return { stream: fixed.readable, wrongLength: () => seen > length || (ended && seen !== length), broken: () => broken };
}

/**
 * A failed write of an upload's bytes: a wrong length is the client's (422), a body that broke off too (400);
 * anything else is storage's, rethrown (503).
 */
function writeFailed(error: unknown, body: CountedBody | null, message: string): never {
  if (error instanceof ApiError) throw error;
  if (!body || body.wrongLength()) throw new ApiError("svc.storage.length_mismatch", message);
  if (body.broken()) throw new ApiError("svc.storage.body_incomplete");
  throw error;
}

async function openUpload(env: { DB: D1Database }, uploadId: string): Promise<UploadRow> {
  const upload = await getUploadById(database(env.DB), uploadId);
  // An unknown upload answers like a bad signature: a capability never reveals what exists.
  if (!upload) throw new ApiError("svc.storage.capability_invalid");
  return upload;
}

const putUpload = createRoute({
  method: "put",
  path: "/storage/uploads/{upload_id}",
  operationId: "putUploadContent",
  tags: ["Storage"],
  summary: "Send an upload's bytes (presigned)",
  description:
    "The `upload.url` of a single upload. Send exactly the declared bytes with the returned headers; no API key. Answers 200 with an ETag header.",
  request: {
    params: z.object({ upload_id: idSchema("upload", "Upload id.").openapi({ param: { name: "upload_id", in: "path" } }) }),
    query: CapabilityQuery,
  },
  responses: { 200: { description: "Stored. The ETag header identifies the bytes." }, ...StorageErrors },
});

const putPart = createRoute({
  method: "put",
  path: "/storage/uploads/{upload_id}/parts/{part_number}",
  operationId: "putUploadPart",
  tags: ["Storage"],
  summary: "Send one part of a multipart upload (presigned)",
  description: "A `parts[].url` of a multipart upload. Keep the ETag header of the answer and send it back on complete.",
  request: {
    params: z.object({
      upload_id: idSchema("upload", "Upload id.").openapi({ param: { name: "upload_id", in: "path" } }),
      part_number: z.coerce
        .number()
        .int()
        .min(1)
        .max(10000)
        .openapi({ param: { name: "part_number", in: "path" }, description: "Part number.", example: 1 }),
    }),
    query: CapabilityQuery,
  },
  responses: { 200: { description: "Stored. The ETag header is the part's ETag." }, ...StorageErrors },
});

const getObject = createRoute({
  method: "get",
  path: "/storage/objects/{object_id}",
  operationId: "getObjectContent",
  tags: ["Storage"],
  summary: "Download an object (presigned)",
  description:
    "The `url` of a download or sidecar manifest. GET it with exactly the returned headers before it expires; check the bytes against `sha256` and `byte_length`.",
  request: {
    params: z.object({ object_id: idSchema("object", "Object id.").openapi({ param: { name: "object_id", in: "path" } }) }),
    query: CapabilityQuery,
  },
  responses: {
    200: {
      description:
        "The object's bytes, as an attachment (`Content-Disposition: attachment` with the filename), with `X-Content-Type-Options: nosniff` and `Content-Security-Policy: sandbox; default-src 'none'`.",
      content: { "application/octet-stream": { schema: z.string().openapi({ format: "binary", description: "Raw bytes." }) } },
    },
    403: StorageErrors[403],
    404: errorResponse("The object is gone (`svc.resource.not_found`)."),
  },
});

export function storageRoutes() {
  const app: Router = createRouter();

  app.openapi(putUpload, async (c) => {
    const { upload_id } = c.req.valid("param");
    const { expires, signature } = c.req.valid("query");
    const upload = await openUpload(c.env, upload_id);
    await authorize(
      c.env.SVC_CAPABILITY_SECRET,
      { method: "PUT", resource: upload.r2Key, expiresAt: Number(expires), byteLength: upload.byteLength },
      signature,
    );
    if (upload.mode !== "single" || !uploadIsOpen(upload)) throw new ApiError("svc.storage.upload_closed");
    let stored: R2Object | null = null;
    let body: CountedBody | null = null;
    try {
      body = exactBody(c.req.raw, upload.byteLength);
      stored = await c.env.OBJECTS.put(upload.r2Key, body.stream, { httpMetadata: { contentType: upload.declaredMediaType } });
    } catch (error) {
      writeFailed(error, body, `This URL takes exactly ${upload.byteLength} bytes.`);
    }
    return c.body(null, 200, { ...servedAnswerHeaders(), ETag: stored?.httpEtag ?? "" });
  });

  app.openapi(putPart, async (c) => {
    const { upload_id, part_number } = c.req.valid("param");
    const { expires, signature } = c.req.valid("query");
    const upload = await openUpload(c.env, upload_id);
    const declared = (JSON.parse(upload.parts ?? "[]") as { part_number: number; byte_length: number }[]).find(
      (p) => p.part_number === part_number,
    );
    await authorize(
      c.env.SVC_CAPABILITY_SECRET,
      {
        method: "PUT",
        resource: `${upload.r2Key}#part=${part_number}`,
        expiresAt: Number(expires),
        byteLength: declared?.byte_length ?? -1,
      },
      signature,
    );
    if (upload.mode !== "multipart" || !declared || !uploadIsOpen(upload)) throw new ApiError("svc.storage.upload_closed");
    let etag = "";
    let body: CountedBody | null = null;
    try {
      body = exactBody(c.req.raw, declared.byte_length);
      const part = await c.env.OBJECTS.resumeMultipartUpload(upload.r2Key, upload.multipartUploadId!).uploadPart(part_number, body.stream);
      etag = part.etag;
    } catch (error) {
      writeFailed(error, body, `This part takes exactly ${declared.byte_length} bytes.`);
    }
    return c.body(null, 200, { ...servedAnswerHeaders(), ETag: etag });
  });

  app.openapi(getObject, async (c) => {
    const { object_id } = c.req.valid("param");
    const { expires, signature } = c.req.valid("query");
    // Production serves objects from R2's presigned origin only (see presign); the API origin never does.
    if (!workerServesObjects(c.env)) throw new ApiError("svc.storage.capability_invalid");
    const row = await objectById(c.var.db, object_id);
    if (!row) throw new ApiError("svc.storage.capability_invalid");
    await authorize(
      c.env.SVC_CAPABILITY_SECRET,
      { method: "GET", resource: row.r2Key, expiresAt: Number(expires), byteLength: null },
      signature,
    );
    // Serve only the pinned bytes: a changed etag means the key was overwritten and is not served.
    const stored = await c.env.OBJECTS.get(row.r2Key, { onlyIf: { etagMatches: row.etag } });
    if (!stored || !("body" in stored)) throw new ApiError("svc.resource.not_found", "The object's bytes are not available.");
    // Always an attachment under the download's filename (the asset id plus the container's extension when the
    // row names none: a sidecar format's published bytes are its source object), with nosniff and the sandbox.
    const filename = row.filename ?? (formatOf(row.mediaType) ? `${row.assetId}.${formatOf(row.mediaType)!.extension}` : null);
    return c.body(stored.body, 200, {
      ...servedObjectHeaders({ mediaType: row.mediaType, filename, disposition: "attachment" }),
      "Content-Length": String(row.byteLength),
      ETag: stored.httpEtag,
      "Cache-Control": "private, no-store",
    });
  });

  return app;
}
