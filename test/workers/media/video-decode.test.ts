/**
 * The video decoder inside workerd, as the media Worker builds it (codecs/video/workerd.ts: FFmpeg's wasm imported as
 * a module, no compilation from bytes): the vPDQ/TMK sample decodes to exactly the frames Debian's `ffmpeg` makes
 * with the same options (their SHA-256, which test/node/media/video-decode.conformance.test.ts ties to a live ffmpeg
 * run), and hostile inputs come back as a status.
 */
import { describe, expect, it } from "vitest";
import type { VideoFrameSpec } from "../../../src/media/codecs/video";
import { videoDecoder } from "../../../src/media/codecs/video/workerd";
import { DOORKNOB_RGB_SHA256 } from "../../fixtures/video/digests";

const INLINED = import.meta.glob("../../fixtures/video/*.mp4", { query: "?inline", import: "default", eager: true }) as Record<
  string,
  string
>;
const fixture = (name: string) => {
  const url = Object.entries(INLINED).find(([path]) => path.endsWith(`/${name}`))?.[1];
  if (!url) throw new Error(`fixture ${name} not inlined`);
  return Uint8Array.from(atob(url.slice(url.indexOf(",") + 1)), (c) => c.charCodeAt(0));
};

const hex = (bytes: ArrayBuffer) => [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");

const SPECS: VideoFrameSpec[] = [
  { width: 128, height: 128, fps: null },
  { width: 64, height: 64, fps: 15 },
];

describe("video decoding in workerd", () => {
  it("decodes the sample into Debian ffmpeg's frames, both outputs from one decode", async () => {
    const frames: Uint8Array[][] = [[], []];
    const times: number[][] = [[], []];
    const result = await videoDecoder.decode(fixture("doorknob-hd-no-bar.mp4"), SPECS, (k, f) => {
      expect(f.index).toBe(frames[k]?.length);
      frames[k]?.push(f.rgb);
      times[k]?.push(f.timestampSeconds);
    });
    expect(result).toMatchObject({ status: "decoded", sourceWidth: 1280, sourceHeight: 720, codec: "h264", framesDelivered: [120, 62] });
    for (const [k, want] of [DOORKNOB_RGB_SHA256.every128, DOORKNOB_RGB_SHA256.fps15x64].entries()) {
      const all = new Uint8Array((frames[k] ?? []).reduce((n, f) => n + f.length, 0));
      let at = 0;
      for (const f of frames[k] ?? []) {
        all.set(f, at);
        at += f.length;
      }
      expect(hex(await crypto.subtle.digest("SHA-256", all))).toBe(want);
    }
    expect(times[0]?.slice(0, 3)).toEqual([0, expect.closeTo(1 / 30, 4), expect.closeTo(2 / 30, 4)]);
    expect(times[1]?.at(-1)).toBeCloseTo(61 / 15, 6);
  });

  it("answers hostile input with a status, never a throw", async () => {
    const sample = fixture("doorknob-hd-no-bar.mp4");
    const flipped = sample.slice();
    for (let i = 4096; i < flipped.length; i += 997) flipped[i] = (flipped[i] ?? 0) ^ 0xff;
    const garbage = new Uint8Array(64 * 1024).map((_, i) => (i * 2654435761) >>> 24);
    const cases: [string, Uint8Array, string[]][] = [
      ["empty", new Uint8Array(0), ["decode_failed"]],
      ["garbage", garbage, ["unsupported"]],
      ["truncated", sample.subarray(0, 100_000), ["decoded", "decode_failed"]],
      ["bit-flipped", flipped, ["decoded", "decode_failed"]],
    ];
    for (const [name, bytes, statuses] of cases) {
      const result = await videoDecoder.decode(bytes, SPECS, () => {});
      expect(statuses, `${name}: ${JSON.stringify(result)}`).toContain(result.status);
    }
  });
});
