/**
 * Two more ways the campaign (#22) billed a fragmented movie less than FFmpeg plays it:
 * - a track whose `mdhd` is removed from an empty `moov`: its fragments carry every sample, but with no timescale to
 *   read them by they were not counted (FFmpeg times them by mvhd's timescale): 1.2 s billed, 11 s played, streamed;
 * - a `moof` sized 8 (empty): the `traf` it held is left at the top level, where FFmpeg still reads it (its box reader
 *   is not nested) and plays the fragment, while the duration read fragments only inside a `moof`: every `moof`
 *   emptied so billed only what `moov` states.
 * Both are refused on both paths: a track fragment box outside `moof`, fragments of a track with no timescale.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ByteSniffingInspector } from "../../../src/media/inspect";
import type { InspectionResult } from "../../../src/media/types";
import { inspectStreamed } from "../../../src/uploads/large-inspection";
import { boxes, withoutBox } from "../../support/media-mutations";
import { installDigestStream, streamOf } from "./stream-support";

const dir = mkdtempSync(join(tmpdir(), "bmff-fragment-escape-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(() => installDigestStream());

function ffmpeg(name: string, args: string[]): Uint8Array {
  const out = join(dir, name);
  execFileSync("ffmpeg", ["-v", "error", "-y", ...args, out]);
  return new Uint8Array(readFileSync(out));
}

/** The first `type` box removed (every enclosing size fixed). */
function removed(bytes: Uint8Array, type: string): Uint8Array {
  return withoutBox(bytes, boxes(bytes).find((b) => b.type === type)!);
}

/** Every `moof` sized 8: its children (mfhd, traf) now read as top-level boxes. */
function moofsEmptied(bytes: Uint8Array): Uint8Array {
  const out = bytes.slice();
  const view = new DataView(out.buffer);
  for (const b of boxes(bytes)) if (b.type === "moof") view.setUint32(b.at, 8);
  return out;
}

async function bothPaths(bytes: Uint8Array, declared: string, streamedAs: string): Promise<InspectionResult[]> {
  const memory = new ByteSniffingInspector().inspect(bytes, declared);
  const kind = streamedAs.startsWith("video") ? "video" : "audio";
  const { inspection } = await inspectStreamed(streamOf(bytes, 4096), bytes.length, streamedAs, kind);
  return [memory, inspection];
}

const AUDIO = ["-f", "lavfi", "-i", "sine=duration=3:sample_rate=44100", "-c:a", "aac"];
const FRAGMENTED = ["-movflags", "frag_keyframe+empty_moov", "-frag_duration", "300000"];

describe("fragments FFmpeg plays are never left out of the duration", () => {
  it("a fragmented M4A whose track's mdhd is removed: refused on both paths (was 0 or the stated figure)", async () => {
    const bytes = removed(ffmpeg("a.m4a", [...AUDIO, ...FRAGMENTED]), "mdhd");
    for (const result of await bothPaths(bytes, "audio/mp4", "audio/mp4")) expect(result.status, JSON.stringify(result)).toBe("corrupt");
  });

  it("a fragmented M4A with every moof sized 8 (its traf boxes at the top level): refused on both paths", async () => {
    const bytes = moofsEmptied(ffmpeg("b.m4a", [...AUDIO, ...FRAGMENTED]));
    for (const result of await bothPaths(bytes, "audio/mp4", "audio/mp4")) expect(result.status, JSON.stringify(result)).toBe("corrupt");
  });

  it("fragment samples with no duration anywhere (tfhd states none, trex removed): refused on both paths", async () => {
    // FFmpeg still plays such samples; counted as 0 ticks they let a 2.9 s fragmented MP4 bill 1.4 s (campaign).
    const whole = ffmpeg("d.m4a", [...AUDIO, ...FRAGMENTED]);
    const out = whole.slice();
    const view = new DataView(out.buffer);
    // tfhd's default-sample-duration flag cleared (the field's bytes stay: read as the fields after it, or ignored).
    for (const b of boxes(whole)) if (b.type === "tfhd") view.setUint32(b.at + 8, view.getUint32(b.at + 8) & ~8);
    for (const result of await bothPaths(removed(out, "trex"), "audio/mp4", "audio/mp4"))
      expect(result.status, JSON.stringify(result)).toBe("corrupt");
    // With its trex kept, the same samples take trex's default: a stated duration, measured as before.
    for (const result of await bothPaths(out, "audio/mp4", "audio/mp4")) expect(result.status, JSON.stringify(result)).toBe("ok");
  });

  it("the unbroken fragmented M4A is measured as before (its fragments' 3 s)", async () => {
    const bytes = ffmpeg("c.m4a", [...AUDIO, ...FRAGMENTED]);
    for (const result of await bothPaths(bytes, "audio/mp4", "audio/mp4"))
      expect(result.status === "ok" && result.facts.duration_seconds).toBeGreaterThanOrEqual(3);
  });
});
