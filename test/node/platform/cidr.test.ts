import { describe, expect, it } from "vitest";
import { NO_RESTRICTIONS } from "../../../src/api-keys/controls";
import { ipAllowed } from "../../../src/platform/auth/ip-allowlist";
import { cidrContains, parseCidr, parseIp } from "../../../src/platform/net/cidr";

describe("CIDR matching", () => {
  it.each([
    ["10.0.0.0/8", "10.255.1.2", true],
    ["10.0.0.0/8", "11.0.0.1", false],
    ["192.168.1.0/31", "192.168.1.1", true],
    ["192.168.1.0/31", "192.168.1.2", false],
    ["0.0.0.0/0", "8.8.8.8", true],
    ["2001:db8::/32", "2001:db8:ffff::1", true],
    ["2001:db8::/32", "2001:db9::1", false],
    ["::1", "::1", true],
    ["fe80::/10", "febf::1", true],
    ["fe80::/10", "fec0::1", false],
    ["203.0.113.0/24", "::ffff:203.0.113.9", true],
    ["2001:db8::/32", "203.0.113.9", false],
  ])("%s contains %s: %s", (range, ip, expected) => {
    expect(cidrContains(parseCidr(range)!, parseIp(ip)!)).toBe(expected);
  });

  it.each(["10.0.0.0/33", "256.0.0.1", "1.2.3", "2001:db8::/129", "1::2::3", "x", "10.0.0.0/8/8", "01.2.3.4", ""])("refuses %s", (text) => {
    expect(parseCidr(text)).toBeNull();
  });

  it("an empty allowlist admits anyone; a list never admits an unknown address", () => {
    expect(ipAllowed(NO_RESTRICTIONS, null)).toBe(true);
    const r = { ...NO_RESTRICTIONS, ip_allowlist: ["0.0.0.0/0"] };
    expect(ipAllowed(r, null)).toBe(false);
    expect(ipAllowed(r, "garbage")).toBe(false);
    expect(ipAllowed(r, "1.1.1.1")).toBe(true);
  });
});
