import { AwsClient } from "aws4fetch";
import { type Bindings, isDevelopment } from "../env";
import { base64url, fromBase64url } from "../platform/bytes";
import { hmacSha256, timingSafeEqual } from "../platform/crypto";
import { ApiError } from "../platform/errors";
import { presignedResponseParams, type ServedObject } from "../platform/served-object";

/*
 * Signed storage URLs (the contract calls them capabilities: the SVC_CAPABILITY_SECRET, the `capability` auth
 * kind and the svc.storage.capability_* errors keep that name): short-lived URLs that carry their own authority, so clients never send the API key to
 * a storage location. With R2's S3 credentials configured (production) they are SigV4-presigned R2 URLs;
 * otherwise (local, tests) the Worker serves them itself under /storage/..., authorized by an HMAC over
 * method, object key, expiry and exact length, checked in constant time.
 */

/** What a Worker-served signed URL authorizes. Invariant: the HMAC covers every field, so none can be changed alone. */
export interface SignedUrlClaims {
  method: "GET" | "PUT";
  /** The R2 object key (plus `#part=N` for multipart parts). */
  resource: string;
  expiresAt: number;
  /** Exact byte length a PUT must carry; null for GET. */
  byteLength: number | null;
}

/** A request the client makes itself, against storage. Invariant: it works until `expires_at` and not after. */
export interface PresignedRequest {
  method: "GET" | "PUT";
  url: string;
  headers: Record<string, string>;
  expires_at: string;
}

function message(c: SignedUrlClaims): string {
  return `svc.capability.v1\n${c.method}\n${c.resource}\n${c.expiresAt}\n${c.byteLength ?? "-"}`;
}

export async function signUrl(secret: string, claims: SignedUrlClaims): Promise<string> {
  return base64url(await hmacSha256(secret, message(claims)));
}

export type SignedUrlCheck = { status: "valid" } | { status: "invalid" } | { status: "expired" };

export async function verifySignedUrl(
  secret: string,
  claims: SignedUrlClaims,
  signature: string,
  now = Date.now(),
): Promise<SignedUrlCheck> {
  const presented = fromBase64url(signature);
  const expected = await hmacSha256(secret, message(claims));
  if (!presented || !timingSafeEqual(presented, expected)) return { status: "invalid" };
  return claims.expiresAt > now ? { status: "valid" } : { status: "expired" };
}

/**
 * Whether the Worker itself may serve stored objects (GET /storage/objects/...): only in development. In
 * production the API origin (where the verify page and documentation live) never serves uploaded bytes.
 */
export function workerServesObjects(env: Pick<Bindings, "SVC_ENVIRONMENT">): boolean {
  return isDevelopment(env);
}

function s3Client(env: Bindings): { client: AwsClient; base: string } | null {
  if (!env.SVC_R2_S3_ENDPOINT || !env.SVC_R2_ACCESS_KEY_ID || !env.SVC_R2_SECRET_ACCESS_KEY || !env.SVC_R2_BUCKET) return null;
  return {
    client: new AwsClient({
      accessKeyId: env.SVC_R2_ACCESS_KEY_ID,
      secretAccessKey: env.SVC_R2_SECRET_ACCESS_KEY,
      service: "s3",
      region: "auto",
    }),
    base: `${env.SVC_R2_S3_ENDPOINT.replace(/\/+$/, "")}/${env.SVC_R2_BUCKET}`,
  };
}

/**
 * Chooses the presigning method: R2 SigV4 when R2's S3 credentials are configured, a Worker-served capability
 * otherwise. Production serves objects from the R2 presigned origin, never from the API origin: there a GET
 * without R2 credentials is refused (503) rather than minted as a Worker-served URL, and presigned GETs carry
 * `response-content-type` / `response-content-disposition` so R2 answers with the type and an attachment.
 */
export async function presign(
  env: Bindings,
  origin: string,
  request: {
    method: "GET" | "PUT";
    key: string;
    /** Worker-served path (without query) for the capability variant. */
    workerPath: string;
    expiresAt: number;
    byteLength: number | null;
    headers: Record<string, string>;
    /** Multipart part: SigV4 needs the part number and R2 upload id in the query. */
    part?: { number: number; uploadId: string };
    /** GET: how the object is to be served (type, filename); signed into an R2 URL as S3 response overrides. */
    served?: ServedObject;
  },
): Promise<PresignedRequest> {
  const expires_at = new Date(request.expiresAt).toISOString();
  const s3 = s3Client(env);
  if (s3) {
    const url = new URL(`${s3.base}/${request.key.split("/").map(encodeURIComponent).join("/")}`);
    if (request.part) {
      url.searchParams.set("partNumber", String(request.part.number));
      url.searchParams.set("uploadId", request.part.uploadId);
    }
    if (request.method === "GET" && request.served) {
      for (const [name, value] of Object.entries(presignedResponseParams(request.served))) url.searchParams.set(name, value);
    }
    url.searchParams.set("X-Amz-Expires", String(Math.max(1, Math.floor((request.expiresAt - Date.now()) / 1000))));
    // A whole-object PUT may create its key once: the URL stays valid until it expires whatever the upload's state,
    // so without this it could overwrite bytes already completed and pinned (R2 honours If-None-Match on PutObject;
    // the header is signed, so the client must send it).
    // A PUT's length is signed too (R2 checks signed headers), so a URL cannot park more bytes than its upload
    // declared until expiry; clients send Content-Length for a body of known size anyway (browsers set it themselves).
    const headers: Record<string, string> = { ...request.headers };
    if (request.method === "PUT" && request.byteLength !== null) headers["Content-Length"] = String(request.byteLength);
    if (request.method === "PUT" && !request.part) headers["If-None-Match"] = "*";
    const signed = await s3.client.sign(url.toString(), { method: request.method, headers, aws: { signQuery: true, allHeaders: true } });
    return { method: request.method, url: signed.url, headers, expires_at };
  }
  if (request.method === "GET" && !workerServesObjects(env)) {
    throw new ApiError(
      "svc.dependency.unavailable",
      "Downloads are served from R2's presigned origin, and R2's S3 credentials are not configured.",
    );
  }
  if (!env.SVC_CAPABILITY_SECRET) throw new Error("no capability secret configured");
  const resource = request.part ? `${request.key}#part=${request.part.number}` : request.key;
  const signature = await signUrl(env.SVC_CAPABILITY_SECRET, {
    method: request.method,
    resource,
    expiresAt: request.expiresAt,
    byteLength: request.byteLength,
  });
  const url = `${origin}${request.workerPath}?expires=${request.expiresAt}&signature=${signature}`;
  return { method: request.method, url, headers: request.headers, expires_at };
}
