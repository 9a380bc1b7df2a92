/**
 * A client of the real Worker bundle (test/support/worker.ts) that drives the public HTTP flow exactly as a
 * customer would: capabilities, upload (create → PUT to the presigned URL with exactly its headers →
 * complete), sign, poll the job, download (and the sidecar manifest). Shared by the Node-side end-to-end
 * suites; self-contained apart from the dev PKI and the id/scope helpers of src/.
 */
import { createHash, createHmac, randomBytes, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { vi } from "vitest";
import { type DevPki, mintDevPki } from "../../src/dev/pki";
import { generateApiKeySecret } from "../../src/platform/auth/keys";
import { ALL_SCOPES } from "../../src/platform/auth/scopes";
import { newId } from "../../src/platform/ids";
import { type RunningWorker, startWorker } from "./worker";

export const FIXTURES = join(import.meta.dirname, "..", "fixtures", "media");

export function fixtureBytes(name: string): Uint8Array {
  return new Uint8Array(readFileSync(join(FIXTURES, name)));
}

export function sha256Hex(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** A response read once: status, raw text and parsed JSON (null when not JSON). */
export interface ApiResult<T = any> {
  status: number;
  headers: Headers;
  text: string;
  body: T;
}

export interface SignedService {
  worker: RunningWorker;
  pki: DevPki;
  key: string;
  tenantId: string;
  /** An authenticated JSON call. */
  call<T = any>(method: string, path: string, options?: { body?: unknown; idempotencyKey?: string | true }): Promise<ApiResult<T>>;
  /** POST /v1/verify with a multipart `file` (and `manifest`), authenticated (no public per-IP limit). */
  verify(file: Uint8Array, manifest?: Uint8Array): Promise<ApiResult>;
  /** A call to a URL the API returned (presigned storage), with exactly the given headers and no API key. */
  callUrl(url: string, init: { method: string; headers?: Record<string, string>; body?: Uint8Array }): Promise<Response>;
  dispose(): Promise<void>;
}

/**
 * Mints a dev PKI, starts the Worker bundle with signing and the internal TSA configured, and writes a tenant
 * with an all-scope API key straight to D1 (as `npm start` does for the dev tenant).
 */
export async function startSignedService(options: { bindings?: Record<string, string>; video?: boolean } = {}): Promise<SignedService> {
  const pki = await mintDevPki();
  const pepper = randomBytes(32).toString("hex");
  const worker = await startWorker({
    video: options.video ?? false,
    bindings: {
      SVC_C2PA_SIGNER_CHAIN_PEM: pki.signerChainPem,
      SVC_C2PA_SIGNER_KEY_PEM: pki.signerKeyPkcs8Pem,
      SVC_TSA_CHAIN_PEM: pki.tsaChainPem,
      SVC_TSA_KEY_PEM: pki.tsaKeyPkcs8Pem,
      SVC_TRUST_ANCHORS_PEM: pki.rootCertPem,
      SVC_TSA_URL: "internal",
      SVC_KEY_PEPPER: pepper,
      SVC_CURSOR_SECRET: randomBytes(32).toString("hex"),
      SVC_CAPABILITY_SECRET: randomBytes(32).toString("hex"),
      ...options.bindings,
    },
  });
  const tenantId = newId("tenant");
  const key = generateApiKeySecret();
  const now = Date.now();
  await worker.db
    .prepare("INSERT INTO tenants (id, name, contact_email, status, created_at) VALUES (?, ?, ?, 'active', ?)")
    .bind(tenantId, "E2E", "e2e@example.test", now)
    .run();
  await worker.db
    .prepare(
      "INSERT INTO api_keys (id, tenant_id, name, secret_hash, display_prefix, scopes, status, created_at) VALUES (?, ?, ?, ?, ?, ?, 'active', ?)",
    )
    .bind(
      newId("apiKey"),
      tenantId,
      "e2e",
      createHmac("sha256", pepper).update(key).digest("hex"),
      key.slice(0, 15),
      JSON.stringify(ALL_SCOPES),
      now,
    )
    .run();

  const call: SignedService["call"] = async (method, path, options = {}) => {
    const headers: Record<string, string> = { authorization: `Bearer ${key}` };
    if (options.body !== undefined) headers["content-type"] = "application/json";
    if (options.idempotencyKey) headers["idempotency-key"] = options.idempotencyKey === true ? randomUUID() : options.idempotencyKey;
    const res = await worker.fetch(path, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
    const text = await res.text();
    let body: any = null;
    try {
      body = JSON.parse(text);
    } catch {
      body = null;
    }
    return { status: res.status, headers: res.headers, text, body };
  };
  const callUrl: SignedService["callUrl"] = (url, init) =>
    worker.mf.dispatchFetch(url, {
      method: init.method,
      headers: init.headers ?? {},
      body: init.body,
    } as never) as unknown as Promise<Response>;

  // Built by hand: Miniflare's dispatchFetch does not serialize Node's FormData.
  const verify: SignedService["verify"] = async (file, manifest) => {
    const boundary = `svc${randomUUID().replace(/-/g, "")}`;
    const part = (name: string, bytes: Uint8Array) =>
      Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${name}.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
        ),
        Buffer.from(bytes),
        Buffer.from("\r\n"),
      ]);
    const body = Buffer.concat([part("file", file), ...(manifest ? [part("manifest", manifest)] : []), Buffer.from(`--${boundary}--\r\n`)]);
    const res = await worker.fetch("/v1/verify", {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": `multipart/form-data; boundary=${boundary}` },
      body,
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, text, body: JSON.parse(text) };
  };

  return { worker, pki, key, tenantId, call, callUrl, verify, dispose: () => worker.dispose() };
}

export interface CreatedUpload {
  upload_id: string;
  asset_id: string;
  upload: { method: string; url: string; headers: Record<string, string> };
}

/** POST /v1/uploads for `bytes` (declared length and hash overridable to lie). */
export async function createUpload(
  svc: SignedService,
  bytes: Uint8Array,
  mediaType: string,
  filename: string,
  lie: { byte_length?: number; sha256?: string } = {},
): Promise<ApiResult<CreatedUpload>> {
  return svc.call<CreatedUpload>("POST", "/v1/uploads", {
    body: {
      byte_length: lie.byte_length ?? bytes.length,
      declared_media_type: mediaType,
      mode: "single",
      sha256: lie.sha256 ?? sha256Hex(bytes),
      filename,
    },
  });
}

/** PUT the bytes to upload.url with exactly upload.headers. */
export function putBytes(svc: SignedService, created: CreatedUpload, bytes: Uint8Array): Promise<Response> {
  return svc.callUrl(created.upload.url, { method: created.upload.method, headers: created.upload.headers, body: bytes });
}

export function completeUpload(svc: SignedService, uploadId: string): Promise<ApiResult> {
  return svc.call("POST", `/v1/uploads/${uploadId}/complete`, { body: {}, idempotencyKey: true });
}

/** Create, PUT, complete; throws with the error body on any refusal. Returns the asset id. */
export async function uploadAsset(
  svc: SignedService,
  bytes: Uint8Array,
  mediaType: string,
  filename: string,
): Promise<{ assetId: string; uploadId: string }> {
  const created = await createUpload(svc, bytes, mediaType, filename);
  if (created.status !== 201) throw new Error(`create upload ${mediaType}: ${created.status} ${created.text}`);
  const put = await putBytes(svc, created.body, bytes);
  if (put.status !== 200) throw new Error(`PUT ${mediaType}: ${put.status} ${await put.text()}`);
  await put.arrayBuffer().catch(() => undefined);
  const completed = await completeUpload(svc, created.body.upload_id);
  if (completed.status !== 200) throw new Error(`complete ${mediaType}: ${completed.status} ${completed.text}`);
  return { assetId: created.body.asset_id, uploadId: created.body.upload_id };
}

export const TERMINAL_JOB_STATES = ["completed", "failed", "rejected", "canceled", "expired"];

/** POST /v1/sign (202 expected; throws otherwise) and poll the job until terminal (every 250 ms). `options`: more of the body. */
export async function signAndWait(
  svc: SignedService,
  assetId: string,
  recipeId: string,
  timeoutMs = 60_000,
  options: Record<string, unknown> = {},
): Promise<any> {
  const started = await svc.call("POST", "/v1/sign", {
    body: { ...options, asset_id: assetId, recipe_id: recipeId },
    idempotencyKey: true,
  });
  if (started.status !== 202) throw new Error(`sign ${assetId} with ${recipeId}: ${started.status} ${started.text}`);
  const jobId: string = started.body.job_id;
  // A refused GET ends the wait at once (returned, thrown below); only a job still running is retried.
  const job = await vi.waitFor(
    async () => {
      const job = await svc.call("GET", `/v1/jobs/${jobId}`);
      if (job.status === 200 && !TERMINAL_JOB_STATES.includes(job.body.state))
        throw new Error(`job ${jobId} still ${job.body.state} after ${timeoutMs} ms: ${job.text}`);
      return job;
    },
    { timeout: timeoutMs, interval: 250 },
  );
  if (job.status !== 200) throw new Error(`GET job ${jobId}: ${job.status} ${job.text}`);
  return job.body;
}

export interface Downloaded {
  download: any;
  bytes: Uint8Array;
  /** The .c2pa manifest store of a sidecar format, else null. */
  sidecar: Uint8Array | null;
}

/** POST /v1/assets/{id}/download and GET the url (and sidecar_manifest.url) with exactly the returned headers. */
export async function download(svc: SignedService, assetId: string): Promise<Downloaded> {
  const res = await svc.call("POST", `/v1/assets/${assetId}/download`);
  if (res.status !== 200) throw new Error(`download ${assetId}: ${res.status} ${res.text}`);
  const d = res.body;
  const get = async (url: string, headers: Record<string, string>) => {
    const r = await svc.callUrl(url, { method: "GET", headers });
    if (r.status !== 200) throw new Error(`GET ${url}: ${r.status} ${await r.text()}`);
    return new Uint8Array(await r.arrayBuffer());
  };
  const bytes = await get(d.url, d.headers);
  const sidecar = d.sidecar_manifest ? await get(d.sidecar_manifest.url, d.sidecar_manifest.headers) : null;
  return { download: d, bytes, sidecar };
}
