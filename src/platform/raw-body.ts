import { readBodyPrefix } from "./net/outbound";

/**
 * The body of a signed callback exactly as sent (a provider's signature covers these bytes, so nothing may parse or
 * re-serialise it first), or null when it is over `maxBytes`: by its declared length before reading anything, or
 * while streaming through the one bounded reader (the read stops there, so an oversized body is never held whole).
 */
export async function readBoundedBody(request: Request, maxBytes: number): Promise<Uint8Array | null> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (Number.isFinite(declared) && declared > maxBytes) return null;
  const { bytes, truncated } = await readBodyPrefix(new Response(request.body), maxBytes);
  return truncated ? null : bytes;
}
