import { describe, expect, it } from "vitest";
import { createTenant, fixture, sha256HexOf, testEnv } from "../support/helpers";
import { type Answer, count, request, send, sweep, table } from "./faults-http.helpers";

/*
 * #22, faults over HTTP: the upload flow (create single and multipart, the PUT of the bytes or a part to the
 * capability URL, complete). Each D1/R2 call fails in turn, and each write lands before the isolate dies: a clean
 * answer, and the same request retried on the healthy env gives one upload with one asset, one pinned object.
 */
const BYTES = fixture("sample.jpg");
const MEDIA = "image/jpeg";

async function createBody(mode: "single" | "multipart") {
  return {
    byte_length: BYTES.length,
    declared_media_type: MEDIA,
    mode,
    sha256: await sha256HexOf(BYTES),
    filename: "photo.jpg",
    ...(mode === "multipart" ? { parts: [{ part_number: 1, byte_length: BYTES.length }] } : {}),
  };
}

/** A created upload (healthy): its ids and where its bytes go. */
async function created(mode: "single" | "multipart") {
  const tenant = await createTenant();
  const res = await send(testEnv, request("/v1/uploads", { method: "POST", key: tenant.key, body: await createBody(mode) }));
  expect(res.status, res.text).toBe(201);
  const target = mode === "single" ? res.body.upload : res.body.parts[0];
  return { ...tenant, uploadId: res.body.upload_id as string, assetId: res.body.asset_id as string, target, idem: crypto.randomUUID() };
}

const putRequest = (target: { url: string; method: string; headers: Record<string, string> }) => {
  const url = new URL(target.url);
  return request(`${url.pathname}${url.search}`, { method: target.method, headers: target.headers, body: BYTES });
};

async function uploaded(mode: "single" | "multipart") {
  const upload = await created(mode);
  const put = await send(testEnv, putRequest(upload.target));
  expect(put.status, put.text).toBe(200);
  return { ...upload, etag: put.headers.get("etag") ?? "" };
}

async function expectOneUpload(tenantId: string, status: string) {
  expect(await count("uploads", "tenant_id = ?", tenantId), "one upload").toBe(1);
  expect(await count("assets", "tenant_id = ?", tenantId), "one asset").toBe(1);
  expect(await count("uploads", "tenant_id = ? AND status = ?", tenantId, status), `the upload ${status}`).toBe(1);
}

const completed = (a: Answer) => a.status === 409 && a.body?.code === "svc.uploads.already_completed";

describe("faults over HTTP: uploads", () => {
  for (const mode of ["single", "multipart"] as const) {
    it(`POST /v1/uploads (${mode}): one upload with its asset, or none`, async () => {
      const body = await createBody(mode);
      const result = await sweep({
        name: `POST /v1/uploads ${mode}`,
        setup: async () => ({ ...(await createTenant()), idem: crypto.randomUUID() }),
        request: (s) => request("/v1/uploads", { method: "POST", key: s.key, body, headers: { "idempotency-key": s.idem } }),
        success: [201],
        check: async (s, retried) => {
          await expectOneUpload(s.tenantId, "initiated");
          // The answer the client holds names the one upload there is, and its URL takes the bytes.
          expect(retried.body.upload_id).toBe(
            (await testEnv.DB.prepare("SELECT id FROM uploads WHERE tenant_id = ?").bind(s.tenantId).first<{ id: string }>())?.id,
          );
          const target = mode === "single" ? retried.body.upload : retried.body.parts[0];
          expect((await send(testEnv, putRequest(target))).status).toBe(200);
        },
      });
      console.log(table(`POST /v1/uploads ${mode}`, result));
    });

    it(`PUT the bytes (${mode}): stored once, and the upload completes`, async () => {
      const result = await sweep({
        name: `PUT ${mode === "single" ? "/storage/uploads/{id}" : "/storage/uploads/{id}/parts/1"}`,
        setup: () => created(mode),
        request: (s) => putRequest(s.target),
        success: [200],
        check: async (s, retried) => {
          const parts = mode === "multipart" ? [{ part_number: 1, etag: retried.headers.get("etag") }] : undefined;
          const done = await send(
            testEnv,
            request(`/v1/uploads/${s.uploadId}/complete`, {
              method: "POST",
              key: s.key,
              body: parts ? { parts } : {},
              headers: { "idempotency-key": s.idem },
            }),
          );
          expect(done.status, done.text).toBe(200);
          await expectOneUpload(s.tenantId, "completed");
        },
      });
      console.log(table(`PUT bytes ${mode}`, result));
    });

    it(`POST /v1/uploads/{id}/complete (${mode}): pinned once, one object, never half-done`, async () => {
      const result = await sweep({
        name: `POST /v1/uploads/{id}/complete ${mode}`,
        setup: () => uploaded(mode),
        request: (s) =>
          request(`/v1/uploads/${s.uploadId}/complete`, {
            method: "POST",
            key: s.key,
            body: mode === "multipart" ? { parts: [{ part_number: 1, etag: s.etag }] } : {},
            headers: { "idempotency-key": s.idem },
          }),
        success: [200],
        alsoClean: (a) => completed(a),
        check: async (s, retried) => {
          expect(retried.body.status).toBe("completed");
          await expectOneUpload(s.tenantId, "completed");
          expect(await count("objects", "tenant_id = ? AND asset_id = ?", s.tenantId, s.assetId), "one pinned object").toBe(1);
          const asset = await testEnv.DB.prepare("SELECT status, source_object_id FROM assets WHERE id = ?")
            .bind(s.assetId)
            .first<{ status: string; source_object_id: string }>();
          expect(asset).toEqual({ status: "uploaded", source_object_id: retried.body.asset_object_id });
          const object = await testEnv.DB.prepare("SELECT r2_key FROM objects WHERE id = ?")
            .bind(retried.body.asset_object_id)
            .first<{ r2_key: string }>();
          expect((await testEnv.OBJECTS.head(object!.r2_key))?.size, "its bytes").toBe(BYTES.length);
        },
      });
      console.log(table(`complete ${mode}`, result));
    });
  }
});
