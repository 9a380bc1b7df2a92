import { describe, expect, it } from "vitest";
import { api, createTenant, json, uploadAsset, waitForJob } from "../support/helpers";
import { SMALL_MOV_B64 } from "./video-review-fixtures";

/*
 * Review (rev-video): capabilities list the video fingerprints for video/quicktime (VIDEO_PIPELINE_MEDIA_TYPES); a
 * QuickTime movie signed with rcp_system_sign (TMK+PDQF by default) must then complete with its fingerprint.
 */
describe("review: a QuickTime movie with video fingerprints", () => {
  it("is signed by rcp_system_sign with tmk-pdqf and vpdq recorded", async () => {
    const { key } = await createTenant();
    const caps = await json(await api("/v1/capabilities", { key }));
    const vpdq = JSON.stringify(caps).includes("video/quicktime");
    expect(vpdq).toBe(true);
    const bytes = Uint8Array.from(atob(SMALL_MOV_B64), (c) => c.charCodeAt(0));
    const { assetId } = await uploadAsset(key, bytes, "video/quicktime", "clip.mov");
    const res = await api("/v1/sign", {
      method: "POST",
      key,
      body: { asset_id: assetId, recipe_id: "rcp_system_sign", fingerprint_algorithms: ["tmk-pdqf", "vpdq"] },
      headers: { "idempotency-key": crypto.randomUUID() },
    });
    const started = await json(res);
    expect(res.status, JSON.stringify(started)).toBe(202);
    const job = await waitForJob(key, started.job_id, 150_000);
    expect(job.state, JSON.stringify(job)).toBe("completed");
  }, 180_000);
});
