import { describe, expect, it } from "vitest";
import { installedProviders } from "../../../src/catalog/installed";
import { api, createTenant, json, uploadAsset } from "../support/helpers";
import { SMALL_MOV_B64 } from "./video-review-fixtures";

/*
 * Review (rev-video): capabilities offered the video fingerprints for video/quicktime, yet no recipe that records
 * fingerprints takes a QuickTime movie (it is signed on the structural lane). Fixed by offering them for what a
 * fingerprinting recipe can publish (MP4); verification still reads a MOV copy's frames.
 */
describe("review: a QuickTime movie and the video fingerprints", () => {
  it("the fingerprints are offered for MP4 only, and rcp_system_sign refuses a MOV with a clear code", async () => {
    for (const capability of ["fingerprint.vpdq", "fingerprint.tmk-pdqf"]) {
      const provider = installedProviders({ signing: true, video: true }).find((p) => p.capability === capability);
      expect(provider?.media_types, capability).toEqual(["video/mp4"]);
    }
    const { key } = await createTenant();
    const bytes = Uint8Array.from(atob(SMALL_MOV_B64), (c) => c.charCodeAt(0));
    const { assetId } = await uploadAsset(key, bytes, "video/quicktime", "clip.mov");
    const res = await api("/v1/sign", {
      method: "POST",
      key,
      body: { asset_id: assetId, recipe_id: "rcp_system_sign", fingerprint_algorithms: ["tmk-pdqf"] },
      headers: { "idempotency-key": crypto.randomUUID() },
    });
    const body = await json(res);
    expect(res.status, JSON.stringify(body)).toBe(422);
    expect(body.code).toBe("svc.sign.media_type_not_supported");
  }, 60_000);
});
