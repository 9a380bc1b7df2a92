/** Byte and text helpers that behave the same in workerd and Node. */

const encoder = new TextEncoder();

export function utf8(text: string): Uint8Array {
  return encoder.encode(text);
}

/** Each byte's two lowercase hex digits (a table: hex and fromHex run for every hash a verify looks up, #19). */
const HEX_PAIRS = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, "0"));
/** A character code's hex digit value, -1 for anything but 0-9 and a-f. */
const HEX_DIGIT = new Int8Array(128).fill(-1);
for (let d = 0; d < 16; d++) HEX_DIGIT[d.toString(16).charCodeAt(0)] = d;

export function hex(bytes: ArrayBuffer | Uint8Array): string {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  let out = "";
  for (let i = 0; i < view.length; i++) out += HEX_PAIRS[view[i]!];
  return out;
}

/**
 * Bytes of lowercase hex of even length, the only spelling `hex` writes (callers pass hex they wrote themselves).
 * Anything else throws: a second spelling of the same bytes would be a second key for one value.
 */
export function fromHex(text: string): Uint8Array {
  if (text.length % 2 !== 0) throw new RangeError("not lowercase hex of even length");
  const out = new Uint8Array(text.length >> 1);
  for (let i = 0; i < out.length; i++) {
    // charCodeAt past 127 indexes nothing (undefined), which the check refuses like -1.
    const high = HEX_DIGIT[text.charCodeAt(2 * i)] ?? -1;
    const low = HEX_DIGIT[text.charCodeAt(2 * i + 1)] ?? -1;
    if (high < 0 || low < 0) throw new RangeError("not lowercase hex of even length");
    out[i] = (high << 4) | low;
  }
  return out;
}

/** Standard padded base64 (RFC 4648 §4). */
export function base64(bytes: Uint8Array): string {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

export function base64url(bytes: Uint8Array): string {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function bytesOfBinary(binary: string): Uint8Array {
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

/*
 * Decoders accept only the canonical encoding: the one string the matching encoder writes for those bytes.
 * The last character of a base64 string has unused low bits (4 for 1 byte left over, 2 for 2), and a lenient
 * decoder ignores them, so up to 16 spellings decode to one MAC or secret. Every spelling but the canonical one
 * is refused (re-encoding and comparing rules out padding, the other alphabet and whitespace as well).
 */

/** Decodes unpadded base64url (RFC 4648 §5); null for anything but the canonical encoding of some bytes. */
export function fromBase64url(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return null;
  let out: Uint8Array;
  try {
    out = bytesOfBinary(atob(text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4)));
  } catch {
    return null;
  }
  return base64url(out) === text ? out : null;
}

/** Decodes padded standard base64 (RFC 4648 §4); null for anything but the canonical encoding of some bytes. */
export function fromBase64(text: string): Uint8Array | null {
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(text)) return null;
  let out: Uint8Array;
  try {
    out = bytesOfBinary(atob(text));
  } catch {
    return null;
  }
  return base64(out) === text ? out : null;
}

/** One array holding `parts` end to end. */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

/**
 * Whether two byte strings are equal. Not constant-time: for public values (digests, certificates, hashes). Compare
 * secrets with `timingSafeEqual` (platform/crypto.ts).
 */
export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
