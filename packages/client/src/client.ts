import createClient, { type Client } from "openapi-fetch";
import { errorFromResponse, readBody, SvcError, SvcIntegrityError, SvcJobError } from "./errors.ts";
import type { components, paths } from "./openapi.js";
import { fetchWithRetry, type RetryOptions, resolveRetry, sleep } from "./retry.ts";
import { sha256Blob, sha256Bytes } from "./sha256.ts";
import { verifyWebhook, type WebhookEvent, type WebhookHeaders } from "./webhooks.ts";

type Schemas = components["schemas"];
// Some components are typed `| null` because the served document marks the component itself nullable where one
// use of it is (zod-openapi registers the nullable form); the helpers name the non-null shapes.
export type Job = Schemas["JobResponse"];
export type ExpressSignResponse = Schemas["ExpressSignResponse"];
export type Download = NonNullable<Schemas["DownloadResponse"]>;
export type SignRequest = Schemas["SignRequest"];
export type CompleteUploadResponse = Schemas["CompleteUploadResponse"];
export type CreateUploadResponse = Schemas["CreateUploadResponse"];
export type VerificationResult = Schemas["VerificationResult"];

/** The local `npm start` address: the default when no base URL is given. */
export const DEFAULT_BASE_URL = "http://127.0.0.1:8787";
const MiB = 1024 * 1024;
/** The storage API's minimum part (every part but the last) and maximum part count (src/catalog/limits.ts). */
const MIN_PART_BYTES = 5 * MiB;
const MAX_PARTS = 10_000;
/** The largest file POST /v1/verify takes. */
const VERIFY_MAXIMUM_BYTES = 25 * MiB;
/** Job states after which nothing changes; every other state is still moving. */
export const TERMINAL_JOB_STATES: readonly Job["state"][] = ["completed", "canceled", "expired", "rejected", "failed"];
const TERMINAL = new Set<string>(TERMINAL_JOB_STATES);

export interface SvcClientOptions {
  /** A server-side API key (`svc_live_…`). Without one only the public operations work (public verify). */
  apiKey?: string;
  /** The API's origin (default DEFAULT_BASE_URL, the local `npm start`). */
  baseUrl?: string;
  /** The fetch to use (default globalThis.fetch): every request, API and presigned storage alike, goes through it. */
  fetch?: (request: Request) => Promise<Response>;
  /** Retry policy (SPEC "Client rules"); `false` turns retries off. */
  retry?: RetryOptions | false;
}

/** Where the bytes of an upload come from: a File/Blob (read in slices, never whole for multipart) or bytes. */
export type UploadSource = Blob | ArrayBuffer | ArrayBufferView;

export interface UploadProgress {
  /** `hash`: computing the SHA-256 the contract asks for; `upload`: bytes accepted by storage. */
  phase: "hash" | "upload";
  loaded: number;
  total: number;
}

export interface UploadOptions {
  /** The bytes' media type; default the Blob's `type`. Must be enabled in GET /v1/capabilities. */
  mediaType?: string;
  /** Shown in the console; default a File's name. */
  filename?: string;
  /** Called as hashing and each part advance. */
  onProgress?: (progress: UploadProgress) => void;
  /** Above this size the upload is multipart (default 16 MiB). */
  multipartThreshold?: number;
  /** Part size for multipart (default 8 MiB, at least 5 MiB, grown to keep at most 10,000 parts). */
  partSize?: number;
  /** Parts sent at once (default 3). */
  concurrency?: number;
  /** The SHA-256 (lowercase hex) when already known: skips hashing. */
  sha256?: string;
  signal?: AbortSignal;
}

export interface PollOptions {
  /** Give up after this long (the job goes on; the promise rejects with a TimeoutError). */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** First poll after this long (default 1 s); doubles up to maxIntervalMs (default 30 s), with jitter. */
  initialIntervalMs?: number;
  maxIntervalMs?: number;
  /** Called with every job read. */
  onUpdate?: (job: Job) => void;
}

export type SignOptions = {
  assetId: string;
  recipeId?: string | null;
  mode?: "standard" | "express" | null;
  /** Reused for this one sign, on every retry; default a fresh UUID. Never logged. */
  idempotencyKey?: string;
  signal?: AbortSignal;
} & Omit<SignRequest, "asset_id" | "recipe_id" | "mode">;

/** The sign answer: 200 (express, finished in the request, with its download) or 202 (admitted; poll the job). */
export type SignResult = { status: 200; job: ExpressSignResponse; download: Download | null } | { status: 202; job: Job };

/** A completed job, and the download an express answer carried (null after polling: call download()). */
export interface SignedJob {
  job: Job;
  download: Download | null;
}

export interface DownloadOptions {
  /** Check every byte against the stated SHA-256 and length (default true). */
  verifyHash?: boolean;
  /** Fetch the sidecar manifest when the format has one (default true). */
  sidecar?: boolean;
  signal?: AbortSignal;
}

/** A downloaded, checked asset. Store `sidecar` as `sidecar.filename` beside the file: it proves nothing alone. */
export interface DownloadedAsset {
  bytes: Uint8Array;
  filename: string;
  media_type: string;
  sha256: string;
  byte_length: number;
  sidecar: { bytes: Uint8Array; filename: string; sha256: string } | null;
  /** The capability used (short-lived; its URL is a credential of its own: do not log it). */
  capability: Download;
}

/**
 * What to verify: bytes or a File (sent as multipart `file`); an http(s) URL of a media file (fetched here, without
 * the API key, at most 25 MiB, then sent as a file); a published asset of yours; or a manifest store's URL.
 */
export type VerifyInput = UploadSource | string | URL | { assetId: string } | { manifestUri: string };

export interface VerifyOptions {
  /** The sidecar `.c2pa` manifest store travelling beside the file. */
  manifest?: UploadSource;
  /** Send without the API key (the public variant: 10 a minute per address, nothing stored). Default: keyed when the client has a key. */
  public?: boolean;
  signal?: AbortSignal;
}

/** The client: the typed API plus helpers that follow the contract's client rules once. */
export interface SvcClient {
  /** Every operation, typed from /openapi.json (openapi-fetch: answers `{ data, error, response }`); retries and Idempotency-Key apply. */
  readonly api: Client<paths>;
  readonly baseUrl: string;
  upload(file: UploadSource, options?: UploadOptions): Promise<CompleteUploadResponse>;
  sign(options: SignOptions): Promise<SignResult>;
  signAndWait(options: SignOptions & PollOptions): Promise<SignedJob>;
  waitForJob(jobId: string, options?: PollOptions): Promise<Job>;
  download(asset: string | Download, options?: DownloadOptions): Promise<DownloadedAsset>;
  verify(input: VerifyInput, options?: VerifyOptions): Promise<VerificationResult>;
  readonly webhooks: { verify(payload: string | Uint8Array | ArrayBuffer, headers: WebhookHeaders, secret: string): WebhookEvent };
}

/**
 * The data of an openapi-fetch answer, or its error as an SvcError. Takes the answer or its promise, so
 * `await unwrap(svc.api.GET(…))` works as well as `unwrap(await svc.api.GET(…))`.
 */
export async function unwrap<T>(
  answer: { data?: T; error?: unknown; response: Response } | PromiseLike<{ data?: T; error?: unknown; response: Response }>,
): Promise<T> {
  const result = await answer;
  if (result.response.ok && result.error === undefined) return result.data as T;
  throw await errorFromResponse(result.response, result.error ?? null);
}

const asBlob = (source: UploadSource, type = ""): Blob =>
  source instanceof Blob
    ? source
    : new Blob(
        [
          source instanceof ArrayBuffer ? source : new Uint8Array(source.buffer, source.byteOffset, source.byteLength),
        ] as ConstructorParameters<typeof Blob>[0] & unknown[],
        {
          type,
        },
      );

/** Throws SvcIntegrityError unless `stated` has a 64-hex-digit sha256 and a whole, non-negative byte_length. */
function expectChecked(subject: "file" | "sidecar_manifest", stated: { sha256?: unknown; byte_length?: unknown }): void {
  const { sha256, byte_length } = stated;
  if (typeof sha256 === "string" && /^[0-9a-f]{64}$/i.test(sha256) && Number.isSafeInteger(byte_length) && (byte_length as number) >= 0)
    return;
  throw new SvcIntegrityError(
    subject,
    { sha256: typeof sha256 === "string" ? sha256 : "(not stated)", byte_length: typeof byte_length === "number" ? byte_length : -1 },
    { sha256: null, byte_length: 0 },
  );
}

/** Creates a client. Reads no environment: pass `fromEnv()` for SVC_API_KEY / SVC_API_BASE_URL. */
export function createSvcClient(options: SvcClientOptions = {}): SvcClient {
  const baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, "");
  const origin = new URL(baseUrl).origin;
  const baseFetch = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const policy = resolveRetry(options.retry);
  const apiKey = options.apiKey;

  /**
   * Every API request: the key only to the API's own origin, and a fresh Idempotency-Key per write (one call of
   * this function = one logical operation; its retries reuse the key).
   */
  const apiFetch = async (request: Request, auth = true): Promise<Response> => {
    if (new URL(request.url).origin !== origin) throw new Error("the API fetch only calls the API's origin");
    const headers = new Headers(request.headers);
    if (apiKey && auth) headers.set("authorization", `Bearer ${apiKey}`);
    else headers.delete("authorization");
    if (request.method !== "GET" && request.method !== "HEAD" && !headers.has("idempotency-key"))
      headers.set("idempotency-key", crypto.randomUUID());
    return fetchWithRetry(baseFetch, new Request(request, { headers }), policy);
  };

  const api = createClient<paths>({ baseUrl, fetch: (request) => apiFetch(request) });

  /** One JSON (or multipart) call of the API; an error answer becomes an SvcError. */
  async function call<T>(
    method: string,
    path: string,
    init: { json?: unknown; form?: FormData; idempotencyKey?: string; auth?: boolean; signal?: AbortSignal } = {},
  ): Promise<{ status: number; body: T }> {
    const headers = new Headers({ accept: "application/json" });
    if (init.idempotencyKey) headers.set("idempotency-key", init.idempotencyKey);
    let body: BodyInit | undefined;
    if (init.json !== undefined) {
      headers.set("content-type", "application/json");
      body = JSON.stringify(init.json);
    } else if (init.form) body = init.form;
    const response = await apiFetch(new Request(`${baseUrl}${path}`, { method, headers, body, signal: init.signal }), init.auth ?? true);
    if (!response.ok) throw await errorFromResponse(response);
    const text = await response.text();
    try {
      return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
    } catch {
      // a success answer that is not JSON (a proxy's page, a truncated body): typed, never a SyntaxError
      throw new SvcError({
        status: response.status,
        code: "invalid_response",
        message: `${method} ${path} answered ${response.status} with a body that is not JSON`,
        request_id: response.headers.get("x-request-id"),
        retryable: false,
      });
    }
  }

  /** A request to a URL the API returned (presigned storage): exactly the returned headers, never the API key. */
  async function capability(method: string, url: string, headers: Record<string, string>, body?: Blob, signal?: AbortSignal) {
    const response = await fetchWithRetry(baseFetch, new Request(url, { method, headers, body, signal }), policy);
    if (!response.ok) throw await errorFromResponse(response);
    return response;
  }

  async function upload(file: UploadSource, o: UploadOptions = {}): Promise<CompleteUploadResponse> {
    const blob = asBlob(file, o.mediaType);
    const mediaType = o.mediaType ?? blob.type;
    if (!mediaType) throw new TypeError("upload: give mediaType (the bytes' media type), or a Blob/File with a type");
    if (blob.size === 0) throw new RangeError("upload: the file is empty");
    const total = blob.size;
    const progress = (phase: UploadProgress["phase"], loaded: number) => o.onProgress?.({ phase, loaded, total });
    const sha256 = o.sha256?.toLowerCase() ?? (await sha256Blob(blob, (n) => progress("hash", n)));
    const multipart = total > (o.multipartThreshold ?? 16 * MiB);
    const partSize = Math.max(o.partSize ?? 8 * MiB, MIN_PART_BYTES, Math.ceil(total / MAX_PARTS));
    const parts = multipart
      ? Array.from({ length: Math.ceil(total / partSize) }, (_, i) => ({
          part_number: i + 1,
          byte_length: Math.min(partSize, total - i * partSize),
        }))
      : [];
    const filename = o.filename ?? (typeof File !== "undefined" && blob instanceof File ? blob.name : null);
    const created = (
      await call<CreateUploadResponse>("POST", "/v1/uploads", {
        json: {
          byte_length: total,
          declared_media_type: mediaType,
          mode: multipart ? "multipart" : "single",
          sha256,
          ...(filename ? { filename } : {}),
          ...(multipart ? { parts } : {}),
        },
        signal: o.signal,
      })
    ).body;
    let completed: { part_number: number; etag: string }[] = [];
    try {
      progress("upload", 0);
      if (!multipart) {
        if (!created.upload) throw new Error("upload: the service returned no upload request");
        await capability(created.upload.method, created.upload.url, created.upload.headers, blob, o.signal);
        progress("upload", total);
      } else {
        let loaded = 0;
        const queue = [...created.parts];
        const worker = async () => {
          for (let part = queue.shift(); part; part = queue.shift()) {
            const start = (part.part_number - 1) * partSize;
            const response = await capability(part.method, part.url, part.headers, blob.slice(start, start + part.byte_length), o.signal);
            const etag = response.headers.get("etag");
            await response.body?.cancel().catch(() => undefined);
            if (!etag) throw new Error(`upload: part ${part.part_number} answered without an ETag`);
            completed.push({ part_number: part.part_number, etag });
            loaded += part.byte_length;
            progress("upload", loaded);
          }
        };
        await Promise.all(Array.from({ length: Math.max(1, Math.min(o.concurrency ?? 3, queue.length)) }, worker));
        completed = completed.sort((a, b) => a.part_number - b.part_number);
      }
    } catch (e) {
      // The bytes did not all arrive: release the upload (best effort) so its staging space is not held.
      await call("POST", `/v1/uploads/${created.upload_id}/abort`).catch(() => undefined);
      throw e;
    }
    return (
      await call<CompleteUploadResponse>("POST", `/v1/uploads/${created.upload_id}/complete`, {
        json: multipart ? { parts: completed } : {},
        signal: o.signal,
      })
    ).body;
  }

  async function sign(o: SignOptions): Promise<SignResult> {
    const { assetId, recipeId, mode, idempotencyKey, signal, ...rest } = o;
    const { status, body } = await call<ExpressSignResponse | Job>("POST", "/v1/sign", {
      json: { ...rest, asset_id: assetId, ...(recipeId !== undefined ? { recipe_id: recipeId } : {}), ...(mode ? { mode } : {}) },
      idempotencyKey: idempotencyKey ?? crypto.randomUUID(),
      signal,
    });
    if (status === 200) return { status: 200, job: body as ExpressSignResponse, download: (body as ExpressSignResponse).download ?? null };
    return { status: 202, job: body as Job };
  }

  async function waitForJob(jobId: string, o: PollOptions = {}): Promise<Job> {
    const signal = combine(o.signal, o.timeoutMs);
    let interval = o.initialIntervalMs ?? 1000;
    const max = o.maxIntervalMs ?? 30_000;
    for (;;) {
      // first read after the initial interval, then doubling to the ceiling; ±20 % jitter spreads pollers apart
      await sleep(Math.min(max, interval) * (0.8 + 0.4 * Math.random()), signal);
      interval = Math.min(max, interval * 2);
      const job = (await call<Job>("GET", `/v1/jobs/${encodeURIComponent(jobId)}`, { signal })).body;
      o.onUpdate?.(job);
      if (TERMINAL.has(job.state)) return job;
    }
  }

  async function signAndWait(o: SignOptions & PollOptions): Promise<SignedJob> {
    const { timeoutMs, initialIntervalMs, maxIntervalMs, onUpdate, ...signOptions } = o;
    const signal = combine(o.signal, timeoutMs);
    const answer = await sign({ ...signOptions, signal });
    onUpdate?.(answer.job);
    const job = TERMINAL.has(answer.job.state)
      ? answer.job
      : await waitForJob(answer.job.job_id, { signal, initialIntervalMs, maxIntervalMs, onUpdate });
    if (job.state !== "completed") throw new SvcJobError(job);
    return { job, download: answer.status === 200 ? answer.download : null };
  }

  async function download(asset: string | Download, o: DownloadOptions = {}): Promise<DownloadedAsset> {
    const cap =
      typeof asset === "string"
        ? (await call<Download>("POST", `/v1/assets/${encodeURIComponent(asset)}/download`, { signal: o.signal })).body
        : asset;
    const verify = o.verifyHash ?? true;
    const fetchChecked = async (
      subject: "file" | "sidecar_manifest",
      url: string,
      headers: Record<string, string>,
      expected: { sha256: string; byte_length: number },
    ) => {
      const response = await capability("GET", url, headers, undefined, o.signal);
      // never more than stated: a longer body is refused as it streams, not after it filled memory
      const bytes = await readBody(response, verify ? expected.byte_length : Number.POSITIVE_INFINITY).catch((e) => {
        if (e instanceof RangeError)
          throw new SvcIntegrityError(subject, expected, { sha256: null, byte_length: expected.byte_length + 1 });
        throw e;
      });
      const sha256 = await sha256Bytes(bytes);
      if (verify && (bytes.length !== expected.byte_length || sha256 !== expected.sha256.toLowerCase()))
        throw new SvcIntegrityError(subject, expected, { sha256, byte_length: bytes.length });
      return { bytes, sha256 };
    };
    const side = cap.sidecar_manifest;
    // A capability that states no usable hash or length cannot be checked: refused before anything is fetched.
    if (verify) {
      expectChecked("file", cap);
      if (side && (o.sidecar ?? true)) expectChecked("sidecar_manifest", side);
    }
    const file = await fetchChecked("file", cap.url, cap.headers, cap);
    const sidecar =
      side && (o.sidecar ?? true)
        ? { ...(await fetchChecked("sidecar_manifest", side.url, side.headers, side)), filename: side.filename }
        : null;
    return {
      bytes: file.bytes,
      filename: cap.filename,
      media_type: cap.media_type,
      sha256: file.sha256,
      byte_length: file.bytes.length,
      sidecar,
      capability: cap,
    };
  }

  async function verify(input: VerifyInput, o: VerifyOptions = {}): Promise<VerificationResult> {
    const auth = !o.public;
    if (typeof input === "object" && input !== null && "assetId" in input)
      return (await call<VerificationResult>("POST", "/v1/verify", { json: { asset_id: input.assetId }, auth, signal: o.signal })).body;
    if (typeof input === "object" && input !== null && "manifestUri" in input)
      return (await call<VerificationResult>("POST", "/v1/verify", { json: { manifest_uri: input.manifestUri }, auth, signal: o.signal }))
        .body;
    let file: Blob;
    let name = "file";
    if (typeof input === "string" || input instanceof URL) {
      const url = new URL(input);
      if (url.protocol !== "https:" && url.protocol !== "http:") throw new TypeError("verify: a URL must be http(s)");
      // a third party's URL: fetched plainly, never with the API key, bounded to what verify accepts
      const response = await baseFetch(new Request(url, { signal: o.signal }));
      if (!response.ok) throw new Error(`verify: GET ${url.origin}${url.pathname} answered ${response.status}`);
      file = new Blob([(await readBody(response, VERIFY_MAXIMUM_BYTES)) as Uint8Array<ArrayBuffer>]);
      name = url.pathname.split("/").pop() || "file";
    } else {
      file = asBlob(input);
      if (typeof File !== "undefined" && file instanceof File && file.name) name = file.name;
    }
    const form = new FormData();
    form.append("file", file, name);
    if (o.manifest) form.append("manifest", asBlob(o.manifest), `${name}.c2pa`);
    return (await call<VerificationResult>("POST", "/v1/verify", { form, auth, signal: o.signal })).body;
  }

  return {
    api,
    baseUrl,
    upload,
    sign,
    signAndWait,
    waitForJob,
    download,
    verify,
    webhooks: { verify: verifyWebhook },
  };
}

/** The caller's signal and a timeout, as one signal (the timeout's reason is a TimeoutError DOMException). */
function combine(signal: AbortSignal | undefined, timeoutMs: number | undefined): AbortSignal | undefined {
  const timeout = timeoutMs === undefined ? undefined : AbortSignal.timeout(timeoutMs);
  if (signal && timeout) return AbortSignal.any([signal, timeout]);
  return signal ?? timeout;
}

export { SvcError };
