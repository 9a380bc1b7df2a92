import { hex, utf8 } from "../bytes";
import { hmacSha256, timingSafeEqual } from "../crypto";
import { base32 } from "../ids";

/**
 * `svc_live_` + 52 chars of `[a-z2-7]`: 256 random bits in 260, so the last char carries one bit and four zero
 * bits (`a` or `q`). Only that canonical spelling is a key: the other 15 last chars spell the same bytes.
 */
export const API_KEY_PREFIX = "svc_live_";
export const API_KEY_PATTERN = /^svc_live_[a-z2-7]{51}[aq]$/;

export function generateApiKeySecret(): string {
  return API_KEY_PREFIX + base32(crypto.getRandomValues(new Uint8Array(32)));
}

/** What is stored: HMAC-SHA256 under the server pepper, so a leaked table alone cannot confirm a key. */
export async function hashApiKeySecret(pepper: string, secret: string): Promise<string> {
  return hex(await hmacSha256(pepper, secret));
}

export function displayPrefixOf(secret: string): string {
  return secret.slice(0, API_KEY_PREFIX.length + 6);
}

export function hashesEqual(a: string, b: string): boolean {
  return timingSafeEqual(utf8(a), utf8(b));
}

/** Parses `Authorization: Bearer <key>`; null for anything else (the caller answers one identical 401). */
export function bearerKeyOf(header: string | undefined | null): string | null {
  if (!header) return null;
  const match = /^Bearer ([!-~]+)$/.exec(header);
  const token = match?.[1];
  return token && API_KEY_PATTERN.test(token) ? token : null;
}

/** The token of `Authorization: Bearer <token>` (printable ASCII), whatever its kind; null for anything else. */
export function bearerTokenOf(header: string | undefined | null): string | null {
  if (!header) return null;
  return /^Bearer ([!-~]+)$/.exec(header)?.[1] ?? null;
}
