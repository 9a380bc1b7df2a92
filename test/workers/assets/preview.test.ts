import { describe, expect, it } from "vitest";
import { api, callUrl, createTenant, fixture, json, sha256HexOf, uploadAsset, waitForJob } from "../support/helpers";

async function published(key: string, name: string, type: string) {
  const { assetId } = await uploadAsset(key, fixture(name), type);
  const job = await json(
    await api("/v1/sign", {
      method: "POST",
      key,
      body: { asset_id: assetId, recipe_id: "rcp_system_sign_only" },
      headers: { "idempotency-key": crypto.randomUUID() },
    }),
  );
  expect((await waitForJob(key, job.job_id)).state).toBe("completed");
  return assetId;
}

describe("previews", () => {
  it("renders a JPEG preview of a published image, redeemable without credentials, a new capability each time", async () => {
    const { key } = await createTenant();
    const assetId = await published(key, "sample-1mp.jpg", "image/jpeg");
    const res = await api(`/v1/assets/${assetId}/preview`, { method: "POST", key });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const preview = await json(res);
    expect(preview).toMatchObject({ method: "GET", media_type: "image/jpeg", width: 512, height: 320 });
    const image = await callUrl(preview.url, { method: "GET", headers: preview.headers });
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/jpeg");
    const bytes = new Uint8Array(await image.arrayBuffer());
    expect(bytes.length).toBe(preview.byte_length);
    expect(await sha256HexOf(bytes)).toBe(preview.sha256);
    expect([bytes[0], bytes[1]]).toEqual([0xff, 0xd8]);
    const second = await json(await api(`/v1/assets/${assetId}/preview`, { method: "POST", key }));
    expect(second.url).not.toBe(preview.url);
    expect(second.sha256).toBe(preview.sha256);
  });

  it("previews PNG images too (alpha on white)", async () => {
    const { key } = await createTenant();
    const assetId = await published(key, "sample.png", "image/png");
    const preview = await json(await api(`/v1/assets/${assetId}/preview`, { method: "POST", key }));
    expect(preview).toMatchObject({ width: 64, height: 48, media_type: "image/jpeg" });
  });

  it("every unusable capability answers one identical 404", async () => {
    const { key } = await createTenant();
    const assetId = await published(key, "sample.jpg", "image/jpeg");
    const other = await published(key, "sample.png", "image/png");
    const preview = await json(await api(`/v1/assets/${assetId}/preview`, { method: "POST", key }));
    const token = preview.url.split("/").pop()!;
    const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === "A" ? "B" : "A") + s.slice(i + 1);
    const bad = [
      `/v1/assets/${assetId}/preview/${flip(token, 5)}`,
      `/v1/assets/${assetId}/preview/${flip(token, token.length - 3)}`,
      `/v1/assets/${assetId}/preview/garbage`,
      `/v1/assets/${other}/preview/${token}`,
      `/v1/assets/${assetId}/preview/${"A".repeat(1025)}`,
    ];
    const bodies = new Set<string>();
    for (const path of bad) {
      const res = await api(path);
      expect(res.status, path).toBe(404);
      const body = await json(res);
      bodies.add(JSON.stringify({ ...body, request_id: "" }));
    }
    expect(bodies.size).toBe(1);
    expect((await api(new URL(preview.url).pathname)).status).toBe(200);
  });

  it("no preview for formats the renderer does not decode, nor before publication", async () => {
    const { key } = await createTenant();
    const gif = await published(key, "sample.gif", "image/gif");
    const res = await api(`/v1/assets/${gif}/preview`, { method: "POST", key });
    expect(res.status).toBe(409);
    expect((await json(res)).code).toBe("svc.assets.preview_unavailable");
    const { assetId } = await uploadAsset(key, fixture("sample.jpg"), "image/jpeg");
    expect((await json(await api(`/v1/assets/${assetId}/preview`, { method: "POST", key }))).code).toBe("svc.assets.not_published");
  });
});
