import { describe, expect, it } from "vitest";
import { database } from "../../../src/db/client";
import * as uploadsService from "../../../src/uploads/service";
import { api, callUrl, createTenant, fixture, json, sha256HexOf, testEnv, uploadAsset } from "../support/helpers";

const { sweepExpiredUploads, UPLOAD_TTL_MS } = uploadsService;
/** How long after expiry the sweep waits for clock skew; the fallback keeps this file loadable on older code. */
const GRACE_MS: number = ((uploadsService as Record<string, unknown>).UPLOAD_URL_GRACE_MS as number) ?? 0;

async function create(key: string, bytes: Uint8Array, mediaType: string, overrides: Record<string, unknown> = {}) {
  const res = await api("/v1/uploads", {
    method: "POST",
    key,
    body: { byte_length: bytes.length, declared_media_type: mediaType, mode: "single", sha256: await sha256HexOf(bytes), ...overrides },
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return json(res);
}
const abort = (key: string, uploadId: string) =>
  api(`/v1/uploads/${uploadId}/abort`, { method: "POST", key, body: {}, headers: { "idempotency-key": crypto.randomUUID() } });
const row = (uploadId: string) =>
  testEnv.DB.prepare("SELECT * FROM uploads WHERE id = ?")
    .bind(uploadId)
    .first<{ r2_key: string; multipart_upload_id: string | null; status: string; expires_at: number }>();
const sweep = (now: number) => sweepExpiredUploads(database(testEnv.DB), testEnv.OBJECTS, now);

describe("uploads: bytes written after an upload closed", () => {
  it("#13.12 bytes written through an upload URL after abort or expiry are deleted by the sweep once the URL has expired; pinned objects are never touched", async () => {
    const { key } = await createTenant();
    const png = fixture("sample.png");

    // Aborted single upload; then a late PUT through its still-valid presigned URL creates the key again.
    const aborted = await create(key, png, "image/png");
    expect((await abort(key, aborted.upload_id)).status).toBe(200);
    const abortedRow = (await row(aborted.upload_id))!;
    expect(abortedRow.status).toBe("aborted");
    await testEnv.OBJECTS.put(abortedRow.r2_key, png);

    // An upload that expires in a sweep; a late PUT lands just before its URL expires.
    const expiring = await create(key, png, "image/png");
    const expiringRow = (await row(expiring.upload_id))!;

    // A multipart upload whose abort could not reach R2 (closed, R2 multipart upload still live with a part).
    const text = new TextEncoder().encode("late multipart bytes");
    const multipart = await create(key, text, "text/plain", { mode: "multipart", parts: [{ part_number: 1, byte_length: text.length }] });
    const put = await callUrl(multipart.parts[0].url, { method: "PUT", headers: multipart.parts[0].headers, body: text });
    expect(put.status).toBe(200);
    const partEtag = put.headers.get("etag")!;
    await testEnv.DB.prepare("UPDATE uploads SET status = 'aborted' WHERE id = ?").bind(multipart.upload_id).run();
    const multipartRow = (await row(multipart.upload_id))!;

    // A completed upload: its object row pins the key. Even if its upload row later read `failed`, its bytes stay.
    const pinned = await uploadAsset(key, png, "image/png");
    const pinnedRow = (await row(pinned.uploadId))!;
    expect(pinnedRow.status).toBe("completed");
    const forced = await create(key, png, "image/png");
    const forcedRow = (await row(forced.upload_id))!;
    await testEnv.DB.prepare("UPDATE uploads SET status = 'failed', r2_key = ? WHERE id = ?")
      .bind(pinnedRow.r2_key, forced.upload_id)
      .run();

    // While the URLs are valid, a sweep expires nothing here and deletes nothing.
    await sweep(Date.now());
    expect(await testEnv.OBJECTS.head(abortedRow.r2_key)).not.toBeNull();

    // The sweep that expires the initiated upload runs at its expiry; the late write lands after that.
    await sweep(expiringRow.expires_at + 1);
    expect((await row(expiring.upload_id))!.status).toBe("expired");
    await testEnv.OBJECTS.put(expiringRow.r2_key, png);

    // Once every URL has expired, the sweep removes the late bytes and the live multipart upload.
    const later =
      Math.max(abortedRow.expires_at, expiringRow.expires_at, multipartRow.expires_at, forcedRow.expires_at) + GRACE_MS + 60_000;
    expect(later).toBeGreaterThan(Date.now() + UPLOAD_TTL_MS);
    await sweep(later);
    expect(await testEnv.OBJECTS.head(abortedRow.r2_key)).toBeNull();
    expect(await testEnv.OBJECTS.head(expiringRow.r2_key)).toBeNull();
    const assembled = await testEnv.OBJECTS.resumeMultipartUpload(multipartRow.r2_key, multipartRow.multipart_upload_id!)
      .complete([{ partNumber: 1, etag: partEtag }])
      .then(
        () => "assembled",
        () => "aborted",
      );
    expect(assembled).toBe("aborted");
    expect(await testEnv.OBJECTS.head(multipartRow.r2_key)).toBeNull();

    // Pinned bytes are never touched: the completed upload, and the key an object row pins under a closed upload row.
    expect(await testEnv.OBJECTS.head(pinnedRow.r2_key)).not.toBeNull();
    const download = await api(`/v1/assets/${pinned.assetId}`, { key });
    expect((await json(download)).status).toBe("uploaded");

    // Each closed upload is swept exactly once: it is marked, and a later sweep leaves it alone.
    const marks = await testEnv.DB.prepare("SELECT id, swept_at FROM uploads WHERE id IN (?, ?, ?, ?)")
      .bind(aborted.upload_id, expiring.upload_id, multipart.upload_id, forced.upload_id)
      .all<{ id: string; swept_at: number | null }>();
    expect(marks.results.map((m) => m.swept_at)).toEqual([later, later, later, later]);
    await testEnv.OBJECTS.put(abortedRow.r2_key, png); // not reachable in production (the URL expired); proves "once"
    expect(await sweep(later + 60_000)).toBe(0);
    expect(await testEnv.OBJECTS.head(abortedRow.r2_key)).not.toBeNull();
  });
});
