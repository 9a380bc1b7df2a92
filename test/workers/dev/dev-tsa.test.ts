import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { buildTimeStampRequest, extractTimeStampToken } from "../../../src/media/c2pa/tsa";
import { BASE, json } from "../support/helpers";

const post = (body: Uint8Array) =>
  exports.default.fetch(
    new Request(`${BASE}/dev/tsa`, { method: "POST", headers: { "content-type": "application/timestamp-query" }, body }),
  );

describe("POST /dev/tsa (development TSA)", () => {
  it("answers an RFC 3161 request with a token for its imprint and nonce", async () => {
    const request = await buildTimeStampRequest(new TextEncoder().encode("hello"));
    const res = await post(request.der);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/timestamp-reply");
    const token = extractTimeStampToken(new Uint8Array(await res.arrayBuffer()), request);
    expect(token.length).toBeGreaterThan(100);
  });

  it("answers garbage as RFC 3161 says: a TimeStampResp with a rejection status and no token", async () => {
    const request = await buildTimeStampRequest(new TextEncoder().encode("hello"));
    const res = await post(crypto.getRandomValues(new Uint8Array(64)));
    expect(res.status).toBe(200);
    const reply = new Uint8Array(await res.arrayBuffer());
    expect(() => extractTimeStampToken(reply, request)).toThrow(/^TSA: request not granted \(status 2/);
  });

  it("refuses an empty body with the error envelope", async () => {
    const res = await post(new Uint8Array(0));
    expect(res.status).toBe(422);
    expect((await json(res)).code).toBe("svc.request.invalid");
  });
});
