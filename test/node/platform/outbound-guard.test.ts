import { describe, expect, it } from "vitest";
import { parseIp } from "../../../src/platform/net/cidr";
import { checkDestination, dohResolver, isPublicAddress, type Resolver } from "../../../src/platform/net/outbound";

const names: Record<string, string[]> = {
  "public.example": ["93.184.215.14"],
  "rebind.example": ["93.184.215.14", "10.0.0.7"],
  "six.example": ["2606:2800:21f:cb07:6820:80da:af6b:8b2c"],
};
const resolver: Resolver = async (host) => names[host] ?? null;

describe("outbound destination guard (manifest URIs, webhook destinations)", () => {
  it("refuses every non-public address, including IPv6 forms that embed an IPv4 address", () => {
    for (const ip of [
      "127.0.0.1",
      "10.1.2.3",
      "172.16.0.1",
      "192.168.0.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "192.88.99.1",
      "::1",
      "::",
      "::7f00:1",
      "::ffff:10.0.0.1",
      "fd00::1",
      "fe80::1",
      "fec0::1",
      "2002:a9fe:a9fe::",
      "2001:0:4136:e378::1",
      "64:ff9b::a00:1",
      "64:ff9b:1::1",
      "2001:db8::1",
    ]) {
      expect(isPublicAddress(parseIp(ip)!), ip).toBe(false);
    }
    for (const ip of ["93.184.215.14", "8.8.8.8", "2606:2800:21f:cb07:6820:80da:af6b:8b2c", "2a00:1450:4001::1"])
      expect(isPublicAddress(parseIp(ip)!), ip).toBe(true);
  });

  it("refuses literals, private names and names that resolve to private addresses; allows public https", async () => {
    const refused = [
      "http://public.example/x",
      "https://user:pw@public.example/x",
      "https://127.0.0.1/",
      "https://2130706433/",
      "https://0x7f000001/",
      "https://[::1]/",
      "https://[::7f00:1]/",
      "https://[2002:a9fe:a9fe::]/",
      "https://localhost/",
      "https://localhost./",
      "https://metadata.google.internal./",
      "https://intranet/",
      "https://rebind.example/",
      "https://unknown.example/",
      "not a url",
      `https://public.example/${"a".repeat(2100)}`,
    ];
    for (const url of refused) expect((await checkDestination(url, { resolver })).status, url).toBe("refused");
    for (const url of ["https://public.example/hook", "https://six.example/hook", "https://93.184.215.14/x"])
      expect((await checkDestination(url, { resolver })).status, url).toBe("allowed");
  });

  it("an unresolvable name is refused as transient; a private answer is not", async () => {
    const unresolved = await checkDestination("https://unknown.example/", { resolver });
    expect(unresolved).toMatchObject({ status: "refused", transient: true });
    const rebind = await checkDestination("https://rebind.example/", { resolver });
    expect(rebind.status === "refused" && rebind.transient).toBeFalsy();
  });

  it("loopback http is allowed only when asked (local receivers in development)", async () => {
    expect((await checkDestination("http://127.0.0.1:9000/hook", { resolver, allowLoopbackHttp: true })).status).toBe("allowed");
    expect((await checkDestination("http://[::1]:9000/hook", { resolver, allowLoopbackHttp: true })).status).toBe("allowed");
    expect((await checkDestination("http://10.0.0.1/hook", { resolver, allowLoopbackHttp: true })).status).toBe("refused");
    expect((await checkDestination("http://127.0.0.1:9000/hook", { resolver })).status).toBe("refused");
  });

  it("DNS over HTTPS: NOERROR answers, NXDOMAIN is no address, SERVFAIL is a failure to resolve", async () => {
    const doh = (status: number, answers: { type: number; data: string }[] = []) =>
      dohResolver(
        (async () =>
          new Response(JSON.stringify({ Status: status, Answer: answers }), {
            headers: { "content-type": "application/dns-json" },
          })) as unknown as typeof fetch,
      );
    expect(
      await doh(0, [
        { type: 1, data: "93.184.215.14" },
        { type: 5, data: "alias.example." },
      ])("x.example"),
    ).toEqual(["93.184.215.14", "93.184.215.14"]);
    expect(await doh(3)("x.example")).toEqual([]);
    expect(await doh(2)("x.example")).toBeNull();
    expect(await dohResolver((async () => new Response("nope", { status: 502 })) as unknown as typeof fetch)("x.example")).toBeNull();
  });
});
