// TEMPORARY: replaced by @svc/client once it lands.
import { CliError, EXIT, exitForStatus } from "./exit.ts";

export class ApiFailure extends CliError {
  readonly status: number;
  readonly code: string | null;
  readonly requestId: string | null;
  constructor(status: number, code: string | null, message: string, requestId: string | null) {
    super(exitForStatus(status), message, requestId ? [`request id: ${requestId}`] : []);
    this.status = status;
    this.code = code;
    this.requestId = requestId;
  }
}

export interface Api {
  request<T = any>(
    method: string,
    path: string,
    options?: { query?: Record<string, string | undefined>; body?: unknown; idempotent?: boolean },
  ): Promise<T>;
}

export function createApi(baseUrl: string, apiKey: string | null, signal: AbortSignal): Api {
  return {
    async request(method, path, options = {}) {
      const url = new URL(baseUrl + path);
      for (const [k, v] of Object.entries(options.query ?? {})) if (v !== undefined) url.searchParams.set(k, v);
      const headers: Record<string, string> = {};
      if (apiKey) headers.authorization = `Bearer ${apiKey}`;
      if (options.body !== undefined) headers["content-type"] = "application/json";
      if (options.idempotent) headers["idempotency-key"] = crypto.randomUUID();
      let res: Response;
      try {
        res = await fetch(url, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body), signal });
      } catch (e) {
        throw new CliError(EXIT.network, `cannot reach ${baseUrl}: ${(e as Error).cause ?? (e as Error).message}`);
      }
      const text = await res.text();
      let body: any = null;
      try {
        body = JSON.parse(text);
      } catch {}
      if (!res.ok)
        throw new ApiFailure(
          res.status,
          body?.code ?? null,
          body?.message ?? body?.detail ?? `HTTP ${res.status}`,
          body?.request_id ?? null,
        );
      return body;
    },
  };
}

export async function uploadFile(
  api: Api,
  bytes: Uint8Array,
  mediaType: string,
  filename: string,
  onProgress: (done: number, total: number) => void,
  signal: AbortSignal,
) {
  const { createHash } = await import("node:crypto");
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  const created = await api.request<any>("POST", "/v1/uploads", {
    body: { byte_length: bytes.length, declared_media_type: mediaType, mode: "single", sha256, filename },
  });
  const put = await fetch(created.upload.url, { method: created.upload.method, headers: created.upload.headers, body: bytes, signal });
  if (!put.ok) throw new ApiFailure(put.status, null, `upload PUT answered ${put.status}`, null);
  onProgress(bytes.length, bytes.length);
  await api.request("POST", `/v1/uploads/${created.upload_id}/complete`, { body: {}, idempotent: true });
  return { asset_id: created.asset_id as string, upload_id: created.upload_id as string };
}
