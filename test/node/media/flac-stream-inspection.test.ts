/**
 * Upload completion of a FLAC above the embedded limit (uploads/large-inspection.ts) reads STREAMINFO on the way and
 * reports what the in-memory inspector reports for the same file, field for field (sample rate, channels, bit depth,
 * duration, codec, manifest presence): it reported only the duration, the rest null. Both inspect any size, so the
 * same files go through both.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, expect, it } from "vitest";
import { flacTagHead } from "../../../src/media/c2pa/flac";
import { ByteSniffingInspector } from "../../../src/media/inspect";
import { inspectStreamed } from "../../../src/uploads/large-inspection";
import { largeFlac } from "../../support/flac-media";
import { installDigestStream, MiB, streamOf } from "./stream-support";

const FIXTURES = join(import.meta.dirname, "..", "..", "fixtures");
const read = (...path: string[]) => new Uint8Array(readFileSync(join(FIXTURES, ...path)));

beforeAll(() => installDigestStream());

/** A C2PA-shaped ID3v2 tag (the streaming signer's head, a store of junk) before `flac`. */
function withStoreTag(flac: Uint8Array): Uint8Array {
  const store = new Uint8Array(64).fill(7);
  const head = flacTagHead(store.length);
  const out = new Uint8Array(head.length + store.length + flac.length);
  out.set(head);
  out.set(store, head.length);
  out.set(flac, head.length + store.length);
  return out;
}

it.each([
  ["media/sample.flac", () => read("media", "sample.flac")],
  ["audio/speech-music.flac", () => read("audio", "speech-music.flac")],
  ["flac CLI, 22 kHz stereo 24-bit", () => read("audio", "flac-frames", "block200.flac")],
  ["flac CLI, 12340 Hz mono 8-bit", () => read("audio", "flac-frames", "odd-rate.flac")],
  ["ffmpeg, total samples 0 (duration unknown)", () => read("audio", "flac-frames", "unknown-total.flac")],
  ["largeFlac, 48 kHz stereo 16-bit", () => largeFlac(2 * MiB, 5)],
  ["a manifest tag before fLaC", () => withStoreTag(read("media", "sample.flac"))],
])("%s: the streamed inspection reports the in-memory inspector's facts", async (_name, make) => {
  const bytes = make();
  const expected = new ByteSniffingInspector().inspect(bytes, "audio/flac");
  expect(expected.status).toBe("ok");
  const { inspection } = await inspectStreamed(streamOf(bytes), bytes.length, "audio/flac", "audio");
  expect(inspection).toEqual(expected);
  if (inspection.status !== "ok") return;
  // Not a comparison of two nulls.
  expect(inspection.facts.sample_rate).toBeGreaterThan(0);
  expect(inspection.facts.channels).toBeGreaterThan(0);
  expect(inspection.facts.bit_depth).toBeGreaterThan(0);
});

it("the facts are STREAMINFO's fields (sample rate 20 bits, channels 3 + 1, bits 5 + 1, samples 36)", async () => {
  const bytes = read("audio", "flac-frames", "block200.flac");
  const { inspection } = await inspectStreamed(streamOf(bytes), bytes.length, "audio/flac", "audio");
  // metaflac: 22000 Hz, 2 channels, 24 bits, 13420 samples.
  expect(inspection).toMatchObject({
    status: "ok",
    facts: { container: "flac", audio_codec: "flac", sample_rate: 22000, channels: 2, bit_depth: 24, duration_seconds: 0.61 },
  });
});
