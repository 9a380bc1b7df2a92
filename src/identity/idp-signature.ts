import { base64, fromBase64, utf8 } from "../platform/bytes";
import { timingSafeEqual } from "../platform/crypto";

/*
 * The identity provider's callback signature, Svix-style (the Standard Webhooks scheme): headers `idp-id`,
 * `idp-timestamp` (unix seconds) and `idp-signature` (space-separated `v1,<base64 HMAC-SHA256>` entries) over
 * `${id}.${timestamp}.${exact raw body}`, keyed by the secret's bytes (`whsec_` + base64). Pure: no I/O.
 */

/** Seconds the signed timestamp may be away from now, either way. */
export const IDP_SIGNATURE_TOLERANCE_SECONDS = 300;
export const IDP_ID_MAX_LENGTH = 256;
export const IDP_TIMESTAMP_MAX_LENGTH = 32;
/** Signatures considered per request (a provider sends one per live secret while it rotates). */
const MAX_SIGNATURES = 16;

/** The secret's key bytes: `whsec_` + base64, or (without the prefix) the UTF-8 of the value. Null when empty or not base64. */
export function idpSecretKey(secret: string | undefined): Uint8Array | null {
  const value = secret?.trim();
  if (!value) return null;
  if (!value.startsWith("whsec_")) return utf8(value);
  const bytes = fromBase64(value.slice("whsec_".length));
  return bytes && bytes.length > 0 ? bytes : null;
}

async function mac(key: Uint8Array, content: string): Promise<Uint8Array> {
  const imported = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", imported, utf8(content)));
}

export type IdpHeaders = { id: string | undefined; timestamp: string | undefined; signature: string | undefined };

/**
 * `headers_invalid` when a header is missing or out of its bounds; `invalid` when no signature matches; `stale`
 * when one matches but the timestamp is more than the tolerance away from now (checked after the MAC, so unsigned
 * headers teach nothing about our clock). Every candidate is compared, each in constant time.
 */
export async function verifyIdpSignature(
  headers: IdpHeaders,
  rawBody: string,
  key: Uint8Array,
  nowMs: number,
): Promise<"valid" | "invalid" | "stale" | "headers_invalid"> {
  const { id, timestamp, signature } = headers;
  if (!id || id.length > IDP_ID_MAX_LENGTH || !/^[!-~]+$/.test(id)) return "headers_invalid";
  if (!timestamp || timestamp.length > IDP_TIMESTAMP_MAX_LENGTH || !/^[0-9]+$/.test(timestamp)) return "headers_invalid";
  if (!signature || signature.length > 4096) return "headers_invalid";
  const candidates = signature
    .split(" ")
    .filter((entry) => entry.startsWith("v1,"))
    .map((entry) => fromBase64(entry.slice(3)))
    .filter((bytes): bytes is Uint8Array => bytes !== null && bytes.length === 32);
  if (candidates.length === 0 || candidates.length > MAX_SIGNATURES) return "invalid";
  const expected = await mac(key, `${id}.${timestamp}.${rawBody}`);
  let matched = false;
  for (const candidate of candidates) if (timingSafeEqual(expected, candidate)) matched = true;
  if (!matched) return "invalid";
  const seconds = Number(timestamp);
  return Math.abs(nowMs / 1000 - seconds) <= IDP_SIGNATURE_TOLERANCE_SECONDS ? "valid" : "stale";
}

/** The `idp-signature` header a sender computes (the dev tools and tests). */
export async function idpSignatureHeader(key: Uint8Array, id: string, timestampSeconds: number, rawBody: string): Promise<string> {
  return `v1,${base64(await mac(key, `${id}.${timestampSeconds}.${rawBody}`))}`;
}
