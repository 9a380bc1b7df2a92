/**
 * A FLAC's duration is what its frames play, at the sample rate their headers state (#22's hostile media campaign
 * found the gap): every frame header names its own rate (codes 1–14; 0 defers to STREAMINFO), and decoders play each
 * frame at it. A STREAMINFO sample rate patched upward (to 655,350 Hz) over frames that state 8 kHz billed a 2 s file
 * 0.024 s, on both upload paths, while libFLAC and FFmpeg decode the frames at 8 kHz (2 s of audio).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ByteSniffingInspector } from "../../../src/media/inspect";
import type { InspectionResult } from "../../../src/media/types";
import { inspectStreamed } from "../../../src/uploads/large-inspection";
import { installDigestStream, streamOf } from "./stream-support";

const dir = mkdtempSync(join(tmpdir(), "flac-frame-rate-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(() => installDigestStream());

/** 2 s of a sine at `rate` Hz, FLAC by ffmpeg (its frame headers state the rate: 8 kHz is code 4). */
function flac(rate: number): Uint8Array {
  const out = join(dir, `${rate}.flac`);
  execFileSync("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", `sine=duration=2:sample_rate=${rate}`, "-c:a", "flac", out]);
  return new Uint8Array(readFileSync(out));
}

/** `bytes` with STREAMINFO's 20-bit sample rate (body at 8) set to `rate`. */
function withStreamInfoRate(bytes: Uint8Array, rate: number): Uint8Array {
  const b = bytes.slice();
  b[18] = rate >> 12;
  b[19] = (rate >> 4) & 0xff;
  b[20] = ((rate & 15) << 4) | (b[20]! & 15);
  return b;
}

async function durations(bytes: Uint8Array): Promise<(number | null)[]> {
  const of = (r: InspectionResult) => (r.status === "ok" ? r.facts.duration_seconds : null);
  const memory = new ByteSniffingInspector().inspect(bytes, "audio/flac");
  const { inspection } = await inspectStreamed(streamOf(bytes, 4096), bytes.length, "audio/flac", "audio");
  return [of(memory), of(inspection)];
}

describe("FLAC duration at the frames' own sample rate", () => {
  it("a STREAMINFO rate patched to 655,350 Hz over 8 kHz frames is still billed the 2 s the frames play, on both paths", async () => {
    const bytes = withStreamInfoRate(flac(8000), 655_350);
    for (const seconds of await durations(bytes)) expect(seconds).toBe(2);
  });

  it("a STREAMINFO rate patched to 48 kHz over 44.1 kHz frames: the 2 s the frames play, not 1.838", async () => {
    const bytes = withStreamInfoRate(flac(44100), 48000);
    for (const seconds of await durations(bytes)) expect(seconds).toBe(2);
  });

  it("unpatched files and a STREAMINFO rate below the frames' keep their duration (never less than STREAMINFO states)", async () => {
    for (const seconds of await durations(flac(8000))) expect(seconds).toBe(2);
    for (const seconds of await durations(flac(44100))) expect(seconds).toBe(2);
    // Frames at 44.1 kHz, STREAMINFO 22.05 kHz: the stated length (4 s) stays the floor, as before.
    for (const seconds of await durations(withStreamInfoRate(flac(44100), 22050))) expect(seconds).toBe(4);
  });
});
