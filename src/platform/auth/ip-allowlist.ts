import { cidrContains, parseCidr, parseIp } from "../net/cidr";

/** Whether `clientIp` may use a key with this allowlist. An unknown client address never passes a list. */
export function ipAllowed(restrictions: { ip_allowlist: readonly string[] }, clientIp: string | null): boolean {
  if (restrictions.ip_allowlist.length === 0) return true;
  const ip = clientIp ? parseIp(clientIp) : null;
  if (!ip) return false;
  return restrictions.ip_allowlist.some((range) => {
    const cidr = parseCidr(range);
    return cidr !== null && cidrContains(cidr, ip);
  });
}
