import { describe, expect, it } from "vitest";
import { largeFlac } from "../../support/flac-media";
import { api, createTenant, json, uploadAsset, waitForJob } from "../support/helpers";
import { signedCopy } from "../support/verify-helpers";

/*
 * Bad large FLAC through the public API: refused with the contract's envelope (at upload completion, at admission or
 * as a failed job), never a 500 or a half-written output. A FLAC above the embedded limit is signed alone: a recipe
 * that watermarks or fingerprints it (which decodes it whole) is refused before a job exists.
 */

const MiB = 1024 * 1024;

const sign = (key: string, assetId: string, recipeId: string) =>
  api("/v1/sign", {
    method: "POST",
    key,
    body: { asset_id: assetId, recipe_id: recipeId },
    headers: { "idempotency-key": crypto.randomUUID() },
  });

describe("large FLAC refused with the error envelope", () => {
  it.each([
    ["truncated inside a frame", () => largeFlac(12 * MiB, 3).subarray(0, 11 * MiB)],
    // Whole frames (the last one's CRC-16 holds) ending at sample 700 × 4096 of STREAMINFO's total: frames 0–127
    // code their number in one byte (16394 bytes a frame), later ones in two (16395).
    ["cut on a frame boundary", () => largeFlac(12 * MiB, 3).subarray(0, 42 + 128 * 16394 + (700 - 128) * 16395)],
    [
      "with no STREAMINFO first",
      () => {
        const flac = largeFlac(12 * MiB, 3).slice();
        flac.set([0x84, 0, 0, 34], 4);
        return flac;
      },
    ],
    [
      "with a metadata block length past the end",
      () => {
        const flac = largeFlac(12 * MiB, 3).slice();
        flac.set([0x80, 0xff, 0xff, 0xff], 4);
        return flac;
      },
    ],
  ])("a FLAC %s is corrupt at upload completion (no 500)", { timeout: 60_000 }, async (_name, make) => {
    const { key } = await createTenant();
    await expect(uploadAsset(key, make(), "audio/flac", "bad")).rejects.toThrow(/complete: 4\d\d .*svc\.media\.corrupt/);
  });

  it("a FLAC that already carries a manifest is rejected as media_unsupported, with no output", { timeout: 240_000 }, async () => {
    const { key } = await createTenant();
    const { bytes } = await signedCopy(key, largeFlac(12 * MiB, 4), "audio/flac");
    const { assetId } = await uploadAsset(key, bytes, "audio/flac", "again");
    const started = await sign(key, assetId, "rcp_system_sign_only");
    expect(started.status).toBe(202);
    const job = await waitForJob(key, (await json(started)).job_id, 120_000);
    expect(job.state, JSON.stringify(job)).toBe("rejected");
    expect(job.error_code).toBe("svc.jobs.media_unsupported");
    expect(job.result).toBeNull();
    const download = await api(`/v1/assets/${assetId}/download`, { method: "POST", key });
    expect(download.status).toBeGreaterThanOrEqual(400);
    expect(download.status).toBeLessThan(500);
  });

  // rcp_system_sign (fingerprints) takes no FLAC in this test deployment; admission refuses it the same way.
  it.each(["rcp_system_watermark_then_sign"])(
    "%s (decodes the FLAC whole) is refused for a FLAC above the embedded limit, naming the sign-only recipe",
    { timeout: 60_000 },
    async (recipeId) => {
      const { key } = await createTenant();
      const { assetId } = await uploadAsset(key, largeFlac(12 * MiB, 5), "audio/flac", "large");
      const res = await sign(key, assetId, recipeId);
      const body = await json(res);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(body.code).toBe("svc.sign.option_not_applicable");
      expect(body.message).toContain("rcp_system_sign_only");
    },
  );
});
