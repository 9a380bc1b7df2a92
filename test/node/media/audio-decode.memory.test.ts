/**
 * The audio decoder's memory stays bounded whatever the audio's length, and what it costs: long MP3 and FLAC files
 * (the fixtures looped by FFmpeg's stream copy, not committed) decode with a peak of live memory (JS heap + external:
 * wasm linear memories and ArrayBuffers, sampled after a full GC at every 8th sink write, over the baseline before the
 * decode, the file's bytes included in it) that does not grow with the duration. CPU ms per minute of audio (a pass
 * without those GCs) and the peak are printed; AUDIO_DECODE_MINUTES=10 measures the 10-minute files (default 2).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WasmAudioDecoder } from "../../../src/media/codecs/audio";
import { nodeAudioDecoder } from "../../../src/media/codecs/audio/node";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;
const MINUTES = Number(process.env.AUDIO_DECODE_MINUTES ?? 2);
/** CPU runs per decode (their median): 3 when measuring for a report, 1 in the suite. */
const RUNS = process.env.AUDIO_DECODE_MINUTES ? 3 : 1;
const DIR = new URL("../../fixtures/audio/", import.meta.url);
let tmp: string;
let decoder: WasmAudioDecoder;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), "audio-decode-memory-"));
  decoder = await nodeAudioDecoder();
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The fixture looped to `minutes` by stream copy (no re-encoding: instant). */
function looped(name: string, minutes: number): Uint8Array {
  const out = join(tmp, `${minutes}-${name}`);
  const src = fileURLToPath(new URL(name, DIR));
  execFileSync("ffmpeg", ["-v", "error", "-y", "-stream_loop", "-1", "-i", src, "-t", String(minutes * 60), "-c", "copy", out]);
  return new Uint8Array(readFileSync(out));
}

const used = () => {
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
};

/** Live memory after a full collection (wasm memories' backing stores are released a moment after their GC). */
async function settled(): Promise<number> {
  gc();
  await new Promise((resolve) => setTimeout(resolve, 20));
  gc();
  return used();
}

/** One decode: CPU ms (the median of RUNS plain decodes), the peak of live heap + external over the baseline, frames. */
async function measure(bytes: Uint8Array, type: string) {
  const cpuMs: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const cpu = process.cpuUsage();
    const plain = await decoder.decode(bytes, type, { start() {}, write() {} });
    const { user, system } = process.cpuUsage(cpu);
    expect(plain.status).toBe("decoded");
    cpuMs.push((user + system) / 1000);
  }
  const base = await settled();
  let peak = base;
  let frames = 0;
  let writes = 0;
  const result = await decoder.decode(bytes, type, {
    start() {},
    write(chunk) {
      frames += chunk.length / 2;
      if (++writes % 8 === 1) {
        gc();
        peak = Math.max(peak, used());
      }
    },
  });
  expect(result.status).toBe("decoded");
  return { cpuMs: cpuMs.sort((a, b) => a - b)[RUNS >> 1]!, peakBytes: peak - base, frames };
}

describe("memory stays bounded with the audio's length", () => {
  for (const [name, type] of [
    ["speech-music-128k.mp3", "audio/mpeg"],
    ["speech-music.flac", "audio/flac"],
  ] as const) {
    it(`${name}: ${MINUTES} min decode peaks no higher than 30 s's (+ 4 MB), under 40 MB`, async () => {
      const short = await measure(looped(name, 0.5), type);
      const long = await measure(looped(name, MINUTES), type);
      expect(long.frames).toBeGreaterThanOrEqual(MINUTES * 60 * 44100 - 44100);
      const mb = (b: number) => (b / 2 ** 20).toFixed(1);
      console.log(
        `${name}: ${MINUTES} min: ${(long.cpuMs / MINUTES).toFixed(0)} CPU ms per minute, peak +${mb(long.peakBytes)} MB (30 s: +${mb(short.peakBytes)} MB)`,
      );
      expect(long.peakBytes).toBeLessThan(short.peakBytes + 4 * 2 ** 20);
      expect(long.peakBytes).toBeLessThan(40 * 2 ** 20);
    }, 600_000);
  }
});
