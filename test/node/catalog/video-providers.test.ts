import { describe, expect, it } from "vitest";
import { installedProviders, VIDEO_FINGERPRINT_MEDIA_TYPES } from "../../../src/catalog/installed";
import { VIDEO_FINGERPRINT_MAX_BYTES } from "../../../src/catalog/limits";
import { VIDEO_DECODE_LIMITS } from "../../../src/media/codecs/video";
import { videoMedia } from "../../../src/media/video";

/* #20: video fingerprints are offered only where the media Worker is bound, and within what its decoder holds. */
describe("video capabilities", () => {
  const video = (config: { signing: boolean; video?: boolean }) =>
    installedProviders(config).filter((p) => ["fingerprint.vpdq", "fingerprint.tmk-pdqf"].includes(p.capability));

  it("are installed with the VIDEO binding only, for the media types the decoder reads", () => {
    expect(video({ signing: true })).toEqual([]);
    expect(video({ signing: true, video: true })).toEqual([
      { capability: "fingerprint.vpdq", media_types: VIDEO_FINGERPRINT_MEDIA_TYPES },
      { capability: "fingerprint.tmk-pdqf", media_types: VIDEO_FINGERPRINT_MEDIA_TYPES },
    ]);
  });

  it("a binding counts only when it has the RPC method", () => {
    expect(videoMedia({})).toBeNull();
    expect(videoMedia({ VIDEO: { fetch() {} } })).toBeNull();
    const bound = { fingerprint: async () => ({ status: "decode_failed" as const, message: "x" }) };
    expect(videoMedia({ VIDEO: bound })).toBe(bound);
  });

  it("admission's byte limit is within the decoder's", () => {
    expect(VIDEO_FINGERPRINT_MAX_BYTES).toBeLessThanOrEqual(VIDEO_DECODE_LIMITS.maxBytes);
  });
});
