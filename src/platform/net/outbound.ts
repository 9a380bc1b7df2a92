import { type Cidr, cidrContains, parseCidr, parseIp } from "./cidr";

/*
 * The guard for every fetch the service makes to an address a caller chose (manifest URIs, webhook
 * destinations): https only, no credentials in the URL, no private, loopback, link-local, metadata or otherwise
 * non-public address (literal, or what the name resolves to), size and time bounded, and no redirects.
 */

const NON_PUBLIC = [
  "0.0.0.0/8",
  "10.0.0.0/8",
  "100.64.0.0/10",
  "127.0.0.0/8",
  "169.254.0.0/16",
  "172.16.0.0/12",
  "192.0.0.0/24",
  "192.88.99.0/24",
  "192.0.2.0/24",
  "192.168.0.0/16",
  "198.18.0.0/15",
  "198.51.100.0/24",
  "203.0.113.0/24",
  "224.0.0.0/4",
  "240.0.0.0/4",
  "::/96",
  "::ffff:0:0/96",
  "64:ff9b::/96",
  "64:ff9b:1::/48",
  "100::/64",
  "2001::/32",
  "2001:db8::/32",
  "2002::/16",
  "fc00::/7",
  "fe80::/10",
  "fec0::/10",
  "ff00::/8",
]
  .map(parseCidr)
  .filter((c): c is Cidr => c !== null);

/**
 * Whether an IP address (v4 or v6 bytes) is publicly routable. IPv4-mapped IPv6 is judged as its IPv4; the
 * transition ranges that embed an IPv4 address (IPv4-compatible ::/96, 6to4 2002::/16, Teredo 2001::/32, NAT64)
 * are refused whole, since they can reach any IPv4 address, private ones included.
 */
export function isPublicAddress(ip: Uint8Array): boolean {
  if (ip.length === 16 && ip.slice(0, 10).every((b) => b === 0) && ip[10] === 0xff && ip[11] === 0xff) return isPublicAddress(ip.slice(12));
  return !NON_PUBLIC.some((c) => cidrContains(c, ip));
}

/** Resolves a host name to its addresses (A and AAAA). Injected: DNS over HTTPS in production, fixed in tests. */
export type Resolver = (host: string) => Promise<string[] | null>;

/** DNS over HTTPS (RFC 8484 JSON API) through Cloudflare's resolver; null when resolution fails. */
export function dohResolver(fetcher: typeof fetch = fetch, endpoint = "https://cloudflare-dns.com/dns-query"): Resolver {
  return async (host) => {
    try {
      const answers: string[] = [];
      for (const type of ["A", "AAAA"]) {
        const res = await fetcher(`${endpoint}?name=${encodeURIComponent(host)}&type=${type}`, {
          headers: { accept: "application/dns-json" },
          signal: AbortSignal.timeout(3000),
        });
        if (!res.ok) return null;
        const body = (await res.json()) as { Status?: number; Answer?: { type: number; data: string }[] };
        // RFC 8427 Status: 0 NOERROR (use the answers), 3 NXDOMAIN (no addresses); anything else (SERVFAIL, …)
        // is a failure to resolve now, not an answer.
        if (body.Status !== 0 && body.Status !== 3) return null;
        for (const a of body.Answer ?? []) if (a.type === 1 || a.type === 28) answers.push(a.data);
      }
      return answers;
    } catch {
      return null;
    }
  };
}

/** `transient`: refused only because the name did not resolve now (worth retrying later, unlike a private address). */
export type DestinationCheck = { status: "allowed"; url: URL } | { status: "refused"; reason: string; transient?: true };

/**
 * Checks a destination before any request is made. `allowLoopbackHttp` is the development setting for local
 * receivers (never on in production). Invariant: "allowed" only for https (or permitted loopback http) URLs
 * whose host and every resolved address are public.
 */
export async function checkDestination(
  raw: string,
  options: { resolver: Resolver; allowedHosts?: readonly string[]; allowLoopbackHttp?: boolean; maxLength?: number },
): Promise<DestinationCheck> {
  if (raw.length > (options.maxLength ?? 2048)) return { status: "refused", reason: "The URL is too long." };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { status: "refused", reason: "The URL is not a valid absolute URL." };
  }
  if (url.username || url.password) return { status: "refused", reason: "The URL must not carry credentials." };
  // One trailing dot is the same fully qualified name ("localhost." is localhost).
  const host = url.hostname
    .replace(/^\[|\]$/g, "")
    .toLowerCase()
    .replace(/\.$/, "");
  const literal = parseIp(host);
  const loopback = literal ? !isPublicAddress(literal) && (host === "::1" || host.startsWith("127.")) : host === "localhost";
  if (options.allowLoopbackHttp && loopback && (url.protocol === "http:" || url.protocol === "https:")) return { status: "allowed", url };
  if (url.protocol !== "https:") return { status: "refused", reason: "Only https URLs are allowed." };
  if (options.allowedHosts && !options.allowedHosts.includes(host))
    return { status: "refused", reason: `${host} is not a configured manifest host.` };
  if (literal) return isPublicAddress(literal) ? { status: "allowed", url } : { status: "refused", reason: "The address is not public." };
  if (host === "localhost" || host.endsWith(".localhost") || host.endsWith(".internal") || !host.includes(".")) {
    return { status: "refused", reason: "The host name is not public." };
  }
  const addresses = await options.resolver(host);
  if (addresses === null) return { status: "refused", reason: "The host name could not be resolved.", transient: true };
  if (addresses.length === 0) return { status: "refused", reason: "The host name has no addresses." };
  for (const a of addresses) {
    const ip = parseIp(a);
    if (!ip || !isPublicAddress(ip)) return { status: "refused", reason: "The host name resolves to an address that is not public." };
  }
  return { status: "allowed", url };
}

export type BoundedFetch = { status: "ok"; bytes: Uint8Array; contentType: string | null } | { status: "failed"; reason: string };

/** GETs an allowed URL: no redirects followed, at most `maxBytes`, within `timeoutMs`. Never throws. */
export async function boundedGet(
  url: URL,
  options: { maxBytes: number; timeoutMs: number; fetcher?: typeof fetch },
): Promise<BoundedFetch> {
  try {
    const res = await (options.fetcher ?? fetch)(url.toString(), { redirect: "manual", signal: AbortSignal.timeout(options.timeoutMs) });
    if (res.status >= 300 && res.status < 400)
      return { status: "failed", reason: `The server redirected (${res.status}); redirects are not followed.` };
    if (!res.ok) return { status: "failed", reason: `The server answered ${res.status}.` };
    const declared = Number(res.headers.get("content-length") ?? "0");
    if (declared > options.maxBytes) return { status: "failed", reason: `The body is larger than ${options.maxBytes} bytes.` };
    const { bytes, truncated } = await readBodyPrefix(res, options.maxBytes);
    if (truncated) return { status: "failed", reason: `The body is larger than ${options.maxBytes} bytes.` };
    return { status: "ok", bytes, contentType: res.headers.get("content-type") };
  } catch (error) {
    return { status: "failed", reason: (error as Error)?.name === "TimeoutError" ? "The request timed out." : "The request failed." };
  }
}

/**
 * Reads at most `maxBytes` of a response body: the bytes, and whether more followed (the rest is cancelled
 * unread). The one bounded reader for bodies from addresses the service does not control.
 */
export async function readBodyPrefix(res: Response, maxBytes: number): Promise<{ bytes: Uint8Array; truncated: boolean }> {
  const reader = res.body?.getReader();
  if (!reader) return { bytes: new Uint8Array(0), truncated: false };
  const chunks: Uint8Array[] = [];
  let total = 0;
  let truncated = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const room = maxBytes - total;
      if (value.byteLength > room) {
        if (room > 0) chunks.push(value.subarray(0, room));
        total += Math.max(0, room);
        truncated = true;
        break;
      }
      chunks.push(value);
      total += value.byteLength;
    }
  } finally {
    if (truncated) await reader.cancel().catch(() => undefined);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { bytes, truncated };
}
