/**
 * Hostile review of the duration floors (h42-duration): valid files whose duration the two upload paths (in-memory
 * inspector, streamed inspection of large uploads) must report alike, and as players do. Real encoder output
 * (flac CLI, ffmpeg), compared with ffprobe where it tells.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ByteSniffingInspector } from "../../../src/media/inspect";
import type { InspectionResult } from "../../../src/media/types";
import { inspectStreamed } from "../../../src/uploads/large-inspection";
import { installDigestStream } from "./stream-support";

const dir = mkdtempSync(join(tmpdir(), "duration-review-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(() => installDigestStream());

function streamOf(bytes: Uint8Array, size = 4096): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.subarray(at, at + size));
      at += size;
    },
  });
}

async function bothPaths(bytes: Uint8Array, type: string): Promise<{ memory: InspectionResult; streamed: InspectionResult }> {
  const memory = new ByteSniffingInspector().inspect(bytes, type);
  const kind = type.startsWith("video") ? "video" : "audio";
  const { inspection: streamed } = await inspectStreamed(streamOf(bytes), bytes.length, type, kind);
  return { memory, streamed };
}

function durationOf(result: InspectionResult): number | null {
  expect(result.status, JSON.stringify(result)).toBe("ok");
  return result.status === "ok" ? result.facts.duration_seconds : null;
}

function ffprobeSeconds(b: Uint8Array, name: string): number {
  const path = join(dir, name);
  writeFileSync(path, b);
  return Number(execFileSync("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", path]).toString().trim());
}

/** A mono 44.1 kHz 16-bit WAV of `n` samples: noise, the last `syncTail` samples alternating -8 (bytes F8 FF). */
function wavWithSyncs(n: number, syncTail: number): Uint8Array {
  const wav = new Uint8Array(44 + n * 2);
  const view = new DataView(wav.buffer);
  wav.set(new TextEncoder().encode("RIFF\0\0\0\0WAVEfmt "), 0);
  view.setUint32(4, 36 + n * 2, true);
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, 44100, true);
  view.setUint32(28, 88200, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  wav.set(new TextEncoder().encode("data"), 36);
  view.setUint32(40, n * 2, true);
  let seed = 7;
  for (let i = 0; i < n; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    view.setInt16(44 + i * 2, i >= n - syncTail && i % 2 === 0 ? -8 : (seed >>> 16) - 32768, true);
  }
  return wav;
}

describe("FLAC: a valid file whose last frame holds more false syncs than the scanner keeps", () => {
  it("the streamed path accepts it and reports what the in-memory path and ffprobe report", async () => {
    // 33 frames of 4096 samples stored verbatim, the last holding 2048 byte pairs FF F8 (a frame sync): the last
    // frame's real start falls out of the 1024 candidates kept, but the chain of whole frames closes at the end.
    const n = 33 * 4096;
    writeFileSync(join(dir, "syncs.wav"), wavWithSyncs(n, 4096));
    const flags = ["-b", "4096", "-l", "0", "--disable-fixed-subframes", "--disable-constant-subframes"];
    execFileSync("flac", ["-s", "-f", ...flags, "-o", join(dir, "syncs.flac"), join(dir, "syncs.wav")]);
    const honest = new Uint8Array(readFileSync(join(dir, "syncs.flac")));
    execFileSync("flac", ["-t", "-s", join(dir, "syncs.flac")]);
    const expected = Math.round((n / 44100) * 1000) / 1000;
    expect(ffprobeSeconds(honest, "probe.flac")).toBeCloseTo(expected, 2);
    const { memory, streamed } = await bothPaths(honest, "audio/flac");
    expect(durationOf(memory)).toBe(expected);
    expect(durationOf(streamed)).toBe(expected);
  });
});
