import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { idpSecretKey, idpSignatureHeader, verifyIdpSignature } from "../../../src/identity/idp-signature";

const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const key = idpSecretKey(SECRET)!;
const body = '{"type":"user.deactivated","data":{"subject":"u1"}}';

describe("identity-provider callback signature (Svix / Standard Webhooks scheme)", () => {
  it("agrees with the Standard Webhooks reference library both ways", async () => {
    const wh = new Webhook(SECRET.slice("whsec_".length));
    const now = new Date();
    const seconds = Math.floor(now.getTime() / 1000);
    const theirs = wh.sign("msg_1", now, body);
    expect(await verifyIdpSignature({ id: "msg_1", timestamp: String(seconds), signature: theirs }, body, key, now.getTime())).toBe(
      "valid",
    );
    const ours = await idpSignatureHeader(key, "msg_1", seconds, body);
    expect(ours).toBe(theirs);
    expect(() => wh.verify(body, { "webhook-id": "msg_1", "webhook-timestamp": String(seconds), "webhook-signature": ours })).not.toThrow();
  });

  it("accepts any matching entry of a rotation list and refuses everything else", async () => {
    const now = Date.now();
    const ts = String(Math.floor(now / 1000));
    const good = await idpSignatureHeader(key, "m", Number(ts), body);
    const other = await idpSignatureHeader(idpSecretKey("whsec_b3RoZXI=")!, "m", Number(ts), body);
    expect(await verifyIdpSignature({ id: "m", timestamp: ts, signature: `${other} ${good}` }, body, key, now)).toBe("valid");
    expect(await verifyIdpSignature({ id: "m", timestamp: ts, signature: other }, body, key, now)).toBe("invalid");
    expect(await verifyIdpSignature({ id: "m", timestamp: ts, signature: good }, `${body}\n`, key, now)).toBe("invalid");
    expect(await verifyIdpSignature({ id: "n", timestamp: ts, signature: good }, body, key, now)).toBe("invalid");
    expect(await verifyIdpSignature({ id: "m", timestamp: ts, signature: good }, body, key, now + 301_000)).toBe("stale");
    expect(await verifyIdpSignature({ id: "m", timestamp: ts, signature: good }, body, key, now + 299_000)).toBe("valid");
    expect(await verifyIdpSignature({ id: undefined, timestamp: ts, signature: good }, body, key, now)).toBe("headers_invalid");
    expect(await verifyIdpSignature({ id: "m", timestamp: "-1", signature: good }, body, key, now)).toBe("headers_invalid");
    expect(await verifyIdpSignature({ id: "m", timestamp: ts, signature: undefined }, body, key, now)).toBe("headers_invalid");
  });

  it("reads whsec_ secrets as base64 key bytes and refuses an empty or broken one", () => {
    expect(idpSecretKey(undefined)).toBeNull();
    expect(idpSecretKey("  ")).toBeNull();
    expect(idpSecretKey("whsec_***")).toBeNull();
    expect(idpSecretKey("whsec_AAEC")).toEqual(new Uint8Array([0, 1, 2]));
  });
});
