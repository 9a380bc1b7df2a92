import { describe, expect, it } from "vitest";
import { api, callUrl, createTenant, fixture, json, sha256HexOf } from "../support/helpers";

async function create(key: string, bytes: Uint8Array, mediaType: string, overrides: Record<string, unknown> = {}) {
  const res = await api("/v1/uploads", {
    method: "POST",
    key,
    body: { byte_length: bytes.length, declared_media_type: mediaType, mode: "single", sha256: await sha256HexOf(bytes), ...overrides },
  });
  return { res, body: await json(res) };
}
const complete = (key: string, uploadId: string) =>
  api(`/v1/uploads/${uploadId}/complete`, { method: "POST", key, body: {}, headers: { "idempotency-key": crypto.randomUUID() } });

describe("uploads: bad input", () => {
  it("a declared SHA-256 that the bytes do not match: 422, nothing pinned, the upload stays open for the right bytes", async () => {
    const { key } = await createTenant();
    const bytes = fixture("sample.png");
    const { body } = await create(key, bytes, "image/png", { sha256: "0".repeat(64) });
    await callUrl(body.upload.url, { method: "PUT", headers: body.upload.headers, body: bytes });
    const res = await complete(key, body.upload_id);
    expect(res.status).toBe(422);
    expect((await json(res)).code).toBe("svc.uploads.sha256_mismatch");
    const again = await complete(key, body.upload_id);
    expect((await json(again)).code).toBe("svc.uploads.bytes_missing"); // the wrong bytes were removed
  });

  it("bytes of another length than the capability was issued for are refused at the PUT", async () => {
    const { key } = await createTenant();
    const bytes = fixture("sample.png");
    const { body } = await create(key, bytes, "image/png");
    const short = await callUrl(body.upload.url, { method: "PUT", headers: body.upload.headers, body: bytes.slice(0, bytes.length - 1) });
    expect(short.status).toBe(422);
    expect((await json(short)).code).toBe("svc.storage.length_mismatch");
    const long = await callUrl(body.upload.url, { method: "PUT", headers: body.upload.headers, body: new Uint8Array([...bytes, 0]) });
    expect(long.status).toBe(422);
  });

  it("a declared type the bytes contradict is refused; garbage is refused", async () => {
    const { key } = await createTenant();
    const png = fixture("sample.png");
    const lie = await create(key, png, "image/jpeg");
    await callUrl(lie.body.upload.url, { method: "PUT", headers: lie.body.upload.headers, body: png });
    const refused = await complete(key, lie.body.upload_id);
    expect(refused.status).toBe(422);
    expect((await json(refused)).code).toBe("svc.media.type_mismatch");

    const garbage = crypto.getRandomValues(new Uint8Array(2048));
    const g = await create(key, garbage, "image/png");
    await callUrl(g.body.upload.url, { method: "PUT", headers: g.body.upload.headers, body: garbage });
    const res = await complete(key, g.body.upload_id);
    expect(res.status).toBe(422);
    expect(["svc.media.unsupported_type", "svc.media.corrupt", "svc.media.type_mismatch"]).toContain((await json(res)).code);
  });

  it("video/mp4 outside the contract is MEDIA_CODEC_UNSUPPORTED", async () => {
    const { key } = await createTenant();
    for (const name of ["sample-hevc.mp4", "sample-10bit.mp4", "sample-fragmented.mp4", "sample-heaac.mp4"]) {
      const bytes = fixture(name);
      const { body } = await create(key, bytes, "video/mp4");
      await callUrl(body.upload.url, { method: "PUT", headers: body.upload.headers, body: bytes });
      const res = await complete(key, body.upload_id);
      expect(res.status, name).toBe(422);
      expect((await json(res)).code, name).toBe("MEDIA_CODEC_UNSUPPORTED");
    }
  });

  it("a tampered or foreign capability is refused; the API key is never needed at the storage URL", async () => {
    const { key } = await createTenant();
    const bytes = fixture("sample.png");
    const { body } = await create(key, bytes, "image/png");
    const url = new URL(body.upload.url);
    url.searchParams.set("expires", String(Number(url.searchParams.get("expires")) + 1000));
    const tampered = await callUrl(url.toString(), { method: "PUT", headers: body.upload.headers, body: bytes });
    expect(tampered.status).toBe(403);
    expect((await json(tampered)).code).toBe("svc.storage.capability_invalid");
    const other = await create(key, bytes, "image/png");
    const swapped = body.upload.url.replace(body.upload_id, other.body.upload_id);
    expect((await callUrl(swapped, { method: "PUT", headers: body.upload.headers, body: bytes })).status).toBe(403);
  });

  it("completing twice returns the same pinned object; PUT after completion is refused", async () => {
    const { key } = await createTenant();
    const bytes = fixture("sample.png");
    const { body } = await create(key, bytes, "image/png");
    await callUrl(body.upload.url, { method: "PUT", headers: body.upload.headers, body: bytes });
    const first = await json(await complete(key, body.upload_id));
    const second = await json(await complete(key, body.upload_id));
    expect(second).toEqual(first);
    expect(first).toMatchObject({ status: "completed", byte_length: bytes.length, sha256: await sha256HexOf(bytes) });
    const late = await callUrl(body.upload.url, { method: "PUT", headers: body.upload.headers, body: bytes });
    expect(late.status).toBe(409);
    expect((await json(late)).code).toBe("svc.storage.upload_closed");
  });

  it("an aborted upload is gone (410) and refuses bytes; aborting again answers its status", async () => {
    const { key } = await createTenant();
    const bytes = fixture("sample.png");
    const { body } = await create(key, bytes, "image/png");
    const abort = () => api(`/v1/uploads/${body.upload_id}/abort`, { method: "POST", key });
    expect(await json(await abort())).toEqual({ upload_id: body.upload_id, status: "aborted" });
    expect(await json(await abort())).toEqual({ upload_id: body.upload_id, status: "aborted" });
    const res = await complete(key, body.upload_id);
    expect(res.status).toBe(410);
    expect((await json(res)).code).toBe("svc.uploads.gone");
    expect((await callUrl(body.upload.url, { method: "PUT", headers: body.upload.headers, body: bytes })).status).toBe(409);
    const asset = await json(await api(`/v1/assets/${body.asset_id}`, { key }));
    expect(asset.status).toBe("upload_aborted");
  });

  it.each([
    [{ declared_media_type: "image/x-unknown" }, "svc.uploads.media_type_unknown"],
    [{ byte_length: 10 * 1024 * 1024 + 1 }, "svc.uploads.too_large"],
    [{ mode: "multipart", parts: [] }, "svc.uploads.parts_invalid"],
    [
      {
        mode: "multipart",
        parts: [
          { part_number: 1, byte_length: 10 },
          { part_number: 2, byte_length: 10 },
        ],
      },
      "svc.uploads.parts_invalid",
    ],
    [{ parts: [{ part_number: 1, byte_length: 10 }] }, "svc.uploads.parts_invalid"],
    [{ sha256: "xyz" }, "svc.request.invalid"],
    [{ declared_media_type: "not a type" }, "svc.request.invalid"],
    [{ mode: "chunked" }, "svc.request.invalid"],
  ])("create with %j → %s", async (overrides, code) => {
    const { key } = await createTenant();
    const { res, body } = await create(key, fixture("sample.png"), "image/png", overrides);
    expect(res.status).toBe(422);
    expect(body.code).toBe(code);
  });

  it("multipart: parts of at least 5 MiB are assembled, checked and pinned", async () => {
    const { key } = await createTenant();
    const text = new TextEncoder().encode("provenance ".repeat(520_000)); // ~5.7 MB of UTF-8 text
    const first = 5 * 1024 * 1024;
    const { res, body } = await create(key, text, "text/plain", {
      mode: "multipart",
      parts: [
        { part_number: 1, byte_length: first },
        { part_number: 2, byte_length: text.length - first },
      ],
    });
    expect(res.status).toBe(201);
    expect(body.upload).toBeNull();
    const etags = [];
    for (const part of body.parts) {
      const slice = part.part_number === 1 ? text.slice(0, first) : text.slice(first);
      const put = await callUrl(part.url, { method: "PUT", headers: part.headers, body: slice });
      expect(put.status).toBe(200);
      etags.push({ part_number: part.part_number, etag: put.headers.get("etag")! });
    }
    const done = await api(`/v1/uploads/${body.upload_id}/complete`, {
      method: "POST",
      key,
      body: { parts: etags },
      headers: { "idempotency-key": crypto.randomUUID() },
    });
    expect(done.status, await done.clone().text()).toBe(200);
    expect((await json(done)).byte_length).toBe(text.length);
  });
});

describe("upload expiry", () => {
  it("the cron sweep expires initiated uploads past their expiry and removes their bytes; completing then answers 410", async () => {
    const { sweepExpiredUploads, UPLOAD_TTL_MS } = await import("../../../src/uploads/service");
    const { database } = await import("../../../src/db/client");
    const { testEnv } = await import("../support/helpers");
    const { key } = await createTenant();
    const bytes = fixture("sample.png");
    const { body } = await create(key, bytes, "image/png");
    await callUrl(body.upload.url, { method: "PUT", headers: body.upload.headers, body: bytes });
    const { r2_key } = (await testEnv.DB.prepare("SELECT r2_key FROM uploads WHERE id = ?")
      .bind(body.upload_id)
      .first<{ r2_key: string }>())!;
    expect(await testEnv.OBJECTS.head(r2_key)).not.toBeNull();
    expect(await sweepExpiredUploads(database(testEnv.DB), testEnv.OBJECTS, Date.now())).toBe(0); // not yet
    expect(await sweepExpiredUploads(database(testEnv.DB), testEnv.OBJECTS, Date.now() + UPLOAD_TTL_MS + 1000)).toBeGreaterThanOrEqual(1);
    const res = await complete(key, body.upload_id);
    expect(res.status).toBe(410);
    expect((await json(await api(`/v1/assets/${body.asset_id}`, { key }))).status).toBe("upload_expired");
    expect(await testEnv.OBJECTS.head(r2_key)).toBeNull();
  });
});
