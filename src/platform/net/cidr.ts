/**
 * IPv4 and IPv6 addresses and CIDR ranges as bytes, for key IP allowlists. IPv4-mapped IPv6 addresses
 * (::ffff:a.b.c.d) match IPv4 ranges, since that is how a v4 client may appear behind a v6 socket.
 */

function parseIpv4(text: string): Uint8Array | null {
  const parts = text.split(".");
  if (parts.length !== 4) return null;
  const out = new Uint8Array(4);
  for (const [i, part] of parts.entries()) {
    if (!/^(0|[1-9]\d{0,2})$/.test(part) || Number(part) > 255) return null;
    out[i] = Number(part);
  }
  return out;
}

function parseIpv6(text: string): Uint8Array | null {
  let head = text;
  let v4tail: Uint8Array | null = null;
  const lastColon = text.lastIndexOf(":");
  if (text.includes(".")) {
    v4tail = parseIpv4(text.slice(lastColon + 1));
    if (!v4tail) return null;
    head = `${text.slice(0, lastColon + 1)}0:0`;
  }
  const halves = head.split("::");
  if (halves.length > 2) return null;
  const groups = (s: string) => (s === "" ? [] : s.split(":"));
  const left = groups(halves[0]!);
  const right = halves.length === 2 ? groups(halves[1]!) : [];
  const missing = 8 - left.length - right.length;
  if ((halves.length === 1 && missing !== 0) || (halves.length === 2 && missing < 1)) return null;
  const all = [...left, ...Array(halves.length === 2 ? missing : 0).fill("0"), ...right];
  const out = new Uint8Array(16);
  for (const [i, group] of all.entries()) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(group)) return null;
    const value = Number.parseInt(group, 16);
    out[i * 2] = value >> 8;
    out[i * 2 + 1] = value & 0xff;
  }
  if (v4tail) out.set(v4tail, 12);
  return out;
}

/** Bytes of an address (4 for IPv4, 16 for IPv6), or null. IPv4-mapped IPv6 comes back as IPv4. */
export function parseIp(text: string): Uint8Array | null {
  const v4 = parseIpv4(text);
  if (v4) return v4;
  const v6 = parseIpv6(text.replace(/^\[|\]$/g, ""));
  if (v6?.subarray(0, 10).every((b) => b === 0) && v6[10] === 0xff && v6[11] === 0xff) return v6.slice(12);
  return v6;
}

export interface Cidr {
  bytes: Uint8Array;
  prefix: number;
}

/** `a.b.c.d/n`, `x::y/n`, or a bare address (a single-host range). Null for anything malformed. */
export function parseCidr(text: string): Cidr | null {
  const [address, prefixText, extra] = text.trim().split("/");
  if (extra !== undefined || !address) return null;
  const bytes = parseIpv4(address) ?? parseIpv6(address);
  if (!bytes) return null;
  const max = bytes.length * 8;
  if (prefixText === undefined) return { bytes, prefix: max };
  if (!/^\d{1,3}$/.test(prefixText) || Number(prefixText) > max) return null;
  return { bytes, prefix: Number(prefixText) };
}

export function cidrContains(cidr: Cidr, ip: Uint8Array): boolean {
  if (cidr.bytes.length !== ip.length) return false;
  let bits = cidr.prefix;
  for (let i = 0; i < ip.length && bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((cidr.bytes[i]! & mask) !== (ip[i]! & mask)) return false;
  }
  return true;
}
