/**
 * Review of the FLAC frame-rate fix: the slowest rate was read only from the frames of the CRC-16 chain. A first frame
 * whose header does not check (CRC-8) leaves no chain at all, so the frames after it, which state 8 kHz and which
 * FFmpeg and libFLAC decode at 8 kHz, were never looked at: with STREAMINFO's rate patched to 655,350 Hz a file FFmpeg
 * plays for 1.93 s was billed 0.024 s again, on both upload paths.
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

const dir = mkdtempSync(join(tmpdir(), "flac-frame-rate-chain-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(() => installDigestStream());

function flac8k(): Uint8Array {
  const out = join(dir, "8k.flac");
  execFileSync("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=duration=2:sample_rate=8000", "-c:a", "flac", out]);
  return new Uint8Array(readFileSync(out));
}

/** Where the frames start (past the metadata blocks). */
function audioStart(b: Uint8Array): number {
  let p = 4;
  for (;;) {
    const last = b[p]! >> 7;
    p += 4 + ((b[p + 1]! << 16) | (b[p + 2]! << 8) | b[p + 3]!);
    if (last) return p;
  }
}

async function durations(bytes: Uint8Array): Promise<(number | null)[]> {
  const of = (r: InspectionResult) => (r.status === "ok" ? r.facts.duration_seconds : null);
  const memory = new ByteSniffingInspector().inspect(bytes, "audio/flac");
  const { inspection } = await inspectStreamed(streamOf(bytes, 4096), bytes.length, "audio/flac", "audio");
  return [of(memory), of(inspection)];
}

describe("FLAC frame rates outside the CRC-16 chain", () => {
  it("a first frame with a bad header CRC-8 does not hide the 8 kHz frames after it (STREAMINFO patched to 655,350 Hz)", async () => {
    const b = flac8k();
    const rate = 655_350;
    b[18] = rate >> 12;
    b[19] = (rate >> 4) & 0xff;
    b[20] = ((rate & 15) << 4) | (b[20]! & 15);
    const at = audioStart(b);
    // ffmpeg's 8 kHz frames: fixed blocking, frame number 0 in one byte, block size code 6 or 7 (1 or 2 more bytes).
    const sizeCode = b[at + 2]! >> 4;
    const crc8 = at + 5 + (sizeCode === 6 ? 1 : sizeCode === 7 ? 2 : 0);
    b[crc8] = b[crc8]! ^ 0x55;
    // FFmpeg skips the first frame and decodes the rest at 8 kHz: 15,424 samples, 1.928 s.
    for (const seconds of await durations(b)) {
      expect(seconds).not.toBeNull();
      expect(seconds!).toBeGreaterThanOrEqual(1.9);
    }
  });
});
