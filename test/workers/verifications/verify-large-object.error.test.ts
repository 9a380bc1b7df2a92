import { env } from "cloudflare:workers";
import { expect, it } from "vitest";
import { STORED_VERIFY_MAXIMUM_BYTES } from "../../../src/catalog/limits";
import { api, createTenant, fixture, json } from "../support/helpers";
import { signedCopy } from "../support/verify-helpers";

// Verification by asset or object id reads a JPEG (any type not verified by streaming) whole: above the bound it is
// refused with 413 before any byte is read, never an isolate out of memory. The object's recorded length is raised
// here to stand in for a large file (the bytes behind it are never read, which is the point). Streamed types have
// their own, larger bound (verify-streamed.happy.test.ts).
it("an asset or object larger than stored_object_maximum_bytes answers 413 svc.request.too_large", async () => {
  const { key } = await createTenant();
  const { assetId } = await signedCopy(key, fixture("sample.jpg"), "image/jpeg");
  const asset = await json(await api(`/v1/assets/${assetId}`, { key }));
  const objectId = asset.publication.object_id;
  await (env as unknown as { DB: D1Database }).DB.prepare("UPDATE objects SET byte_length = ? WHERE id = ?")
    .bind(STORED_VERIFY_MAXIMUM_BYTES + 1, objectId)
    .run();

  const byAsset = await api("/v1/verify", { method: "POST", key, body: { asset_id: assetId } });
  expect(byAsset.status).toBe(413);
  expect((await json(byAsset)).code).toBe("svc.request.too_large");

  const byObject = await api("/v1/verifications", {
    method: "POST",
    key,
    body: { object_id: objectId },
    headers: { "idempotency-key": crypto.randomUUID() },
  });
  expect(byObject.status).toBe(413);
  expect((await json(byObject)).code).toBe("svc.request.too_large");

  const capabilities = await json(await api("/v1/capabilities", { key }));
  expect(capabilities.limits.verify.stored_object_maximum_bytes).toBe(STORED_VERIFY_MAXIMUM_BYTES);
});
