import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { SVC_IMAGE_WATERMARK } from "../../../src/catalog/algorithms";
import { imageServices } from "../../../src/media";
import { api, BASE, fixture, json } from "../support/helpers";

/*
 * Refusals of the C2PA Soft Binding Resolution API: the C2PA status codes (400 invalid query, 414 query too
 * long, 415 invalid asset type, 400/404 manifest ids), each as our reason-coded error envelope.
 */

const SBR = "/v1/soft-binding-resolution";
const WM = `svc.watermark.${SVC_IMAGE_WATERMARK}`;
const b64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const EIGHT = b64(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]));

function byContent(body: BodyInit | null, params = "", headers: Record<string, string> = { "content-type": "image/jpeg" }) {
  return exports.default.fetch(
    new Request(`${BASE}${SBR}/matches/byContent${params}`, {
      method: "POST",
      body,
      headers: { "cf-connecting-ip": `192.0.2.${Math.floor(Math.random() * 250)}`, ...headers },
    }),
  );
}

async function expectError(res: Response, status: number, code: string, field?: string) {
  const body = await json(res);
  expect(res.status, JSON.stringify(body)).toBe(status);
  expect(body).toMatchObject({
    code,
    request_id: expect.stringMatching(/^req_/),
    documentation_url: expect.stringContaining(`/docs/errors#${encodeURIComponent(code)}`),
  });
  if (field) expect(body.field_details.map((d: { field: string }) => d.field)).toContain(field);
  return body;
}

async function png(width: number, height: number, flat = false): Promise<Uint8Array> {
  const { codec } = await imageServices();
  const data = new Uint8Array(width * height * 4).map((_, i) => (i % 4 === 3 || flat ? 255 : (i * 37) & 255));
  const out = await codec.encode({ width, height, data }, "image/png", new Uint8Array());
  if (out.status !== "encoded") throw new Error(out.message);
  return out.bytes;
}

describe("matches/byBinding: 400 for an invalid query", () => {
  it("missing or malformed parameters: svc.resolution.invalid_request with the field", async () => {
    await expectError(await api(`${SBR}/matches/byBinding?value=${EIGHT}`), 400, "svc.resolution.invalid_request", "alg");
    await expectError(await api(`${SBR}/matches/byBinding?alg=io.iscc.v0`), 400, "svc.resolution.invalid_request", "value");
    await expectError(await api(`${SBR}/matches/byBinding?alg=io.iscc.v0&value=`), 400, "svc.resolution.invalid_request", "value");
    for (const maxResults of ["0", "-1", "1.5", "ten"]) {
      await expectError(
        await api(`${SBR}/matches/byBinding?alg=io.iscc.v0&value=${EIGHT}&maxResults=${maxResults}`),
        400,
        "svc.resolution.invalid_request",
        "maxResults",
      );
    }
    await expectError(
      await api(`${SBR}/matches/byBinding?alg=io.iscc.v0&value=${EIGHT}&scope=everyone`),
      400,
      "svc.resolution.invalid_request",
      "scope",
    );
  });

  it("a value that is not base64, or not the algorithm's length, is refused", async () => {
    for (const value of ["!!!!", "a", "AAAA=A==", "é"]) {
      await expectError(
        await api(`${SBR}/matches/byBinding?alg=io.iscc.v0&value=${encodeURIComponent(value)}`),
        400,
        "svc.resolution.invalid_request",
        "value",
      );
    }
    const short = await expectError(
      await api(`${SBR}/matches/byBinding?alg=${WM}&value=${b64(new Uint8Array(5))}`),
      400,
      "svc.resolution.invalid_request",
      "value",
    );
    expect(short.message).toMatch(/8 bytes/);
    await expectError(
      await api(`${SBR}/matches/byBinding?alg=svc.fingerprint.pdq.1&value=${EIGHT}`),
      400,
      "svc.resolution.invalid_request",
      "value",
    );
  });

  it("algorithms not resolved here: svc.resolution.algorithm_unsupported, naming the supported ones", async () => {
    // Unknown names, a registered C2PA name without an installed model, and our index's internal names.
    for (const alg of ["com.example.nothing", "com.adobe.trustmark.Q", "io.iscc.v1", "pdq", "iscc-image", SVC_IMAGE_WATERMARK]) {
      const body = await expectError(
        await api(`${SBR}/matches/byBinding?alg=${encodeURIComponent(alg)}&value=${EIGHT}`),
        400,
        "svc.resolution.algorithm_unsupported",
      );
      expect(body.message).toContain("io.iscc.v0");
    }
  });

  it("414 for a query string too long for GET; the same value is fine over POST (and still checked)", async () => {
    const long = "A".repeat(5000);
    await expectError(await api(`${SBR}/matches/byBinding?alg=io.iscc.v0&value=${long}`), 414, "svc.resolution.query_too_long");
    await expectError(
      await api(`${SBR}/matches/byBinding`, { method: "POST", body: { alg: "io.iscc.v0", value: long } }),
      400,
      "svc.resolution.invalid_request",
      "value",
    );
  });

  it("POST: unparsable JSON and missing fields answer 400; a non-JSON body answers 415", async () => {
    await expectError(
      await api(`${SBR}/matches/byBinding`, { method: "POST", rawBody: "{not json", headers: { "content-type": "application/json" } }),
      400,
      "svc.resolution.invalid_request",
    );
    await expectError(
      await api(`${SBR}/matches/byBinding`, { method: "POST", body: { alg: "io.iscc.v0" } }),
      400,
      "svc.resolution.invalid_request",
      "value",
    );
    await expectError(
      await api(`${SBR}/matches/byBinding`, { method: "POST", body: { value: EIGHT } }),
      400,
      "svc.resolution.invalid_request",
      "alg",
    );
    await expectError(
      await api(`${SBR}/matches/byBinding`, { method: "POST", body: { alg: 7, value: EIGHT } }),
      400,
      "svc.resolution.invalid_request",
      "alg",
    );
    await expectError(
      await api(`${SBR}/matches/byBinding`, {
        method: "POST",
        rawBody: `alg=io.iscc.v0&value=${EIGHT}`,
        headers: { "content-type": "application/x-www-form-urlencoded" },
      }),
      415,
      "svc.request.unsupported_media_type",
    );
    await expectError(
      await api(`${SBR}/matches/byBinding?maxResults=0`, { method: "POST", body: { alg: "io.iscc.v0", value: EIGHT } }),
      400,
      "svc.resolution.invalid_request",
      "maxResults",
    );
  });
});

describe("matches/byContent: 415 for an invalid asset type, 413 for too large", () => {
  it("formats whose soft bindings are not computed here, and bodies that are not an asset, answer 415", async () => {
    await expectError(
      await byContent(fixture("sample.pdf") as Uint8Array<ArrayBuffer>, "", { "content-type": "application/pdf" }),
      415,
      "svc.resolution.unsupported_asset_type",
    );
    await expectError(
      await byContent(fixture("sample.txt") as Uint8Array<ArrayBuffer>, "", { "content-type": "text/plain" }),
      415,
      "svc.resolution.unsupported_asset_type",
    );
    await expectError(
      await byContent(fixture("sample.gif") as Uint8Array<ArrayBuffer>, "", { "content-type": "image/gif" }),
      415,
      "svc.resolution.unsupported_asset_type",
    );
    await expectError(
      await byContent(fixture("sample.mp4") as Uint8Array<ArrayBuffer>, "", { "content-type": "video/mp4" }),
      415,
      "svc.resolution.unsupported_asset_type",
    );
    // A JPEG that claims to be PNG is read as the JPEG it is; a truncated one cannot be decoded.
    expect((await byContent(fixture("sample.jpg") as Uint8Array<ArrayBuffer>, "", { "content-type": "image/png" })).status).toBe(200);
    await expectError(
      await byContent(fixture("sample.jpg").slice(0, 300) as Uint8Array<ArrayBuffer>),
      415,
      "svc.resolution.unsupported_asset_type",
    );
    // No Content-Type, or a multipart form instead of the asset's bytes.
    await expectError(
      await byContent(fixture("sample.jpg") as Uint8Array<ArrayBuffer>, "", {}),
      415,
      "svc.resolution.unsupported_asset_type",
    );
    const form = new FormData();
    form.append("file", new File([fixture("sample.jpg") as Uint8Array<ArrayBuffer>], "a.jpg"));
    await expectError(await byContent(form, "", {}), 415, "svc.resolution.unsupported_asset_type");
  });

  it("an empty body is 400; more than 25 MiB is 413; more than 12 MP is 413", async () => {
    await expectError(await byContent(new Uint8Array(0)), 400, "svc.resolution.invalid_request");
    await expectError(await byContent(new Uint8Array(25 * 1024 * 1024 + 1)), 413, "svc.request.too_large");
    await expectError(await byContent(new Uint8Array(26 * 1024 * 1024)), 413, "svc.request.too_large");
    const big = await png(4100, 3000, true);
    expect(big.length).toBeLessThan(1024 * 1024);
    const res = await byContent(big, "", { "content-type": "image/png" });
    const body = await expectError(res, 413, "svc.request.too_large");
    expect(body.message).toMatch(/12000000/);
  });

  it("query refusals: unknown alg, incomplete or invalid hint, bad maxResults", async () => {
    const small = await png(64, 64);
    await expectError(
      await byContent(small, "?alg=com.example.nothing", { "content-type": "image/png" }),
      400,
      "svc.resolution.algorithm_unsupported",
    );
    await expectError(
      await byContent(small, `?hintAlg=${WM}`, { "content-type": "image/png" }),
      400,
      "svc.resolution.invalid_request",
      "hintValue",
    );
    await expectError(
      await byContent(small, `?hintValue=${EIGHT}`, { "content-type": "image/png" }),
      400,
      "svc.resolution.invalid_request",
      "hintAlg",
    );
    await expectError(
      await byContent(small, `?hintAlg=io.iscc.v0&hintValue=${b64(new Uint8Array(3))}`, { "content-type": "image/png" }),
      400,
      "svc.resolution.invalid_request",
      "hintValue",
    );
    await expectError(
      await byContent(small, `?hintAlg=nope&hintValue=${EIGHT}`, { "content-type": "image/png" }),
      400,
      "svc.resolution.algorithm_unsupported",
    );
    await expectError(
      await byContent(small, "?maxResults=0", { "content-type": "image/png" }),
      400,
      "svc.resolution.invalid_request",
      "maxResults",
    );
    // A valid small image with nothing to find is simply no match (too small for the watermark).
    expect(await json(await byContent(small, "", { "content-type": "image/png" }))).toEqual({ matches: [] });
  });
});

describe("manifests/{manifestId}", () => {
  it("400 for an id that is not a C2PA manifest identifier; 404 for one no published asset has", async () => {
    for (const id of ["abc", "urn:c2pa:not-a-uuid", "urn:isbn:0451450523", `urn:c2pa:${"x".repeat(300)}`]) {
      await expectError(await api(`${SBR}/manifests/${encodeURIComponent(id)}`), 400, "svc.resolution.invalid_request", "manifestId");
    }
    await expectError(
      await api(`${SBR}/manifests/${encodeURIComponent(`urn:c2pa:${crypto.randomUUID()}`)}`),
      404,
      "svc.resource.not_found",
    );
    await expectError(
      await api(`${SBR}/manifests/${encodeURIComponent(`urn:uuid:${crypto.randomUUID()}`)}`),
      404,
      "svc.resource.not_found",
    );
    await expectError(
      await api(`${SBR}/manifests/urn:c2pa:${crypto.randomUUID()}?returnActiveManifest=yes`),
      400,
      "svc.resolution.invalid_request",
      "returnActiveManifest",
    );
  });

  it("unknown methods and paths under the prefix are not operations", async () => {
    await expectError(await api(`${SBR}/matches/byReference`, { method: "POST", body: {} }), 404, "svc.route.not_found");
    const res = await api(`${SBR}/matches/byContent`);
    expect([404, 405]).toContain(res.status);
  });
});
