// The requests of the express-signing benches against a running `npm start` (bench/express.mjs --http,
// bench/express-profile.mjs): a JSON call with the dev key, a fresh upload of a JPEG variant (an asset is published
// once), and the express sign request itself.
import { createHash } from "node:crypto";

/** A distinct file each time with the same pixels: a COM segment with a counter after SOI. */
export function jpegVariant(jpeg, n) {
  const com = new TextEncoder().encode(`svc bench ${n} ${Date.now()}`);
  const seg = new Uint8Array([0xff, 0xfe, (com.length + 2) >> 8, (com.length + 2) & 0xff, ...com]);
  return new Uint8Array([...jpeg.subarray(0, 2), ...seg, ...jpeg.subarray(2)]);
}

/** A client of the running service with `key`. */
export function expressClient({ base, key }) {
  const call = async (method, path, body, headers = {}) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...headers },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };
  /** Uploads `bytes` as a JPEG (create, PUT, complete); resolves to the asset id. */
  const upload = async (bytes) => {
    const created = await call("POST", "/v1/uploads", {
      byte_length: bytes.length,
      declared_media_type: "image/jpeg",
      mode: "single",
      sha256: createHash("sha256").update(bytes).digest("hex"),
      filename: "bench.jpg",
    });
    if (created.status !== 201) throw new Error(`upload: ${created.status} ${JSON.stringify(created.body)}`);
    const u = created.body.upload;
    const put = await fetch(u.url, { method: u.method, headers: u.headers, body: bytes });
    await put.arrayBuffer();
    if (!put.ok) throw new Error(`PUT: ${put.status}`);
    const done = await call("POST", `/v1/uploads/${created.body.upload_id}/complete`, {}, { "idempotency-key": crypto.randomUUID() });
    if (done.status !== 200) throw new Error(`complete: ${done.status} ${JSON.stringify(done.body)}`);
    return created.body.asset_id;
  };
  /** POST /v1/sign in express mode: watermark, both image fingerprints, sign. */
  const signExpress = (assetId) =>
    call(
      "POST",
      "/v1/sign",
      {
        asset_id: assetId,
        recipe_id: "rcp_system_express_watermark_then_sign",
        mode: "express",
        fingerprint_algorithms: ["iscc-image", "pdq"],
      },
      { "idempotency-key": crypto.randomUUID() },
    );
  return { call, upload, signExpress };
}
