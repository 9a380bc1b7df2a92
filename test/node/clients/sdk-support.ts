/**
 * The SDK wired to a Worker running in Miniflare: its `fetch` hands every request (API and presigned storage
 * alike) to the Worker through dispatchFetch, body read as bytes (dispatchFetch does not serialize FormData, and
 * a Request built from FormData already carries the multipart bytes and boundary).
 */
import type { Miniflare } from "miniflare";

export interface Sent {
  method: string;
  url: string;
  headers: Record<string, string>;
  at: number;
}

export function miniflareFetch(mf: Miniflare, log?: Sent[]): (request: Request) => Promise<Response> {
  return async (request) => {
    const body = request.body ? new Uint8Array(await request.arrayBuffer()) : undefined;
    const headers: Record<string, string> = {};
    request.headers.forEach((value, key) => {
      headers[key] = value;
    });
    log?.push({ method: request.method, url: request.url, headers, at: performance.now() });
    return (await mf.dispatchFetch(request.url, { method: request.method, headers, body } as never)) as unknown as Response;
  };
}
