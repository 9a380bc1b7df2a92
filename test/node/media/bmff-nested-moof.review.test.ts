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

function fragmentedM4a(flags = "frag_keyframe+empty_moov"): Uint8Array {
  const out = join(dir, `${flags}.m4a`);
  const args = ["-f", "lavfi", "-i", "sine=duration=3:sample_rate=44100", "-c:a", "aac"];
  execFileSync("ffmpeg", ["-v", "error", "-y", ...args, "-movflags", flags, "-frag_duration", "1000000", out]);
  return new Uint8Array(readFileSync(out));
}

/** `bytes` with the box at `at` (`size` bytes, top-level or a child of the top-level box at `parent`) wrapped in a `type` box. */
function wrapped(bytes: Uint8Array, at: number, size: number, type: string, parent?: number): Uint8Array {
  const out = new Uint8Array(bytes.length + 8);
  out.set(bytes.subarray(0, at));
  out.set(bytes.subarray(at), at + 8);
  const view = new DataView(out.buffer);
  view.setUint32(at, size + 8);
  for (let i = 0; i < 4; i++) out[at + 4 + i] = type.charCodeAt(i);
  if (parent !== undefined) view.setUint32(parent, view.getUint32(parent) + 8);
  return out;
}

function refusedOrWhole(result: InspectionResult): void {
  if (result.status === "ok") expect(result.facts.duration_seconds, JSON.stringify(result)).toBeGreaterThanOrEqual(3);
  else expect(result.status, JSON.stringify(result)).toBe("corrupt");
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

  // Fragments whose offsets are relative to their moof (default_base_moof) stay valid when a box header is inserted
  // before them; FFmpeg reads a moof inside a udta, dinf, edts, tref or schi (at the top level or in moov) and plays it.
  for (const type of ["udta", "tref"]) {
    it(`the last moof wrapped in a top-level ${type}: refused on both paths (FFmpeg plays 3.02 s; billed 2.04 s)`, async () => {
      const bytes = fragmentedM4a("frag_keyframe+empty_moov+default_base_moof");
      const moof = boxes(bytes)
        .filter((b) => b.parents.length === 0 && b.type === "moof")
        .at(-1)!;
      for (const result of await bothPaths(wrapped(bytes, moof.at, moof.size, type))) refusedOrWhole(result);
    });
  }

  for (const type of ["udta", "dinf", "edts", "tref", "schi"]) {
    it(`the first moof taken into moov inside a ${type}: refused on both paths (billed 2.002 s)`, async () => {
      const bytes = fragmentedM4a("frag_keyframe+empty_moov+default_base_moof");
      const top = boxes(bytes).filter((b) => b.parents.length === 0);
      const moov = top.findIndex((b) => b.type === "moov");
      const [m, f] = [top[moov]!, top[moov + 1]!];
      const out = wrapped(bytes, f.at, f.size, type);
      new DataView(out.buffer).setUint32(m.at, m.size + f.size + 8);
      for (const result of await bothPaths(out)) refusedOrWhole(result);
    });
  }
});
