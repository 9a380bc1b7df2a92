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
import { MAX_BOXES_PER_LEVEL } from "../../../src/media/inspect/isobmff-box";
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

/** sample.mp4 followed by `free` boxes (8 bytes each) up to `boxes` top-level boxes in all. */
function withTopLevelBoxes(sample: Uint8Array, boxes: number): Uint8Array {
  let own = 0;
  for (let at = 0; at + 8 <= sample.length; at += new DataView(sample.buffer, sample.byteOffset).getUint32(at)) own++;
  const extra = boxes - own;
  const out = new Uint8Array(sample.length + extra * 8);
  out.set(sample);
  const view = new DataView(out.buffer);
  for (let i = 0; i < extra; i++) {
    view.setUint32(sample.length + i * 8, 8);
    out.set([0x66, 0x72, 0x65, 0x65], sample.length + i * 8 + 4); // "free"
  }
  return out;
}

it("a file of more top-level boxes than any real MP4 is refused as corrupt input, quickly", async () => {
  const sample = new Uint8Array(readFileSync(join(import.meta.dirname, "../../fixtures/media/sample.mp4")));
  const out = withTopLevelBoxes(sample, MAXIMUM_TOP_LEVEL_BOXES + 1);
  const { inspection } = await inspectStreamed(streamOf(out), out.length, "video/mp4", "video");
  expect(inspection).toMatchObject({ status: "corrupt" });
  if (inspection.status === "corrupt") expect(inspection.message).toContain("top-level boxes");
});

it("the in-memory and streamed inspections refuse the same top-level box counts (one shared limit)", async () => {
  // The in-memory reader took 200,000 top-level boxes, the streamed walk 100,000: a file between the two was
  // measured in memory and refused streamed.
  const sample = new Uint8Array(readFileSync(join(import.meta.dirname, "../../fixtures/media/sample.mp4")));
  for (const [boxes, accepted] of [
    [100_001, true],
    [MAXIMUM_TOP_LEVEL_BOXES, true],
    [MAXIMUM_TOP_LEVEL_BOXES + 1, false],
  ] as const) {
    const file = withTopLevelBoxes(sample, boxes);
    const memory = new ByteSniffingInspector().inspect(file, "video/mp4");
    const { inspection: streamed } = await inspectStreamed(streamOf(file, 65_536), file.length, "video/mp4", "video");
    expect(memory.status, `${boxes} boxes in memory`).toBe(accepted ? "ok" : "corrupt");
    expect(streamed.status, `${boxes} boxes streamed`).toBe(accepted ? "ok" : "corrupt");
    if (memory.status === "ok" && streamed.status === "ok") expect(streamed.facts.duration_seconds).toBe(memory.facts.duration_seconds);
    if (memory.status === "corrupt") expect(memory.message).toContain("top-level boxes");
  }
  // The in-memory list's own bound (a 128 MB isolate): the streamed walk may not take more than it either.
  expect(MAXIMUM_TOP_LEVEL_BOXES).toBe(MAX_BOXES_PER_LEVEL);
}, 60_000);
