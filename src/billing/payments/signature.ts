import { fromHex, hex } from "../../platform/bytes";
import { hmacSha256, timingSafeEqual } from "../../platform/crypto";

/** Seconds a signature's timestamp may be away from now, either way (Stripe's default). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/**
 * `Stripe-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">[,v1=…]`: the exact raw body, never a
 * re-serialisation. Several v1 values (the provider signs with each live secret while one rotates) and several of
 * our secrets (ours rotate too) are accepted; every comparison is constant time and all of them run.
 */
export async function verifySignature(
  header: string | undefined,
  rawBody: string,
  secrets: readonly string[],
  nowMs: number,
): Promise<"valid" | "invalid" | "stale"> {
  if (!header || header.length > 4096) return "invalid";
  let timestamp: number | null = null;
  const candidates: Uint8Array[] = [];
  for (const part of header.split(",")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === "t" && /^[0-9]{1,12}$/.test(value)) timestamp = Number(value);
    else if (key === "v1" && /^[0-9a-f]{64}$/.test(value)) candidates.push(fromHex(value));
  }
  if (timestamp === null || candidates.length === 0 || candidates.length > 16) return "invalid";
  let matched = false;
  for (const secret of secrets) {
    const expected = await hmacSha256(secret, `${timestamp}.${rawBody}`);
    for (const candidate of candidates) if (timingSafeEqual(expected, candidate)) matched = true;
  }
  if (!matched) return "invalid";
  // Checked after the MAC so an attacker learns nothing about the clock from unsigned headers.
  return Math.abs(nowMs / 1000 - timestamp) <= SIGNATURE_TOLERANCE_SECONDS ? "valid" : "stale";
}

/** The header a sender computes (the simulation, and tests): `t=…,v1=…`. */
export async function signatureHeader(rawBody: string, secret: string, timestampSeconds: number): Promise<string> {
  const mac = await hmacSha256(secret, `${timestampSeconds}.${rawBody}`);
  return `t=${timestampSeconds},v1=${hex(mac)}`;
}
