/**
 * Completing a large upload reads its duration on the way (billing prices audio and video by it): the streamed
 * inspection of an MP4 agrees with the in-memory inspector, a WAV's is its data over its byte rate, and a file of
 * millions of tiny boxes is refused as unsupported instead of being walked for minutes.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, expect, it } from "vitest";
import { MAXIMUM_TOP_LEVEL_BOXES } from "../../../src/media/c2pa/bmff";
import { ByteSniffingInspector } from "../../../src/media/inspect";
import { inspectStreamed } from "../../../src/uploads/large-inspection";
import { installDigestStream, largeMp4, largeWav, MiB, streamOf } from "./stream-support";

beforeAll(() => installDigestStream());

it("an MP4 above the embedded limit: the duration of its mvhd, as the in-memory inspector reads it", async () => {
  const sample = new Uint8Array(readFileSync(join(import.meta.dirname, "../../fixtures/media/sample.mp4")));
  const expected = new ByteSniffingInspector().inspect(sample, "video/mp4");
  expect(expected.status).toBe("ok");
  const duration = expected.status === "ok" ? expected.facts.duration_seconds : null;
  expect(duration).toBeGreaterThan(0);
  const big = largeMp4(12 * MiB);
  const { inspection } = await inspectStreamed(streamOf(big), big.length, "video/mp4", "video");
  expect(inspection.status).toBe("ok");
  if (inspection.status === "ok") expect(inspection.facts.duration_seconds).toBeCloseTo(duration!, 2);
});

it("a WAV above the embedded limit: data bytes over the byte rate", async () => {
  const seconds = 60;
  const wav = largeWav(48_000 * 4 * seconds);
  const { inspection } = await inspectStreamed(streamOf(wav), wav.length, "audio/wav", "audio");
  expect(inspection.status).toBe("ok");
  if (inspection.status === "ok") expect(inspection.facts.duration_seconds).toBe(seconds);
});

it("a file of more top-level boxes than any real MP4 is refused as corrupt input, quickly", async () => {
  const sample = new Uint8Array(readFileSync(join(import.meta.dirname, "../../fixtures/media/sample.mp4")));
  const boxes = MAXIMUM_TOP_LEVEL_BOXES + 1;
  const out = new Uint8Array(sample.length + boxes * 8);
  out.set(sample);
  const view = new DataView(out.buffer);
  for (let i = 0; i < boxes; i++) {
    view.setUint32(sample.length + i * 8, 8);
    out.set([0x66, 0x72, 0x65, 0x65], sample.length + i * 8 + 4); // "free"
  }
  const { inspection } = await inspectStreamed(streamOf(out), out.length, "video/mp4", "video");
  expect(inspection).toMatchObject({ status: "corrupt" });
  if (inspection.status === "corrupt") expect(inspection.message).toContain("top-level boxes");
});
