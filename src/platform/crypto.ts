import { hex, utf8 } from "./bytes";

// Imported keys per secret, so the pepper and cursor secret are imported once per isolate, not per request.
const hmacKeys = new Map<string, Promise<CryptoKey>>();

function hmacKey(secret: string): Promise<CryptoKey> {
  let key = hmacKeys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey("raw", utf8(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    if (hmacKeys.size > 16) hmacKeys.clear(); // only a handful of server secrets ever pass through here
    hmacKeys.set(secret, key);
  }
  return key;
}

/** HMAC-SHA256 of `data` under `secret` (a UTF-8 string). */
export async function hmacSha256(secret: string, data: string | Uint8Array): Promise<Uint8Array> {
  const mac = await crypto.subtle.sign("HMAC", await hmacKey(secret), typeof data === "string" ? utf8(data) : data);
  return new Uint8Array(mac);
}

export async function sha256Hex(data: string | Uint8Array): Promise<string> {
  return hex(await crypto.subtle.digest("SHA-256", typeof data === "string" ? utf8(data) : data));
}

/**
 * Constant-time equality: the time depends only on the lengths, never on where the inputs differ.
 * Written out (not `crypto.subtle.timingSafeEqual`) so the same code runs in Node-side tests.
 */
export function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  let diff = a.length ^ b.length;
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) diff |= (a[i % (a.length || 1)] ?? 0) ^ (b[i % (b.length || 1)] ?? 0);
  return diff === 0;
}
