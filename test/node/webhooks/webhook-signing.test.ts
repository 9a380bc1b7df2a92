import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { generateWebhookSecret, openSecret, sealSecret, secretKeyBytes, signWebhook } from "../../../src/webhooks/signing";

// The published Standard Webhooks test vector (the reference libraries' own signing test).
const VECTOR = {
  secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
  id: "msg_p5jXN8AQM9LWM0D4loKWxJek",
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
};

describe("Standard Webhooks signing", () => {
  it("reproduces the published test vector", async () => {
    const headers = await signWebhook({ id: VECTOR.id, timestampSeconds: VECTOR.timestamp, body: VECTOR.body }, [VECTOR.secret]);
    expect(headers).toEqual({
      "webhook-id": VECTOR.id,
      "webhook-timestamp": String(VECTOR.timestamp),
      "webhook-signature": VECTOR.signature,
    });
    // And the reference library agrees with the vector under its own signer.
    expect(new Webhook(VECTOR.secret).sign(VECTOR.id, new Date(VECTOR.timestamp * 1000), VECTOR.body)).toBe(VECTOR.signature);
  });

  it("signs with every secret of a rotation overlap; the reference library verifies each alone", async () => {
    const [fresh, outgoing, stranger] = [generateWebhookSecret(), generateWebhookSecret(), generateWebhookSecret()];
    const body = JSON.stringify({ id: "whevt_abcdefghij234567", type: "asset.signed", data: { asset_id: "ast_abcdefghij234567" } });
    const headers = await signWebhook({ id: "whevt_abcdefghij234567", timestampSeconds: Math.floor(Date.now() / 1000), body }, [
      fresh,
      outgoing,
    ]);
    expect(headers["webhook-signature"].split(" ")).toHaveLength(2);
    expect(new Webhook(fresh).verify(body, { ...headers })).toEqual(JSON.parse(body));
    expect(new Webhook(outgoing).verify(body, { ...headers })).toEqual(JSON.parse(body));
    expect(() => new Webhook(stranger).verify(body, { ...headers })).toThrow("No matching signature found");
    expect(() => new Webhook(fresh).verify(`${body} `, { ...headers })).toThrow("No matching signature found");
  });

  it("secrets are whsec_ + base64 of 32 random bytes, and refuse to sign when malformed", async () => {
    const a = generateWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(secretKeyBytes(a)).toHaveLength(32);
    expect(generateWebhookSecret()).not.toBe(a);
    expect(secretKeyBytes("whsec_")).toBeNull();
    expect(secretKeyBytes("nope")).toBeNull();
    await expect(signWebhook({ id: "x", timestampSeconds: 1, body: "{}" }, ["whsec_!!"])).rejects.toThrow("malformed webhook secret");
    await expect(signWebhook({ id: "x", timestampSeconds: 1, body: "{}" }, [])).rejects.toThrow("at least one secret is needed to sign");
  });

  it("secrets at rest open only with the same pepper and the same endpoint id", async () => {
    const secret = generateWebhookSecret();
    const sealed = await sealSecret("pepper-one", "whe_abcdefghij234567", secret);
    expect(sealed).not.toContain(secret.slice(6, 20));
    expect(await openSecret("pepper-one", "whe_abcdefghij234567", sealed)).toBe(secret);
    await expect(openSecret("pepper-two", "whe_abcdefghij234567", sealed)).rejects.toMatchObject({ name: "OperationError" });
    await expect(openSecret("pepper-one", "whe_bbcdefghij234567", sealed)).rejects.toMatchObject({ name: "OperationError" });
  });
});
