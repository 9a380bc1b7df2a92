/**
 * Review of the fragment-escape guards: a `traf`/`trun` at the top level is refused, but FFmpeg's box reader is not
 * nested in either direction: a `moof` inside `moov` (the first `moof` taken into `moov` by growing `moov`'s size over
 * it; every byte stays where it was) is read and its fragment played, while the duration read fragments only in a
 * top-level `moof`. A 3 s fragmented M4A (1 s fragments) that FFmpeg plays whole (131 frames, 3.02 s) was billed
 * 2.002 s on both paths.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ByteSniffingInspector } from "../../../src/media/inspect";
import type { InspectionResult } from "../../../src/media/types";
import { inspectStreamed } from "../../../src/uploads/large-inspection";
import { boxes } from "../../support/media-mutations";
import { installDigestStream, streamOf } from "./stream-support";

const dir = mkdtempSync(join(tmpdir(), "bmff-nested-moof-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(() => installDigestStream());

function fragmentedM4a(): Uint8Array {
  const out = join(dir, "a.m4a");
  const args = ["-f", "lavfi", "-i", "sine=duration=3:sample_rate=44100", "-c:a", "aac"];
  execFileSync("ffmpeg", ["-v", "error", "-y", ...args, "-movflags", "frag_keyframe+empty_moov", "-frag_duration", "1000000", out]);
  return new Uint8Array(readFileSync(out));
}

async function bothPaths(bytes: Uint8Array): Promise<InspectionResult[]> {
  const memory = new ByteSniffingInspector().inspect(bytes, "audio/mp4");
  const { inspection } = await inspectStreamed(streamOf(bytes, 4096), bytes.length, "audio/mp4", "audio");
  return [memory, inspection];
}

describe("a fragment box nested where the duration does not read fragments", () => {
  it("the first moof taken into moov (moov's size grown over it): refused on both paths, not billed 2 of 3 s", async () => {
    const bytes = fragmentedM4a();
    const top = boxes(bytes).filter((b) => b.parents.length === 0);
    const moov = top.findIndex((b) => b.type === "moov");
    expect(top[moov + 1]!.type).toBe("moof");
    const out = bytes.slice();
    new DataView(out.buffer).setUint32(top[moov]!.at, top[moov]!.size + top[moov + 1]!.size);
    for (const result of await bothPaths(out)) {
      if (result.status === "ok") expect(result.facts.duration_seconds, JSON.stringify(result)).toBeGreaterThanOrEqual(3);
      else expect(result.status, JSON.stringify(result)).toBe("corrupt");
    }
  });
});
