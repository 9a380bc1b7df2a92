import { describe, expect, it } from "vitest";
import { presign } from "../../../src/storage/signed-urls";
import { api, createTenant, fixture, json, testEnv, uploadAsset } from "../support/helpers";

describe("DELETE /v1/history/snapshots", () => {
  it("releases a traversal: its cursor answers 422 afterwards, other traversals go on", async () => {
    const { key } = await createTenant();
    for (const name of ["sample.jpg", "sample.png", "sample.gif"])
      await uploadAsset(key, fixture(name), name.endsWith("png") ? "image/png" : name.endsWith("gif") ? "image/gif" : "image/jpeg");
    const first = await json(await api("/v1/assets?limit=1", { key }));
    const other = await json(await api("/v1/assets?limit=2", { key }));
    expect(first.total_count).toBe(3);
    expect((await api(`/v1/assets?limit=1&cursor=${first.next_cursor}`, { key })).status).toBe(200);
    const released = await api(`/v1/history/snapshots?cursor=${first.next_cursor}`, { method: "DELETE", key });
    expect(released.status).toBe(204);
    const after = await api(`/v1/assets?limit=1&cursor=${first.next_cursor}`, { key });
    expect(after.status).toBe(422);
    expect((await json(after)).code).toBe("svc.cursor.invalid");
    expect((await api(`/v1/assets?limit=2&cursor=${other.next_cursor}`, { key })).status).toBe(200);
    const malformed = await api("/v1/history/snapshots?cursor=%21%21", { method: "DELETE", key });
    expect(malformed.status).toBe(422);
  });
});

describe("presigned URLs in production (R2's S3 API)", () => {
  it("are SigV4 query-signed R2 URLs for the object key (and part number and upload id for parts)", async () => {
    const env = {
      ...testEnv,
      SVC_R2_S3_ENDPOINT: "https://accountid.r2.cloudflarestorage.com",
      SVC_R2_ACCESS_KEY_ID: "AKIDEXAMPLE",
      SVC_R2_SECRET_ACCESS_KEY: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
      SVC_R2_BUCKET: "svc-objects",
    };
    const expiresAt = Date.now() + 3600_000;
    const single = await presign(env, "http://ignored", {
      method: "PUT",
      key: "t/ten_x/o/aob_y",
      workerPath: "/unused",
      expiresAt,
      byteLength: 10,
      headers: { "Content-Type": "image/png" },
    });
    const url = new URL(single.url);
    expect(url.origin + url.pathname).toBe("https://accountid.r2.cloudflarestorage.com/svc-objects/t/ten_x/o/aob_y");
    expect(url.searchParams.get("X-Amz-Algorithm")).toBe("AWS4-HMAC-SHA256");
    expect(url.searchParams.get("X-Amz-Credential")).toMatch(/^AKIDEXAMPLE\/\d{8}\/auto\/s3\/aws4_request$/);
    expect(url.searchParams.get("X-Amz-Signature")).toMatch(/^[0-9a-f]{64}$/);
    expect(Number(url.searchParams.get("X-Amz-Expires"))).toBeGreaterThan(3500);
    expect(url.searchParams.get("X-Amz-SignedHeaders")).toContain("content-type");
    // Create-once: the signed If-None-Match keeps a still-valid upload URL from overwriting completed bytes.
    expect(single.headers["If-None-Match"]).toBe("*");
    expect(url.searchParams.get("X-Amz-SignedHeaders")).toContain("if-none-match");
    // The declared length is signed: R2 refuses a body of any other size, so the URL cannot park extra bytes.
    expect(single.headers["Content-Length"]).toBe("10");
    expect(url.searchParams.get("X-Amz-SignedHeaders")?.split(";")).toContain("content-length");
    const part = await presign(env, "http://ignored", {
      method: "PUT",
      key: "t/ten_x/o/aob_y",
      workerPath: "/unused",
      expiresAt,
      byteLength: 10,
      headers: {},
      part: { number: 2, uploadId: "abc" },
    });
    const partUrl = new URL(part.url);
    expect(partUrl.searchParams.get("partNumber")).toBe("2");
    expect(partUrl.searchParams.get("uploadId")).toBe("abc");
    expect(part.headers["Content-Length"]).toBe("10");
    expect(part.headers["If-None-Match"]).toBeUndefined();
    expect(partUrl.searchParams.get("X-Amz-SignedHeaders")?.split(";")).toContain("content-length");
  });
});
