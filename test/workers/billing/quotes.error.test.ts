import { describe, expect, it } from "vitest";
import { api, createTenant, json } from "../support/helpers";

const quoteOf = (key: string, body: unknown) => api("/v1/billing/quotes", { method: "POST", key, body });

async function expectOutside(res: Response, field: string) {
  expect(res.status).toBe(422);
  const body = await json(res);
  expect(body.code).toBe("svc.billing.quote_outside_envelope");
  expect(body.retryable).toBe(false);
  expect(body.field_details).toEqual([expect.objectContaining({ location: "body", field, code: "outside_pricing_envelope" })]);
}

describe("POST /v1/billing/quotes: 422", () => {
  it("missing facts: per-megapixel work without dimensions, audio without a duration", async () => {
    const t = await createTenant();
    await expectOutside(await quoteOf(t.key, { media_family: "image", operation: "watermark" }), "width");
    await expectOutside(await quoteOf(t.key, { media_family: "image", operation: "watermark", width: 10 }), "height");
    await expectOutside(await quoteOf(t.key, { media_family: "audio", operation: "sign" }), "duration_seconds");
  });

  it("outside the envelope: too many megapixels, too long, too fast, too precise, zero or negative", async () => {
    const t = await createTenant();
    await expectOutside(await quoteOf(t.key, { media_family: "image", operation: "watermark", width: 20000, height: 10000 }), "width");
    await expectOutside(
      await quoteOf(t.key, { media_family: "video", operation: "sign", duration_seconds: 4 * 3600 + 1 }),
      "duration_seconds",
    );
    await expectOutside(
      await quoteOf(t.key, { media_family: "video", operation: "sign", duration_seconds: 10, frames_per_second: 241 }),
      "frames_per_second",
    );
    await expectOutside(await quoteOf(t.key, { media_family: "video", operation: "sign", duration_seconds: "1.0001" }), "duration_seconds");
    await expectOutside(await quoteOf(t.key, { media_family: "video", operation: "sign", duration_seconds: 0 }), "duration_seconds");
    await expectOutside(await quoteOf(t.key, { media_family: "image", operation: "watermark", width: -1, height: 5 }), "width");
  });

  it("no price for the pair: live media, watermarking audio", async () => {
    const t = await createTenant();
    await expectOutside(await quoteOf(t.key, { media_family: "live", operation: "sign" }), "operation");
    await expectOutside(await quoteOf(t.key, { media_family: "audio", operation: "watermark", duration_seconds: 3 }), "operation");
  });

  it("strings that are not plain decimals", async () => {
    const t = await createTenant();
    for (const bad of ["1e3", "-5", " 5", "5.", "0x10", "NaN", "Infinity", "05"])
      await expectOutside(await quoteOf(t.key, { media_family: "video", operation: "sign", duration_seconds: bad }), "duration_seconds");
    await expectOutside(
      await quoteOf(t.key, { media_family: "video", operation: "sign", duration_seconds: 5, frames_per_second: "thirty" }),
      "frames_per_second",
    );
  });

  it("contract mismatches are the field-error envelope: unknown family or operation, non-integer width, unknown member, no body", async () => {
    const t = await createTenant();
    for (const body of [
      { media_family: "hologram", operation: "sign" },
      { media_family: "image", operation: "stamp" },
      { media_family: "image", operation: "sign", width: 1.5, height: 2 },
      { media_family: "image", operation: "sign", price: "0" },
      { operation: "sign" },
    ]) {
      const res = await quoteOf(t.key, body);
      expect(res.status).toBe(422);
      expect((await json(res)).code).toBe("svc.request.invalid");
    }
    const raw = await api("/v1/billing/quotes", {
      method: "POST",
      key: t.key,
      rawBody: "{",
      headers: { "content-type": "application/json" },
    });
    expect(raw.status).toBe(422);
  });
});
