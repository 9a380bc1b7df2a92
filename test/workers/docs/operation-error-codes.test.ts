import { describe, expect, it } from "vitest";
import { api, callUrl, createTenant, fixture, json, sha256HexOf, uploadAsset } from "../support/helpers";

/**
 * The errors a developer meets first on the README's typical flow (create an upload, complete it, sign) are named
 * in the served /openapi.json under the status they come with: each case is produced against the running Worker and
 * its code looked up in that operation's documented response.
 */
type Doc = {
  paths: Record<string, Record<string, { parameters?: { name: string }[]; responses: Record<string, { description: string }> }>>;
};

const docPromise = api("/openapi.json").then((r) => json<Doc>(r));

async function expectDocumented(method: string, path: string, res: Response) {
  const body = await json<{ code: string }>(res);
  const doc = await docPromise;
  const documented = doc.paths[path]![method]!.responses[String(res.status)];
  expect(documented, `${method.toUpperCase()} ${path} documents ${res.status}`).toBeDefined();
  expect(documented!.description, `${method.toUpperCase()} ${path} ${res.status} names ${body.code}`).toContain(`\`${body.code}\``);
  return body.code;
}

const idem = () => ({ "idempotency-key": crypto.randomUUID() });

describe("the typical flow's error codes are in /openapi.json", () => {
  it("POST /v1/uploads: an unknown media type (422 svc.uploads.media_type_unknown)", async () => {
    const { key } = await createTenant();
    const res = await api("/v1/uploads", {
      method: "POST",
      key,
      body: { byte_length: 10, declared_media_type: "image/x-unknown", mode: "single", sha256: "0".repeat(64) },
    });
    expect(res.status).toBe(422);
    expect(await expectDocumented("post", "/v1/uploads", res)).toBe("svc.uploads.media_type_unknown");
  });

  it("POST /v1/uploads/{upload_id}/complete: bytes that do not hash to the declared sha256 (422)", async () => {
    const { key } = await createTenant();
    const bytes = fixture("sample.jpg");
    const created = await json(
      await api("/v1/uploads", {
        method: "POST",
        key,
        body: { byte_length: bytes.length, declared_media_type: "image/jpeg", mode: "single", sha256: "0".repeat(64) },
      }),
    );
    expect((await callUrl(created.upload.url, { method: "PUT", headers: created.upload.headers, body: bytes })).status).toBe(200);
    const res = await api(`/v1/uploads/${created.upload_id}/complete`, { method: "POST", key, body: {}, headers: idem() });
    expect(res.status).toBe(422);
    expect(await expectDocumented("post", "/v1/uploads/{upload_id}/complete", res)).toBe("svc.uploads.sha256_mismatch");
  });

  it("POST /v1/sign: unknown recipe (422), upload not completed (409), recipe outside the key's profile (403), key reused (409)", async () => {
    const { key, keyId } = await createTenant();
    const { assetId } = await uploadAsset(key, fixture("sample.jpg"), "image/jpeg");
    const sign = (body: unknown, headers = idem()) => api("/v1/sign", { method: "POST", key, body, headers });

    const unknown = await sign({ asset_id: assetId, recipe_id: "rcp_does_not_exist" });
    expect(unknown.status).toBe(422);
    expect(await expectDocumented("post", "/v1/sign", unknown)).toBe("svc.sign.recipe_unknown");

    const bytes = fixture("sample.jpg");
    const pending = await json(
      await api("/v1/uploads", {
        method: "POST",
        key,
        body: { byte_length: bytes.length, declared_media_type: "image/jpeg", mode: "single", sha256: await sha256HexOf(bytes) },
      }),
    );
    const notUploaded = await sign({ asset_id: pending.asset_id, recipe_id: "rcp_system_sign_only" });
    expect(notUploaded.status).toBe(409);
    expect(await expectDocumented("post", "/v1/sign", notUploaded)).toBe("svc.sign.asset_not_uploaded");

    const reusedKey = idem();
    expect((await sign({ asset_id: pending.asset_id, recipe_id: "rcp_system_sign_only" }, reusedKey)).status).toBe(409);
    const reused = await sign({ asset_id: pending.asset_id, recipe_id: "rcp_system_sign" }, reusedKey);
    expect(reused.status).toBe(409);
    expect(await expectDocumented("post", "/v1/sign", reused)).toBe("svc.idempotency.key_reused");

    const profile = await api(`/v1/api-keys/${keyId}/signing-profile`, {
      method: "PUT",
      key,
      body: { default_recipe_id: "rcp_system_sign_only", allowed_recipe_ids: ["rcp_system_sign_only"] },
    });
    expect(profile.status).toBe(200);
    const notAllowed = await sign({ asset_id: assetId, recipe_id: "rcp_system_watermark_then_sign" });
    expect(notAllowed.status).toBe(403);
    expect(await expectDocumented("post", "/v1/sign", notAllowed)).toBe("svc.sign.recipe_not_allowed");
  });

  it("every operation taking an Idempotency-Key says a reused key answers 409 svc.idempotency.key_reused", async () => {
    const doc = await docPromise;
    const missing = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, op]) => op.parameters?.some((p) => p.name.toLowerCase() === "idempotency-key"))
        .filter(([, op]) => !op.responses["409"]?.description.includes("`svc.idempotency.key_reused`"))
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect(missing).toEqual([]);
  });
});
