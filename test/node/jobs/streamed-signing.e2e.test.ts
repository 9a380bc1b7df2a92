/**
 * Large media through the real API (the Worker bundle in bare Miniflare, driven over HTTP): an MP4 and a WAV
 * above the 10 MiB embedded limit are uploaded, signed by streaming (sign-only recipe), downloaded, and judged
 * Trusted by the reference reader c2pa-node; capabilities publish the streamed limits; bad large input ends as
 * the contract's error codes, never a 500 or a half-written output.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { largeFlac } from "../../support/flac-media";
import { referenceVerdict } from "../../support/signer-conformance";
import { download, type SignedService, signAndWait, startSignedService, uploadAsset } from "../../support/svc-client";
import { largeMp4, largeWav } from "../media/stream-support";

const MiB = 1024 * 1024;
let svc: SignedService;

beforeAll(async () => {
  svc = await startSignedService();
}, 120_000);

afterAll(async () => {
  await svc?.dispose();
});

describe("streamed signing over the API", () => {
  it("capabilities publish the streamed limits (sign-only)", async () => {
    const caps = await svc.call("GET", "/v1/capabilities");
    expect(caps.status).toBe(200);
    expect(caps.body.limits.streamed_signing_maximum_bytes).toEqual({
      "video/mp4": 2 * 1024 * MiB,
      "video/quicktime": 2 * 1024 * MiB,
      "audio/mp4": 1024 * MiB,
      "audio/wav": 1024 * MiB,
      "audio/flac": 1024 * MiB,
    });
    const byType = (t: string) => caps.body.media.find((m: { media_type: string }) => m.media_type === t);
    expect(byType("video/mp4").upload.maximum_bytes).toBe(2 * 1024 * MiB);
    expect(byType("audio/flac").upload.maximum_bytes).toBe(1024 * MiB);
  });

  it.each([
    ["video/mp4", "large.mp4", () => largeMp4(64 * MiB), "assertion.bmffHash.mismatch"],
    ["audio/wav", "large.wav", () => largeWav(48 * MiB), "assertion.dataHash.mismatch"],
    ["audio/flac", "large.flac", () => largeFlac(24 * MiB, 9), "assertion.dataHash.mismatch"],
  ])(
    "%s above the embedded limit: signed, downloaded, Trusted by c2pa-node",
    { timeout: 240_000 },
    async (mediaType, name, make, mismatch) => {
      const input = make();
      const { assetId } = await uploadAsset(svc, input, mediaType, name);
      const job = await signAndWait(svc, assetId, "rcp_system_sign_only", 180_000);
      expect(job.state, JSON.stringify(job)).toBe("completed");
      const { bytes } = await download(svc, assetId);
      expect(bytes.length).toBeGreaterThan(input.length);
      const verdict = await referenceVerdict(svc.pki.rootCertPem, mediaType, bytes);
      expect(verdict.failure).toEqual([]);
      expect(verdict.state).toBe("Trusted");
      expect(verdict.success).toContain("timeStamp.validated");
      expect(verdict.store.manifests[verdict.activeLabel!].title).toBe(name);
      const tampered = bytes.slice();
      tampered[Math.floor(input.length / 2)]! ^= 1;
      expect((await referenceVerdict(svc.pki.rootCertPem, mediaType, tampered)).failure).toContain(mismatch);
    },
  );

  it.each([
    ["a truncated large MP4", "video/mp4", () => largeMp4(16 * MiB).subarray(0, 15 * MiB)],
    ["a truncated large WAV", "audio/wav", () => largeWav(16 * MiB).subarray(0, 15 * MiB)],
    ["large bytes that are not MP4", "video/mp4", () => largeWav(16 * MiB)],
    ["a truncated large FLAC", "audio/flac", () => largeFlac(16 * MiB, 9).subarray(0, 15 * MiB)],
  ])("%s is refused at upload completion as corrupt (422-class envelope, no 500)", { timeout: 60_000 }, async (_name, mediaType, make) => {
    const bytes = make();
    await expect(uploadAsset(svc, bytes, mediaType, "bad")).rejects.toThrow(/complete .*: 4\d\d .*svc\.media\.corrupt/);
  });
});
