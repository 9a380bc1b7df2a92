/**
 * A track with samples but no `mdhd` timescale (the box missing, or stating 0) is never left out of the duration
 * (#22's hostile media campaign found the gap): FFmpeg times such a track by the movie's timescale (`mvhd`), or by 1
 * when `mdhd` states 0, and plays it that long, while the duration skipped it (no timescale to read its samples by):
 * with its `mdhd` removed, a 1.2 s video whose 12 frames FFmpeg plays for 10.2 s was billed the audio track's 1.2 s on
 * both upload paths. A missing `mdhd` is malformed (ISO/IEC 14496-12 requires one per `mdia`): such a file is refused.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ByteSniffingInspector } from "../../../src/media/inspect";
import type { InspectionResult } from "../../../src/media/types";
import { inspectStreamed } from "../../../src/uploads/large-inspection";
import { boxes, withoutBox } from "../../support/media-mutations";
import { installDigestStream, streamOf } from "./stream-support";

const dir = mkdtempSync(join(tmpdir(), "bmff-untimed-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(() => installDigestStream());

let movie: Uint8Array;
beforeAll(() => {
  const out = join(dir, "a.mp4");
  execFileSync("ffmpeg", [
    ...["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=duration=1.2:size=64x48:rate=10"],
    ...["-f", "lavfi", "-i", "sine=duration=1.2:sample_rate=44100"],
    ...["-c:v", "libx264", "-pix_fmt", "yuv420p", "-g", "5", "-c:a", "aac", "-shortest", out],
  ]);
  movie = new Uint8Array(readFileSync(out));
}, 120_000); // an ffmpeg run: a hang guard, not a limit

/** ffprobe's packets: the longest stream's span (last end less first start), in seconds. */
function plays(bytes: Uint8Array): number {
  const path = join(dir, "probe.mp4");
  writeFileSync(path, bytes);
  const text = execFileSync("ffprobe", [
    "-v",
    "quiet",
    "-show_entries",
    "packet=stream_index,pts_time,duration_time",
    "-of",
    "csv=p=0",
    path,
  ]).toString();
  const spans = new Map<string, [number, number]>();
  for (const line of text.trim().split("\n")) {
    const [stream, pts, dur] = line.split(",");
    const t = Number(pts);
    if (!stream || !Number.isFinite(t)) continue;
    const end = t + (Number.isFinite(Number(dur)) ? Number(dur) : 0);
    const [a, e] = spans.get(stream) ?? [t, end];
    spans.set(stream, [Math.min(a, t), Math.max(e, end)]);
  }
  return Math.max(...[...spans.values()].map(([a, e]) => e - Math.max(0, a)));
}

/** The video track's `mdhd`: removed (every enclosing size fixed), or its timescale set to `timescale`. */
function videoMdhd(change: "removed" | number): Uint8Array {
  const list = boxes(movie);
  const mdhd = list.filter((b) => b.type === "mdhd")[0]!;
  const out = movie.slice();
  const view = new DataView(out.buffer);
  if (change !== "removed") {
    view.setUint32(mdhd.at + 8 + (out[mdhd.at + 8] === 1 ? 20 : 12), change);
    return out;
  }
  return withoutBox(movie, mdhd);
}

async function bothPaths(bytes: Uint8Array): Promise<InspectionResult[]> {
  const memory = new ByteSniffingInspector().inspect(bytes, "video/mp4");
  const { inspection } = await inspectStreamed(streamOf(bytes, 4096), bytes.length, "video/mp4", "video");
  return [memory, inspection];
}

describe("a track without a usable mdhd timescale is timed as FFmpeg times it", () => {
  it("the video track's mdhd removed: refused or billed at least the 10.2 s FFmpeg plays (by mvhd's timescale), on both paths", async () => {
    const bytes = videoMdhd("removed");
    const played = plays(bytes);
    expect(played).toBeGreaterThan(10);
    for (const result of await bothPaths(bytes)) {
      if (result.status === "ok") expect(result.facts.duration_seconds).toBeGreaterThanOrEqual(played - 0.1);
      else expect(result.status).toBe("corrupt");
    }
  });

  it("the video track's mdhd timescale set to 0 (FFmpeg reads 1): refused or billed at least what FFmpeg plays, on both paths", async () => {
    const bytes = videoMdhd(0);
    const played = plays(bytes);
    expect(played).toBeGreaterThan(1000);
    for (const result of await bothPaths(bytes)) {
      if (result.status === "ok") expect(result.facts.duration_seconds).toBeGreaterThanOrEqual(played - 1);
      else expect(result.status).toBe("corrupt");
    }
  });

  it("the unbroken movie keeps its duration", async () => {
    for (const result of await bothPaths(movie)) expect(result.status === "ok" && result.facts.duration_seconds).toBe(1.2);
  });
});
