import { describe, expect, it } from "vitest";
import { api, createTenant, json, uploadAsset, waitForJob } from "../support/helpers";
import { verifyFile } from "../support/verify-helpers";
import { AUDIO_ONLY_MP4_B64, SMALL_MP4_B64, UHD_MP4_B64 } from "./video-review-fixtures";

/*
 * Review (rev-video): hostile video through signing and POST /v1/verify, with the media Worker bound (the workers
 * project runs it as an auxiliary Worker). Never a 5xx; refusals before a job exists where admission knows enough.
 */

const bytes = (b64: string) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));

async function sign(key: string, source: Uint8Array, body: Record<string, unknown>) {
  const { assetId } = await uploadAsset(key, source, "video/mp4", "clip.mp4");
  const res = await api("/v1/sign", {
    method: "POST",
    key,
    body: { asset_id: assetId, ...body },
    headers: { "idempotency-key": crypto.randomUUID() },
  });
  return { assetId, res };
}

describe("review: hostile video", () => {
  it("a 3840×2160 MP4 (over the decoder's 1920×1080 source limit) is refused at POST /v1/sign, before a job exists", async () => {
    const { key } = await createTenant();
    const { res } = await sign(key, bytes(UHD_MP4_B64), { recipe_id: "rcp_system_sign" });
    const body = await json(res);
    if (res.status === 202) {
      // What happens today: the job is admitted, uploads are kept, and it is rejected later by the fingerprint step.
      const job = await waitForJob(key, body.job_id, 120_000);
      expect.fail(`admitted (202), then job ${job.state}: ${JSON.stringify(job.error ?? job.failure ?? job)}`);
    }
    expect(res.status).toBe(422);
  }, 150_000);

  it("POST /v1/verify: a truncated MP4, a garbage body behind an MP4 header and an audio-only MP4 get a 200 with a warning, never a 5xx", async () => {
    const small = bytes(SMALL_MP4_B64);
    const truncated = small.slice(0, Math.floor(small.length * 0.6));
    const garbage = small.slice();
    for (let i = 64; i < garbage.length; i++) garbage[i] = (i * 2654435761) >>> 24;
    const cases: [string, Uint8Array][] = [
      ["truncated", truncated],
      ["garbage", garbage],
      ["audio-only", bytes(AUDIO_ONLY_MP4_B64)],
    ];
    for (const [name, file] of cases) {
      const res = await verifyFile(file, { name: `${name}.mp4` });
      const text = await res.text();
      expect(res.status, `${name}: ${text.slice(0, 400)}`).toBeLessThan(500);
      if (res.status === 200) {
        const body = JSON.parse(text);
        expect(body.matches ?? [], name).toEqual([]);
      }
    }
  }, 150_000);
});
